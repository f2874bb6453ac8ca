package rules

import (
	"fmt"
	"strings"
)

// plannedRebuild is a rebuild order found legal, waiting to be placed.
type plannedRebuild struct {
	side  string
	unit  *Unit
	stand *Stand
	order Rebuild
}

// checkRebuilds checks a side's rebuilds against the position at nightfall
// (9.1): a lost core stand other than the HQ, with 1 SP to its maximum from
// the pool, placed on a free passable hex next to a stand of its unit and
// outside enemy ZOC. The accepted ones are charged to the pool.
func (r *resolver) checkRebuilds(side string, orders []Rebuild, pool *nightPool) ([]plannedRebuild, Problems) {
	var ok []plannedRebuild
	var probs Problems
	taken := map[Hex]bool{}
	done := map[*Stand]bool{}
	for _, rb := range orders {
		u, p := r.nightUnit(side, rb.Unit, r.sec(SecNightRecovery))
		if p != nil {
			probs = append(probs, *p)
			continue
		}
		refuse := func(format string, args ...any) {
			probs = append(probs, Problem{Unit: u.ID, Stand: rb.Stand, Section: r.sec(SecNightRecovery), Msg: fmt.Sprintf(format, args...)})
		}
		s := standIn(u.Lost, rb.Stand)
		switch {
		case s == nil:
			refuse("no lost stand of that name to rebuild")
		case r.rs.StandTypes[s.Type].Role == RoleHQ:
			refuse("an HQ is not rebuilt with recovery points: it returns by itself, as section %s says", r.sec(SecHQ))
		case done[s]:
			refuse("rebuilt twice")
		case rb.SP < 1 || rb.SP > s.MaxSP:
			refuse("rebuilt with %d SP: give it from 1 to its maximum of %d", rb.SP, s.MaxSP)
		case rb.SP > pool.sp:
			refuse("rebuilt with %d SP but the pool has only %s left", rb.SP, plural(pool.sp, "SP", "SP"))
		case !r.b.passable(rb.Hex):
			refuse("cannot be placed at %s: off the map or impassable", rb.Hex)
		case !r.b.at(rb.Hex).empty() || taken[rb.Hex]:
			refuse("cannot be placed at %s: the hex is occupied", rb.Hex)
		case !r.nextToUnit(u, rb.Hex):
			refuse("cannot be placed at %s: not next to a stand of %s", rb.Hex, u.ID)
		case r.b.inEnemyZOC(rb.Hex, side):
			refuse("cannot be placed at %s: it is in an enemy ZOC", rb.Hex)
		default:
			pool.sp -= rb.SP
			taken[rb.Hex] = true
			done[s] = true
			ok = append(ok, plannedRebuild{side: side, unit: u, stand: s, order: rb})
		}
	}
	return ok, probs
}

func (r *resolver) nextToUnit(u *Unit, h Hex) bool {
	for _, s := range u.Stands {
		if Adjacent(s.Hex, h) {
			return true
		}
	}
	return false
}

// placeRebuilds puts the rebuilt stands on the map. Every side's rebuilds
// were checked against the position at nightfall before any is placed: both
// sides plot blind, and neither sees where the other rebuilds.
func (r *resolver) placeRebuilds(rebuilds []plannedRebuild) {
	for _, p := range rebuilds {
		u, s, rb := p.unit, p.stand, p.order
		u.Lost = removeStandFrom(u.Lost, s)
		s.SP = rb.SP
		u.Stands = append(u.Stands, s)
		r.b.moveStand(u, s, rb.Hex)
		r.emit(Event{Kind: EvRebuild, Side: p.side, Unit: u.ID, Stand: s.Name, To: rb.Hex, SP: rb.SP, Section: r.sec(SecNightRecovery),
			Text: fmt.Sprintf("%s %s is rebuilt at %s with %d of its %d SP", u.ID, s.Name, rb.Hex, rb.SP, s.MaxSP)})
	}
}

func removeStandFrom(list []*Stand, s *Stand) []*Stand {
	out := list[:0:0]
	for _, ls := range list {
		if ls != s {
			out = append(out, ls)
		}
	}
	return out
}

// recoverStrength gives ordered SP to stands in command of their HQ, point
// for point and never above their maximum (9.1); stands in an enemy ZOC may
// take them.
func (r *resolver) recoverStrength(side string, orders []Recovery, pool *nightPool) Problems {
	var probs Problems
	for _, rc := range orders {
		u, p := r.nightUnit(side, rc.Unit, r.sec(SecNightRecovery))
		if p != nil {
			probs = append(probs, *p)
			continue
		}
		refuse := func(format string, args ...any) {
			probs = append(probs, Problem{Unit: u.ID, Stand: rc.Stand, Section: r.sec(SecNightRecovery), Msg: fmt.Sprintf(format, args...)})
		}
		s := u.Stand(rc.Stand)
		switch {
		case s == nil:
			refuse("no such stand on the map")
		case rc.SP < 1:
			refuse("recovers %d SP: give at least 1", rc.SP)
		case !r.b.inCommand(u, s):
			refuse("not in command of its HQ: recovered strength goes only to stands in command")
		case s.SP+rc.SP > s.MaxSP:
			refuse("has %d of its %d SP: %d more would take it above its maximum", s.SP, s.MaxSP, rc.SP)
		case rc.SP > pool.sp:
			refuse("recovers %d SP but the pool has only %s left", rc.SP, plural(pool.sp, "SP", "SP"))
		default:
			pool.sp -= rc.SP
			s.SP += rc.SP
			r.emit(Event{Kind: EvRecovery, Side: side, Unit: u.ID, Stand: s.Name, SP: rc.SP, Section: r.sec(SecNightRecovery),
				Text: fmt.Sprintf("%s %s recovers %s (now %d)", u.ID, s.Name, plural(rc.SP, "SP", "SP"), s.SP)})
		}
	}
	return probs
}

// recoverPlatoons brings lost support platoons back, one support point each,
// onto a core stand that has room for them (9.1, 1.3): of the unit they were
// lost from, or where the ruleset lets the commander give support points to
// any unit (3SG 8), of any unit of the side.
func (r *resolver) recoverPlatoons(side string, orders []PlatoonRecovery, pool *nightPool) Problems {
	var probs Problems
	for _, pr := range orders {
		u, p := r.nightUnit(side, pr.Unit, r.sec(SecNightRecovery))
		if p != nil {
			probs = append(probs, *p)
			continue
		}
		refuse := func(format string, args ...any) {
			probs = append(probs, Problem{Unit: u.ID, Stand: pr.Platoon, Section: r.sec(SecNightRecovery), Msg: fmt.Sprintf(format, args...)})
		}
		owner := u
		if pr.From != "" && pr.From != u.ID {
			if owner, p = r.nightUnit(side, pr.From, r.sec(SecNightRecovery)); p != nil {
				probs = append(probs, *p)
				continue
			}
		}
		pl := platoonIn(owner.LostPlatoons, pr.Platoon)
		s := u.Stand(pr.To)
		lostBy := r.lostBy(side, pr.Platoon)
		switch {
		case pl == nil && pr.From == "" && lostBy != "" && r.rs.NightPlatoonsOwnUnit:
			refuse("platoon %s was lost by %s: platoons go back only to the %s they came from", pr.Platoon, lostBy, r.rs.UnitWord)
		case pl == nil && pr.From == "" && lostBy != "":
			refuse("platoon %s was lost by %s: write PLATOON %s %s FROM %s TO %s", pr.Platoon, lostBy, u.ID, pr.Platoon, lostBy, pr.To)
		case pl == nil:
			refuse("%s lost no platoon of that name", owner.ID)
		case owner != u && r.rs.NightPlatoonsOwnUnit:
			refuse("platoon %s was lost by %s: platoons go back only to the %s they came from", pr.Platoon, owner.ID, r.rs.UnitWord)
		case s == nil:
			refuse("no stand %s of %s on the map to take it", pr.To, u.ID)
		case pool.support < 1:
			refuse("no support points left in the pool")
		case !r.roomFor(s, pl):
			refuse("%s has no room for it: one support platoon and one transport a stand, and an exclusive platoon shares with neither", pr.To)
		default:
			pool.support--
			r.attachRecovered(owner, u, s, pl, "")
		}
	}
	return probs
}

// lostBy names the side's unit that lost a platoon of that name, if any.
func (r *resolver) lostBy(side, platoon string) string {
	for _, u := range r.st.ActiveUnits(side) {
		if platoonIn(u.LostPlatoons, platoon) != nil {
			return u.ID
		}
	}
	return ""
}

// roomFor: one support platoon and one transport per core stand, and an
// exclusive platoon shares with neither (1.3, 2.1).
func (r *resolver) roomFor(s *Stand, p *Platoon) bool {
	exclusive := func(q *Platoon) bool { return q != nil && r.rs.StandTypes[q.Type].Exclusive }
	if r.rs.StandTypes[p.Type].Class == ClassTransport {
		return s.Transport == nil && !exclusive(s.Support)
	}
	return s.Support == nil && (s.Transport == nil || !exclusive(p))
}

// attachRecovered takes a platoon off the lost list of owner, the unit that
// lost it, and attaches it to stand s of unit u.
func (r *resolver) attachRecovered(owner, u *Unit, s *Stand, p *Platoon, why string) {
	out := owner.LostPlatoons[:0:0]
	for _, lp := range owner.LostPlatoons {
		if lp != p {
			out = append(out, lp)
		}
	}
	owner.LostPlatoons = out
	if owner != u {
		why = fmt.Sprintf(", from %s's lost platoons%s", owner.ID, why)
	}
	if r.rs.StandTypes[p.Type].Class == ClassTransport {
		s.Transport = p
	} else {
		s.Support = p
	}
	r.emit(Event{Kind: EvRecovery, Side: u.Side, Unit: u.ID, Stand: p.Name, SP: 1, Section: r.sec(SecNightRecovery),
		Text: fmt.Sprintf("%s recovers platoon %s (%s), attached to %s, for 1 support point%s", u.ID, p.Name, r.rs.StandTypes[p.Type].Title, s.Name, why)})
}

// diceToRegain is how many dice a stand would win back at full strength: it
// throws no more dice than its strength points (3.1).
func diceToRegain(s *Stand) int {
	return min(s.FS, s.MaxSP) - min(s.FS, s.SP)
}

// defaultStrength spends SP left unallocated one at a time on the damaged
// stand in command with the most dice to regain; ties go to the first unit,
// then the first stand, in scenario order.
func (r *resolver) defaultStrength(side string, pool *nightPool) {
	type gain struct {
		unit  *Unit
		stand *Stand
		sp    int
	}
	var gains []*gain
	byStand := map[*Stand]*gain{}
	for pool.sp > 0 {
		var bestU *Unit
		var best *Stand
		for _, u := range r.st.ActiveUnits(side) {
			for _, s := range u.Stands {
				if s.SP < s.MaxSP && r.b.inCommand(u, s) && (best == nil || diceToRegain(s) > diceToRegain(best)) {
					bestU, best = u, s
				}
			}
		}
		if best == nil {
			break
		}
		best.SP++
		pool.sp--
		if byStand[best] == nil {
			byStand[best] = &gain{unit: bestU, stand: best}
			gains = append(gains, byStand[best])
		}
		byStand[best].sp++
	}
	for _, g := range gains {
		r.emit(Event{Kind: EvRecovery, Side: side, Unit: g.unit.ID, Stand: g.stand.Name, SP: g.sp, Section: r.sec(SecNightRecovery),
			Text: fmt.Sprintf("%s %s recovers %s (now %d): unallocated points go to the stands in command with the most dice to regain",
				g.unit.ID, g.stand.Name, plural(g.sp, "SP", "SP"), g.stand.SP)})
	}
}

// defaultPlatoons spends support points left unallocated on the lost
// platoons, unit by unit in scenario order, each onto the first stand of its
// own unit with room: fighting stands before the HQ.
func (r *resolver) defaultPlatoons(side string, pool *nightPool) {
	for _, u := range r.st.ActiveUnits(side) {
		for _, p := range append([]*Platoon(nil), u.LostPlatoons...) {
			if pool.support == 0 {
				return
			}
			if s := r.standWithRoom(u, p); s != nil {
				pool.support--
				r.attachRecovered(u, u, s, p, ": unallocated support points go to lost platoons in order")
			}
		}
	}
}

func (r *resolver) standWithRoom(u *Unit, p *Platoon) *Stand {
	for _, wantHQ := range []bool{false, true} {
		for _, s := range u.Stands {
			if (r.rs.StandTypes[s.Type].Role == RoleHQ) == wantHQ && r.roomFor(s, p) {
				return s
			}
		}
	}
	return nil
}

// unusedPoints says what the side could not spend: recovery is not saved.
func (r *resolver) unusedPoints(side string, pool *nightPool) {
	var parts, why []string
	if pool.sp > 0 {
		parts = append(parts, plural(pool.sp, "SP", "SP"))
		why = append(why, "no damaged stand in command is left")
	}
	if pool.support > 0 {
		parts = append(parts, plural(pool.support, "support point", "support points"))
		why = append(why, "no lost platoon has a stand of its own unit with room")
	}
	if len(parts) == 0 {
		return
	}
	r.emit(Event{Kind: EvRecovery, Side: side, Section: r.sec(SecNightRecovery),
		Text: fmt.Sprintf("%s leaves %s unused: %s", side, strings.Join(parts, " and "), strings.Join(why, "; "))})
}
