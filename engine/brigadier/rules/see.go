package rules

import "slices"

// Sees reports whether observer o can see platoon t now [9.1, 9.2, 10]:
// contact always sees; cover hides a platoon that has not fired lately;
// then range, with height and night, and line of sight. A hidden platoon
// is seen by these rules like any other: it comes on the table once
// within sight [14, 8].
func Sees(rs *Ruleset, st *State, o, t *Platoon) bool {
	if o.Removed || t.Removed {
		return false
	}
	d := Distance(o.Hex, t.Hex)
	if d <= 1 {
		return true // contact (FP-14)
	}
	m := st.Map
	oWoods, tWoods := m.Letter(o.Hex) == 'W', m.Letter(t.Hex) == 'W'
	if oWoods && tWoods && d <= rs.vis("in_woods") && clearInside(m, o.Hex, t.Hex) {
		return true // inside one wood, both see a short way [9.1]
	}
	fired := t.FiredTurn > 0 && t.FiredTurn >= st.Turn-rs.vis("fired_turns")
	if (m.Hides(t.Hex) || t.DugIn) && !fired {
		return false // hiding and has not fired: unseen [9.1, 10]
	}
	if m.Inside(o.Hex) || m.Inside(t.Hex) {
		limit := rs.vis("in_woods")
		if m.Letter(o.Hex) == 'T' || m.Letter(t.Hex) == 'T' {
			limit = rs.vis("in_town")
		}
		if d > limit {
			return false
		}
	}
	if d > SightRange(rs, st, o, t) {
		return false
	}
	return lineOfSight(m, o.Hex, t.Hex)
}

// SightRange is how far o sees t [9.1, 10; FP-13].
func SightRange(rs *Ruleset, st *State, o, t *Platoon) int {
	fired := t.FiredTurn > 0 && t.FiredTurn >= st.Turn-rs.vis("fired_turns")
	return sightRange(rs, st, o.Hex, t.Hex, rs.Types[t.Type].Vehicle, fired)
}

func sightRange(rs *Ruleset, st *State, from, to Hex, vehicle, fired bool) int {
	night, twilight := st.Night(rs)
	var r int
	switch {
	case night && fired:
		r = rs.vis("night_fired")
	case night && vehicle:
		r = rs.vis("night_vehicle")
	case night:
		r = rs.vis("night_foot")
	case fired:
		r = rs.vis("fired")
	case vehicle:
		r = rs.vis("vehicle")
	default:
		r = rs.vis("foot")
	}
	if twilight {
		r /= 2
	}
	// Looking down adds 5 a level [9.1], from a wood's edge too; fully
	// inside a wood the 2 of 9.1 holds whatever the height (Sees).
	if up := (st.Map.Level2(from) - st.Map.Level2(to)) / 2; up > 0 && !night {
		r += up * rs.vis("per_level")
	}
	return r
}

// SeesHex reports whether o sees the ground of hex h, as for a planned
// barrage's target [11.4.1]: as far as it would see a vehicle there, with
// a clear line of sight, and not out of a wood or town it is inside.
func SeesHex(rs *Ruleset, st *State, o *Platoon, h Hex) bool {
	d := Distance(o.Hex, h)
	if d <= 1 {
		return true
	}
	if st.Map.Inside(o.Hex) {
		limit := rs.vis("in_woods")
		if st.Map.Letter(o.Hex) == 'T' {
			limit = rs.vis("in_town")
		}
		if d > limit {
			return false
		}
	}
	return d <= sightRange(rs, st, o.Hex, h, true, false) && lineOfSight(st.Map, o.Hex, h)
}

// clearInside: every hex between two woods hexes is woods too.
func clearInside(m *Map, a, b Hex) bool {
	left, right := Between(a, b)
	for _, line := range [][]Hex{left, right} {
		ok := true
		for _, h := range line {
			if m.Letter(h) != 'W' {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// lineOfSight: a hex between blocks when higher than both ends, or when it
// is woods, town or hedge, unless it is lower than the observer and nearer
// to it than half way [9.2, A12; FP-14]; between a hilltop and a slope
// below it, a hex as high as the top blocks: the top sees down a slope
// only from its edge above it [9.2]. Units never block (A18).
func lineOfSight(m *Map, a, b Hex) bool {
	left, right := Between(a, b)
	return clearLine(m, a, b, left) || clearLine(m, a, b, right)
}

func clearLine(m *Map, a, b Hex, line []Hex) bool {
	la, lb := m.Level2(a), m.Level2(b)
	d := Distance(a, b)
	if overCrest(m, la, lb, line) {
		return false
	}
	for _, h := range line {
		lh := m.Level2(h)
		if lh > la && lh > lb {
			return false
		}
		if m.Blocks(h) {
			if lh < la && 2*Distance(a, h) < d {
				continue
			}
			if lh < lb && 2*Distance(b, h) < d {
				continue
			}
			return false
		}
	}
	return true
}

// overCrest: between a hilltop and a slope below it, a hex as high as the
// top on the slope's own hill — no lower ground between it and the slope
// on the line — is the crest, and hides each from the other [9.2]. line
// runs from the end at la to the end at lb.
func overCrest(m *Map, la, lb int, line []Hex) bool {
	hi, lo := max(la, lb), min(la, lb)
	if !isSlope(lo) || hi <= lo {
		return false
	}
	walk := slices.Clone(line)
	if lb == lo {
		slices.Reverse(walk) // walk from the slope end
	}
	for _, h := range walk {
		switch l := m.Level2(h); {
		case l < lo:
			return false // off the slope's hill: a top beyond is another hill's
		case l >= hi:
			return true
		}
	}
	return false
}

// SideSees reports whether any platoon of side sees t.
func SideSees(rs *Ruleset, st *State, side string, t *Platoon) bool {
	for _, o := range st.Platoons {
		if o.Side == side && !o.Removed && Sees(rs, st, o, t) {
			return true
		}
	}
	return false
}

// Seen lists the enemy platoons side sees now.
func Seen(rs *Ruleset, st *State, side string) []*Platoon {
	var out []*Platoon
	for _, t := range st.Platoons {
		if t.Side != side && !t.Removed && SideSees(rs, st, side, t) {
			out = append(out, t)
		}
	}
	return out
}

// View is the position as side may know it: its own platoons whole, the
// enemy platoons it sees with their order and losses only, no enemy
// battery or radio. Side "" sees everything.
func View(rs *Ruleset, st *State, side string) *State {
	v := st.Clone()
	if side == "" {
		return v
	}
	var keep []*Platoon
	for i, p := range v.Platoons {
		switch {
		case p.Side == side:
			keep = append(keep, p)
		case !p.Removed && SideSees(rs, st, side, st.Platoons[i]):
			p.Bugout, p.Reserve, p.Wounded, p.Defending, p.Hidden, p.Exp = 0, nil, 0, 0, false, ""
			keep = append(keep, p)
		}
	}
	v.Platoons = keep
	var bats []*Battery
	for _, b := range v.Batteries {
		if b.Side == side {
			bats = append(bats, b)
		}
	}
	v.Batteries = bats
	var flights []*Flight
	for _, f := range v.Flights {
		if f.Side == side {
			flights = append(flights, f)
		}
	}
	v.Flights = flights
	var plans []*Plan
	for _, p := range v.Plans {
		if p.Side == side {
			plans = append(plans, p)
		}
	}
	v.Plans = plans
	var bns []*Battalion
	for _, b := range v.Battalions {
		if b.Side == side {
			bns = append(bns, b)
		}
	}
	v.Battalions = bns
	for _, s := range v.Sides {
		if s.Name != side {
			s.BugoutDefault, s.Pursue = 0, false
		}
	}
	return v
}
