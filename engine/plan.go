package engine

// LegalStatuses lists the orders a unit may be given for the coming round
// (1.6): a Dug In unit may only stay D or become H, only a Hold unit may dig
// in; the first round of every day after the first allows any order (9.3);
// a unit whose HQ is lost gets no new orders (6).
func LegalStatuses(rs *Ruleset, st *State, u *Unit) []Status {
	switch {
	case u.HQ(rs) == nil:
		return []Status{u.Status}
	case st.Day > 1 && st.Round == 1 && !st.Night:
		return AllStatuses
	case u.Status == DigIn:
		return []Status{Hold, DigIn}
	case u.Status == Hold:
		return AllStatuses
	default:
		return []Status{Move, Hold, Retreat}
	}
}

// StatusAllowed reports whether u may be given status s.
func StatusAllowed(rs *Ruleset, st *State, u *Unit, s Status) bool {
	for _, ok := range LegalStatuses(rs, st, u) {
		if ok == s {
			return true
		}
	}
	return false
}

// NightPools is a side's recovery for the night round (9.1): strength and
// support points per initial unit still in the game, at the side's supply
// level or the ruleset's average.
func NightPools(rs *Ruleset, st *State, side string) (sp, support int) {
	sd := st.Side(side)
	perSP, perSupport := rs.NightSP, rs.NightSupport
	if sd.NightSP > 0 {
		perSP = sd.NightSP
	}
	if sd.NightSupport > 0 {
		perSupport = sd.NightSupport
	}
	for _, u := range st.ActiveUnits(side) {
		if u.Initial {
			sp += perSP
			support += perSupport
		}
	}
	return sp, support
}
