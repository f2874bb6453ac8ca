package rules

import (
	"fmt"
	"slices"
)

// Status is a unit's order for the round (1.6).
type Status string

// The four orders.
const (
	Move    Status = "M"
	Hold    Status = "H"
	DigIn   Status = "D"
	Retreat Status = "R"
)

// AllStatuses lists the orders in the book's order.
var AllStatuses = []Status{Move, Hold, DigIn, Retreat}

// ParseStatus reads M, H, D or R (case-insensitive).
func ParseStatus(s string) (Status, error) {
	switch s {
	case "M", "m":
		return Move, nil
	case "H", "h":
		return Hold, nil
	case "D", "d":
		return DigIn, nil
	case "R", "r":
		return Retreat, nil
	}
	return "", fmt.Errorf("status %q: want M, H, D or R", s)
}

// State is a game between two sides at the start of a round: everything the
// engine needs to play the next round and nothing about mail or players.
type State struct {
	Ruleset  string `json:"ruleset"`
	Scenario string `json:"scenario"`
	Title    string `json:"title"`
	Map      *Map   `json:"map"`
	Sides    []Side `json:"sides"`

	Day   int  `json:"day"`   // 1-based
	Round int  `json:"round"` // 1-based day round; the night round follows the last
	Night bool `json:"night"` // the next round is the night round (9)
	Days  int  `json:"days"`  // the scenario's length in days
	// Turn counts every round played, day and night, from 0.
	Turn int `json:"turn"`

	Units      []*Unit      `json:"units"`
	Batteries  []*Battery   `json:"batteries,omitempty"`
	Objectives []*Objective `json:"objectives,omitempty"`
	Victory    Victory      `json:"victory"`

	Ended  bool   `json:"ended,omitempty"`
	Winner string `json:"winner,omitempty"` // "" while playing, or a draw
	Result string `json:"result,omitempty"` // why the game ended as it did
}

// Side is one of the two armies.
type Side struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// Air points available each day round (7).
	Air int `json:"air,omitempty"`
	// AirLeft is what remains this round.
	AirLeft int `json:"air_left,omitempty"`
	// Night recovery per initial unit (9.1); zero values take the ruleset's.
	NightSP      int `json:"night_sp,omitempty"`
	NightSupport int `json:"night_support,omitempty"`
}

// Map is the hex grid with its terrain.
type Map struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
	// Grid holds one string per row, one terrain letter per column.
	Grid  []string          `json:"grid"`
	Roads [][]Hex           `json:"roads,omitempty"`
	Names map[string]string `json:"names,omitempty"` // CCRR -> place name
}

// OnMap reports whether h lies inside the map.
func (m *Map) OnMap(h Hex) bool {
	return h.Col >= 1 && h.Col <= m.Cols && h.Row >= 1 && h.Row <= m.Rows
}

// Letter returns the terrain letter of h, which must be on the map.
func (m *Map) Letter(h Hex) byte { return m.Grid[h.Row-1][h.Col-1] }

// Unit is a battalion (2SG) or regiment (3SG): core stands led by an HQ stand,
// all under one order (1.1, 1.6).
type Unit struct {
	ID     string   `json:"id"` // as the scenario spells it, e.g. "I/77"
	Title  string   `json:"title,omitempty"`
	Side   string   `json:"side"`
	Status Status   `json:"status"`
	Stands []*Stand `json:"stands"` // core stands on the map, the HQ among them while it lives
	// Lost holds destroyed core stands (with their last hex) and LostPlatoons
	// destroyed support platoons: night recovery can bring them back (9.1).
	Lost         []*Stand   `json:"lost,omitempty"`
	LostPlatoons []*Platoon `json:"lost_platoons,omitempty"`
	// HQLostTurn is the Turn in which the HQ was destroyed; -1 while it lives.
	HQLostTurn int `json:"hq_lost_turn"`
	// Initial units count for night recovery (9.1).
	Initial bool `json:"initial"`
	// Removed units are out of the game (6: reduced to the HQ, or destroyed).
	Removed bool `json:"removed,omitempty"`
}

// Stand is a core stand with what is attached to it (1.3).
type Stand struct {
	Name  string `json:"name"` // unique within the unit, e.g. "1A" or "HQ"
	Type  string `json:"type"` // a ruleset stand type
	Hex   Hex    `json:"hex"`
	SP    int    `json:"sp"`
	MaxSP int    `json:"max_sp"`
	FS    int    `json:"fs"`
	// Per-stand variations (12).
	Elite       bool   `json:"elite,omitempty"`
	SuperiorGun bool   `json:"superior_gun,omitempty"`
	Armoured    bool   `json:"armoured,omitempty"`
	MoveClass   string `json:"move,omitempty"` // overrides the type's movement class
	// Support is the attached support platoon, Transport the truck (1.3, 2.1).
	Support   *Platoon `json:"support,omitempty"`
	Transport *Platoon `json:"transport,omitempty"`
}

// Platoon is a support platoon or transport stand: never alone in a hex (1.3).
type Platoon struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Home string `json:"home"` // the unit it belongs to, for night recovery (9.1)
}

// Battery is an independent field artillery battery (5): a core stand with no
// unit and no order status.
type Battery struct {
	ID            string `json:"id"`
	Title         string `json:"title,omitempty"`
	Side          string `json:"side"`
	Type          string `json:"type"`
	Hex           Hex    `json:"hex"`
	SP            int    `json:"sp"`
	MaxSP         int    `json:"max_sp"`
	FS            int    `json:"fs"`
	Range         int    `json:"range"`
	ShotsPerRound int    `json:"shots_per_round"`
	Shots         int    `json:"shots"`
	Armoured      bool   `json:"armoured,omitempty"`
	MoveClass     string `json:"move,omitempty"`
	Removed       bool   `json:"removed,omitempty"`
	// Keep is the shots its last orders kept back (5): the next round's
	// form and default orders keep as many, as a unit keeps its status.
	Keep int `json:"keep,omitempty"`
}

// Objective is a victory hex (11).
type Objective struct {
	Hex   Hex    `json:"hex"`
	Name  string `json:"name"`
	Value int    `json:"value"`
	Owner string `json:"owner,omitempty"` // the side that last held it alone
}

// Victory says how a scenario is won (11).
type Victory struct {
	// Kind "objectives": the side holding objectives worth more at the end wins;
	// "hold": Side wins by holding objectives worth at least Need at the end,
	// otherwise the other side wins.
	Kind string `json:"kind"`
	Side string `json:"side,omitempty"`
	Need int    `json:"need,omitempty"`
}

// Victory kinds.
const (
	VictoryObjectives = "objectives"
	VictoryHold       = "hold"
)

// Clone returns a deep copy, so that resolving a round never changes its input.
func (s *State) Clone() *State {
	c := *s
	m := *s.Map
	m.Grid = append([]string(nil), s.Map.Grid...)
	m.Roads = make([][]Hex, len(s.Map.Roads))
	for i, r := range s.Map.Roads {
		m.Roads[i] = append([]Hex(nil), r...)
	}
	if s.Map.Names != nil {
		m.Names = make(map[string]string, len(s.Map.Names))
		for k, v := range s.Map.Names {
			m.Names[k] = v
		}
	}
	c.Map = &m
	c.Sides = append([]Side(nil), s.Sides...)
	c.Units = make([]*Unit, len(s.Units))
	for i, u := range s.Units {
		cu := *u
		cu.Stands = cloneStands(u.Stands)
		cu.Lost = cloneStands(u.Lost)
		cu.LostPlatoons = make([]*Platoon, len(u.LostPlatoons))
		for j, p := range u.LostPlatoons {
			cp := *p
			cu.LostPlatoons[j] = &cp
		}
		c.Units[i] = &cu
	}
	c.Batteries = make([]*Battery, len(s.Batteries))
	for i, b := range s.Batteries {
		cb := *b
		c.Batteries[i] = &cb
	}
	c.Objectives = make([]*Objective, len(s.Objectives))
	for i, o := range s.Objectives {
		co := *o
		c.Objectives[i] = &co
	}
	return &c
}

func cloneStands(in []*Stand) []*Stand {
	if in == nil {
		return nil
	}
	out := make([]*Stand, len(in))
	for i, st := range in {
		cs := *st
		if st.Support != nil {
			p := *st.Support
			cs.Support = &p
		}
		if st.Transport != nil {
			p := *st.Transport
			cs.Transport = &p
		}
		out[i] = &cs
	}
	return out
}

// Unit returns the unit with the given id, or nil.
func (s *State) Unit(id string) *Unit {
	for _, u := range s.Units {
		if u.ID == id {
			return u
		}
	}
	return nil
}

// Battery returns the battery with the given id, or nil.
func (s *State) Battery(id string) *Battery {
	for _, b := range s.Batteries {
		if b.ID == id {
			return b
		}
	}
	return nil
}

// Side returns the side with the given name, or nil.
func (s *State) Side(name string) *Side {
	for i := range s.Sides {
		if s.Sides[i].Name == name {
			return &s.Sides[i]
		}
	}
	return nil
}

// Enemy returns the name of the other side.
func (s *State) Enemy(side string) string {
	for _, sd := range s.Sides {
		if sd.Name != side {
			return sd.Name
		}
	}
	return ""
}

// Stand returns the named stand of a unit, or nil.
func (u *Unit) Stand(name string) *Stand {
	for _, st := range u.Stands {
		if st.Name == name {
			return st
		}
	}
	return nil
}

// HQ returns the unit's HQ stand, or nil while it is lost.
func (u *Unit) HQ(rs *Ruleset) *Stand {
	for _, st := range u.Stands {
		if rs.StandTypes[st.Type].Role == RoleHQ {
			return st
		}
	}
	return nil
}

// Platoon returns the stand carrying the named support platoon or transport, and the platoon.
func (u *Unit) Platoon(name string) (*Stand, *Platoon) {
	for _, st := range u.Stands {
		if st.Support != nil && st.Support.Name == name {
			return st, st.Support
		}
		if st.Transport != nil && st.Transport.Name == name {
			return st, st.Transport
		}
	}
	return nil, nil
}

// ActiveUnits returns a side's units still in the game, in scenario order.
func (s *State) ActiveUnits(side string) []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		if u.Side == side && !u.Removed {
			out = append(out, u)
		}
	}
	return out
}

// SortedObjectives returns the objectives in hex order.
func (s *State) SortedObjectives() []*Objective {
	out := append([]*Objective(nil), s.Objectives...)
	slices.SortFunc(out, func(a, b *Objective) int { return Compare(a.Hex, b.Hex) })
	return out
}
