// Package frontline is the rules engine of Frontline General: Italian
// Campaign at the operational scale (rulebook §II-VIII): hex map and
// terrain checks, two-sided unit cards, income and events, production with
// staging and deployment, supply, movement, combat, fire missions,
// aircraft, engineers, cities, the command network and command cards.
//
// Players alternate operational turns (§V). A mail round is one player turn:
// the active side's orders, plus the waiting side's standing orders (REACT)
// for the decisions it takes during the turn. Play is pure and
// deterministic: the same state, orders and dice give the same next state
// and events, byte for byte.
package rules

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
)

// Terrain letters of the scenario maps (design 2.4).
const (
	Plains     = '.'
	Coastal    = 'c'
	Sea        = '~'
	Mountain   = '^'
	Impassable = 'X'
	Swamp      = '%'
	KeyCity    = 'K'
	RuinedCity = 'R'
	PortCity   = 'P' // a ruined city with a port
)

// Map is the fixed board of a scenario: terrain, roads, rivers, names. It is
// shared between states and never changed; what changes on it (bridges,
// control) lives in State.
type Map struct {
	Width  int            `json:"width"`
	Height int            `json:"height"`
	Rows   []string       `json:"rows"` // terrain letters, row 1 first
	Names  map[Hex]string `json:"names,omitempty"`
	Roads  map[Side2]bool `json:"roads,omitempty"`
	Rivers map[Side2]bool `json:"rivers,omitempty"`
}

// On reports whether h is on the board.
func (m *Map) On(h Hex) bool {
	return h.Col >= 1 && h.Row >= 1 && h.Col <= m.Width && h.Row <= m.Height
}

// Terrain returns the terrain letter of h; off the board is impassable.
func (m *Map) Terrain(h Hex) byte {
	if !m.On(h) {
		return Impassable
	}
	return m.Rows[h.Row-1][h.Col-1]
}

// City reports Key, Ruined and port cities (each city hex is one or the
// other, §VII.1-2).
func (m *Map) City(h Hex) bool {
	t := m.Terrain(h)
	return t == KeyCity || t == RuinedCity || t == PortCity
}

// Port reports a port hex (§VII.3).
func (m *Map) Port(h Hex) bool { return m.Terrain(h) == PortCity }

// Road reports a road along the hexside a-b.
func (m *Map) Road(a, b Hex) bool { return m.Roads[hexside(a, b)] }

// River reports a river along the hexside a-b.
func (m *Map) River(a, b Hex) bool { return m.Rivers[hexside(a, b)] }

// Options are the scenario switches of §VIII plus the decks.
type Options struct {
	Events     bool `json:"events"`
	Cards      bool `json:"cards"`
	Fog        bool `json:"fog"`
	Experience bool `json:"experience"`
	Momentum   bool `json:"momentum"`
}

// Unit is one marker on the map or in the staging area (§III.2).
type Unit struct {
	ID      string `json:"id"`   // type + number, e.g. RS-1
	Side    string `json:"side"` // US or GE
	Code    string `json:"code"`
	Hex     Hex    `json:"hex"`
	Damaged bool   `json:"damaged,omitempty"`
	// In names the unit (same side) carrying, crewed by or towing this one.
	In   string `json:"in,omitempty"`
	Role string `json:"role,omitempty"` // crew, passenger, towed
	// Staged is the own turn the unit was bought in; 0 once deployed.
	Staged int  `json:"staged,omitempty"`
	DugIn  bool `json:"dug_in,omitempty"`
	// Hidden is true for a hiding unit not found this turn (Glossary Hidden).
	Hidden bool `json:"hidden,omitempty"`
	// Found: the enemy's recon found this hidden unit; it stays a legal
	// target until it moves (§IV.1.7).
	Found bool `json:"found,omitempty"`
	// Revealed: the enemy has seen this unit since it last moved (fog of
	// war, §VIII.1): attacking, defending, reconnoitred.
	Revealed bool     `json:"revealed,omitempty"`
	Stars    []string `json:"stars,omitempty"` // experience abilities (Table VIII.1)
	Idle     bool     `json:"idle,omitempty"`  // supply idle until its side's next Supply Phase
	IdleTurn int      `json:"idle_turn,omitempty"`
	PushTurn int      `json:"push_turn,omitempty"` // own turn of its last Push
	SkipMove int      `json:"skip_move,omitempty"` // own turn whose movement a pushed infantry skips
	Aloft    bool     `json:"aloft,omitempty"`
	TOF      int      `json:"tof,omitempty"` // turns of flight left while aloft
	Spent    bool     `json:"spent,omitempty"`
	// Away is the own turn a unit sent off by an event returns (0 = here).
	Away int `json:"away,omitempty"`
	// Surrounded is the enemy's own turn at whose end the unit was first
	// found surrounded (reading 21).
	Surrounded int `json:"surrounded,omitempty"`
	// Repairing is the own turn a repair or merge began (§VI.4); the
	// unit is idle until its next own turn opens.
	Repairing int    `json:"repairing,omitempty"`
	MergeWith string `json:"merge_with,omitempty"`
	// Building names the item an engineer is constructing (§VI.5.3).
	Building string `json:"building,omitempty"`
	// Ready is the own turn at whose end a construction put back by its
	// engineers' fighting completes (Inset VI.2); 0 = the next Deployment
	// Phase.
	Ready int `json:"ready,omitempty"`
	// Across is the far end of an engineered bridge standing in Hex
	// (§VII.4); Within names the emplacement a unit occupies (Glossary
	// Emplacement).
	Across Hex    `json:"across,omitempty"`
	Within string `json:"within,omitempty"`
	// Works is the owner's own turn from which a command post or FHQ
	// works (§IV.1.5, §IV.1.9); 0 = working.
	Works int `json:"works,omitempty"`
	// Relocate is the own turn at whose end a command post being moved is
	// set up again at Hex (§IV.1.3); off the map meanwhile. 0 = not moving.
	Relocate int `json:"relocate,omitempty"`
	// Captured: taken from the enemy in a surrender and kept (§VI.1.2).
	Captured bool `json:"captured,omitempty"`
	// Arrives is the own turn at whose end a large ship held back by
	// Table V.2 reaches its edge hex (Hex); 0 = not delayed.
	Arrives int `json:"arrives,omitempty"`
	// Momentum is the unit's group's momentum (§VIII.3), ±6 at most.
	Momentum int `json:"momentum,omitempty"`
}

// Key is the unit's name across sides: "GE:RS-1".
func (u *Unit) Key() string { return u.Side + ":" + u.ID }

// Player is one side's books.
type Player struct {
	Side     string   `json:"side"`
	Treasury int      `json:"treasury"`
	Hand     []string `json:"hand"`
	HandSize int      `json:"hand_size,omitempty"` // set in another side's view instead of Hand
	OwnTurn  int      `json:"own_turn"`
	Score    int      `json:"score"`
	Standing Standing `json:"standing"`
	// StandingHidden is set in another side's view: the orders are secret.
	StandingHidden bool `json:"standing_hidden,omitempty"`
}

// Modifier is an event in force (design 2.2): Side "" affects both.
type Modifier struct {
	Name string `json:"name"`
	Side string `json:"side,omitempty"`
	// Left counts the drawer's turns still to run; the modifier lapses at
	// the end of the drawer's turn that brings it to 0.
	Left  int    `json:"left"`
	Owner string `json:"owner"`
}

// VictoryRule: Side wins at the end of its own turn holding every hex.
type VictoryRule struct {
	Side string `json:"side"`
	Hold []Hex  `json:"hold"`
}

// Objective is one of a side's Primary or Secondary Objectives (§II.2.1,
// §III.5), scored once, when the side first holds it at the end of a turn
// (Table II.1).
type Objective struct {
	Side     string `json:"side"`
	Primary  bool   `json:"primary,omitempty"`
	Hex      Hex    `json:"hex"`
	Achieved bool   `json:"achieved,omitempty"`
}

// State is a whole game position between two player turns.
type State struct {
	Scenario string  `json:"scenario"`
	Title    string  `json:"title"`
	Options  Options `json:"options"`
	Map      *Map    `json:"map"`
	Turns    int     `json:"turns"`
	Turn     int     `json:"turn"` // game turn
	// Plays counts the player turns played, from 0: the judge keeps
	// positions and derives each turn's dice seed under it.
	Plays   int              `json:"plays"`
	Sides   []string         `json:"sides"`  // in order of play
	Active  string           `json:"active"` // whose player turn is next to play
	Players []*Player        `json:"players"`
	Units   []*Unit          `json:"units"`
	Control map[Hex]string   `json:"control"`         // cities, ports, airfields: who holds them
	Bridges map[Side2]string `json:"bridges"`         // intact or collapsed
	Tries   map[string]int   `json:"tries,omitempty"` // engineer tries per item (Table VI.2)
	Victory []VictoryRule    `json:"victory"`
	// Objectives are the sides' scored objectives (Table II.1).
	Objectives []Objective `json:"objectives,omitempty"`
	Limit      string      `json:"limit"` // side that wins at the turn limit
	// The decks are secret; a side's view keeps only their sizes.
	CommandDeck    []string   `json:"command_deck,omitempty"`
	CommandDiscard []string   `json:"command_discard"`
	EventDeck      []int      `json:"event_deck,omitempty"`
	EventDiscard   []int      `json:"event_discard"`
	DeckSizes      []int      `json:"deck_sizes,omitempty"` // in a view: command, event
	Modifiers      []Modifier `json:"modifiers,omitempty"`
	// Opening holds the events of the active side's Income/Event phase,
	// already played when its orders are written (design 3.2).
	Opening []Event `json:"opening,omitempty"`
	Over    bool    `json:"over,omitempty"`
	Winner  string  `json:"winner,omitempty"`
	Result  string  `json:"result,omitempty"`
	// ViewOf is the side this state was cut down for ("" = the whole state).
	ViewOf string `json:"view_of,omitempty"`

	// Ports holds the ports hit by heavy weapons or blown: damaged or
	// destroyed; never rebuilt (§VII.3.1, §VII.3.4).
	Ports map[Hex]string `json:"ports,omitempty"`

	lib *Library
}

// Player returns a side's books.
func (s *State) Player(side string) *Player {
	for _, p := range s.Players {
		if p.Side == side {
			return p
		}
	}
	return nil
}

// Enemy returns the other side.
func (s *State) Enemy(side string) string {
	if s.Sides[0] == side {
		return s.Sides[1]
	}
	return s.Sides[0]
}

// Unit finds a unit by side and id.
func (s *State) Unit(side, id string) *Unit {
	for _, u := range s.Units {
		if u.Side == side && u.ID == id {
			return u
		}
	}
	return nil
}

// Card returns a unit's card.
func (s *State) Card(u *Unit) *Card { return s.lib.Cards[u.Code] }

// Lib is the data the state plays by.
func (s *State) Lib() *Library { return s.lib }

// Waiting names the sides whose orders the next Play needs: the active side
// only; its opponent's standing orders are already in the state.
func (s *State) Waiting() []string {
	if s.Over {
		return nil
	}
	return []string{s.Active}
}

// working: a command post or FHQ set up or converted works from the
// owner's turn given in Works.
func (s *State) working(u *Unit) bool {
	return u.Works == 0 || s.Player(u.Side).OwnTurn >= u.Works
}

// OnMap reports a unit deployed and on the board (not staged, not away).
func (u *Unit) OnMap() bool {
	return u.Staged == 0 && u.Away == 0 && u.Relocate == 0 && !u.Hex.IsZero()
}

// UnitsAt lists the deployed units in h, in state order.
func (s *State) UnitsAt(h Hex) []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		if u.OnMap() && u.Hex == h {
			out = append(out, u)
		}
	}
	return out
}

// Clone copies the state deeply enough for Play to change the copy.
func (s *State) Clone() *State {
	c := *s
	c.Players = make([]*Player, len(s.Players))
	for i, p := range s.Players {
		pp := *p
		pp.Hand = slices.Clone(p.Hand)
		pp.Standing = p.Standing.clone()
		c.Players[i] = &pp
	}
	c.Units = make([]*Unit, len(s.Units))
	for i, u := range s.Units {
		uu := *u
		uu.Stars = slices.Clone(u.Stars)
		c.Units[i] = &uu
	}
	c.Control = cloneMap(s.Control)
	c.Bridges = cloneMap(s.Bridges)
	c.Tries = cloneMap(s.Tries)
	c.Ports = cloneMap(s.Ports)
	c.Sides = slices.Clone(s.Sides)
	c.Victory = slices.Clone(s.Victory)
	c.Objectives = slices.Clone(s.Objectives)
	c.CommandDeck = slices.Clone(s.CommandDeck)
	c.CommandDiscard = slices.Clone(s.CommandDiscard)
	c.EventDeck = slices.Clone(s.EventDeck)
	c.EventDiscard = slices.Clone(s.EventDiscard)
	c.Modifiers = slices.Clone(s.Modifiers)
	c.Opening = slices.Clone(s.Opening)
	return &c
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sortUnits keeps units in a stable order: side of play, then id, so that
// every listing and every random pick is reproducible.
func (s *State) sortUnits() {
	order := map[string]int{}
	for i, side := range s.Sides {
		order[side] = i
	}
	sort.SliceStable(s.Units, func(i, j int) bool {
		a, b := s.Units[i], s.Units[j]
		if a.Side != b.Side {
			return order[a.Side] < order[b.Side]
		}
		return lessID(a.ID, b.ID)
	})
}

// lessID orders ids by type then number: RS-2 before RS-10.
func lessID(a, b string) bool {
	ta, na := splitID(a)
	tb, nb := splitID(b)
	if ta != tb {
		return ta < tb
	}
	return na < nb
}

func splitID(id string) (string, int) {
	for i := len(id) - 1; i >= 0; i-- {
		if id[i] == '-' {
			n := 0
			for _, r := range id[i+1:] {
				if r < '0' || r > '9' {
					return id, 0
				}
				n = n*10 + int(r-'0')
			}
			return id[:i], n
		}
	}
	return id, 0
}

// modifier reports an event in force for side.
func (s *State) modifier(name, side string) bool {
	for _, m := range s.Modifiers {
		if m.Name == name && (m.Side == "" || m.Side == side) {
			return true
		}
	}
	return false
}

// SetStanding replaces a side's standing orders between turns: the waiting
// side may send a REACT-only mail until the active turn is played (design
// 3.1). It returns a new state.
func (s *State) SetStanding(side string, st Standing) (*State, error) {
	if s.Player(side) == nil {
		return nil, fmt.Errorf("no side %q", side)
	}
	n := s.Clone()
	n.Player(side).Standing = st.clone()
	return n, nil
}

// Load reads a state stored as JSON (a judge's saved position) and ties it
// to the shipped data again.
func Load(data []byte) (*State, error) {
	l, err := Lib()
	if err != nil {
		return nil, err
	}
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("frontline position: %w", err)
	}
	if s.Map == nil || len(s.Sides) != 2 || len(s.Players) != 2 {
		return nil, fmt.Errorf("frontline position: no map or not two sides")
	}
	for _, u := range s.Units {
		if l.Cards[u.Code] == nil {
			return nil, fmt.Errorf("frontline position: unit %s has unknown card %q", u.Key(), u.Code)
		}
	}
	s.lib = l
	return &s, nil
}

// Step names where the game stands, for subjects and pages.
func (s *State) Step() string {
	if s.Over {
		return "game over: " + s.Result
	}
	return fmt.Sprintf("turn %d of %d, %s to play (its own turn %d)", s.Turn, s.Turns, s.Active, s.Player(s.Active).OwnTurn)
}
