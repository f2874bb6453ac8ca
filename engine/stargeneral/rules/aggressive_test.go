package rules

// aggressiveOrders plots what an eager player would: every unit moves on the
// nearest enemy and attacks whatever it can reach, keeping only what the
// rules accept. The benchmark and the property tests use it to bring the
// armies to blows.
func aggressiveOrders(rs *Ruleset, st *State, side string) *Orders {
	o := DefaultOrders(rs, st, side)
	if st.Night {
		return o
	}
	b := newBoard(rs, st)
	enemies := enemyHexes(b, side)
	if len(enemies) == 0 {
		return o
	}
	airLeft := st.Side(side).Air
	for _, u := range st.ActiveUnits(side) {
		if u.HQ(rs) == nil || !StatusAllowed(rs, st, u, Move) {
			continue
		}
		uo := UnitOrders{Unit: u.ID, Status: Move}
		taken := map[Hex]bool{}
		ends := map[string]Hex{}
		for _, s := range u.Stands {
			path := stepsToward(b, s.Hex, nearest(s.Hex, enemies), b.allowance(s).Normal, taken)
			end := s.Hex
			if len(path) > 0 {
				end = path[len(path)-1]
				uo.Moves = append(uo.Moves, StandMove{Stand: s.Name, Path: path})
			}
			taken[end] = true
			ends[s.Name] = end
		}
		uo.Attack = plotAttack(rs, b, u, ends, enemies)
		if uo.Attack != nil && airLeft > 0 {
			// An eager player calls an air point to each attack while it has
			// some: the AA gets to fire at them.
			uo.Attack.Air = 1
			airLeft--
		}
		o.Units = replaceUnitOrders(o.Units, uo)
		// Drop whatever the rules refuse: the attack first, then moves.
		for range 3 {
			probs := Validate(rs, st, o)
			if len(probs) == 0 {
				break
			}
			cur := o.For(u.ID)
			if cur.Attack != nil {
				cur.Attack = nil
				continue
			}
			cur.Moves = nil
		}
		if len(Validate(rs, st, o)) > 0 {
			o.Units = replaceUnitOrders(o.Units, UnitOrders{Unit: u.ID, Status: DefaultOrders(rs, st, side).For(u.ID).Status})
		}
	}
	return o
}

func enemyHexes(b *board, side string) []Hex {
	var out []Hex
	for _, h := range occupiedHexes(b) {
		if b.at(h).side() != side {
			out = append(out, h)
		}
	}
	return out
}

func nearest(from Hex, hexes []Hex) Hex {
	best := hexes[0]
	for _, h := range hexes[1:] {
		if Distance(from, h) < Distance(from, best) {
			best = h
		}
	}
	return best
}

// stepsToward walks up to n hexes closer to target through passable, empty
// hexes, stopping next to it.
func stepsToward(b *board, from, target Hex, n int, taken map[Hex]bool) []Hex {
	var path []Hex
	at := from
	for range n {
		if Distance(at, target) <= 1 {
			break
		}
		next := at
		for _, nb := range at.Neighbours() {
			if b.passable(nb) && b.at(nb).empty() && !taken[nb] && Distance(nb, target) < Distance(next, target) {
				next = nb
			}
		}
		if next == at {
			break
		}
		path = append(path, next)
		at = next
	}
	return path
}

func plotAttack(rs *Ruleset, b *board, u *Unit, ends map[string]Hex, enemies []Hex) *Attack {
	var a *Attack
	for _, s := range u.Stands {
		if !rs.CanInitiate(b.role(s)) || a != nil && len(a.Stands) >= rs.MaxAttackStands {
			continue
		}
		end := ends[s.Name]
		target := nearest(end, enemies)
		if a != nil {
			target = a.Target
		}
		d := Distance(end, target)
		if d == 0 || d > rs.DistantFireRange {
			continue
		}
		if a == nil {
			a = &Attack{Target: target}
		}
		a.Stands = append(a.Stands, AttackStand{Stand: s.Name, Close: d == 1})
	}
	return a
}
