package rules

import (
	"fmt"
	"strings"

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

func (v *validator) buys() {
	s, o := v.s, v.o
	if len(o.Buys) == 0 {
		return
	}
	p := s.Player(o.Side)
	if !s.ProductionTurn(o.Side) {
		v.add(o.Buys[0].Line, "V.2", "purchases only in the Production Phase of your turns 1, 6, 11... (this is your turn %d)", p.OwnTurn)
		return
	}
	total := 0
	crews := map[string]int{}
	need := map[string]int{}
	for _, b := range o.Buys {
		c := s.lib.Cards[b.Code]
		if c == nil {
			v.add(b.Line, "III.1", "no unit card %q (cards: %s)", b.Code, strings.Join(s.lib.Codes, " "))
			continue
		}
		if c.Country != o.Side && c.Country != "both" && c.Country != "neutral" {
			v.add(b.Line, "III.1.2", "%s is a %s unit: %s may not buy it", b.Code, c.Country, o.Side)
		}
		if isPost(c) {
			v.add(b.Line, "IV.1.3", "%s is staged where a land unit of yours stands: BUILD %s AT hex BY unit", b.Code, b.Code)
		} else if c.Kind == "structure" || c.Kind == "obstacle" {
			v.add(b.Line, "VI.5", "%s is built by engineers, not bought: BUILD %s AT hex BY engineer", b.Code, b.Code)
		}
		if b.Count < 1 {
			v.add(b.Line, "V.2", "BUY %s: count must be at least 1", b.Code)
		}
		if b.XP > 0 && (!s.Options.Experience || c.Kind != "infantry") {
			v.add(b.Line, "VIII.2", "experience rolls are bought for crews and squads, with the experience option on")
		}
		if b.XP > s.lib.Rules.ExperienceRollsMax {
			v.add(b.Line, "VIII.2", "at most %d experience rolls per unit", s.lib.Rules.ExperienceRollsMax)
		}
		total += b.Count * (c.Cost + b.XP*s.lib.Rules.ExperienceRollCost)
		if c.Crew != "" {
			crews[c.Crew] += b.Count
		}
		if c.Requires != "" {
			need[c.Requires] += b.Count
		}
	}
	for ability, n := range need {
		if crews[ability] < n {
			v.add(o.Buys[0].Line, "III.2.2", "%d unit(s) need a %s crew but only %d such crew(s) are bought with them", n, ability, crews[ability])
		}
	}
	if total > p.Treasury {
		v.add(o.Buys[0].Line, "V.2", "purchases cost %d, treasury is %d", total, p.Treasury)
	}
}

// builds checks constructions (§VI.5.3, Inset VI.2): in a Production
// Phase, obstacles or an airfield (plains only), one per engineer squad
// standing in the hex, paid from the treasury with the purchases.
func (v *validator) builds() {
	s, o := v.s, v.o
	if len(o.Builds) == 0 {
		return
	}
	p := s.Player(o.Side)
	if !s.ProductionTurn(o.Side) {
		v.add(o.Builds[0].Line, "VI.5.3", "construction begins only in the Production Phase of your turns 1, 6, 11... (this is your turn %d)", p.OwnTurn)
		return
	}
	total := 0
	for _, b := range o.Buys {
		if c := s.lib.Cards[b.Code]; c != nil {
			total += b.Count * (c.Cost + b.XP*s.lib.Rules.ExperienceRollCost)
		}
	}
	busy := map[string]bool{}
	for _, b := range o.Builds {
		c := s.lib.Cards[b.Code]
		switch {
		case c != nil && isPost(c):
			cost, _ := s.PostCost(o.Side, b.Code, b.Hex)
			total += cost
			v.commandPost(b)
			continue
		case c == nil || (c.Kind != "obstacle" && c.Structure != "airfield" && c.Structure != "bridge" && c.Structure != "emplacement"):
			v.add(b.Line, "VI.5.3", "BUILD %s: engineers build obstacles (MINES WIRE), airfields (AF), engineered bridges (EBR) and emplacements (PILLBOX); any land unit stages a command post (CP) or a new Forward HQ (FHQ)", b.Code)
			continue
		case c.Structure == "airfield" && s.Map.Terrain(b.Hex) != Plains:
			v.add(b.Line, "III.3.1", "BUILD AF at %s: airfields only on plains", b.Hex)
		}
		v.worksSite(b, c)
		total += c.Cost
		e := v.own(b.Line, b.By, "BUILD")
		if e == nil {
			continue
		}
		switch {
		case !s.Card(e).Engineer:
			v.add(b.Line, "VI.5.3", "%s is not a combat engineer squad", e.ID)
		case !e.OnMap() || e.In != "" || e.Hex != b.Hex:
			v.add(b.Line, "VI.5.3", "%s must stand in %s to build there", e.ID, b.Hex)
		case e.Building != "" || busy[e.ID]:
			v.add(b.Line, "VI.5.3", "%s is already building", e.ID)
		case e.Idle:
			v.add(b.Line, "V.3.2", "%s is idle for lack of supply", e.ID)
		}
		busy[e.ID] = true
	}
	if total > p.Treasury {
		v.add(o.Builds[0].Line, "VI.5.3", "purchases and constructions cost %d, treasury is %d", total, p.Treasury)
	}
	for _, m := range o.Moves {
		if busy[m.Unit] {
			v.add(m.Line, "Inset VI.2", "%s stays idle in its hex while it builds", m.Unit)
		}
	}
	for _, e := range o.Engagements {
		for _, id := range e.Units {
			if busy[id] {
				v.add(e.Line, "Inset VI.2", "%s stays idle in its hex while it builds", id)
			}
		}
	}
}

// commandPost checks BUILD CP|FHQ AT hex BY unit (§IV.1.3-1.5): a
// friendly land unit in the hex, at least 10 hexes from every other
// command post or FHQ of the side (staged ones included), at most the
// card's limit. A new Forward HQ follows "the rules for establishing a new
// Command Post" (Inset IV.4), one per side: none while the side has one,
// staged, converting or standing (§IV.1.4).
func (v *validator) commandPost(b Build) {
	s, o := v.s, v.o
	c := s.lib.Cards[b.Code]
	u := v.own(b.Line, b.By, "BUILD "+b.Code)
	if u != nil && (!u.OnMap() || u.In != "" || u.Hex != b.Hex || !s.Card(u).Land()) {
		v.add(b.Line, "IV.1.3", "%s must be a land unit standing in %s", u.ID, b.Hex)
	}
	if why := s.postSite(b.Hex); why != "" {
		v.add(b.Line, "IV.1.3", "BUILD %s AT %s: a command post cannot stand in %s (any passable, non-water, non-marsh space)", b.Code, b.Hex, why)
	}
	same := 0
	for _, x := range s.Units {
		xc := s.Card(x)
		if x.Side != o.Side || xc.Radius == 0 || xc.Kind == "ship" || x.Hex.IsZero() {
			continue
		}
		if x.Code == b.Code {
			same++
		}
		if d := Distance(x.Hex, b.Hex); d < 10 {
			v.add(b.Line, "IV.1.4", "BUILD %s at %s: %s is %d hexes away; command posts stand at least 10 from every other post and the FHQ", b.Code, b.Hex, x.ID, d)
		}
	}
	for _, other := range o.Builds {
		if other.Code == b.Code {
			same++
		}
	}
	if b.Code == "FHQ" && o.Convert != "" {
		same++
	}
	switch {
	case b.Code == "FHQ" && same > 1:
		v.add(b.Line, "IV.1.4", "BUILD FHQ: there may be only one Forward HQ per country (yours stands, is staged or converting)")
	case c.Limit > 0 && same > c.Limit:
		v.add(b.Line, "IV.1.3", "at most %d command posts", c.Limit)
	}
}

// dismountOrders checks `carrier UNLOAD unit` under an ENGAGE (§VI.3.3):
// both engaged, the unit a passenger of the carrier (aboard when the turn
// began, or taken aboard in this Movement Phase).
func (v *validator) dismountOrders(e Engagement) {
	s := v.s
	for _, d := range e.Dismount {
		carrier, pass := false, false
		for _, id := range e.Units {
			carrier = carrier || id == d.Carrier
			pass = pass || id == d.Unit
		}
		u := s.Unit(v.o.Side, d.Unit)
		aboard := u != nil && ((u.In == d.Carrier && u.Role == "passenger") || v.boarded[d.Unit] == d.Carrier)
		switch {
		case !carrier || !pass:
			v.add(d.Line, "VI.3.3", "%s UNLOAD %s: both must be among the engagement's units", d.Carrier, d.Unit)
		case !aboard:
			v.add(d.Line, "VI.3.3", "%s UNLOAD %s: %s is not a passenger of %s", d.Carrier, d.Unit, d.Unit, d.Carrier)
		}
	}
}

// isPost: a command post or Forward HQ card, staged by any land unit.
func isPost(c *Card) bool { return c != nil && c.Kind == "structure" && c.Radius > 0 }

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

// moves checks the Movement Phase. Units idled by the last turn's supply
// deficit are not refused: the Supply Phase before it supplies them again,
// since "the same Units MAY NOT be selected for the Supply Deficit two
// Operational Turns in a row" (§V.3.2, Example V.1: idle "until they are
// re-supplied, which must occur the following Operational Turn"); units
// this turn's deficit idles lose their orders when played.
func (v *validator) moves() {
	s, o := v.s, v.o
	p := s.Player(o.Side)
	loaded := map[string]string{}
	manned := map[string]bool{}
	pushed := 0
	for _, m := range o.Moves {
		u := v.own(m.Line, m.Unit, "MOVE")
		if u == nil {
			continue
		}
		c := s.Card(u)
		if v.mover[u.ID] {
			v.add(m.Line, "V.4", "%s has two move orders", u.ID)
			continue
		}
		v.mover[u.ID] = true
		switch {
		case !u.OnMap():
			v.add(m.Line, "V.6", "%s is not deployed", u.ID)
			continue
		case u.In != "" && loaded[u.ID] == "":
			v.add(m.Line, "VI.3", "%s is carried by %s and cannot move itself", u.ID, u.In)
			continue
		case u.Building != "":
			v.add(m.Line, "Inset VI.2", "%s is building %s and stays idle in its hex", u.ID, u.Building)
			continue
		case u.Repairing != 0:
			v.add(m.Line, "reading 23", "%s is still being repaired (put back by fighting) and stays idle", u.ID)
		case u.Captured && !s.crewed(u):
			v.add(m.Line, "VI.1.2", "captured %s needs a crew of yours (MAN) before it moves", u.ID)
			continue
		case u.SkipMove != 0 && u.SkipMove == p.OwnTurn:
			v.add(m.Line, "IV.3.5", "%s was pushed last turn and skips this Movement Phase", u.ID)
			continue
		}
		if m.Push {
			pushed++
			switch {
			case !s.Options.Cards || countCard(p.Hand, "Push") < pushed:
				v.add(m.Line, "IV.3.5", "PUSH: no Push card left in your hand")
			case c.Kind != "infantry" && u.Damaged:
				v.add(m.Line, "IV.3.5", "PUSH: never for a damaged mechanised unit (vehicles, tanks, aircraft, ships)")
			case u.PushTurn != 0 && p.OwnTurn-u.PushTurn < s.lib.Rules.PushInterval:
				v.add(m.Line, "IV.3.5", "PUSH: %s was pushed in your turn %d; once per %d Movement Phases", u.ID, u.PushTurn, s.lib.Rules.PushInterval)
			case !s.hasFHQ(o.Side) || !s.commanded(u) || s.modifier("signals-breakdown", o.Side):
				v.add(m.Line, "IV.3", "PUSH: %s is outside the command network (or no FHQ, or Signals Breakdown)", u.ID)
			}
		}
		if c.Kind == "aircraft" && !groundRepair(m, u) {
			v.sortie(m, u)
			continue
		}
		at := u.Hex
		steps, clearing := 0, 0
		allowance := s.Movement(u, m.Push)
		for _, st := range m.Steps {
			if st.Act == ActClear || st.Act == ActDetonate {
				clearing++
				if clearing == 2 {
					v.add(m.Line, "VI.5.4", "%s: a single Combat Engineer Squad clears or detonates a single obstacle in a Movement Phase", u.ID)
				}
			}
			switch st.Act {
			case ActEnter:
				if c.Move == 0 && u.In == "" {
					v.add(m.Line, "V.4", "%s has Movement 0: it is towed or stays", u.ID)
					break
				}
				if Distance(at, st.Hex) != 1 {
					v.add(m.Line, "V.4", "%s: %s is not next to %s", u.ID, st.Hex, at)
					break
				}
				switch t := s.Map.Terrain(st.Hex); {
				case c.Kind == "ship":
					v.shipEnter(m, u, st.Hex)
				case !s.Map.On(st.Hex):
					v.add(m.Line, "III.3", "%s: %s is off the map", u.ID, st.Hex)
				case t == Sea:
					v.add(m.Line, "III.3.1", "%s: %s is sea, for ships and landings only", u.ID, st.Hex)
				case t == Impassable:
					v.add(m.Line, "III.3.1", "%s: %s is impassable mountain", u.ID, st.Hex)
				case t == Swamp && c.Kind == "vehicle" && !s.Map.Road(at, st.Hex):
					v.add(m.Line, "III.3.1", "%s: vehicles enter swamp %s only along a road", u.ID, st.Hex)
				}
				steps++
				at = st.Hex
			case ActDig:
				if !c.DigIn {
					v.add(m.Line, "VI.2.4", "%s cannot dig in", u.ID)
				} else if len(m.Steps) != 1 {
					v.add(m.Line, "VI.2.4", "DIG takes %s's whole Movement Phase (idle): no other step", u.ID)
				} else if u.DugIn {
					v.add(m.Line, "VI.2.4", "%s is already dug in", u.ID)
				} else if s.shielded(u) {
					v.add(m.Line, "Glossary Emplacement", "%s occupies %s and may not dig in there", u.ID, u.Within)
				}
			case ActOccupy:
				v.occupyCheck(m.Line, u, at, st.Unit, st == m.Steps[len(m.Steps)-1])
			case ActRecon:
				if !c.Recon {
					v.add(m.Line, "VI.6", "%s has no Reconnaissance", u.ID)
				} else if Distance(at, st.Hex) > 1 {
					v.add(m.Line, "VI.6", "RECON %s: more than one hex from %s", st.Hex, at)
				} else if v.recon[u.ID] {
					v.add(m.Line, "VI.6", "%s reconnoitres once per Movement Phase", u.ID)
				}
				v.recon[u.ID] = true
			case ActLoad:
				q := v.own(m.Line, st.Unit, "LOAD")
				if q == nil {
					break
				}
				qc := s.Card(q)
				n := 0
				for _, x := range s.cargo(u) {
					if x.Role == "passenger" {
						n++
					}
				}
				for _, w := range loaded {
					if w == u.ID {
						n++
					}
				}
				switch {
				case c.Kind == "ship":
					v.shipLoad(m, u, q, at, n)
				case c.Transport == 0 && !(s.TakesRiders(c) && qc.Kind == "infantry"):
					v.add(m.Line, "VI.3", "%s carries no passengers", u.ID)
				case qc.Kind != "infantry" || (c.TeamsOnly && !qc.Team):
					v.add(m.Line, "VI.3", "%s cannot carry %s", u.ID, q.ID)
				case n >= max(c.Transport, 1):
					v.add(m.Line, "VI.3", "%s is full", u.ID)
				case q.Hex != at || q.In != "" || !q.OnMap():
					v.add(m.Line, "VI.3", "LOAD %s: it is not free in %s", q.ID, at)
				case v.mover[q.ID]:
					v.add(m.Line, "VI.3", "LOAD %s: it moved itself this phase", q.ID)
				}
				loaded[q.ID] = u.ID
				v.mover[q.ID] = true
			case ActUnload:
				q := s.Unit(o.Side, st.Unit)
				if q == nil || (q.In != u.ID && loaded[q.ID] != u.ID) || q.Role == "crew" {
					v.add(m.Line, "VI.3", "UNLOAD %s: %s does not carry it", st.Unit, u.ID)
				}
				if c.Kind == "ship" {
					v.shipUnload(m, u, at)
				}
				delete(loaded, st.Unit)
				v.unloaded[st.Unit] = at
			case ActHitch, ActUnhitch:
				g := v.own(m.Line, st.Unit, st.Act)
				if g == nil {
					break
				}
				gc := s.Card(g)
				if len(m.Steps) != 1 {
					v.add(m.Line, "VI.3.5", "%s takes %s's whole Movement Phase (idle)", st.Act, u.ID)
				}
				if st.Act == ActHitch {
					switch {
					case gc.Towed == "" || c.Tow == "":
						v.add(m.Line, "VI.3.5", "%s cannot tow %s", u.ID, g.ID)
					case towSize(gc.Towed) > towSize(c.Tow):
						v.add(m.Line, "VI.3.5", "%s's tow capacity %s is too small for %s (%s)", u.ID, c.Tow, g.ID, gc.Towed)
					case g.Hex != u.Hex || g.In != "":
						v.add(m.Line, "VI.3.5", "%s is not free in %s's hex", g.ID, u.ID)
					case s.towing(u) != nil:
						v.add(m.Line, "VI.3.5", "%s already tows a gun", u.ID)
					}
				} else if g.In != u.ID || g.Role != "towed" {
					v.add(m.Line, "VI.3.5", "%s does not tow %s", u.ID, g.ID)
				}
			case ActDetonate:
				hs := hexside(at, st.Hex)
				if !c.Engineer {
					v.add(m.Line, "VI.5", "%s is not a combat engineer", u.ID)
				} else if st.Hex == at {
					v.portDetonateCheck(m.Line, u, at, st.Hex)
				} else if Distance(at, st.Hex) != 1 || (s.Bridges[hs] != "intact" && s.engineeredBridge(hs) == nil) {
					v.add(m.Line, "VII.4", "DETONATE %s: no intact bridge between %s and %s", st.Hex, at, st.Hex)
				}
			case ActClear:
				if !c.Engineer {
					v.add(m.Line, "VI.5", "%s is not a combat engineer", u.ID)
				}
			case ActRepair:
				switch {
				case len(m.Steps) != 1:
					v.add(m.Line, "VI.4", "REPAIR takes %s's whole turn (idle): no other step", u.ID)
				case !u.Damaged:
					v.add(m.Line, "VI.4", "%s is not damaged", u.ID)
				case c.Kind == "infantry":
					v.add(m.Line, "VI.4", "infantry is not repaired but merged: MERGE with an identical damaged unit")
				case !v.repairable(u):
					v.add(m.Line, "VI.4", "%s can be repaired only at a friendly CP or FHQ standing this turn, not one taken down by RELOCATE (aircraft at a friendly airfield)", u.ID)
				}
			case ActMerge:
				q := s.Unit(o.Side, st.Unit)
				switch {
				case len(m.Steps) != 1:
					v.add(m.Line, "VI.4", "MERGE takes %s's whole turn (idle): no other step", u.ID)
				case q == nil || q == u || q.Code != u.Code || c.Kind != "infantry":
					v.add(m.Line, "VI.4", "MERGE %s: two identical infantry units merge", st.Unit)
				case !u.Damaged || !q.Damaged || q.Hex != u.Hex || !q.OnMap() || q.In != "":
					v.add(m.Line, "VI.4", "MERGE %s: both must be damaged and together in %s", st.Unit, u.Hex)
				case v.mover[q.ID]:
					v.add(m.Line, "VI.4", "MERGE %s: it moves this phase", st.Unit)
				}
				v.mover[st.Unit] = true
			case ActMan:
				if last := m.Steps[len(m.Steps)-1]; last.Act != ActMan || last.Unit != st.Unit {
					v.add(m.Line, "III.2.2", "MAN %s ends %s's move: no step after it", st.Unit, u.ID)
				}
				v.manCheck(m, u, at, st.Unit, manned)
			}
		}
		if steps > allowance {
			v.add(m.Line, "V.4", "%s moves %d hexes, its Movement is %d", u.ID, steps, allowance)
		}
		if m.HitAndRun {
			if !c.HitAndRun {
				v.add(m.Line, "Glossary Hit & Run", "%s has no Hit & Run", u.ID)
			} else if steps > allowance-1 {
				v.add(m.Line, "Glossary Hit & Run", "a Hit & Run unit moves at most one less than its Movement (%d)", allowance-1)
			}
		}
		v.dest[u.ID] = at
		for q, carrier := range loaded {
			if carrier == u.ID {
				v.dest[q] = at
			}
		}
		for _, x := range s.cargo(u) {
			v.dest[x.ID] = at
		}
		for q, h := range v.unloaded {
			v.dest[q] = h
		}
	}
	v.boarded = loaded
}

// repairable: a CP or FHQ of the side in the unit's hex, or for an
// aircraft a friendly airfield.
func (v *validator) repairable(u *Unit) bool {
	s := v.s
	if s.Card(u).Kind == "aircraft" {
		return s.repairField(u) != nil
	}
	for _, c := range s.UnitsAt(u.Hex) {
		if c.Side == u.Side && s.Card(c).Radius > 0 && !v.relocated(c) {
			return true
		}
	}
	return false
}

// groundRepair: a grounded aircraft's move that is only REPAIR stays on
// its airfield: no sortie (§VI.4.1).
func groundRepair(m Move, u *Unit) bool {
	return !u.Aloft && len(m.Steps) == 1 && m.Steps[0].Act == ActRepair
}

// repairField is the airfield a grounded aircraft is repaired at: "any
// controlled Airfield" (§VI.4.1), whoever built it (airfields are neutral
// structures, §VII.5).
func (s *State) repairField(u *Unit) *Unit {
	if u.Aloft || s.Control[u.Hex] != u.Side {
		return nil
	}
	return s.airfieldAt(u.Hex)
}

// relocated: a post this turn's RELOCATE takes down before the Movement
// Phase, so no repair begins at it.
func (v *validator) relocated(cp *Unit) bool {
	for _, rl := range v.o.Relocate {
		if rl.Post == cp.ID && cp.Side == v.o.Side {
			return true
		}
	}
	return false
}

// encircle checks Encircle orders (§IV.3.3, reading 16): the card, and
// own units in at least three distinct hexes around the target after
// their moves, the open hex next to it.
func (v *validator) encircle() {
	s, o := v.s, v.o
	p := s.Player(o.Side)
	for i, e := range o.Encircle {
		if !s.Options.Cards || countCard(p.Hand, "Encircle") <= i {
			v.add(e.Line, "IV.3.3", "ENCIRCLE: no Encircle card left in your hand")
			continue
		}
		if !s.hasFHQ(o.Side) || s.modifier("signals-breakdown", o.Side) {
			v.add(e.Line, "IV.3", "ENCIRCLE: command cards need your Forward HQ (and no Signals Breakdown)")
		}
		if Distance(e.Hex, e.Open) != 1 {
			v.add(e.Line, "IV.3.3", "ENCIRCLE %s OPEN %s: the open hex must border the target", e.Hex, e.Open)
		}
		hexes := map[Hex]bool{}
		for _, u := range s.Units {
			if u.Side != o.Side || !u.OnMap() || u.In != "" || !s.Card(u).Land() {
				continue
			}
			at := u.Hex
			if d, ok := v.dest[u.ID]; ok {
				at = d
			}
			if Distance(at, e.Hex) == 1 && at != e.Open && s.commanded(u) {
				hexes[at] = true
			}
		}
		if len(hexes) < 3 {
			v.add(e.Line, "IV.3.3", "ENCIRCLE %s: your land units (inside the command network) stand in %d hex(es) around it after moving; three are needed", e.Hex, len(hexes))
		}
		if !s.enemyLand(o.Side, e.Hex) {
			v.add(e.Line, "IV.3.3", "ENCIRCLE %s: no enemy land units there", e.Hex)
		}
	}
}

// bridgeTargetCheck: a bridge is shot at from an engagement at one of its
// ends, with a heavy weapon in range (§VII.4.4).
func (v *validator) bridgeTargetCheck(e Engagement, id string, u *Unit, hs Side2) {
	s := v.s
	line := e.Line
	if l, ok := e.TargetLines[id]; ok {
		line = l
	}
	if u == nil {
		return
	}
	if s.Bridges[hs] != "intact" || (hs.A != e.Hex && hs.B != e.Hex) {
		v.add(line, "VII.4.4", "%s AT BRIDGE:%s: no intact bridge with an end at %s", id, hs, e.Hex)
		return
	}
	at := u.Hex
	if d, ok := v.dest[id]; ok {
		at = d
	}
	for _, w := range s.Card(u).Weapons {
		if s.BreaksBridges(w) && Distance(at, e.Hex) <= w.Range {
			return
		}
	}
	v.add(line, "VII.4", "%s AT BRIDGE:%s: only a 155 mm class shell or a bomb larger than 500 lb in range brings an existing bridge down", id, hs)
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

// sortie checks an aircraft's flight (§VI.2.2-2.3, reading 19).
func (v *validator) sortie(m Move, u *Unit) {
	s := v.s
	if !u.Aloft {
		if s.modifier("low-cloud", u.Side) {
			v.add(m.Line, "design 2.2", "Low Cloud: no aircraft take off")
		}
		if s.airfieldAt(u.Hex) == nil {
			v.add(m.Line, "VI.2.2", "%s is not at an airfield", u.ID)
		}
	}
	at := u.Hex
	n := 0
	for _, st := range m.Steps {
		if st.Act != ActEnter {
			v.add(m.Line, "VI.2.2", "%s: aircraft fly a path of hexes only", u.ID)
			continue
		}
		if !s.Map.On(st.Hex) || Distance(at, st.Hex) != 1 {
			v.add(m.Line, "VI.2.2", "%s: %s is not next to %s on the map", u.ID, st.Hex, at)
		}
		at = st.Hex
		n++
	}
	tof := u.TOF
	if !u.Aloft {
		tof = s.Card(u).TOF
	}
	allow := s.Movement(u, m.Push)
	if !m.Land.IsZero() {
		if s.airfieldAt(m.Land) == nil {
			v.add(m.Line, "VI.2.2", "%s: LAND %s: no airfield there", u.ID, m.Land)
		}
		n += Distance(at, m.Land)
	} else if tof <= 1 {
		v.add(m.Line, "VI.2.3", "%s has one turn of flight: its sortie must end on a friendly airfield (LAND hex)", u.ID)
	}
	if n > allow {
		v.add(m.Line, "VI.2.2", "%s flies %d hexes out and home, its Movement is %d", u.ID, n, allow)
	}
	v.dest[u.ID] = at
}

func (v *validator) engagements() {
	s, o := v.s, v.o
	p := s.Player(o.Side)
	used := map[string]bool{}
	for _, e := range o.Engagements {
		if !s.Map.On(e.Hex) {
			v.add(e.Line, "V.5", "ENGAGE %s: off the map", e.Hex)
			continue
		}
		for _, id := range e.Units {
			u := v.own(e.Line, id, "ENGAGE")
			if u == nil {
				continue
			}
			if used[id] {
				v.add(e.Line, "V.5.3", "%s takes part in one engagement per Combat Phase", id)
			}
			used[id] = true
			at, ok := v.dest[id]
			if !ok {
				at = u.Hex
			}
			switch {
			case !u.OnMap():
				v.add(e.Line, "V.6", "%s is not deployed", id)
			case v.recon[id]:
				v.add(e.Line, "VI.6", "%s reconnoitred this turn and may not fight", id)
			case u.Building != "":
				v.add(e.Line, "Inset VI.2", "%s is building %s and stays idle", id, u.Building)
			case u.Repairing != 0:
				v.add(e.Line, "reading 23", "%s is still being repaired (put back by fighting) and stays idle", id)
			case (u.In != "" && u.Role == "towed"):
				v.add(e.Line, "VI.3.5", "%s is hitched for towing and cannot fire", id)
			case u.In != "" && !v.wasUnloaded(id) && !s.firesAboard(u) && !e.Dismounts(id):
				v.add(e.Line, "VI.3", "%s is carried by %s: unload it first", id, u.In)
			default:
				reach := -1
				for _, w := range s.Card(u).Weapons {
					reach = max(reach, w.Range)
				}
				if d := Distance(at, e.Hex); reach < 0 || d > reach {
					v.add(e.Line, "V.5.2", "%s (at %s) cannot reach %s, %s away: %s", id, at, e.Hex, hexCount(d), reachAdvice(e.Hex, reach))
				}
			}
		}
		for id, tk := range e.Targets {
			u := s.Unit(o.Side, id)
			if hs, ok := bridgeTarget(tk); ok {
				v.bridgeTargetCheck(e, id, u, hs)
				continue
			}
			if h, ok := PortTarget(tk); ok {
				v.portTargetCheck(e, id, u, h)
				continue
			}
			side, tid, _ := strings.Cut(tk, ":")
			t := s.Unit(side, tid)
			if u == nil {
				continue
			}
			line := e.Line
			if l, ok := e.TargetLines[id]; ok {
				line = l
			}
			if side == o.Side || t == nil || !t.OnMap() || (t.Hidden && !t.Found) {
				v.add(line, "V.5.2", "%s AT %s: no enemy unit %s you can see", id, tk, tk)
				continue
			}
			at := u.Hex
			if d, ok := v.dest[id]; ok {
				at = d
			}
			probe := *u
			probe.Hex = at
			any := false
			for _, w := range s.Card(u).Weapons {
				any = any || s.CanAffect(&probe, w, t)
			}
			if !any {
				v.add(line, "VI.7.2", "%s AT %s: none of its weapons can affect it from %s (range, targets allowed, or bullets against Defense %d)", id, tk, at, s.Defense(t))
			}
		}
		if e.Mission != nil {
			fo := v.own(e.Line, e.Mission.FO, "MISSION")
			if fo != nil && !s.Card(fo).FireMissions {
				v.add(e.Line, "VI.7.6", "%s cannot call fire missions", fo.ID)
			}
			for _, g := range e.Mission.Guns {
				u := v.own(e.Line, g, "MISSION")
				if u == nil {
					continue
				}
				indirect := false
				for _, w := range s.Card(u).Weapons {
					indirect = indirect || w.Indirect
				}
				in := false
				for _, id := range e.Units {
					in = in || id == g
				}
				if !indirect || !in {
					v.add(e.Line, "VI.7.6", "%s: mission guns need Indirect Fire and must be among the engaged units", g)
				}
			}
		}
		v.smokeOrders(e)
		v.dismountOrders(e)
		if e.Exit != 0 && (e.Exit < 2 || e.Exit%2 != 0) {
			v.add(e.Line, "VI.2.3", "EXIT %d: aircraft leave after an even number of rounds", e.Exit)
		}
		if e.Withdraw != nil || e.Surrender != nil {
			grounded := false
			for _, id := range e.Units {
				if u := s.Unit(o.Side, id); u != nil && s.Card(u).Kind != "aircraft" {
					grounded = true
				}
			}
			if !grounded {
				v.add(e.Line, "VI.2.3", "WITHDRAW and SURRENDER do not apply to aircraft in flight: the engagement has no other unit")
			}
		}
		for _, card := range []string{"Suspend", "Withdraw", "Inspire", "CeaseFire", "Surrender"} {
			want := map[string]bool{"Suspend": e.Suspend != nil, "Withdraw": e.Withdraw != nil, "Inspire": e.Inspire, "CeaseFire": e.CeaseFire != nil, "Surrender": e.Surrender != nil}[card]
			if want && (!s.Options.Cards || !p.holds(card)) {
				v.add(e.Line, "IV.3", "%s: no %s card in your hand", strings.ToUpper(card), card)
			}
		}
	}
}

func (v *validator) deploys() {
	s, o := v.s, v.o
	p := s.Player(o.Side)
	rush := map[string]bool{}
	if len(o.Rush) > 0 {
		if !s.Options.Cards || !p.holds("Rush") {
			v.add(0, "IV.3.6", "RUSH: no Rush card in your hand")
		} else if !s.hasFHQ(o.Side) || s.modifier("signals-breakdown", o.Side) {
			v.add(0, "IV.3", "RUSH: command cards need your Forward HQ (and no Signals Breakdown)")
		}
		for _, id := range o.Rush {
			u := v.own(0, id, "RUSH")
			if u == nil {
				continue
			}
			if u.Staged <= 0 || u.Staged >= p.OwnTurn {
				v.add(0, "IV.3.6", "RUSH %s: only units staged in an earlier turn", id)
			}
			rush[id] = true
		}
	}
	scheduled := s.DeploymentTurn(o.Side) || s.modifier("priority-shipping", o.Side)
	seen := map[string]bool{}
	for _, d := range o.Deploys {
		u := v.own(d.Line, d.Unit, "DEPLOY")
		if u == nil {
			continue
		}
		if seen[u.ID] {
			v.add(d.Line, "V.6", "%s deployed twice", u.ID)
		}
		seen[u.ID] = true
		switch {
		case u.Staged <= 0:
			v.add(d.Line, "V.6", "%s is not staged", u.ID)
		case u.In != "":
			v.add(d.Line, "V.6", "%s deploys inside %s", u.ID, u.In)
		case builtInPlace(s.Card(u)):
			v.add(d.Line, "IV.1.3", "%s is not deployed: it is set up where it was staged, at %s, at a Deployment Phase (§IV.1.3, §VI.5.3)", u.ID, u.Hex)
		case !scheduled && !rush[u.ID]:
			v.add(d.Line, "V.6", "deployment at the end of your turns 5, 10, 15... (this is your turn %d); or play RUSH", p.OwnTurn)
		case u.Staged >= p.OwnTurn:
			v.add(d.Line, "V.2", "%s was bought this turn: it deploys at a later Deployment Phase", u.ID)
		case d.On != "" || s.Card(u).Kind == "ship":
			v.navalDeploy(d, u)
		case !s.CanDeployAt(u, d.Hex):
			v.add(d.Line, "V.6", "%s: %s is not a port (airfield for aircraft) you control", u.ID, d.Hex)
		}
	}
	for id := range rush {
		if !seen[id] {
			v.add(0, "IV.3.6", "RUSH %s: say where with DEPLOY %s AT hex", id, id)
		}
	}
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

// convert checks CONVERT cp (§IV.1.9): an own command post on the map,
// half an FHQ's price in the treasury with the purchases.
func (v *validator) convert() {
	s, o := v.s, v.o
	if o.Convert == "" {
		return
	}
	u := v.own(0, o.Convert, "CONVERT")
	if u == nil {
		return
	}
	if u.Code != "CP" || !u.OnMap() {
		v.add(0, "IV.1.9", "CONVERT %s: only a command post on the map becomes the new FHQ", u.ID)
	}
	cost := (s.lib.Cards["FHQ"].Cost*s.lib.Rules.ConvertCostPercent + 99) / 100
	spent := 0
	for _, b := range o.Buys {
		if c := s.lib.Cards[b.Code]; c != nil {
			spent += b.Count * (c.Cost + b.XP*s.lib.Rules.ExperienceRollCost)
		}
	}
	for _, b := range o.Builds {
		if c := s.lib.Cards[b.Code]; c != nil {
			cost := c.Cost
			if c.Code == "CP" {
				cost, _ = s.CommandPostCost(o.Side, b.Hex)
			}
			spent += cost
		}
	}
	if p := s.Player(o.Side); spent+cost > p.Treasury {
		v.add(0, "IV.1.9", "CONVERT costs %d with %d of purchases; treasury is %d", cost, spent, p.Treasury)
	}
}

// ValidateStanding checks a side's standing orders alone, as sent in a
// REACT-only mail while the other side is active.
func (s *State) ValidateStanding(side string, st Standing) []engine.Problem {
	v := &validator{s: s, o: Orders{Side: side}}
	v.standing(&st)
	return v.probs
}

// reachAdvice says what a unit out of reach of an engagement must do: move
// into the hex with range 0, or within its range.
func reachAdvice(target Hex, reach int) string {
	switch {
	case reach < 0:
		return "it has no weapon to fight with"
	case reach == 0:
		return fmt.Sprintf("its weapons have range 0, so it must move into %s (a MOVE line) to fight there", target)
	}
	return fmt.Sprintf("its range is %d: move it to within %d hexes of %s first", reach, reach, target)
}

// hexCount is a distance in words: "1 hex", "3 hexes".
func hexCount(d int) string {
	if d == 1 {
		return "1 hex"
	}
	return fmt.Sprintf("%d hexes", d)
}
