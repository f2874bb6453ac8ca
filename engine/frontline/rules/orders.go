package rules

import (
	"slices"
	"strings"
)

// Orders are one side's orders for its own player turn (design 3.3), and
// its standing orders for the opponent's next turn (REACT, design 3.4).
type Orders struct {
	Side string `json:"side"`
	// Buys are purchases in a Production Phase (§V.2).
	Buys []Buy `json:"buys,omitempty"`
	// Builds are constructions begun in a Production Phase (§VI.5.3).
	Builds []Build `json:"builds,omitempty"`
	// Idle names the units left idle for a supply deficit (§V.3.2); if too
	// few, the judge adds the cheapest eligible.
	Idle        []string     `json:"idle,omitempty"`
	Moves       []Move       `json:"moves,omitempty"`
	Engagements []Engagement `json:"engagements,omitempty"`
	Deploys     []Deploy     `json:"deploys,omitempty"`
	// Rush plays Rush Deployment (§IV.3.6) for these staged units.
	Rush []string `json:"rush,omitempty"`
	// Encircle plays Encircle (§IV.3.3) at the end of the Movement Phase.
	Encircle []Encircle `json:"encircle,omitempty"`
	// Convert designates a command post as the new FHQ (§IV.1.9).
	Convert string `json:"convert,omitempty"`
	// Relocate moves command posts to new hexes (§IV.1.3).
	Relocate []Relocate `json:"relocate,omitempty"`
	// Standing replaces the side's standing orders; nil keeps the old ones.
	Standing *Standing `json:"standing,omitempty"`
}

// Buy is BUY code count [XP n].
type Buy struct {
	Line  int    `json:"line,omitempty"`
	Code  string `json:"code"`
	Count int    `json:"count"`
	XP    int    `json:"xp,omitempty"`
}

// Build is BUILD code AT hex BY engineer: the engineer stays idle in the
// hex until the next Deployment Phase, when the item is complete.
type Build struct {
	Line int    `json:"line,omitempty"`
	Code string `json:"code"`
	Hex  Hex    `json:"hex"`
	By   string `json:"by"`
	// Across is the far end of an engineered bridge built from Hex.
	Across Hex `json:"across,omitempty"`
}

// Move is one unit's Movement Phase: steps in written order.
type Move struct {
	Line  int    `json:"line,omitempty"`
	Unit  string `json:"unit"`
	Steps []Step `json:"steps"`
	Push  bool   `json:"push,omitempty"` // plays the Push card (§IV.3.5)
	// Land is where an aircraft ends its sortie (§VI.2.2); zero = stays aloft.
	Land Hex `json:"land,omitempty"`
	// HitAndRun declares a Hit & Run attack (Glossary Hit & Run).
	HitAndRun bool `json:"hit_and_run,omitempty"`
}

// Step actions; a step with no action enters Hex.
const (
	ActEnter    = ""
	ActLoad     = "LOAD"
	ActUnload   = "UNLOAD"
	ActHitch    = "HITCH"
	ActUnhitch  = "UNHITCH"
	ActDig      = "DIG"
	ActRecon    = "RECON"
	ActDetonate = "DETONATE"
	ActClear    = "CLEAR"
	ActRepair   = "REPAIR"
	ActMerge    = "MERGE"
	ActOccupy   = "OCCUPY" // enter an emplacement in the unit's hex
)

// Step is one hex entered or one action taken, in order.
type Step struct {
	Act  string `json:"act,omitempty"`
	Hex  Hex    `json:"hex,omitempty"`  // hex entered, reconnoitred or across the bridge
	Unit string `json:"unit,omitempty"` // passenger, gun or obstacle
}

// Engagement is ENGAGE hex WITH units (§V.5).
type Engagement struct {
	Line  int      `json:"line,omitempty"`
	Hex   Hex      `json:"hex"`
	Units []string `json:"units"`
	// Targets are initial targets (enemy keys, GE:RS-1) by attacking unit,
	// TargetLines the lines they were written on.
	Targets     map[string]string `json:"targets,omitempty"`
	TargetLines map[string]int    `json:"target_lines,omitempty"`
	// HE names units that fire HE instead of AP (§VI.7.3: AP is declared;
	// Fieldpost declares it by default where it can pierce).
	HE []string `json:"he,omitempty"`
	// Mission is a fire mission through an observer (§VI.7.6).
	Mission  *Mission   `json:"mission,omitempty"`
	Suspend  *Condition `json:"suspend,omitempty"`
	Withdraw *Condition `json:"withdraw,omitempty"`
	Inspire  bool       `json:"inspire,omitempty"`
	// CeaseFire and Surrender offer the fixed terms of §IV.3.1-2
	// (reading 17) when their condition holds at the start of a round.
	CeaseFire *Condition `json:"ceasefire,omitempty"`
	Surrender *Condition `json:"surrender,omitempty"`
	// Exit is the even number of rounds after which the engaged aircraft
	// leave the fight (§VI.2.3); 0 = the rules value.
	Exit int `json:"exit,omitempty"`
	// Smoke names the attacking smoke vehicles that lay smoke (Glossary
	// Smoke): when the engagement opens, or at the start of the first
	// round their condition holds.
	Smoke []SmokeOrder `json:"smoke,omitempty"`
	// Dismount are `carrier UNLOAD unit` lines: the passengers get off in
	// round 1 while the carrier spends it idle (§VI.3.3-3.4).
	Dismount []DismountOrder `json:"dismount,omitempty"`
}

// Dismounts: the engagement orders unit off its carrier (§VI.3.3).
func (e Engagement) Dismounts(unit string) bool {
	for _, d := range e.Dismount {
		if d.Unit == unit {
			return true
		}
	}
	return false
}

// DismountOrder is `carrier UNLOAD unit` under an ENGAGE.
type DismountOrder struct {
	Line    int    `json:"line,omitempty"`
	Carrier string `json:"carrier"`
	Unit    string `json:"unit"`
}

// SmokeOrder is `unit SMOKE [IF cond]` under an ENGAGE; If nil = at once.
type SmokeOrder struct {
	Line int        `json:"line,omitempty"`
	Unit string     `json:"unit"`
	If   *Condition `json:"if,omitempty"`
}

// Encircle is ENCIRCLE hex OPEN hex: the pincer leaves the open hex.
type Encircle struct {
	Line int `json:"line,omitempty"`
	Hex  Hex `json:"hex"`
	Open Hex `json:"open"`
}

// Mission: the observer and guns of a fire mission; FFE asks for Fire for
// Effect after the first hit (Inset VI.6).
type Mission struct {
	FO   string   `json:"fo"`
	Guns []string `json:"guns"`
	FFE  bool     `json:"ffe,omitempty"`
	// Pin: a hit pins the target instead of damaging it (Inset VI.6).
	Pin bool `json:"pin,omitempty"`
	// Blind: an area mission; a hit smokes the enemy in the hex.
	Blind bool `json:"blind,omitempty"`
}

// Deploy places a staged unit (§V.6, Table V.1).
type Deploy struct {
	Line int    `json:"line,omitempty"`
	Unit string `json:"unit"`
	Hex  Hex    `json:"hex"`
	// On is a ship deploying this turn that carries the unit in (Table V.1).
	On string `json:"on,omitempty"`
}

// Condition is a standing condition, checked at the start of each combat
// round (design 3.4).
type Condition struct {
	Kind string  `json:"kind"` // ALWAYS LOST ODDS< ODDS> ROUND>= ENEMY-HAS ENEMY-COST>
	N    int     `json:"n,omitempty"`
	R    float64 `json:"r,omitempty"`
	What string  `json:"what,omitempty"` // tank, gun, aircraft
}

// HexOrder is a standing order for one hex (zero hex = any).
type HexOrder struct {
	Line int        `json:"line,omitempty"`
	Hex  Hex        `json:"hex,omitempty"`
	If   *Condition `json:"if,omitempty"`
	To   Hex        `json:"to,omitempty"`
	FO   string     `json:"fo,omitempty"`
	Guns []string   `json:"guns,omitempty"`
	// Mission is DESTROY or PIN for SUPPORT; FFE asks for Fire for Effect.
	Mission string `json:"mission,omitempty"`
	FFE     bool   `json:"ffe,omitempty"`
}

// Standing are the waiting side's decisions during the opponent's turn.
type Standing struct {
	// Retaliate: "all" (default), "none", or the listed units.
	Retaliate       string     `json:"retaliate,omitempty"`
	RetaliateUnits  []string   `json:"retaliate_units,omitempty"`
	Targets         string     `json:"targets,omitempty"` // best-odds armour-first infantry-first damaged-first
	AP              string     `json:"ap,omitempty"`      // auto never
	DefensiveCombat bool       `json:"defensive_combat,omitempty"`
	Withdraw        []HexOrder `json:"withdraw,omitempty"`
	Inspire         []HexOrder `json:"inspire,omitempty"`
	Interdict       []HexOrder `json:"interdict,omitempty"`
	// Support: the waiting side's fire missions when it retaliates.
	Support []HexOrder `json:"support,omitempty"`
	// Cover: guns declared in the side's own turn to fire on enemy units
	// that end their move in the hex in the next enemy turn (Inset VI.6).
	Cover     []HexOrder `json:"cover,omitempty"`
	CeaseFire []HexOrder `json:"ceasefire,omitempty"`
	Surrender []HexOrder `json:"surrender,omitempty"`
	// AcceptCeasefire: never (default), if-losing, always.
	AcceptCeasefire string `json:"accept_ceasefire,omitempty"`
	// AcceptSurrender: yes (default) or no.
	AcceptSurrender string `json:"accept_surrender,omitempty"`
	// Scramble names grounded aircraft that intercept enemy sorties
	// within their reach (§VI.7.1).
	Scramble []string `json:"scramble,omitempty"`
	// EngineersFight: engineers building retaliate as infantry when
	// attacked, each Combat Phase putting the work back a turn (Inset VI.2).
	EngineersFight bool `json:"engineers_fight,omitempty"`
	// IdleFight: units repairing or merging retaliate when attacked, each
	// Combat Phase putting the repair back a turn (reading 23).
	IdleFight bool `json:"idle_fight,omitempty"`
	// Smoke: the side's smoke vehicles engaged in the hex lay smoke at the
	// start of the first round the condition holds (Glossary Smoke).
	Smoke []HexOrder `json:"smoke,omitempty"`
	// Captured: what the side does with enemy equipment it captures, keep
	// (the default) or destroy (§VI.1.2).
	Captured string `json:"captured,omitempty"`
}

func (s Standing) clone() Standing {
	s.RetaliateUnits = slices.Clone(s.RetaliateUnits)
	s.Withdraw = slices.Clone(s.Withdraw)
	s.Inspire = slices.Clone(s.Inspire)
	s.Interdict = slices.Clone(s.Interdict)
	s.Cover = slices.Clone(s.Cover)
	s.Support = slices.Clone(s.Support)
	s.CeaseFire = slices.Clone(s.CeaseFire)
	s.Surrender = slices.Clone(s.Surrender)
	s.Scramble = slices.Clone(s.Scramble)
	s.Smoke = slices.Clone(s.Smoke)
	return s
}

// targetPolicy returns the standing target policy with its default.
func (s Standing) targetPolicy() string {
	if s.Targets == "" {
		return "best-odds"
	}
	return s.Targets
}

// Reference writes a section of the book as a problem's rule reference:
// "V.4" is "§V.4"; what is not a numbered section ("Glossary Smoke") stays
// as it is.
func Reference(section string) string {
	head, _, _ := strings.Cut(section, ".")
	if head != "" && strings.Trim(head, "IVX") == "" {
		return "§" + section
	}
	return section
}

// Default are the orders of a side that sent none (design 3.2): no
// purchases, supply paid with judge-chosen idle units, no moves, no
// attacks, nothing deployed; its standing orders stay as they were.
func (s *State) Default(side string) Orders { return Orders{Side: side} }

// Still returns the standing orders without the units of side that are
// gone since they were given (destroyed, captured): what its next order
// form offers, valid sent back unchanged. A fire mission loses a gun gone,
// and goes with its observer or its last gun; a RETALIATE list emptied is
// RETALIATE none.
func (s Standing) Still(st *State, side string) Standing {
	s = s.clone()
	has := func(id string) bool { return st.Unit(side, id) != nil }
	missions := func(list []HexOrder) []HexOrder {
		var out []HexOrder
		for _, o := range list {
			o.Guns = slices.DeleteFunc(slices.Clone(o.Guns), func(id string) bool { return !has(id) })
			if has(o.FO) && len(o.Guns) > 0 {
				out = append(out, o)
			}
		}
		return out
	}
	s.Interdict, s.Support, s.Cover = missions(s.Interdict), missions(s.Support), missions(s.Cover)
	s.Scramble = slices.DeleteFunc(s.Scramble, func(id string) bool { return !has(id) })
	if s.Retaliate == "list" {
		s.RetaliateUnits = slices.DeleteFunc(s.RetaliateUnits, func(id string) bool { return !has(id) })
		if len(s.RetaliateUnits) == 0 {
			s.Retaliate = "none"
		}
	}
	return s
}
