package rules

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Num is a number a club may tune, with where it comes from: stored as
// [value, "book §x"] or [value, "fieldpost FP-n"].
type Num struct {
	V   float64
	Src string
}

// UnmarshalJSON reads [value, source] and refuses an untagged number.
func (n *Num) UnmarshalJSON(b []byte) error {
	var pair []json.RawMessage
	if err := json.Unmarshal(b, &pair); err != nil || len(pair) != 2 {
		return fmt.Errorf("a tunable number is [value, \"book §x\" or \"fieldpost FP-n\"], not %s", b)
	}
	if err := json.Unmarshal(pair[0], &n.V); err != nil {
		return fmt.Errorf("value of %s: %w", b, err)
	}
	if err := json.Unmarshal(pair[1], &n.Src); err != nil {
		return fmt.Errorf("source of %s: %w", b, err)
	}
	if !strings.HasPrefix(n.Src, "book §") && !strings.HasPrefix(n.Src, "fieldpost FP-") {
		return fmt.Errorf("%s: the source must be \"book §x\" or \"fieldpost FP-n\"", b)
	}
	return nil
}

// MarshalJSON writes [value, source].
func (n Num) MarshalJSON() ([]byte, error) { return json.Marshal([]any{n.V, n.Src}) }

// I is the number as a whole number.
func (n Num) I() int { return int(math.Round(n.V)) }

// Rung is one order of the ladder, rungs 1 (Double) to 8 (Rout) [11.2].
type Rung struct {
	Order     string `json:"order"`
	Move      Num    `json:"move"` // times the platoon's Move allowance
	Fire      string `json:"fire"` // none, area, aimed
	FireRange *Num   `json:"fire_range"`
	Calls     bool   `json:"calls"`
	Assault   bool   `json:"assault"`
	Defence   string `json:"defence"`    // full, half, surrender
	EnemyDice Num    `json:"enemy_dice"` // how much each enemy die against it counts
	Source    string `json:"source"`
}

// Cover is a cover class's result factors, as divisors [11.5.9].
type Cover struct {
	AimedDiv Num `json:"aimed_div"`
	AreaDiv  Num `json:"area_div"`
}

// Weapon is a row of the fire dice table (FP-1).
type Weapon struct {
	Range         Num  `json:"range"`
	Soft          Num  `json:"soft"`
	Light         Num  `json:"light"`
	Armour        Num  `json:"armour"`
	Heavy         Num  `json:"heavy"`
	Assault       *Num `json:"assault"` // fire dice in close assault, if not Soft's
	PlatoonWeapon bool `json:"platoon_weapon"`
	Indirect      bool `json:"indirect"`
	AntiAircraft  bool `json:"anti_aircraft"` // fires at aircraft at step 1 (FP-6)
}

// Mission is an air mission's table [11.4.3]: the faces (one die, or two
// as "a+b", low first) on which the strike hits friends or the enemy;
// any other roll sends it off the table.
type Mission struct {
	Dice    int      `json:"dice"`
	Friends []string `json:"friends"`
	Enemy   []string `json:"enemy"`
	Source  string   `json:"source"`
}

// FD is the weapon's fire dice against a target class.
func (w Weapon) FD(class string) float64 {
	switch class {
	case "light":
		return w.Light.V
	case "armour":
		return w.Armour.V
	case "heavy":
		return w.Heavy.V
	}
	return w.Soft.V
}

// Type is a kind of platoon.
type Type struct {
	Class    string   `json:"class"` // soft, light, armour, heavy: the target class (FP-1)
	Move     string   `json:"move"`  // its movement class (FP-8)
	Weapons  []string `json:"weapons"`
	Infantry bool     `json:"infantry"` // foot infantry: may start a close assault (A16)
	HQ       bool     `json:"hq"`
	Vehicle  bool     `json:"vehicle"`
	// Enclosed: a fully enclosed armoured vehicle, safe from tree bursts [11.5.9].
	Enclosed bool `json:"enclosed"`
	// Observer: "artillery" [11.4.2] or "air" [11.4.4], the specialists
	// of the optional rules, in play when a scenario fields one.
	Observer string `json:"observer,omitempty"`
	Source   string `json:"source"`
}

// BatteryType is a kind of artillery unit off the map.
type BatteryType struct {
	Weapon string `json:"weapon"`
	Source string `json:"source"`
}

// Movement is a movement class's allowance (FP-8).
type Movement struct {
	Move   Num  `json:"move"`
	Double bool `json:"double"`
}

// Ruleset is the tunable numbers of the game (engine/brigadier/data/bgc.json).
type Ruleset struct {
	Name           string                    `json:"name"`
	Title          string                    `json:"title"`
	Note           string                    `json:"note"`
	Count          Num                       `json:"count"`
	Experience     []string                  `json:"experience"`
	Absorb         map[string]Num            `json:"absorb"`
	RadioNeed      map[string]Num            `json:"radio_need"`
	Ladder         []Rung                    `json:"ladder"`
	BackFlees      Num                       `json:"back_flees_within"`
	PavedDouble    Num                       `json:"paved_double"`
	Cover          map[string]Cover          `json:"cover"`
	AimedStepFrom  Num                       `json:"aimed_step_from"`
	AreaStepFrom   Num                       `json:"area_step_from"`
	HitOn          Num                       `json:"hit_on"`
	Weapons        map[string]Weapon         `json:"weapons"`
	Types          map[string]Type           `json:"types"`
	Batteries      map[string]BatteryType    `json:"batteries"`
	Movement       map[string]Movement       `json:"movement"`
	Costs          map[string]map[string]Num `json:"costs"`
	Climb          Num                       `json:"climb"`
	RoadCost       Num                       `json:"road_cost"`
	Visibility     map[string]Num            `json:"visibility"`
	CallsPerTarget Num                       `json:"calls_per_target"`
	Medic          map[string]Num            `json:"medic"`
	Time           []struct {
		Upto    Num `json:"upto"`
		Minutes Num `json:"minutes"`
	} `json:"time"`
	BugoutCasualtyOn Num                `json:"bugout_casualty_on"`
	Air              map[string]Num     `json:"air"`
	Missions         map[string]Mission `json:"missions"`
	SurrenderWithin  Num                `json:"surrender_within"`
	DigInTurns       Num                `json:"dig_in_turns"`
}

// The orders' rungs [11.2].
const (
	Double = 1 + iota
	Move
	Aim
	Defend
	Shaken
	Hold
	Back
	Rout
)

// LoadRuleset reads a ruleset and checks that it is whole.
func LoadRuleset(b []byte) (*Ruleset, error) {
	var rs Ruleset
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rs); err != nil {
		return nil, fmt.Errorf("reading the ruleset: %w", err)
	}
	if len(rs.Ladder) != Rout {
		return nil, fmt.Errorf("ruleset %s: the ladder has %d rungs, want %d (11.2)", rs.Name, len(rs.Ladder), Rout)
	}
	for _, e := range rs.Experience {
		if _, ok := rs.Absorb[e]; !ok {
			return nil, fmt.Errorf("ruleset %s: no absorb for experience %s (FP-2)", rs.Name, e)
		}
		if _, ok := rs.RadioNeed[e]; !ok {
			return nil, fmt.Errorf("ruleset %s: no radio need for experience %s (FP-4)", rs.Name, e)
		}
	}
	for name, t := range rs.Types {
		if _, ok := rs.Movement[t.Move]; !ok {
			return nil, fmt.Errorf("ruleset %s: type %s moves as %q, which has no allowance (FP-8)", rs.Name, name, t.Move)
		}
		for _, w := range t.Weapons {
			if _, ok := rs.Weapons[w]; !ok {
				return nil, fmt.Errorf("ruleset %s: type %s has unknown weapon %q (FP-1)", rs.Name, name, w)
			}
		}
	}
	for _, kind := range terrainNames {
		if _, ok := rs.Costs[kind]; !ok {
			return nil, fmt.Errorf("ruleset %s: no movement costs for terrain %s (FP-8)", rs.Name, kind)
		}
	}
	for name, t := range rs.Types {
		if t.Observer != "" && t.Observer != "artillery" && t.Observer != "air" {
			return nil, fmt.Errorf("ruleset %s: type %s observes for %q: artillery or air (11.4.2, 11.4.4)", rs.Name, name, t.Observer)
		}
	}
	for name, b := range rs.Batteries {
		if _, ok := rs.Weapons[b.Weapon]; !ok {
			return nil, fmt.Errorf("ruleset %s: battery %s has unknown weapon %q (FP-1)", rs.Name, name, b.Weapon)
		}
	}
	return &rs, nil
}

// OrderName is a rung's order word.
func (rs *Ruleset) OrderName(rung int) string {
	if rung < 1 || rung > len(rs.Ladder) {
		return "?"
	}
	return rs.Ladder[rung-1].Order
}

// RungOf finds an order word's rung, 0 if none.
func (rs *Ruleset) RungOf(word string) int {
	for i, r := range rs.Ladder {
		if strings.EqualFold(r.Order, word) {
			return i + 1
		}
	}
	return 0
}

// Rung is the ladder's row for a rung.
func (rs *Ruleset) Rung(rung int) Rung { return rs.Ladder[rung-1] }

func (rs *Ruleset) vis(key string) int { return rs.Visibility[key].I() }
