package rules

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"fieldpost/engine/frontline/data"
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

// Rules are the numbers the engine plays by, decoded from rules.json, where
// each carries its source: every rule of the file is a field here and every
// field a rule of the file, or the file does not load.
type Rules struct {
	StartTreasury             int   `json:"start_treasury"`
	HandLimit                 int   `json:"hand_limit"`
	EventRollMax              int   `json:"event_roll_max"`
	ProductionEvery           int   `json:"production_every"`
	SupplyPercent             int   `json:"supply_percent"`
	PortSupplyCut             int   `json:"port_supply_cut"`
	PortSupplyCutDamaged      int   `json:"port_supply_cut_damaged"`
	DeficitIdleFactor         int   `json:"deficit_idle_factor"`
	ExperienceRollCost        int   `json:"experience_roll_cost"`
	ExperienceRollsMax        int   `json:"experience_rolls_max"`
	MaxStars                  int   `json:"max_stars"`
	AttackInitiative          int   `json:"attack_initiative"`
	ReconInitiative           int   `json:"recon_initiative"`
	CityInitiative            int   `json:"city_initiative"`
	CityDefense               int   `json:"city_defense"`
	OutsideCommandInitiative  int   `json:"outside_command_initiative"`
	HitAndRunInitiative       int   `json:"hit_and_run_initiative"`
	EncircleInitiative        int   `json:"encircle_initiative"`
	DigInRoll                 int   `json:"dig_in_roll"`
	DigInDefense              int   `json:"dig_in_defense"`
	ReconRoll                 int   `json:"recon_roll"`
	ReconHiddenRoll           int   `json:"recon_hidden_roll"`
	ReconEngineerBonus        int   `json:"recon_engineer_bonus"`
	RiverInfantry             int   `json:"river_infantry"`
	RiverInfantryEngineer     int   `json:"river_infantry_engineer"`
	RiverVehicle              int   `json:"river_vehicle"`
	SwampInfantry             int   `json:"swamp_infantry"`
	MountainVehicle           int   `json:"mountain_vehicle"`
	MaxRounds                 int   `json:"max_rounds"`
	DestroyBonus              int   `json:"destroy_bonus"`
	DestroyBonusMax           int   `json:"destroy_bonus_max"`
	FFEBonus                  int   `json:"ffe_bonus"`
	InterdictBonus            int   `json:"interdict_bonus"`
	InterdictDamageRoll       int   `json:"interdict_damage_roll"`
	BlindBonus                int   `json:"blind_bonus"`
	SmokeRounds               int   `json:"smoke_rounds"`
	SmokeAttackPenalty        int   `json:"smoke_attack_penalty"`
	VehicleSmokeRounds        int   `json:"vehicle_smoke_rounds"`
	VehicleSmokeAttackPenalty int   `json:"vehicle_smoke_attack_penalty"`
	SmokeWithdrawBonus        int   `json:"smoke_withdraw_bonus"`
	PinDamageRoll             int   `json:"pin_damage_roll"`
	AircraftExitRounds        int   `json:"aircraft_exit_rounds"`
	RidersMinCost             int   `json:"riders_min_cost"`
	DiveBombBonus             int   `json:"dive_bomb_bonus"`
	DiveRetaliationBonus      int   `json:"dive_retaliation_bonus"`
	CarrierLoss               []int `json:"carrier_loss"`
	CrewSurvival              []int `json:"crew_survival"`
	BridgeBombOverLb          int   `json:"bridge_bomb_over_lb"`
	DetonateExistingBridge    []int `json:"detonate_existing_bridge"`
	ClearVehicleObstacle      []int `json:"clear_vehicle_obstacle"`
	ClearInfantryObstacle     []int `json:"clear_infantry_obstacle"`
	EmplacementCapacity       int   `json:"emplacement_capacity"`
	DetonatePort              []int `json:"detonate_port"`
	DetonateAirfield          []int `json:"detonate_airfield"`
	DetonateEngineeredBridge  []int `json:"detonate_engineered_bridge"`
	ClearEmplacement          []int `json:"clear_emplacement"`
	PushInterval              int   `json:"push_interval"`
	PushHexes                 int   `json:"push_hexes"`
	PushAirHexes              int   `json:"push_air_hexes"`
	ConvertCostPercent        int   `json:"convert_cost_percent"`
	CPKeyCityPercent          int   `json:"cp_key_city_percent"`
	CPRelocateTurns           int   `json:"cp_relocate_turns"`
	ShipDelay                 []int `json:"ship_delay"`
	ConvertTurns              int   `json:"convert_turns"`
	TowMovementLoss           int   `json:"tow_movement_loss"`
	CardsPerDecision          int   `json:"cards_per_decision"`
	EventCopies               int   `json:"event_copies"`
	KeyCityUnits              int   `json:"key_city_units"`
	RepairCostPercent         int   `json:"repair_cost_percent"`
	ScoreKeyCity              int   `json:"score_key_city"`
	ScoreRuinedCity           int   `json:"score_ruined_city"`
	ScorePrimaryObjective     int   `json:"score_primary_objective"`
	ScoreSecondaryObjective   int   `json:"score_secondary_objective"`
	ScoreStar                 int   `json:"score_star"`
	CaptureScoreFactor        int   `json:"capture_score_factor"`
	ScoreCommand              int   `json:"score_command"`
	ScoreCommandPost          int   `json:"score_command_post"`
	DamagedAttackPenalty      int   `json:"damaged_attack_penalty"`
	DamagedDefenseLossFrom    int   `json:"damaged_defense_loss_from"`
	PartisanReconRoll         int   `json:"partisan_recon_roll"`
	MomentumGroup             int   `json:"momentum_group"`
	MomentumMax               int   `json:"momentum_max"`

	// Sources maps a rule's name in rules.json to where its value comes
	// from.
	Sources map[string]string `json:"-"`
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
	text, err := data.Files.ReadFile("rules.json")
	if err != nil {
		return nil, fmt.Errorf("frontline data rules.json: %w", err)
	}
	if l.Rules, err = decodeRules("rules.json", text); err != nil {
		return nil, err
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

// decodeRules reads the rule numbers of file: an object of rules, each a
// value and its source. A rule the file lacks, one it has that Rules does
// not know, or a value of the wrong kind is an error naming the rule.
func decodeRules(file string, text []byte) (*Rules, error) {
	var raw map[string]struct {
		Value  json.RawMessage `json:"value"`
		Source string          `json:"source"`
	}
	if err := json.Unmarshal(text, &raw); err != nil {
		return nil, fmt.Errorf("frontline data %s: %w", file, err)
	}
	r := &Rules{Sources: map[string]string{}}
	fields := reflect.ValueOf(r).Elem()
	byName := map[string]reflect.Value{}
	for i := range fields.NumField() {
		if name := strings.Split(fields.Type().Field(i).Tag.Get("json"), ",")[0]; name != "-" {
			byName[name] = fields.Field(i)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		v := raw[name]
		field, ok := byName[name]
		switch {
		case !ok:
			return nil, fmt.Errorf("frontline data %s: unknown rule %q", file, name)
		case v.Source == "":
			return nil, fmt.Errorf("frontline data %s: rule %q has no source", file, name)
		}
		if err := json.Unmarshal(v.Value, field.Addr().Interface()); err != nil {
			return nil, fmt.Errorf("frontline data %s: rule %q: want %s: %w", file, name, field.Type(), err)
		}
		r.Sources[name] = v.Source
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		if _, ok := raw[name]; !ok {
			return nil, fmt.Errorf("frontline data %s: rule %q is missing", file, name)
		}
	}
	return r, nil
}

func readJSON(name string, v any) error {
	b, err := data.Files.ReadFile(name)
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
