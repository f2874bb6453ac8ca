package rules

import (
	"fmt"
	"strings"
)

// resolver carries one player turn's work: the state being changed, the
// dice, the events so far and what the turn remembers between phases.
type resolver struct {
	s           *State
	d           Dice
	r           *Rules
	side, enemy string
	own         int // the active side's own turn number
	phase       string
	events      []Event
	rolls       []Roll
	moved       map[string]bool // unit keys that moved or acted in the Movement Phase
	prevHex     map[string]Hex  // the hex before each unit's last step (Suspend Attack)
	recon       map[Hex]bool    // hexes the active side reconnoitred this turn
	noFight     map[string]bool // recon units may not fight this turn (§VI.6)
	engaged     map[string]bool // unit keys in an engagement this Combat Phase
	inspired    map[string]bool // sides that played Inspire this phase
	landing     map[string]Hex  // aircraft landing after combat
	pending     []*Unit         // units destroyed by the hit being resolved
	encircled   map[Hex]Hex     // hexes encircled this turn -> the open hex
	hitAndRun   map[string]bool // units that declared Hit & Run
	repairsAt   map[string]bool // CP/FHQ keys that repaired a unit this turn
	coverFirst  bool            // the engagement being opened is a Cover mission
	foughtIdle  map[string]bool // building or repairing units that fought this phase
	earned      []earning       // experience rolls earned in the engagement being fought
	cityScored  map[string]int  // "SIDE hex" -> points for taking a city this turn
}

// earning is one experience roll earned, and why (Inset VIII.2).
type earning struct {
	u   *Unit
	why string
}

func newResolver(s *State, d Dice) *resolver {
	return &resolver{s: s, d: d, r: s.lib.Rules, side: s.Active, enemy: s.Enemy(s.Active), own: s.Player(s.Active).OwnTurn,
		moved: map[string]bool{}, prevHex: map[string]Hex{}, recon: map[Hex]bool{}, noFight: map[string]bool{},
		engaged: map[string]bool{}, inspired: map[string]bool{}, landing: map[string]Hex{},
		encircled: map[Hex]Hex{}, hitAndRun: map[string]bool{}, repairsAt: map[string]bool{}, foughtIdle: map[string]bool{}, cityScored: map[string]int{}}
}

// roll throws one die and remembers it for the next event.
func (r *resolver) roll(faces int, what, need string) int {
	v := r.d.Roll(faces)
	r.rolls = append(r.rolls, Roll{Die: faces, Face: v, For: what, Need: need})
	return v
}

// emit records an event with the dice rolled since the last one.
func (r *resolver) emit(kind, section string, h Hex, private string, format string, a ...any) {
	e := Event{Phase: r.phase, Kind: kind, Side: r.side, Private: private, Hex: h, Section: section, Text: fmt.Sprintf(format, a...), Rolls: r.rolls}
	r.rolls = nil
	r.events = append(r.events, e)
}

// rollOff is an unmodified initiative check (§IV.3): both d10, high wins,
// ties re-rolled. It reports whether first wins.
func (r *resolver) rollOff(first, second, what string) (bool, string) {
	var text []string
	for {
		a := r.roll(10, first+" "+what, "")
		b := r.roll(10, second+" "+what, "")
		text = append(text, fmt.Sprintf("%s d10=%d, %s d10=%d", first, a, second, b))
		if a != b {
			return a > b, strings.Join(text, "; tie, again: ")
		}
	}
}

// Play resolves the active side's player turn with its orders and the
// dice, then opens the opponent's turn (its Income/Event phase). It returns
// the next state and what happened in the turn (its opening included); the
// opponent's opening is in the next state's Opening, mailed with its form.
// The state it is called on is unchanged.
// Orders with problems are refused whole, with every problem.
func (s *State) Play(o Orders, d Dice) (*State, []Event, error) {
	if s.Over {
		return nil, nil, fmt.Errorf("the game is over: %s", s.Result)
	}
	if o.Side == "" {
		o.Side = s.Active
	}
	if probs := s.Validate(o); len(probs) > 0 {
		msgs := make([]string, len(probs))
		for i, p := range probs {
			msgs[i] = p.String()
		}
		return nil, nil, fmt.Errorf("orders for %s refused: %s", o.Side, strings.Join(msgs, "; "))
	}
	n := s.Clone()
	n.Opening = nil
	n.Plays++
	r := newResolver(n, d)
	r.events = append(r.events, s.Opening...)
	r.production(o)
	if o.Convert != "" {
		r.convert(o.Convert)
	}
	r.takeDown(o)
	r.supply(o)
	r.movement(o)
	r.settleExperience(nil)
	r.breakMomentum()
	r.combat(o)
	r.settleExperience(nil)
	r.deployment(o)
	r.setUpMoved()
	r.shipArrivals()
	r.endTurn(o)
	if !n.Over {
		n.Active = r.enemy
		if n.Active == n.Sides[0] {
			n.Turn++
		}
		n.openTurn(newResolver(n, d))
	}
	return n, r.events, nil
}

// openTurn plays the automatic start of the active side's turn (§V.1):
// income, the event roll and the command card draw, none of them in the
// side's own first turn (reading 1). Its events are kept in s.Opening for
// the order form and the report.
func (s *State) openTurn(r *resolver) {
	p := s.Player(s.Active)
	p.OwnTurn++
	r.own = p.OwnTurn
	r.phase = "income"
	s.returnAway(r)
	r.finishRepairs()
	if p.OwnTurn > 1 {
		income := 0
		for _, u := range s.Units {
			c := s.Card(u)
			if u.Side == s.Active && u.OnMap() && c.Income > 0 && s.working(u) {
				if u.Damaged {
					income += c.IncomeDamaged
				} else {
					income += c.Income
				}
			}
		}
		p.Treasury += income
		r.emit("income", "V.1", Hex{}, "", "%s income %d (FHQ and command posts) -> treasury %d", s.Active, income, p.Treasury)
		if s.Options.Events && len(s.EventDeck) > 0 {
			need := r.r.EventRollMax
			v := r.roll(10, "event", fmt.Sprintf("1-%d", need))
			if v <= need {
				n := s.EventDeck[0]
				s.EventDeck = s.EventDeck[1:]
				s.EventDiscard = append(s.EventDiscard, n)
				r.emit("event", "V.1", Hex{}, "", "event roll d10=%d (1-%d draws): %s drawn", v, need, s.lib.Events[n-1].Name)
				r.applyEvent(s.lib.Events[n-1])
			} else {
				r.emit("event", "V.1", Hex{}, "", "event roll d10=%d (1-%d draws): no event", v, need)
			}
		}
		if s.Options.Cards {
			r.drawCard()
		}
	}
	s.Opening = r.events
	r.events = nil
}

// drawCard draws one command card for the active side: only with its FHQ
// (§IV.1.9); a card beyond the hand limit is discarded at once (§III.7).
func (r *resolver) drawCard() {
	s := r.s
	p := s.Player(r.side)
	if !s.hasFHQ(r.side) {
		r.emit("card", "IV.1.9", Hex{}, "", "%s has no Forward HQ: no command card drawn", r.side)
		return
	}
	if len(s.CommandDeck) == 0 {
		r.emit("card", "III.7", Hex{}, "", "the command deck is empty")
		return
	}
	c := s.CommandDeck[0]
	s.CommandDeck = s.CommandDeck[1:]
	if len(p.Hand) >= r.r.HandLimit {
		s.CommandDiscard = append(s.CommandDiscard, c)
		r.emit("card", "III.7", Hex{}, "", "%s draws a command card over the hand limit of %d: %s discarded", r.side, r.r.HandLimit, c)
		return
	}
	p.Hand = append(p.Hand, c)
	r.emit("card", "V.1", Hex{}, r.side, "%s draws %s; hand: %s", r.side, c, strings.Join(p.Hand, ", "))
	r.emit("card", "V.1", Hex{}, "", "%s draws a command card (hand %d)", r.side, len(p.Hand))
	r.events[len(r.events)-1].Private = r.enemy
}

func (s *State) hasFHQ(side string) bool {
	for _, u := range s.Units {
		if u.Side == side && u.Code == "FHQ" && u.OnMap() && s.working(u) {
			return true
		}
	}
	return false
}

func (s *State) nextID(side, code string) string {
	n := 0
	for _, u := range s.Units {
		if u.Side == side && u.Code == code {
			_, k := splitID(u.ID)
			n = max(n, k)
		}
	}
	return fmt.Sprintf("%s-%d", code, n+1)
}

// experience rolls Table VIII.1 for a unit (or the crew that keeps it).
func (r *resolver) experience(u *Unit) string {
	v := r.roll(10, "experience "+u.ID, "5+")
	star, ok := starsByFace[v]
	if !ok {
		return fmt.Sprintf("d10=%d none", v)
	}
	if len(u.Stars) >= r.r.MaxStars || r.s.Card(u).Kind == "obstacle" {
		return fmt.Sprintf("d10=%d %s (no room)", v, star)
	}
	u.Stars = append(u.Stars, star)
	return fmt.Sprintf("d10=%d %s", v, star)
}
