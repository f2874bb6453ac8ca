package rules

import "fmt"

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
