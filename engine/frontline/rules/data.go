package rules

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	frontlinedata "fieldpost/data/frontline"
)

// Weapon is one row of a unit card (Inset III.1).
type Weapon struct {
	Slot     string `json:"slot"` // "P" primary or "S" secondary
	Name     string `json:"name"`
	Attack   int    `json:"attack"` // the d20 roll needed
	DI       int    `json:"di"`     // damage index
	Range    int    `json:"range"`  // hexes; 0 = the same hex
	Targets  string `json:"targets"`
	Bullet   bool   `json:"bullet,omitempty"`   // §VI.7.2: no effect on Defense 2+ vehicles without AP
	AP       int    `json:"ap,omitempty"`       // AP (Weapon, X)
	Fire     int    `json:"fire,omitempty"`     // 2 = Double Fire, 3 = Triple Fire
	OneShot  bool   `json:"one_shot,omitempty"` // bombs: spent until the aircraft lands
	Indirect bool   `json:"indirect,omitempty"` // fires missions through an observer
	Heavy    bool   `json:"heavy,omitempty"`    // >=155 mm shell or >=500 lb bomb (§VII.3-5)
	BombLb   int    `json:"bomb_lb,omitempty"`  // a bomb's weight in pounds (§VII.4: existing bridges need more than 500 lb)
	Bomb     bool   `json:"bomb,omitempty"`     // Dive Bomb applies
}

// Shots is how many d20 the weapon rolls per use.
func (w Weapon) Shots() int { return max(w.Fire, 1) }

// Allows reports whether the weapon may target a unit of that target type.
func (w Weapon) Allows(targetType byte) bool { return strings.IndexByte(w.Targets, targetType) >= 0 }

// Card is a unit card's front; the damaged side is derived (Damaged).
type Card struct {
	Code       string   `json:"code"`
	Name       string   `json:"name"`
	Country    string   `json:"country"` // GE, US, both, neutral
	Kind       string   `json:"kind"`    // infantry vehicle aircraft structure obstacle
	Cost       int      `json:"cost"`
	Move       int      `json:"move"`
	Defense    int      `json:"defense"`
	Endurance  int      `json:"endurance"`
	Breakpoint int      `json:"breakpoint"`
	Weapons    []Weapon `json:"weapons"`
	Damaged    struct {
		Move    *int `json:"move"`
		Defense *int `json:"defense"`
	} `json:"damaged"`
	Team          bool   `json:"team"`
	Gun           bool   `json:"gun"`
	DigIn         bool   `json:"dig_in"`
	Recon         bool   `json:"recon"`
	Hidden        bool   `json:"hidden"`
	Engineer      bool   `json:"engineer"`
	FireMissions  bool   `json:"fire_missions"`
	Spotting      int    `json:"spotting"`
	HitAndRun     bool   `json:"hit_and_run"`
	Smoke         bool   `json:"smoke"`
	DiveBomb      bool   `json:"dive_bomb"`
	Role          string `json:"role"`
	TOF           int    `json:"tof"`
	Requires      string `json:"requires"` // crew ability the unit needs: tank, artillery, pilot
	Crew          string `json:"crew"`     // crew ability this unit has
	Transport     int    `json:"transport"`
	TeamsOnly     bool   `json:"teams_only"`
	Tow           string `json:"tow"`
	Towed         string `json:"towed"`
	Towers        int    `json:"towers"`
	OpenTop       bool   `json:"open_top"`
	Radius        int    `json:"radius"`
	RadiusDamaged int    `json:"radius_damaged"`
	Income        int    `json:"income"`
	IncomeDamaged int    `json:"income_damaged"`
	NoSupply      bool   `json:"no_supply"`
	Obstacle      string `json:"obstacle"`
	Limit         int    `json:"limit"`
	Structure     string `json:"structure"`
	// Ship is large or small (Table V.1); Capacity the land units it
	// carries, VehicleMaxCost the dearest vehicle (0 = any); Landing ships
	// put them ashore on a coast (Glossary Landing Ship).
	Ship           string `json:"ship"`
	Capacity       int    `json:"capacity"`
	VehicleMaxCost int    `json:"vehicle_max_cost"`
	Landing        bool   `json:"landing"`
	// Sources tags the values the book prints; the rest carry the file's
	// source line (a fieldpost estimate).
	Sources map[string]string `json:"sources"`
}

// TargetType is the letter weapons name in Targets Allowed: infantry,
// vehicles (structures count as vehicles), aircraft, ships.
func (c *Card) TargetType() byte {
	switch c.Kind {
	case "infantry":
		return 'I'
	case "aircraft":
		return 'A'
	case "ship":
		return 'S'
	}
	return 'V'
}

// Land reports a unit that holds ground: infantry and vehicles.
func (c *Card) Land() bool { return c.Kind == "infantry" || c.Kind == "vehicle" }

// towSize orders the tow classes S < M < L (Glossary Tow Capacity).
func towSize(s string) int { return strings.Index("SML", s) + 1 }

// Rules are the numbers the engine plays by, read from rules.json where
// each carries its source.
type Rules struct {
	ints  map[string]int
	lists map[string][]int
	// Sources maps a rule name to where its value comes from.
	Sources map[string]string
}

// Int returns a whole-number rule value; a missing one is a data bug.
func (r *Rules) Int(name string) int {
	v, ok := r.ints[name]
	if !ok {
		panic(fmt.Sprintf("frontline: rule %q is not a number in rules.json", name))
	}
	return v
}

// Ints returns a list rule value (tables by try or band).
func (r *Rules) Ints(name string) []int {
	v, ok := r.lists[name]
	if !ok {
		panic(fmt.Sprintf("frontline: rule %q is not a list of numbers in rules.json", name))
	}
	return v
}

// EventCard is one card of the event deck.
type EventCard struct {
	N        int    `json:"n"`
	Name     string `json:"name"`
	Effect   string `json:"effect"`
	Modifier string `json:"modifier"`
	All      bool   `json:"all"`
	Duration string `json:"duration"`
	Count    int    `json:"count"`
	Kind     string `json:"kind"`
}

// Library is the loaded data: cards by code, rules, events.
type Library struct {
	Cards  map[string]*Card
	Codes  []string
	Rules  *Rules
	Events []EventCard
}

var (
	libOnce sync.Once
	lib     *Library
	libErr  error
)

// Lib returns the shipped data, read once.
func Lib() (*Library, error) {
	libOnce.Do(func() { lib, libErr = loadLibrary() })
	return lib, libErr
}

func loadLibrary() (*Library, error) {
	l := &Library{Cards: map[string]*Card{}}
	var units struct {
		Cards []*Card `json:"cards"`
	}
	if err := readJSON("units.json", &units); err != nil {
		return nil, err
	}
	for _, c := range units.Cards {
		if _, dup := l.Cards[c.Code]; dup {
			return nil, fmt.Errorf("units.json: card %s twice", c.Code)
		}
		if c.Breakpoint <= 0 || c.Breakpoint >= c.Endurance {
			return nil, fmt.Errorf("units.json: card %s: breakpoint %d must be between 0 and endurance %d", c.Code, c.Breakpoint, c.Endurance)
		}
		l.Cards[c.Code] = c
		l.Codes = append(l.Codes, c.Code)
	}
	sort.Strings(l.Codes)
	var raw map[string]struct {
		Value  json.RawMessage `json:"value"`
		Source string          `json:"source"`
	}
	if err := readJSON("rules.json", &raw); err != nil {
		return nil, err
	}
	l.Rules = &Rules{ints: map[string]int{}, lists: map[string][]int{}, Sources: map[string]string{}}
	for k, v := range raw {
		if v.Source == "" {
			return nil, fmt.Errorf("rules.json: %s has no source", k)
		}
		var n int
		var list []int
		switch {
		case json.Unmarshal(v.Value, &n) == nil:
			l.Rules.ints[k] = n
		case json.Unmarshal(v.Value, &list) == nil:
			l.Rules.lists[k] = list
		default:
			return nil, fmt.Errorf("rules.json: %s is neither a number nor a list of numbers", k)
		}
		l.Rules.Sources[k] = v.Source
	}
	var ev struct {
		Events []EventCard `json:"events"`
	}
	if err := readJSON("events.json", &ev); err != nil {
		return nil, err
	}
	l.Events = ev.Events
	return l, nil
}

func readJSON(name string, v any) error {
	b, err := frontlinedata.Files.ReadFile(name)
	if err != nil {
		return fmt.Errorf("frontline data %s: %w", name, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("frontline data %s: %w", name, err)
	}
	return nil
}

// roundHalfUp rounds a non-negative value to the nearest whole, halves up
// (Inset V.4: 6.5 -> 7).
func roundHalfUp(x float64) int { return int(math.Floor(x + 0.5)) }
