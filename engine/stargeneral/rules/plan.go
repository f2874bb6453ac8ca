package rules

// LegalStatuses lists the orders a unit may be given for the coming round
// (1.6): a Dug In unit may only stay D or become H, only a Hold unit may dig
// in; the first round of every day after the first allows any order (9.3);
// a unit whose HQ is lost gets no new orders: it stays as it is, M and R
// falling back to H (6).
func LegalStatuses(rs *Ruleset, st *State, u *Unit) []Status {
	switch {
	case u.HQ(rs) == nil && (u.Status == Move || u.Status == Retreat):
		return []Status{Hold, u.Status}
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

// NightPools is a side's recovery for the night round (9.1): so many SP and
// support points for each initial unit, at the side's supply level or the
// ruleset's average. Every unit the side started with counts, even one since
// destroyed: the rate is the army's supply, and "initial" is the book's word.
// Reinforcements do not count.
func NightPools(rs *Ruleset, st *State, side string) (sp, support int) {
	spPer, supportPer := nightRates(rs, st, side)
	n := initialUnits(st, side)
	return spPer * n, supportPer * n
}

func nightRates(rs *Ruleset, st *State, side string) (sp, support int) {
	sd := st.Side(side)
	sp, support = rs.NightSP, rs.NightSupport
	if sd.NightSP > 0 {
		sp = sd.NightSP
	}
	if sd.NightSupport > 0 {
		support = sd.NightSupport
	}
	return sp, support
}

func initialUnits(st *State, side string) int {
	n := 0
	for _, u := range st.Units {
		if u.Side == side && u.Initial {
			n++
		}
	}
	return n
}
