package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Ruleset is everything in which Two Star General and its variants differ.
// It is data (engine/stargeneral/data/rulesets/*.json): the engine never asks which game it plays,
// only what a setting says.
type Ruleset struct {
	Name string `json:"name"`
	// Sources says where each setting comes from: the book's section, or
	// Fieldpost's own ruling or estimate where the book is silent or unclear.
	Sources map[string]string `json:"sources"`
	// Sections is the book's number for each part of the rules the engine
	// cites (see Sec).
	Sections map[string]string `json:"sections"`
	// BookSections are all the section numbers the book has (and its named
	// parts, such as an example): what a citation may name.
	BookSections []string `json:"book_sections"`
	Title        string   `json:"title"`
	UnitWord     string   `json:"unit_word"`  // "battalion" or "regiment"
	StandWord    string   `json:"stand_word"` // "company" or "battalion"

	CommandRange     int `json:"command_range"`       // 1.1: stands within this many hexes of the HQ are in command
	RoundsPerDay     int `json:"rounds_per_day"`      // 1.5/8: day rounds before the night round
	MaxLossPerCombat int `json:"max_loss_per_combat"` // 4: SP lost in one combat, per side or per hex (MaxLossPer)
	// MaxLossPer is what the loss cap counts: "side" (2SG Example 1: "the
	// maximum loss for either side is 2") or "hex" (3SG 4: "the maximum
	// physical losses a Hex can take is 2 SP").
	MaxLossPer        string `json:"max_loss_per"`
	MaxAttackStands   int    `json:"max_attack_stands"`  // 3.4: core stands an M unit attacks with
	HoldAttackStands  int    `json:"hold_attack_stands"` // 3.4: core stands an H unit attacks with
	DistantFireRange  int    `json:"distant_fire_range"` // 3.3
	LongRange         int    `json:"long_range"`         // 3.3: range at which the long-range penalty applies; 0: none
	LightArtilleryMax int    `json:"light_artillery_range"`
	// LightArtilleryPath caps the path light artillery fires along: from
	// the platoon to the core stand it supports, then on to what that stand
	// fights (3SG 3.5.2: "the total range does not exceed 3 Hexes"); 0: no cap.
	LightArtilleryPath  int `json:"light_artillery_path_range"`
	FieldArtilleryRange int `json:"field_artillery_range"` // 5: default battery range
	ShotsPerRound       int `json:"shots_per_round"`       // 5: default battery shots
	MaxBatteries        int `json:"max_batteries_per_combat"`
	SpottingOpen        int `json:"spotting_open"`  // 5.2
	SpottingCover       int `json:"spotting_cover"` // 5.2: into cover or at a D stand

	AirDicePerPoint     int    `json:"air_dice_per_point"`
	MaxAirPerCombat     int    `json:"max_air_per_combat"` // 0: no limit
	AirInArtilleryPhase bool   `json:"air_in_artillery_phase"`
	AARange             int    `json:"aa_range"`
	AADice              int    `json:"aa_dice"`
	AAHit               string `json:"aa_hit"`

	// Initiators are the stand roles that may start a combat (3.4).
	Initiators []string `json:"initiators"`
	// TankOpenBonus: when the +1D6 for a tank against soft targets in the open applies (3.7.1).
	TankOpenBonus struct {
		Distant  bool     `json:"distant"`
		Close    bool     `json:"close"`
		VsStatus []string `json:"vs_status"` // target statuses it applies against
	} `json:"tank_open_bonus"`
	EliteCloseBonus int `json:"elite_close_bonus"` // 3.7.1; 0 where the variant has none
	// ArtilleryArmourClose: an artillery core stand loses 1D6 against armour in
	// close combat too, not only when distant firing (3SG 3.7.1 against 2SG 3.7.2).
	ArtilleryArmourClose bool `json:"artillery_armour_close"`
	// DefenceAirPoints is how many air points a defender calls by itself in one
	// combat (3.5.2, 7): orders cannot say, so the engine spends this many.
	DefenceAirPoints int `json:"defence_air_points"`
	// SupportSwap is when support platoons may change stands: "after_move" (2SG 2.3)
	// or "before_move" (3SG 2.4).
	SupportSwap string `json:"support_swap"`
	// SupportSwapStatuses are the orders on which a unit may swap support
	// platoons (2SG 2.3, 3SG 2.4 name M, H and D; Retreat just moves back).
	SupportSwapStatuses []Status `json:"support_swap_statuses"`
	// ShuffleFinishInCommand: an H or D unit's shuffled core stand must also
	// finish in command range (2SG 2.2), not only start in it (3SG 2.1).
	ShuffleFinishInCommand bool `json:"shuffle_finish_in_command"`
	// HoldAtCost is where a beaten D stand may pay 1 SP to stay: "cover" (2SG 4.1:
	// defensive terrain) or "anywhere" (3SG 4.1).
	HoldAtCost string `json:"hold_at_cost"`
	// HQLostNoOwnSupport: while its HQ is lost, a unit's stands use none of
	// its support platoons, not even the one in their own hex (3SG 6: "or use
	// its own support stands"), where 2SG 6 bars only those outside the hex.
	HQLostNoOwnSupport bool `json:"hq_lost_no_own_support"`
	// RetreatStartZOCLoss is the SP a retreating stand loses for starting in an enemy ZOC (2SG 2.6).
	RetreatStartZOCLoss int  `json:"retreat_start_zoc_loss"`
	Trucks              bool `json:"trucks"` // whether truck stands exist (2SG 2.1)
	NightSP             int  `json:"night_sp_per_unit"`
	NightSupport        int  `json:"night_support_per_unit"`
	// NightPlatoonsOwnUnit: a recovered support platoon goes back only to the
	// unit it was lost from (2SG 9.1); otherwise to any unit, as the commander
	// says (3SG 8).
	NightPlatoonsOwnUnit bool `json:"night_platoons_own_unit"`
	// NightReshuffleInCommand: only stands in command reshuffle overnight
	// (2SG 9.2); otherwise any stand of the unit, among the hexes it held (3SG 8).
	NightReshuffleInCommand bool `json:"night_reshuffle_in_command"`
	// AttackHits is the chart by attacker and target status, including the row the
	// book leaves out (an H unit attacking an H or D stand).
	AttackHits map[Status]map[Status]string `json:"attack_hits"` // attacker status -> target status -> hit rule
	DefendHits map[Status]string            `json:"defend_hits"` // defender's own status -> hit rule

	Movement   map[string]MoveAllowance `json:"movement"`
	StandTypes map[string]StandType     `json:"stand_types"`
	Terrain    []TerrainType            `json:"terrain"`

	attackRules map[Status]map[Status]HitRule
	defendRules map[Status]HitRule
	aaRule      HitRule
	terrainByID map[string]*TerrainType
	terrainByCh map[byte]*TerrainType
}

// MoveAllowance is a movement class's hexes per round (2).
type MoveAllowance struct {
	Normal    int `json:"normal"`
	Strategic int `json:"strategic"`
}

// Stand roles: what a stand type is for the rules.
const (
	RoleHQ             = "hq"
	RoleInfantry       = "infantry"
	RoleTank           = "tank"
	RoleArtillery      = "artillery"
	RoleAT             = "at"
	RoleLightArtillery = "light_artillery"
	RoleMG             = "mg"
	RoleEngineers      = "engineers"
	RoleAA             = "aa"
	RoleTankPlatoon    = "tank_platoon"
	RoleTruck          = "truck"
)

// Stand classes (1.1, 1.3).
const (
	ClassCore      = "core"
	ClassSupport   = "support"
	ClassTransport = "transport"
)

// StandType is a row of the unit table (3.1).
type StandType struct {
	Class    string `json:"class"` // core, support, transport
	Role     string `json:"role"`
	Title    string `json:"title"`
	SP       int    `json:"sp"`
	FS       int    `json:"fs"`
	FSVsSoft int    `json:"fs_vs_soft,omitempty"` // AT platoons: dice against unarmoured targets
	Move     string `json:"move"`                 // movement class
	Armoured bool   `json:"armoured,omitempty"`
	// GivesArmour: a platoon that makes the infantry it carries armoured infantry (2.1).
	GivesArmour bool `json:"gives_armour,omitempty"`
	// Exclusive: nothing else may share the hex with this platoon and its core stand (2.1).
	Exclusive bool `json:"exclusive,omitempty"`
	// GivesMove: a transport's movement class, given to the core stand it carries.
	GivesMove        string `json:"gives_move,omitempty"`
	CloseOnly        bool   `json:"close_only,omitempty"`         // fights only in close combat
	CloseDefenceOnly bool   `json:"close_defence_only,omitempty"` // fights only defending in close combat
	Range            int    `json:"range,omitempty"`              // artillery: hexes it fires
}

// TerrainType is a row of the terrain chart (2.5, 3.7, 13).
type TerrainType struct {
	ID     string `json:"id"`
	Letter string `json:"letter"` // the character used in scenario map grids
	Title  string `json:"title"`
	// Normal and Strategic say what entering the hex does to a move:
	// "" (nothing), "halt_on_enter", "halt_before" (cannot be entered by that move),
	// "halt_before_and_on_enter" (must start the move adjacent, then halts),
	// "impassable".
	Normal     string `json:"normal"`
	Strategic  string `json:"strategic"`
	Cover      bool   `json:"cover,omitempty"`      // 3.7.2
	Open       bool   `json:"open,omitempty"`       // "in the open" for the tank bonus (3.7.1): every terrain that is not cover
	River      bool   `json:"river,omitempty"`      // 3.7.3: -1D6 for a core stand in it; fights as M (2.5)
	BlocksLOS  bool   `json:"blocks_los,omitempty"` // 3.3, 5.2
	Impassable bool   `json:"impassable,omitempty"` // lake/sea
}

// Move effects of terrain.
const (
	MoveHaltOnEnter          = "halt_on_enter"
	MoveHaltBefore           = "halt_before"
	MoveHaltBeforeAndOnEnter = "halt_before_and_on_enter"
	MoveImpassable           = "impassable"
)

// Support swap timings.
const (
	SwapAfterMove  = "after_move"
	SwapBeforeMove = "before_move"
)

// What the loss cap counts.
const (
	LossCapPerSide = "side"
	LossCapPerHex  = "hex"
)

// Hold-at-cost places.
const (
	HoldAtCostCover    = "cover"
	HoldAtCostAnywhere = "anywhere"
)

// ParseRuleset reads a ruleset from its JSON form and checks it is complete.
func ParseRuleset(data []byte) (*Ruleset, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var rs Ruleset
	if err := dec.Decode(&rs); err != nil {
		return nil, fmt.Errorf("ruleset: %w", err)
	}
	if err := rs.prepare(); err != nil {
		return nil, fmt.Errorf("ruleset %q: %w", rs.Name, err)
	}
	return &rs, nil
}

func (rs *Ruleset) prepare() error {
	if rs.Name == "" {
		return fmt.Errorf("no name")
	}
	for _, v := range []struct {
		name string
		val  int
	}{
		{"command_range", rs.CommandRange}, {"rounds_per_day", rs.RoundsPerDay},
		{"max_loss_per_combat", rs.MaxLossPerCombat}, {"max_attack_stands", rs.MaxAttackStands},
		{"hold_attack_stands", rs.HoldAttackStands}, {"distant_fire_range", rs.DistantFireRange},
		{"light_artillery_range", rs.LightArtilleryMax}, {"field_artillery_range", rs.FieldArtilleryRange},
		{"shots_per_round", rs.ShotsPerRound}, {"max_batteries_per_combat", rs.MaxBatteries},
		{"spotting_open", rs.SpottingOpen}, {"spotting_cover", rs.SpottingCover},
		{"air_dice_per_point", rs.AirDicePerPoint}, {"aa_dice", rs.AADice},
	} {
		if v.val <= 0 {
			return fmt.Errorf("%s must be a positive number", v.name)
		}
	}
	switch rs.SupportSwap {
	case SwapAfterMove, SwapBeforeMove:
	default:
		return fmt.Errorf("support_swap %q: want %q or %q", rs.SupportSwap, SwapAfterMove, SwapBeforeMove)
	}
	switch rs.MaxLossPer {
	case LossCapPerSide, LossCapPerHex:
	default:
		return fmt.Errorf("max_loss_per %q: want %q or %q", rs.MaxLossPer, LossCapPerSide, LossCapPerHex)
	}
	for _, st := range rs.SupportSwapStatuses {
		if !slices.Contains(AllStatuses, st) {
			return fmt.Errorf("support_swap_statuses: unknown status %q", st)
		}
	}
	switch rs.HoldAtCost {
	case HoldAtCostCover, HoldAtCostAnywhere:
	default:
		return fmt.Errorf("hold_at_cost %q: want %q or %q", rs.HoldAtCost, HoldAtCostCover, HoldAtCostAnywhere)
	}
	var err error
	if rs.aaRule, err = ParseHitRule(rs.AAHit); err != nil {
		return fmt.Errorf("aa_hit: %w", err)
	}
	rs.attackRules = map[Status]map[Status]HitRule{}
	for _, a := range []Status{Move, Hold} {
		row, ok := rs.AttackHits[a]
		if !ok {
			return fmt.Errorf("attack_hits has no row for attacker status %s", a)
		}
		rs.attackRules[a] = map[Status]HitRule{}
		for _, t := range AllStatuses {
			s, ok := row[t]
			if !ok {
				return fmt.Errorf("attack_hits[%s] has no entry for target status %s", a, t)
			}
			if rs.attackRules[a][t], err = ParseHitRule(s); err != nil {
				return fmt.Errorf("attack_hits[%s][%s]: %w", a, t, err)
			}
		}
	}
	rs.defendRules = map[Status]HitRule{}
	for _, d := range []Status{Move, Hold, DigIn} {
		s, ok := rs.DefendHits[d]
		if !ok {
			return fmt.Errorf("defend_hits has no entry for status %s", d)
		}
		if rs.defendRules[d], err = ParseHitRule(s); err != nil {
			return fmt.Errorf("defend_hits[%s]: %w", d, err)
		}
	}
	for _, name := range sortedKeys(rs.Movement) {
		if mv := rs.Movement[name]; mv.Normal <= 0 || mv.Strategic < mv.Normal {
			return fmt.Errorf("movement %q: normal must be positive and strategic at least normal", name)
		}
	}
	for _, name := range sortedKeys(rs.StandTypes) {
		st := rs.StandTypes[name]
		switch st.Class {
		case ClassCore, ClassSupport, ClassTransport:
		default:
			return fmt.Errorf("stand type %q: class %q: want core, support or transport", name, st.Class)
		}
		if _, ok := rs.Movement[st.Move]; !ok && st.Class != ClassSupport {
			return fmt.Errorf("stand type %q: unknown movement class %q", name, st.Move)
		}
		if st.GivesMove != "" {
			if _, ok := rs.Movement[st.GivesMove]; !ok {
				return fmt.Errorf("stand type %q: unknown gives_move class %q", name, st.GivesMove)
			}
		}
		if st.Class == ClassCore && st.SP <= 0 {
			return fmt.Errorf("stand type %q: a core stand needs strength points", name)
		}
	}
	rs.terrainByID = map[string]*TerrainType{}
	rs.terrainByCh = map[byte]*TerrainType{}
	for i := range rs.Terrain {
		t := &rs.Terrain[i]
		if len(t.Letter) != 1 {
			return fmt.Errorf("terrain %q: letter must be one character", t.ID)
		}
		for _, eff := range []string{t.Normal, t.Strategic} {
			switch eff {
			case "", MoveHaltOnEnter, MoveHaltBefore, MoveHaltBeforeAndOnEnter, MoveImpassable:
			default:
				return fmt.Errorf("terrain %q: unknown move effect %q", t.ID, eff)
			}
		}
		if _, dup := rs.terrainByID[t.ID]; dup {
			return fmt.Errorf("terrain %q listed twice", t.ID)
		}
		if _, dup := rs.terrainByCh[t.Letter[0]]; dup {
			return fmt.Errorf("terrain letter %q used twice", t.Letter)
		}
		if t.Open && t.Cover {
			return fmt.Errorf("terrain %q: cover is never open ground", t.ID)
		}
		rs.terrainByID[t.ID] = t
		rs.terrainByCh[t.Letter[0]] = t
	}
	if _, ok := rs.terrainByID["open"]; !ok {
		return fmt.Errorf("no terrain with id \"open\"")
	}
	if err := rs.checkSections(); err != nil {
		return err
	}
	return rs.checkSources()
}

// Attacking returns the hit rule of an attacker in status a against a target in status t (3.2).
func (rs *Ruleset) Attacking(a, t Status) HitRule { return rs.attackRules[a][t] }

// Defending returns the hit rule of a defender firing back in its own status (3.2).
func (rs *Ruleset) Defending(d Status) HitRule { return rs.defendRules[d] }

// TerrainByID returns the terrain type with the given id, or nil.
func (rs *Ruleset) TerrainByID(id string) *TerrainType { return rs.terrainByID[id] }

// TerrainByLetter returns the terrain type drawn with the given letter, or nil.
func (rs *Ruleset) TerrainByLetter(ch byte) *TerrainType { return rs.terrainByCh[ch] }

// CanInitiate reports whether a stand of the given role may start a combat (3.4).
func (rs *Ruleset) CanInitiate(role string) bool {
	for _, r := range rs.Initiators {
		if r == role {
			return true
		}
	}
	return false
}

// HitRule is one entry of the combat status chart: a die scores a hit when it
// shows Min or more; in addition every pair of dice showing Double scores one
// hit (3.2, "double N").
type HitRule struct {
	Min    int `json:"min"`
	Double int `json:"double,omitempty"`
}

// ParseHitRule reads the chart's wording: "6", "5,6", "6 or double 5", "5,6 or double 4".
func ParseHitRule(s string) (HitRule, error) {
	var hr HitRule
	text := strings.ToLower(strings.TrimSpace(s))
	main, dbl, hasDouble := strings.Cut(text, "or double")
	if hasDouble {
		n, err := strconv.Atoi(strings.TrimSpace(dbl))
		if err != nil || n < 1 || n > 6 {
			return hr, fmt.Errorf("hit rule %q: bad double", s)
		}
		hr.Double = n
	}
	faces := strings.FieldsFunc(main, func(r rune) bool { return r == ',' || r == ' ' })
	if len(faces) == 0 {
		return hr, fmt.Errorf("hit rule %q: no scoring faces", s)
	}
	prev := 0
	for i, f := range faces {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > 6 {
			return hr, fmt.Errorf("hit rule %q: bad face %q", s, f)
		}
		if i > 0 && n != prev+1 {
			return hr, fmt.Errorf("hit rule %q: scoring faces must run up to 6", s)
		}
		if i == 0 {
			hr.Min = n
		}
		prev = n
	}
	if prev != 6 {
		return hr, fmt.Errorf("hit rule %q: scoring faces must run up to 6", s)
	}
	if hr.Double >= hr.Min {
		return hr, fmt.Errorf("hit rule %q: the double must be below the scoring faces", s)
	}
	return hr, nil
}

// Hits counts the hits a rolled pool scores: every die at Min or above, plus
// one for every pair showing Double (three of a kind is one pair).
func (hr HitRule) Hits(dice []int) int {
	hits, doubles := 0, 0
	for _, d := range dice {
		switch {
		case d >= hr.Min:
			hits++
		case hr.Double != 0 && d == hr.Double:
			doubles++
		}
	}
	return hits + doubles/2
}

func (hr HitRule) String() string {
	var b strings.Builder
	for f := hr.Min; f <= 6; f++ {
		if f > hr.Min {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(f))
	}
	if hr.Double != 0 {
		fmt.Fprintf(&b, " or double %d", hr.Double)
	}
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Article is "an" before a word said with a vowel first ("an anti-tank
// platoon", "an open ground hex"), else "a".
func Article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}
