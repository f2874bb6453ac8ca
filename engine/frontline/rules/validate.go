package rules

import (
	"fmt"

	"fieldpost/engine"
)

// Validate checks orders against the position before anything is played
// and returns every problem, each with its line and the rule it breaks.
// Chance can still stop an accepted order (a failed entry check, a unit
// destroyed first); the turn then reports why it lapsed.
func (s *State) Validate(o Orders) []engine.Problem {
	v := &validator{s: s, o: o, dest: map[string]Hex{}, mover: map[string]bool{}, recon: map[string]bool{}, unloaded: map[string]Hex{}}
	if s.Over {
		v.add(0, "II.2", "the game is over")
		return v.probs
	}
	if o.Side != s.Active {
		v.add(0, "V", "it is %s's turn, not %s's", s.Active, o.Side)
		return v.probs
	}
	v.buys()
	v.builds()
	v.idle()
	v.moves()
	v.encircle()
	v.engagements()
	v.deploys()
	v.convert()
	v.relocations()
	v.standing(o.Standing)
	return v.probs
}

type validator struct {
	s     *State
	o     Orders
	probs []engine.Problem
	dest  map[string]Hex // where each unit ends its move
	mover map[string]bool
	recon map[string]bool

	// unloaded are the passengers put down in the Movement Phase, where;
	// boarded, those taken aboard and still carried, by carrier.
	unloaded map[string]Hex
	boarded  map[string]string
}

func (v *validator) add(line int, section, format string, a ...any) {
	v.probs = append(v.probs, engine.Problem{Line: line, Rule: Reference(section), Text: fmt.Sprintf(format, a...)})
}

func (v *validator) own(line int, id, what string) *Unit {
	u := v.s.Unit(v.o.Side, id)
	if u == nil {
		v.add(line, "III.2.1", "%s: no unit %s of yours", what, id)
	}
	return u
}

func (v *validator) idle() {
	s, o := v.s, v.o
	for _, id := range o.Idle {
		u := v.own(0, id, "IDLE")
		if u == nil {
			continue
		}
		if u.IdleTurn != 0 && u.IdleTurn == s.Player(o.Side).OwnTurn-1 {
			v.add(0, "V.3.2", "IDLE %s: it was idle last turn; never the same units two turns running", id)
		}
		if !s.supplied(u) || !u.OnMap() || s.inFlight(u) {
			v.add(0, "V.3.2", "IDLE %s: only deployed supplied units on the ground may be idled (not aircraft in flight or their crews, Inset V.5)", id)
		}
		building := false
		for _, b := range o.Builds {
			building = building || (b.By == id && !isPost(s.lib.Cards[b.Code]))
		}
		if s.atWork(u) || building {
			v.add(0, "Inset V.5", "IDLE %s: it is at work (building, repairing or merging): supply deficits are not applied to units spending idle turns on a function", id)
		}
	}
}

func countCard(hand []string, card string) int {
	n := 0
	for _, c := range hand {
		if c == card {
			n++
		}
	}
	return n
}

func (v *validator) standing(st *Standing) {
	if st == nil {
		return
	}
	s := v.s
	for _, i := range st.Interdict {
		fo := v.own(i.Line, i.FO, "INTERDICT")
		if fo != nil && !s.Card(fo).FireMissions {
			v.add(i.Line, "VI.7.6", "%s cannot call fire missions", fo.ID)
		}
		for _, g := range i.Guns {
			u := v.own(i.Line, g, "INTERDICT")
			if u != nil && (len(s.Card(u).Weapons) == 0 || !s.Card(u).Weapons[0].Indirect) {
				v.add(i.Line, "VI.7.6", "%s has no Indirect Fire", g)
			}
		}
	}
	for _, c := range st.Support {
		fo := v.own(c.Line, c.FO, "SUPPORT")
		if fo != nil && !s.Card(fo).FireMissions {
			v.add(c.Line, "VI.7.6", "%s cannot call fire missions", fo.ID)
		}
		for _, g := range c.Guns {
			if u := v.own(c.Line, g, "SUPPORT"); u != nil && (len(s.Card(u).Weapons) == 0 || !s.Card(u).Weapons[0].Indirect) {
				v.add(c.Line, "VI.7.6", "%s has no Indirect Fire", g)
			}
		}
	}
	for _, c := range st.Cover {
		fo := v.own(c.Line, c.FO, "COVER")
		if fo != nil && !s.Card(fo).FireMissions {
			v.add(c.Line, "VI.7.6", "%s cannot call fire missions", fo.ID)
		}
		for _, g := range c.Guns {
			u := v.own(c.Line, g, "COVER")
			if u != nil && (len(s.Card(u).Weapons) == 0 || !s.Card(u).Weapons[0].Indirect) {
				v.add(c.Line, "VI.7.6", "%s has no Indirect Fire", g)
			}
			for _, e := range v.o.Engagements {
				for _, id := range e.Units {
					if id == g {
						v.add(c.Line, "VI.7.6.2", "COVER: %s fights this turn; Cover is declared instead of combat", g)
					}
				}
			}
		}
	}
	for _, id := range st.RetaliateUnits {
		v.own(0, id, "RETALIATE")
	}
	for _, id := range st.Scramble {
		if u := v.own(0, id, "SCRAMBLE"); u != nil && s.Card(u).Kind != "aircraft" {
			v.add(0, "VI.7.1", "SCRAMBLE %s: not an aircraft", id)
		}
	}
}

// ValidateStanding checks a side's standing orders alone, as sent in a
// REACT-only mail while the other side is active.
func (s *State) ValidateStanding(side string, st Standing) []engine.Problem {
	v := &validator{s: s, o: Orders{Side: side}}
	v.standing(&st)
	return v.probs
}
