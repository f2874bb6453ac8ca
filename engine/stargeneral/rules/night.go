package rules

import (
	"fmt"
	"strings"
)

// The night round (2SG 9, 3SG 8): lost HQs come back, each side spends its
// pooled recovery points, units reshuffle among the hexes they hold, and a
// new day begins. No dice are rolled.
//
// Night orders are checked against the position at nightfall, which is all
// they can depend on: validateNight runs the same steps as the night itself
// on a copy of the state and reports every order it had to refuse. Nothing
// the enemy does at night can make a checked order illegal (a hex where one
// side may rebuild is in the other's ZOC), so the night itself refuses only
// orders that were never checked, and says so.

// nightPool is what a side still has to spend in the night round (9.1).
type nightPool struct {
	sp, support int
}

// night plays the night round.
func (r *resolver) night() {
	r.emit(Event{Kind: EvRoundStart, Section: r.sec(SecNight), Text: fmt.Sprintf("Night of day %d", r.st.Day)})
	// A side wiped out in the last day round has lost before the night begins.
	r.checkCollapse()
	if r.st.Ended {
		return
	}
	held := r.heldHexes()
	r.returnHQsOvernight()
	pools := map[string]*nightPool{}
	for _, sd := range r.st.Sides {
		pools[sd.Name] = r.announcePool(sd.Name)
	}
	var rebuilds []plannedRebuild
	for _, sd := range r.st.Sides {
		ok, probs := r.checkRebuilds(sd.Name, r.nightOrders(sd.Name).Rebuild, pools[sd.Name])
		r.refuseNightOrders(sd.Name, probs)
		rebuilds = append(rebuilds, ok...)
	}
	r.placeRebuilds(rebuilds)
	for _, sd := range r.st.Sides {
		no := r.nightOrders(sd.Name)
		r.refuseNightOrders(sd.Name, r.recoverStrength(sd.Name, no.Strength, pools[sd.Name]))
		r.refuseNightOrders(sd.Name, r.recoverPlatoons(sd.Name, no.Platoons, pools[sd.Name]))
	}
	for _, sd := range r.st.Sides {
		r.defaultStrength(sd.Name, pools[sd.Name])
		r.defaultPlatoons(sd.Name, pools[sd.Name])
		r.unusedPoints(sd.Name, pools[sd.Name])
	}
	for _, sd := range r.st.Sides {
		plans, probs := r.checkReshuffle(sd.Name, r.nightOrders(sd.Name).Reshuffle, held)
		r.refuseNightOrders(sd.Name, probs)
		r.reshuffle(plans)
	}
	r.updateObjectives()
	r.newDay()
	r.checkCollapse()
}

// validateNight checks a side's night orders (9.1, 9.2) against the position
// at nightfall: targets that exist and may receive what is asked, points
// within the side's pool, placements and reshuffles that the rules allow.
// Validate calls it for the night round's orders.
func validateNight(rs *Ruleset, st *State, o *Orders) Problems {
	if o.Night == nil {
		return nil
	}
	r := newResolver(rs, st, map[string]*Orders{o.Side: o}, nil)
	held := r.heldHexes()
	r.returnHQsOvernight()
	pool := r.nightPool(o.Side)
	rebuilds, probs := r.checkRebuilds(o.Side, o.Night.Rebuild, pool)
	r.placeRebuilds(rebuilds)
	probs = append(probs, r.recoverStrength(o.Side, o.Night.Strength, pool)...)
	probs = append(probs, r.recoverPlatoons(o.Side, o.Night.Platoons, pool)...)
	_, reshuffleProbs := r.checkReshuffle(o.Side, o.Night.Reshuffle, held)
	return append(probs, reshuffleProbs...)
}

// nightOrders returns a side's night orders; a side that gave none gets the
// default allocation only.
func (r *resolver) nightOrders(side string) *NightOrders {
	if o := r.orders[side]; o != nil && o.Night != nil {
		return o.Night
	}
	return &NightOrders{}
}

// refuseNightOrders explains night orders that could not be carried out.
func (r *resolver) refuseNightOrders(side string, probs Problems) {
	for _, p := range probs {
		r.emit(Event{Kind: EvNote, Side: side, Unit: p.Unit, Stand: p.Stand, Section: p.Section,
			Text: "night order not carried out: " + p.Error()})
	}
}

// heldHexes is the hexes each unit's core stands occupy at nightfall: the
// only hexes its reshuffle may use (9.2).
func (r *resolver) heldHexes() map[*Unit]map[Hex]bool {
	held := map[*Unit]map[Hex]bool{}
	for _, u := range r.st.Units {
		if u.Removed {
			continue
		}
		held[u] = map[Hex]bool{}
		for _, s := range u.Stands {
			held[u][s.Hex] = true
		}
	}
	return held
}

// returnHQsOvernight brings back every lost HQ that can return (6): next to
// a stand of its unit, on a free passable hex outside enemy ZOC. An HQ lost
// in the last round of the day always returns overnight, so when every such
// hex is in an enemy ZOC it comes back in one of those.
func (r *resolver) returnHQsOvernight() {
	lastRound := r.st.Turn - 1
	for _, u := range r.st.Units {
		if u.Removed || u.HQ(r.rs) != nil {
			continue
		}
		always := u.HQLostTurn == lastRound
		h, ok := r.hqReturnHex(u, false)
		inZOC := false
		if !ok && always {
			h, ok = r.hqReturnHex(u, true)
			inZOC = ok
		}
		if !ok {
			r.emit(Event{Kind: EvNote, Side: u.Side, Unit: u.ID, Section: r.sec(SecHQ),
				Text: fmt.Sprintf("%s's HQ cannot return overnight: no free hex next to its stands outside enemy ZOC", u.ID)})
			continue
		}
		hq := r.takeLostHQ(u)
		hq.SP = hq.MaxSP
		u.Stands = append([]*Stand{hq}, u.Stands...)
		u.HQLostTurn = -1
		r.b.moveStand(u, hq, h)
		text := fmt.Sprintf("%s %s returns overnight at %s with %d SP", u.ID, hq.Name, h, hq.SP)
		if inZOC {
			text += ", inside an enemy ZOC: every free hex next to its stands is, and an HQ lost in the day's last round always returns overnight"
		}
		r.emit(Event{Kind: EvHQReturn, Side: u.Side, Unit: u.ID, Stand: hq.Name, To: h, Section: r.sec(SecHQ), Text: text})
	}
}

// hqReturnHex picks where a returning HQ goes: of the free passable hexes
// next to the unit's stands (outside enemy ZOC unless zocAllowed), the one
// with the most of its stands in command; ties go to the first found, stand
// by stand in the unit's order, neighbours from north clockwise.
func (r *resolver) hqReturnHex(u *Unit, zocAllowed bool) (Hex, bool) {
	var best Hex
	bestCount := -1
	for _, s := range u.Stands {
		for _, h := range s.Hex.Neighbours() {
			if !r.b.passable(h) || !r.b.at(h).empty() || (!zocAllowed && r.b.inEnemyZOC(h, u.Side)) {
				continue
			}
			count := 0
			for _, other := range u.Stands {
				if Distance(h, other.Hex) <= r.rs.CommandRange {
					count++
				}
			}
			if count > bestCount {
				best, bestCount = h, count
			}
		}
	}
	return best, bestCount >= 0
}

// takeLostHQ removes the unit's destroyed HQ from its lost stands; a position
// that lists none gets a standard HQ stand.
func (r *resolver) takeLostHQ(u *Unit) *Stand {
	for i, s := range u.Lost {
		if r.rs.StandTypes[s.Type].Role == RoleHQ {
			u.Lost = append(u.Lost[:i:i], u.Lost[i+1:]...)
			return s
		}
	}
	for _, typ := range sortedKeys(r.rs.StandTypes) {
		if t := r.rs.StandTypes[typ]; t.Role == RoleHQ && !t.Armoured {
			return &Stand{Name: "HQ", Type: typ, SP: t.SP, MaxSP: t.SP, FS: t.FS}
		}
	}
	panic("ruleset has no HQ stand type")
}

// nightPool is the side's recovery for the night (9.1), see NightPools.
func (r *resolver) nightPool(side string) *nightPool {
	sp, support := NightPools(r.rs, r.st, side)
	return &nightPool{sp: sp, support: support}
}

// announcePool works out a side's pool and says how it was reckoned.
func (r *resolver) announcePool(side string) *nightPool {
	pool := r.nightPool(side)
	spPer, supportPer := nightRates(r.rs, r.st, side)
	r.emit(Event{Kind: EvRecovery, Side: side, SP: pool.sp, Section: r.sec(SecNightRecovery),
		Text: fmt.Sprintf("%s recovers %s and %s tonight: %d and %d per initial %s, of which it had %s",
			side, plural(pool.sp, "SP", "SP"), plural(pool.support, "support point", "support points"),
			spPer, supportPer, r.rs.UnitWord, plural(initialUnits(r.st, side), r.rs.UnitWord, r.rs.UnitWord+"s"))})
	return pool
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// nightUnit finds a unit a side's night order names.
func (r *resolver) nightUnit(side, id, section string) (*Unit, *Problem) {
	u := r.st.Unit(id)
	switch {
	case u == nil:
		return nil, &Problem{Unit: id, Section: section, Msg: "no such unit"}
	case u.Side != side:
		return nil, &Problem{Unit: id, Section: section, Msg: "not a unit of " + side}
	case u.Removed:
		return nil, &Problem{Unit: id, Section: section, Msg: "has left the battle"}
	}
	return u, nil
}

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

// reshufflePlan is one unit's reshuffle: where each named stand ends.
type reshufflePlan struct {
	unit *Unit
	to   map[*Stand]Hex
}

// checkReshuffle checks a side's reshuffle (9.2; 3SG 8): only units with
// their HQ (6), only to hexes the unit held at nightfall, one core stand a
// hex at the end and, where the ruleset has the command condition (2SG 9.2;
// 3SG 8 has none), only stands in command, each ending in command of where
// its HQ ends. Distance and terrain do not matter. A unit with any problem keeps
// its stands where they are; the plans returned are the others, in scenario order.
func (r *resolver) checkReshuffle(side string, moves []NightMove, held map[*Unit]map[Hex]bool) ([]reshufflePlan, Problems) {
	var probs Problems
	bad := map[*Unit]bool{}
	to := map[*Unit]map[*Stand]Hex{}
	for _, m := range moves {
		u, p := r.nightUnit(side, m.Unit, r.sec(SecNightReshuffle))
		if p != nil {
			probs = append(probs, *p)
			continue
		}
		refuse := func(format string, args ...any) {
			probs = append(probs, Problem{Unit: u.ID, Stand: m.Stand, Section: r.sec(SecNightReshuffle), Msg: fmt.Sprintf(format, args...)})
			bad[u] = true
		}
		s := u.Stand(m.Stand)
		switch {
		case u.HQ(r.rs) == nil:
			refuse("cannot reshuffle while its HQ is lost, as section %s says", r.sec(SecHQ))
		case s == nil:
			refuse("no such stand on the map")
		case to[u] != nil && hasStand(to[u], s):
			refuse("reshuffled twice")
		case r.rs.NightReshuffleInCommand && !r.b.inCommand(u, s):
			refuse("not in command of its HQ: only stands in command are reshuffled")
		case !held[u][m.To]:
			refuse("cannot go to %s: not a hex %s held at nightfall", m.To, u.ID)
		default:
			if to[u] == nil {
				to[u] = map[*Stand]Hex{}
			}
			to[u][s] = m.To
		}
	}
	var plans []reshufflePlan
	for _, u := range r.st.Units {
		if to[u] == nil {
			continue
		}
		final := func(s *Stand) Hex {
			if h, ok := to[u][s]; ok {
				return h
			}
			return s.Hex
		}
		hqHex := final(u.HQ(r.rs))
		at := map[Hex]*Stand{}
		for _, s := range u.Stands {
			h := final(s)
			if other := at[h]; other != nil {
				mover, stayer := s, other
				if _, moved := to[u][s]; !moved {
					mover, stayer = other, s
				}
				probs = append(probs, Problem{Unit: u.ID, Stand: mover.Name, Section: r.sec(SecNightReshuffle),
					Msg: fmt.Sprintf("would end in %s with %s: one core stand a hex", h, stayer.Name)})
				bad[u] = true
			}
			at[h] = s
			if _, moved := to[u][s]; moved && r.rs.NightReshuffleInCommand && Distance(h, hqHex) > r.rs.CommandRange {
				probs = append(probs, Problem{Unit: u.ID, Stand: s.Name, Section: r.sec(SecNightReshuffle),
					Msg: fmt.Sprintf("would end at %s, out of command of its HQ at %s", h, hqHex)})
				bad[u] = true
			}
		}
		if !bad[u] {
			plans = append(plans, reshufflePlan{unit: u, to: to[u]})
		}
	}
	return plans, probs
}

func hasStand(m map[*Stand]Hex, s *Stand) bool {
	_, ok := m[s]
	return ok
}

// reshuffle moves the stands of each plan at once: stands may swap hexes.
func (r *resolver) reshuffle(plans []reshufflePlan) {
	for _, p := range plans {
		u := p.unit
		var moved []*Stand
		for _, s := range u.Stands {
			if h, ok := p.to[s]; ok && h != s.Hex {
				moved = append(moved, s)
			}
		}
		from := map[*Stand]Hex{}
		for _, s := range moved {
			from[s] = s.Hex
			if r.b.at(s.Hex).stand == s {
				r.b.vacate(s.Hex)
			}
		}
		for _, s := range moved {
			r.b.moveStand(u, s, p.to[s])
			r.emit(Event{Kind: EvReshuffle, Side: u.Side, Unit: u.ID, Stand: s.Name, From: from[s], To: s.Hex, Section: r.sec(SecNightReshuffle),
				Text: fmt.Sprintf("%s %s moves overnight from %s to %s", u.ID, s.Name, from[s], s.Hex)})
		}
	}
}

// newDay ends the night (9.3): the calendar moves on, air points are
// renewed, and every unit may take any status in the first round.
func (r *resolver) newDay() {
	r.st.Day++
	r.st.Round = 1
	r.st.Night = false
	r.st.Turn++
	for i := range r.st.Sides {
		r.st.Sides[i].AirLeft = r.st.Sides[i].Air
	}
	r.emit(Event{Kind: EvNote, Section: r.sec(SecNewDay),
		Text: fmt.Sprintf("Day %d dawns: every %s may start it in any status", r.st.Day, r.rs.UnitWord)})
}
