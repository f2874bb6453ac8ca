package rules

import (
	"fmt"
	"strings"
)

// Movement returns a unit's movement this phase (§V.4): its card (the
// damaged side halved), less one when towing, with events in force; Push
// adds one hex, three for aircraft (§IV.3.5).
func (s *State) Movement(u *Unit, push bool) int {
	c := s.Card(u)
	m := c.Move
	if u.Damaged {
		if c.Damaged.Move != nil {
			m = *c.Damaged.Move
		} else {
			m = (m + 1) / 2
		}
	}
	if c.Kind == "vehicle" {
		if s.towing(u) != nil {
			m -= s.lib.Rules.TowMovementLoss
		}
		if s.modifier("fuel-shortage", u.Side) {
			m = (m + 1) / 2
		}
		if s.modifier("heavy-rain", u.Side) {
			m = max(m-1, 1)
		}
	}
	if c.Kind == "aircraft" && s.modifier("clear-skies", u.Side) {
		m += 2
	}
	if push {
		if c.Kind == "aircraft" {
			m += s.lib.Rules.PushAirHexes
		} else {
			m += s.lib.Rules.PushHexes
		}
	}
	return max(m, 0)
}

// towing returns the gun a unit tows, if any.
func (s *State) towing(u *Unit) *Unit {
	for _, g := range s.Units {
		if g.Side == u.Side && g.In == u.ID && g.Role == "towed" {
			return g
		}
	}
	return nil
}

// cargo lists the units carried by, crewing or towed by u.
func (s *State) cargo(u *Unit) []*Unit {
	var out []*Unit
	for _, c := range s.Units {
		if c.Side == u.Side && c.In == u.ID {
			out = append(out, c)
		}
	}
	return out
}

// enemyLand reports enemy land units (not carried) in h.
func (s *State) enemyLand(side string, h Hex) bool {
	for _, u := range s.UnitsAt(h) {
		if u.Side != side && u.In == "" && s.Card(u).Land() {
			return true
		}
	}
	return false
}

// movement plays the Movement Phase: each unit's order in written order.
func (r *resolver) movement(o Orders) {
	r.phase = "movement"
	for _, m := range o.Moves {
		u := r.s.Unit(r.side, m.Unit)
		if u == nil || !u.OnMap() {
			r.emit("move", "V.4", Hex{}, r.side, "%s is no longer on the map: its order lapses", m.Unit)
			continue
		}
		if u.Idle {
			r.emit("move", "V.3.2", u.Hex, r.side, "%s is idle for lack of supply: its order lapses", u.ID)
			continue
		}
		if m.Push {
			r.s.spend(r.s.Player(r.side), "Push")
			u.PushTurn = r.own
			if r.s.Card(u).Kind == "infantry" {
				u.SkipMove = r.own + 1
			}
			r.emit("card", "IV.3.5", u.Hex, "", "%s plays Push for %s", r.side, u.ID)
		}
		if r.s.Card(u).Kind == "aircraft" && !groundRepair(m, u) {
			r.sortie(u, m)
			continue
		}
		if m.HitAndRun {
			r.hitAndRun[u.Key()] = true
			r.emit("move", "Glossary Hit & Run", u.Hex, r.side, "%s declares Hit & Run", u.ID)
		}
		r.moveUnit(u, m)
	}
	for _, e := range o.Encircle {
		r.encircle(e)
	}
}

// moveUnit walks one ground unit's steps. A failed entry check or an
// enemy hex ends the move (reading 9, 10). An obstacle or an enemy hex
// stops the unit where it is, but an engineer still clears or detonates
// there: the book's engineer "moves ... into a hex containing a Minefield"
// and clears it "this Movement Phase" (§VI.5.4).
func (r *resolver) moveUnit(u *Unit, m Move) {
	s := r.s
	left := s.Movement(u, m.Push)
	stopped := false
	for _, st := range m.Steps {
		if stopped && st.Act != ActClear && st.Act != ActDetonate {
			continue
		}
		switch st.Act {
		case ActEnter:
			if left <= 0 {
				r.emit("move", "V.4", u.Hex, r.side, "%s has no movement left for %s", u.ID, st.Hex)
				return
			}
			from := u.Hex
			ok := r.enterCheck(u, from, st.Hex)
			if !ok {
				return
			}
			left--
			r.prevHex[u.Key()] = from
			r.place(u, st.Hex)
			r.moved[u.Key()] = true
			u.DugIn = false
			u.Revealed = false
			u.Found = false
			u.Hidden = s.Card(u).Hidden
			r.emit("move", "V.4", st.Hex, r.visibility(), "%s moves %s -> %s", u.ID, from, st.Hex)
			if r.obstacles(u) {
				if !u.OnMap() {
					return
				}
				stopped = true
				continue
			}
			if s.enemyLand(u.Side, st.Hex) {
				r.emit("move", "reading 9", st.Hex, r.visibility(), "%s enters a hex held by the enemy and stops", u.ID)
				stopped = true
			}
		case ActLoad:
			p := s.Unit(r.side, st.Unit)
			p.In, p.Role = u.ID, "passenger"
			p.DugIn = false
			r.moved[p.Key()] = true
			r.emit("move", "VI.3", u.Hex, r.side, "%s loads %s", u.ID, p.ID)
		case ActUnload:
			p := s.Unit(r.side, st.Unit)
			p.In, p.Role = "", ""
			p.Hex = u.Hex
			r.emit("move", "VI.3", u.Hex, r.side, "%s unloads %s at %s", u.ID, p.ID, u.Hex)
		case ActHitch:
			g := s.Unit(r.side, st.Unit)
			g.In, g.Role = u.ID, "towed"
			r.moved[u.Key()], r.moved[g.Key()] = true, true
			r.emit("move", "VI.3.5", u.Hex, r.side, "%s hitches %s (an idle Movement Phase)", u.ID, g.ID)
		case ActUnhitch:
			g := s.Unit(r.side, st.Unit)
			g.In, g.Role = "", ""
			r.moved[u.Key()], r.moved[g.Key()] = true, true
			r.emit("move", "VI.3.5", u.Hex, r.side, "%s unhitches %s (an idle Movement Phase)", u.ID, g.ID)
		case ActDig:
			need := r.r.DigInRoll
			v := r.roll(6, "dig in "+u.ID, fmt.Sprintf("%d+", need))
			r.moved[u.Key()] = true
			if v >= need {
				u.DugIn = true
				r.emit("dig", "VI.2.4", u.Hex, r.side, "%s digs in: d6=%d vs %d+ -> dug in, Defense +%d", u.ID, v, need, r.r.DigInDefense)
			} else {
				r.emit("dig", "VI.2.4", u.Hex, r.side, "%s digs in: d6=%d vs %d+ -> fails", u.ID, v, need)
			}
		case ActRecon:
			r.reconnoitre(u, st.Hex)
		case ActDetonate:
			r.detonate(u, st.Hex)
		case ActClear:
			r.clear(u, st.Unit)
		case ActRepair:
			r.startRepair(u)
		case ActMerge:
			r.startMerge(u, st.Unit)
		case ActOccupy:
			r.occupy(u, st.Unit)
		case ActMan:
			r.man(u, st.Unit)
		}
	}
}

// visibility: movement is private to the mover under fog of war (its
// enemy sees the result in its view only where it may), public otherwise.
func (r *resolver) visibility() string {
	if r.s.Options.Fog {
		return r.side
	}
	return ""
}

// place moves a unit and everything it carries, tows and their crews.
func (r *resolver) place(u *Unit, h Hex) {
	u.Hex = h
	u.Within = "" // leaving its hex, a unit leaves its emplacement
	for _, c := range r.s.cargo(u) {
		r.place(c, h)
	}
}

// enterCheck applies the entry checks of §III.3.1 for one step; a failure
// leaves the unit where it was and ends its move.
func (r *resolver) enterCheck(u *Unit, from, to Hex) bool {
	s := r.s
	c := s.Card(u)
	t := s.Map.Terrain(to)
	if c.Kind == "ship" {
		return true
	}
	vehicle := c.Kind == "vehicle"
	road := s.Map.Road(from, to)
	if s.Map.River(from, to) && s.Bridges[hexside(from, to)] != "intact" && !s.bridgeCarries(u, hexside(from, to)) {
		need := r.r.RiverInfantry
		if vehicle {
			need = r.r.RiverVehicle
		} else if s.friendlyEngineer(u, from) {
			need = r.r.RiverInfantryEngineer
		}
		if s.modifier("heavy-rain", u.Side) {
			need++
		}
		if !r.check(u, need, fmt.Sprintf("%s crosses the river %s->%s", u.ID, from, to), "III.3.1", to) {
			if vehicle {
				u.Damaged = true
				r.emit("move", "III.3.1", from, r.visibility(), "%s fails the ford: damaged, stays in %s", u.ID, from)
			}
			return false
		}
	}
	switch t {
	case Swamp:
		if !vehicle && !road {
			if !r.check(u, r.r.SwampInfantry, fmt.Sprintf("%s enters the swamp %s", u.ID, to), "III.3.1", to) {
				return false
			}
		}
	case Mountain:
		if vehicle && !road {
			if !r.check(u, r.r.MountainVehicle, fmt.Sprintf("%s enters the mountains %s", u.ID, to), "III.3.1", to) {
				return false
			}
		}
	}
	return true
}

// check rolls a d10 entry check, with Local Guides' one re-roll.
func (r *resolver) check(u *Unit, need int, what, section string, h Hex) bool {
	v := r.roll(10, what, fmt.Sprintf("%d+", need))
	if v >= need {
		r.emit("check", section, h, r.visibility(), "%s: d10=%d vs %d+ -> passes", what, v, need)
		return true
	}
	if r.s.modifier("local-guides", u.Side) {
		r.s.dropModifier("local-guides", u.Side)
		v2 := r.roll(10, what+" (Local Guides re-roll)", fmt.Sprintf("%d+", need))
		if v2 >= need {
			r.emit("check", section, h, r.visibility(), "%s: d10=%d fails, Local Guides re-roll d10=%d vs %d+ -> passes", what, v, v2, need)
			return true
		}
		r.emit("check", section, h, r.visibility(), "%s: d10=%d fails, Local Guides re-roll d10=%d vs %d+ -> fails, stays", what, v, v2, need)
		return false
	}
	r.emit("check", section, h, r.visibility(), "%s: d10=%d vs %d+ -> fails, stays", what, v, need)
	return false
}

func (s *State) friendlyEngineer(u *Unit, h Hex) bool {
	for _, e := range s.UnitsAt(h) {
		if e.Side == u.Side && e.In == "" && s.Card(e).Engineer && !e.Idle {
			return true
		}
	}
	return false
}

// obstacles: enemy obstacles in the hex attack an entering unit of their
// type once with the owner's d20, intensity and DI; the unit stops there
// (§VI.5, reading 20). It reports whether the move ends.
func (r *resolver) obstacles(u *Unit) bool {
	s := r.s
	stop := false
	for _, o := range s.UnitsAt(u.Hex) {
		oc := s.Card(o)
		if oc.Kind != "obstacle" || o.Side == u.Side || !u.OnMap() {
			continue
		}
		tt := s.Card(u).TargetType()
		if !strings.ContainsRune(oc.Obstacle, rune(tt)) {
			continue
		}
		stop = true
		w := oc.Weapons[0]
		need := w.Attack
		if o.Damaged {
			need += r.r.DamagedAttackPenalty
		}
		v := r.roll(20, o.ID+" attacks "+u.ID, fmt.Sprintf("%d+", need))
		if v == 1 || (v < need && v != 20) {
			r.emit("obstacle", "VI.5", u.Hex, "", "%s:%s attacks %s entering %s: d20=%d vs %d -> miss", o.Side, o.ID, u.ID, u.Hex, v, need)
			continue
		}
		if v == 20 {
			r.emit("obstacle", "VI.5", u.Hex, "", "%s:%s attacks %s entering %s: d20=20 -> destroyed outright", o.Side, o.ID, u.ID, u.Hex)
			r.destroy(u, o)
			continue
		}
		in := r.roll(10, "intensity", "")
		def := s.Defense(u)
		net := max(in+w.DI-def, 0)
		h := u.Hex
		res := r.applyDamageNow(u, net, o)
		r.emit("obstacle", "VI.5", h, "", "%s:%s attacks %s entering %s: d20=%d vs %d HIT; intensity d10=%d +DI %d -Def %d = %d: %s", o.Side, o.ID, u.ID, h, v, need, in, w.DI, def, net, res)
		if !u.OnMap() {
			return true
		}
	}
	if stop {
		r.emit("move", "VI.5", u.Hex, r.visibility(), "%s stops at the obstacle in %s", u.ID, u.Hex)
	}
	return stop
}

// applyDamageNow applies damage outside an engagement (one hit is its own
// round, reading 4) and says what became of the unit.
func (r *resolver) applyDamageNow(u *Unit, net int, by *Unit) string {
	c := r.s.Card(u)
	base := c.Endurance
	if u.Damaged {
		base = c.Breakpoint
	}
	left := base - net
	switch {
	case left <= 0:
		r.destroy(u, by)
		return "destroyed"
	case !u.Damaged && left <= c.Breakpoint:
		u.Damaged = true
		return "damaged"
	}
	return "holds"
}

// reconnoitre: once per Movement Phase, a hex within 1; d10 5+ reveals the
// stack, 8+ also finds hidden units (§VI.6, §IV.1.7).
func (r *resolver) reconnoitre(u *Unit, h Hex) {
	s := r.s
	need, hidden := r.r.ReconRoll, r.r.ReconHiddenRoll
	if s.modifier("partisan", u.Side) {
		need = r.r.PartisanReconRoll
	}
	v := r.roll(10, u.ID+" recon "+h.String(), fmt.Sprintf("%d+ (%d+ for hidden units)", need, hidden))
	r.noFight[u.Key()] = true
	r.moved[u.Key()] = true
	if v < need {
		r.emit("recon", "VI.6", h, r.side, "%s reconnoitres %s: d10=%d vs %d+ -> fails", u.ID, h, v, need)
		return
	}
	r.recon[h] = true
	var seen []string
	for _, e := range s.UnitsAt(h) {
		if e.Side == u.Side {
			continue
		}
		if e.Hidden && !e.Found {
			if v < hidden {
				continue
			}
			e.Found = true
		}
		e.Revealed = true
		seen = append(seen, e.ID)
	}
	found := "nothing"
	if len(seen) > 0 {
		found = strings.Join(seen, " ")
	}
	r.emit("recon", "VI.6", h, r.side, "%s reconnoitres %s: d10=%d vs %d+ -> success (%d+ finds hidden units); seen: %s; +%d initiative attacking it this turn",
		u.ID, h, v, need, hidden, found, r.r.ReconInitiative)
}

// detonate: an engineer blows the existing bridge between its hex and h
// (Table VI.2); each try in a later turn needs less, prior recon -2.
func (r *resolver) detonate(u *Unit, h Hex) {
	s := r.s
	if h == u.Hex {
		if af := s.airfieldAt(h); af != nil && (!s.Map.Port(h) || s.Ports[h] == portDestroyed) {
			r.detonateAirfield(u, af)
			return
		}
		r.detonatePort(u)
		return
	}
	side := hexside(u.Hex, h)
	if ebr := s.engineeredBridge(side); ebr != nil && s.Bridges[side] != "intact" {
		r.detonateEngineered(u, ebr)
		return
	}
	key := "bridge " + side.String()
	table := r.r.DetonateExistingBridge
	r.engineerTry(u, key, table, h, func() {
		s.Bridges[side] = "collapsed"
	}, "blows the bridge "+side.String())
}

// detonateAirfield: engineers blow an airfield in their hex (§VII.5.3,
// Table VI.2); the grounded aircraft on it are lost with it (§VII.5.4).
// Blowing one is no combat: nobody scores for it.
func (r *resolver) detonateAirfield(u *Unit, af *Unit) {
	r.engineerTry(u, "airfield "+af.Key(), r.r.DetonateAirfield, af.Hex, func() {
		r.destroy(af, nil)
	}, "blows the airfield "+af.ID)
}

// clear: an engineer removes an obstacle in its hex (Table VI.2).
func (r *resolver) clear(u *Unit, id string) {
	s := r.s
	var ob *Unit
	for _, o := range s.UnitsAt(u.Hex) {
		if o.ID == id && (s.Card(o).Kind == "obstacle" || s.Card(o).Structure == "emplacement") {
			ob = o
		}
	}
	if ob == nil {
		r.emit("engineer", "VI.5", u.Hex, r.side, "%s finds no obstacle %s to clear", u.ID, id)
		return
	}
	table := r.r.ClearInfantryObstacle
	if strings.Contains(s.Card(ob).Obstacle, "V") {
		table = r.r.ClearVehicleObstacle
	}
	if s.Card(ob).Structure == "emplacement" {
		table = r.r.ClearEmplacement
	}
	r.engineerTry(u, "obstacle "+ob.Side+":"+ob.ID, table, u.Hex, func() {
		r.remove(ob)
	}, "clears "+ob.ID)
}

func (r *resolver) engineerTry(u *Unit, key string, table []int, h Hex, done func(), what string) {
	s := r.s
	try := s.Tries[key]
	need := table[min(try, len(table)-1)]
	r.moved[u.Key()] = true
	if need > 0 && r.recon[h] {
		need = max(need-r.r.ReconEngineerBonus, 1)
	}
	// The try is told before what it brings down (aircraft lost with an
	// airfield, crews rolling for survival).
	if need == 0 {
		r.emit("engineer", "VI.5.2", h, "", "%s %s: try %d is automatic -> done", u.ID, what, try+1)
		delete(s.Tries, key)
		done()
		return
	}
	v := r.roll(10, u.ID+" "+what, fmt.Sprintf("%d+", need))
	if v >= need {
		r.emit("engineer", "VI.5.2", h, "", "%s %s: try %d, d10=%d vs %d+ -> done", u.ID, what, try+1, v, need)
		delete(s.Tries, key)
		done()
		return
	}
	s.Tries[key] = try + 1
	r.emit("engineer", "VI.5.2", h, r.side, "%s %s: try %d, d10=%d vs %d+ -> fails", u.ID, what, try+1, v, need)
}

// sortie flies an aircraft along its path (§VI.2.2); it fights where the
// path ends and lands after the Combat Phase, or stays aloft with turns of
// flight to spare.
func (r *resolver) sortie(u *Unit, m Move) {
	s := r.s
	if !u.Aloft {
		u.Aloft = true
		u.TOF = s.Card(u).TOF
		r.emit("air", "VI.2.2", u.Hex, r.visibility(), "%s takes off from %s (%d turn(s) of flight)", u.ID, u.Hex, u.TOF)
	}
	for _, st := range m.Steps {
		if st.Act == ActEnter {
			r.place(u, st.Hex)
		}
	}
	r.moved[u.Key()] = true
	if !m.Land.IsZero() {
		r.landing[u.Key()] = m.Land
	}
	r.emit("air", "VI.2.2", u.Hex, r.visibility(), "%s flies to %s", u.ID, u.Hex)
}

// rearm: "Once an aircraft lands at a controlled airfield, remove any
// Munitions Depleted counters" (§VI.7.4); a field nobody holds rearms
// nothing.
func (r *resolver) rearm(u *Unit) {
	if r.s.Control[u.Hex] == u.Side {
		u.Spent = false
	}
}

// landAircraft ends sorties after the Combat Phase; an aircraft out of
// turns of flight and not landing crashes (§VI.2.3).
func (r *resolver) landAircraft() {
	s := r.s
	// A copy: landings may capture and crashes destroy units on the way.
	for _, u := range append([]*Unit(nil), s.Units...) {
		if u.Side != r.side || !u.Aloft || !u.OnMap() {
			continue
		}
		if h, ok := r.landing[u.Key()]; ok {
			if s.airfieldAt(h) != nil && s.Control[h] != "" && s.Control[h] != u.Side {
				r.landCaptured(u, h)
				continue
			}
			if s.airfieldAt(h) != nil {
				r.place(u, h)
				u.Aloft, u.TOF = false, 0
				r.rearm(u)
				r.emit("air", "VI.2.2", h, r.visibility(), "%s lands at %s", u.ID, h)
				continue
			}
			r.emit("air", "VI.2.3", u.Hex, "", "%s cannot land at %s: no airfield there now", u.ID, h)
		}
		u.TOF--
		if u.TOF <= 0 {
			r.emit("air", "VI.2.3", u.Hex, "", "%s runs out of fuel and crashes at %s", u.ID, u.Hex)
			r.destroy(u, nil)
			continue
		}
		r.emit("air", "VI.2.3", u.Hex, r.visibility(), "%s stays aloft over %s, %d turn(s) of flight left", u.ID, u.Hex, u.TOF)
	}
}
