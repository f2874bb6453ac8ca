package rules

import "fmt"

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
