package rules

import (
	"encoding/json"
	"fmt"
	"slices"
)

// State is a game between two turns: everything the rules need next.
type State struct {
	Scenario   string       `json:"scenario"`
	Title      string       `json:"title"`
	Turn       int          `json:"turn"`  // turns played
	Clock      int          `json:"clock"` // minutes after midnight
	End        int          `json:"end"`   // the game ends when the clock reaches it (FP-12)
	Sunrise    int          `json:"sunrise"`
	Sunset     int          `json:"sunset"`
	Initiative string       `json:"initiative"` // the side holding it [11.1]
	Map        *Map         `json:"map"`
	Sides      []*Side      `json:"sides"`
	Battalions []*Battalion `json:"battalions"`
	Platoons   []*Platoon   `json:"platoons"`
	Batteries  []*Battery   `json:"batteries"`
	Flights    []*Flight    `json:"flights,omitempty"`
	Plans      []*Plan      `json:"plans,omitempty"`
	Objectives []*Objective `json:"objectives"`
	Victory    Victory      `json:"victory"`
	Ended      bool         `json:"ended,omitempty"`
	Winner     string       `json:"winner,omitempty"`
	Result     string       `json:"result,omitempty"`
}

// Side is one side with its standing choices.
type Side struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Home  string `json:"home"` // west, east, north, south: where it retreats to
	// Standing choices (brief §3), kept from turn to turn.
	Pursue        bool `json:"pursue"`
	BugoutDefault int  `json:"bugout_default,omitempty"` // 0: never
	LostThisTurn  int  `json:"lost_this_turn,omitempty"` // platoons lost, for the Time Phase (FP-12)
}

// Battalion is a radio net [8]: its state holds from one Communications
// Phase to the next (FP-4, A6).
type Battalion struct {
	Name  string `json:"name"`
	Side  string `json:"side"`
	Exp   string `json:"exp"`
	Radio bool   `json:"radio"`
}

// Platoon is a base on the map [Prep.]: a platoon or its vehicles.
type Platoon struct {
	Name      string   `json:"name"`
	Side      string   `json:"side"`
	Type      string   `json:"type"`
	Battalion string   `json:"battalion"`
	Company   string   `json:"company,omitempty"` // "" for the battalion's own platoons
	Exp       string   `json:"exp"`
	Hex       Hex      `json:"hex"`
	Order     int      `json:"order"` // rung of the ladder [11.2]
	Dead      int      `json:"dead,omitempty"`
	Wounded   int      `json:"wounded,omitempty"`
	Weapons   []string `json:"weapons,omitempty"` // platoon weapons: bazooka, panzerfaust
	DugIn     bool     `json:"dug_in,omitempty"`
	Defending int      `json:"defending,omitempty"` // whole turns on Defend without moving (FP-14)
	// Hidden: placed by the umpire only once within the enemy's sight
	// [14, 8]; cleared when an enemy sees it or it fires (FP-14); it may
	// move on paper meanwhile [14].
	Hidden bool `json:"hidden,omitempty"`
	// FiredTurn is the last turn (1-based) it fired without moving since:
	// seen at the firer's range [9.1, A13].
	FiredTurn int `json:"fired_turn,omitempty"`
	// Standing orders (brief §3).
	Bugout  int      `json:"bugout,omitempty"` // bug out from rounds of at least this many dice; 0 never
	Reserve *Reserve `json:"reserve,omitempty"`
	Removed bool     `json:"removed,omitempty"`
	Fate    string   `json:"fate,omitempty"` // why it left the map
}

// Reserve is a standing interrupt-fire trigger (FP-7).
type Reserve struct {
	At   int    `json:"at,omitempty"`   // 0: the platoon's range
	Min  int    `json:"min,omitempty"`  // holding platoons of the side that could fire
	Only string `json:"only,omitempty"` // "", vehicles, foot
}

// Battery is an artillery unit off the map, called in by radio [11.4].
type Battery struct {
	Name     string `json:"name"`
	Side     string `json:"side"`
	Type     string `json:"type"`
	Exp      string `json:"exp"`
	Missions int    `json:"missions"` // left; -1 unlimited (FP-5)
	Radio    bool   `json:"radio"`
}

// Flight is a side's air support: a flight of aircraft on a mission of
// the kind of 11.4.3 (certain, possible, small) or directed by an air
// liaison observer [11.4.4] (liaison), with sorties left.
type Flight struct {
	Name    string `json:"name"`
	Side    string `json:"side"`
	Mission string `json:"mission"`
	Sorties int    `json:"sorties"`
}

// Plan is a barrage planned on the map before the battle (Planned Map
// Fire, an optional rule a scenario takes up with PLAN lines [11.4.1]):
// the artillery unit fires on the hex in the turn after the clock reaches
// At, unless a platoon cancels it.
type Plan struct {
	Side      string `json:"side"`
	Unit      string `json:"unit"` // an artillery unit off the table, or a gun platoon on it
	Target    Hex    `json:"target"`
	At        int    `json:"at"` // minutes after midnight
	Cancelled bool   `json:"cancelled,omitempty"`
	Fired     bool   `json:"fired,omitempty"`
}

// PlanOn is the side's planned barrage on h still to fire, nil if none.
func (st *State) PlanOn(side string, h Hex) *Plan {
	for _, pl := range st.Plans {
		if pl.Side == side && pl.Target == h && !pl.Cancelled && !pl.Fired {
			return pl
		}
	}
	return nil
}

// Artillery finds a side's platoon on the table that fires indirect by
// name: a gun or a mortar, which a CALL may name as an artillery unit
// [11.4.1].
func (st *State) Artillery(rs *Ruleset, side, name string) *Platoon {
	p := st.Platoon(side, name)
	if p == nil {
		return nil
	}
	for _, w := range rs.Types[p.Type].Weapons {
		if rs.Weapons[w].Indirect {
			return p
		}
	}
	return nil
}

// Flight finds a side's flight by name.
func (st *State) Flight(side, name string) *Flight {
	for _, f := range st.Flights {
		if f.Side == side && f.Name == name {
			return f
		}
	}
	return nil
}

// Objective is a hex worth victory points, held by the last side in it.
type Objective struct {
	Hex    Hex    `json:"hex"`
	Value  int    `json:"value"`
	Name   string `json:"name"`
	Holder string `json:"holder"`
}

// Victory: Side wins holding objectives worth at least Value at the end;
// otherwise the other side wins.
type Victory struct {
	Side  string `json:"side"`
	Value int    `json:"value"`
}

// Count is the men still fighting: 4 less each dead or wounded man [11.5.2].
func (p *Platoon) Count(rs *Ruleset) int { return max(0, rs.Count.I()-p.Dead-p.Wounded) }

// Clone is a deep copy: resolution never changes the state it is given.
func (st *State) Clone() *State {
	b, err := json.Marshal(st)
	if err != nil {
		panic(err)
	}
	var out State
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return &out
}

// Side finds a side by name.
func (st *State) Side(name string) *Side {
	for _, s := range st.Sides {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Enemy is the other side's name.
func (st *State) Enemy(side string) string {
	for _, s := range st.Sides {
		if s.Name != side {
			return s.Name
		}
	}
	return ""
}

// Contesting is the side without the initiative [11.1].
func (st *State) Contesting() string { return st.Enemy(st.Initiative) }

// Platoon finds a side's platoon on the map by name.
func (st *State) Platoon(side, name string) *Platoon {
	for _, p := range st.Platoons {
		if p.Side == side && p.Name == name && !p.Removed {
			return p
		}
	}
	return nil
}

// At is the platoon in a hex, nil if none (one platoon a hex, FP-0).
func (st *State) At(h Hex) *Platoon {
	for _, p := range st.Platoons {
		if !p.Removed && p.Hex == h {
			return p
		}
	}
	return nil
}

// Active lists a side's platoons on the map ("" for both), in scenario order.
func (st *State) Active(side string) []*Platoon {
	var out []*Platoon
	for _, p := range st.Platoons {
		if !p.Removed && (side == "" || p.Side == side) {
			out = append(out, p)
		}
	}
	return out
}

// Battalion finds a battalion.
func (st *State) Battalion(side, name string) *Battalion {
	for _, b := range st.Battalions {
		if b.Side == side && b.Name == name {
			return b
		}
	}
	return nil
}

// Battery finds a side's battery by name.
func (st *State) Battery(side, name string) *Battery {
	for _, b := range st.Batteries {
		if b.Side == side && b.Name == name {
			return b
		}
	}
	return nil
}

// Superiors are a platoon's commanders on the map, nearest first: its
// company HQ, then its battalion HQ [8, 11.2].
func (st *State) Superiors(p *Platoon) []*Platoon {
	var out []*Platoon
	if c := st.companyHQ(p.Side, p.Battalion, p.Company); c != nil && c != p && p.Company != "" {
		out = append(out, c)
	}
	if b := st.companyHQ(p.Side, p.Battalion, ""); b != nil && b != p {
		out = append(out, b)
	}
	return out
}

func (st *State) companyHQ(side, battalion, company string) *Platoon {
	for _, q := range st.Platoons {
		if !q.Removed && q.Side == side && q.Battalion == battalion && q.Company == company && st.isHQ(q) {
			return q
		}
	}
	return nil
}

func (st *State) isHQ(p *Platoon) bool {
	return p.Type == "hq"
}

// Commands reports whether commander c is in p's line of command: p's
// company HQ or battalion HQ, or p itself when it has no superior on the
// map (FP-3).
func (st *State) Commands(c, p *Platoon) bool {
	sup := st.Superiors(p)
	if c == p {
		return st.isHQ(p) && len(sup) == 0
	}
	return slices.Contains(sup, c)
}

// EnemyAdjacent reports whether any enemy platoon touches h.
func (st *State) EnemyAdjacent(side string, h Hex) bool {
	for _, q := range st.Platoons {
		if !q.Removed && q.Side != side && Adjacent(q.Hex, h) {
			return true
		}
	}
	return false
}

// Night reports whether the clock is between sunset and sunrise, and
// twilight whether it is within the twilight margin of either (FP-13).
func (st *State) Night(rs *Ruleset) (night, twilight bool) {
	m := rs.Visibility["twilight_minutes"].I()
	night = st.Clock >= st.Sunset || st.Clock < st.Sunrise
	twilight = !night && (st.Clock >= st.Sunset-m || st.Clock < st.Sunrise+m)
	return night, twilight
}

// ClockText writes minutes as hh:mm.
func ClockText(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }
