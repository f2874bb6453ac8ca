package bot

import "fieldpost/engine/frontline/rules"

// manEquipment sends each loose crew into an uncrewed vehicle, gun or
// aircraft of the side that needs its kind of crew, in its hex or the
// next (captured equipment, or one whose crew was lost): MAN (§VI.1.2,
// §III.2.2). It replaces the crew's move and holds the unit manned.
func (b *planner) manEquipment() {
	v := b.v
	taken := map[string]bool{}
	for _, c := range v.Units {
		if c.Side != b.side || !c.OnMap() || c.In != "" || v.Card(c).Crew == "" {
			continue
		}
		for _, t := range v.Units {
			if t.Side != b.side || !t.OnMap() || t.In != "" || taken[t.ID] || v.Card(t).Requires != v.Card(c).Crew || b.hasCrew(t) || rules.Distance(c.Hex, t.Hex) > 1 {
				continue
			}
			m := rules.Move{Line: b.next(), Unit: c.ID}
			if t.Hex != c.Hex {
				m.Steps = append(m.Steps, rules.Step{Hex: t.Hex})
			}
			m.Steps = append(m.Steps, rules.Step{Act: rules.ActMan, Unit: t.ID})
			b.o.Moves = append(dropMoves(b.o.Moves, c.ID, t.ID), m)
			taken[t.ID] = true
			break
		}
	}
}

func (b *planner) hasCrew(u *rules.Unit) bool {
	for _, x := range b.v.Units {
		if x.Side == u.Side && x.In == u.ID && x.Role == "crew" {
			return true
		}
	}
	return false
}

// dropMoves removes the moves of the named units.
func dropMoves(ms []rules.Move, ids ...string) []rules.Move {
	var out []rules.Move
	for _, m := range ms {
		keep := true
		for _, id := range ids {
			keep = keep && m.Unit != id
		}
		if keep {
			out = append(out, m)
		}
	}
	return out
}
