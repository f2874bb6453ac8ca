package bot

import (
	"slices"

	"fieldpost/engine/stargeneral/rules"
)

// planNight spends the night's recovery (9.1): strength first where it wins
// back dice, to the damaged stands in command of their HQ; then lost
// stands rebuilt next to their unit, in command where possible; then the
// rest of the strength; and the support points bring lost platoons back.
// Units whose HQ is lost are left to the night's defaults: where the new
// HQ will appear decides which of their stands are in command.
func planNight(rs *rules.Ruleset, st *rules.State, side string) *rules.Orders {
	p := newPosition(rs, st, side)
	sp, support := rules.NightPools(rs, st, side)
	var units []*rules.Unit
	for _, u := range st.ActiveUnits(side) {
		if u.HQ(rs) != nil {
			units = append(units, u)
		}
	}
	n := &rules.NightOrders{}
	gain := map[*rules.Stand]int{}
	// give hands out the pool a point at a time, each to the damaged stand
	// in command that rank puts highest, ties to the first in roster order;
	// a stand ranked 0 or less takes none.
	give := func(rank func(s *rules.Stand, now int) int) {
		for sp > 0 {
			var best *rules.Stand
			bestRank := 0
			for _, u := range units {
				hq := u.HQ(rs)
				for _, s := range u.Stands {
					now := s.SP + gain[s]
					if now >= s.MaxSP || rules.Distance(s.Hex, hq.Hex) > rs.CommandRange {
						continue
					}
					if r := rank(s, now); r > bestRank {
						best, bestRank = s, r
					}
				}
			}
			if best == nil {
				return
			}
			gain[best]++
			sp--
		}
	}
	// First the points that win back dice: a stand throws no more dice than
	// it has SP (3.1).
	give(func(s *rules.Stand, now int) int { return min(s.FS, s.MaxSP) - min(s.FS, now) })
	claimed := map[rules.Hex]bool{}
	for _, u := range units {
		for _, s := range u.Lost {
			if sp == 0 {
				break
			}
			if rs.StandTypes[s.Type].Role == rules.RoleHQ {
				continue
			}
			if h, ok := rebuildHex(p, u, s, claimed); ok {
				n.Rebuild = append(n.Rebuild, rules.Rebuild{Unit: u.ID, Stand: s.Name, Hex: h, SP: min(sp, max(1, min(s.FS, s.MaxSP)))})
				sp -= n.Rebuild[len(n.Rebuild)-1].SP
				claimed[h] = true
			}
		}
	}
	// Then the rest, to the stands missing the most.
	give(func(s *rules.Stand, now int) int { return s.MaxSP - now })
	for _, u := range units {
		for _, s := range u.Stands {
			if gain[s] > 0 {
				n.Strength = append(n.Strength, rules.Recovery{Unit: u.ID, Stand: s.Name, SP: gain[s]})
			}
		}
	}
	given := map[*rules.Stand]bool{}
	for _, u := range units {
		for _, pl := range u.LostPlatoons {
			if support == 0 {
				break
			}
			if s := platoonStand(rs, u, pl, given); s != nil {
				n.Platoons = append(n.Platoons, rules.PlatoonRecovery{Unit: u.ID, Platoon: pl.Name, To: s.Name})
				given[s] = true
				support--
			}
		}
	}
	return validNight(rs, st, side, n)
}

// rebuildHex picks where a lost stand comes back (9.1): a free passable hex
// next to a stand of its unit and outside enemy ZOC; in command of the HQ
// if it can, then nearest where it was lost, then farthest from the enemy.
func rebuildHex(p *position, u *rules.Unit, lost *rules.Stand, claimed map[rules.Hex]bool) (rules.Hex, bool) {
	hq := u.HQ(p.rs)
	var best rules.Hex
	bestScore := 0
	for _, s := range u.Stands {
		for _, h := range s.Hex.Neighbours() {
			if !p.passable(h) || p.held(h) || claimed[h] || p.inEnemyZOC(h) {
				continue
			}
			score := 10*min(p.enemyDistance(h), 9) - 20*rules.Distance(h, lost.Hex)
			if rules.Distance(h, hq.Hex) <= p.rs.CommandRange {
				score += 1000
			}
			if best.IsZero() || score > bestScore {
				best, bestScore = h, score
			}
		}
	}
	return best, !best.IsZero()
}

// platoonStand picks the stand of its unit a lost platoon comes back to
// (9.1): one with room for it (1.3) that has not been given one tonight;
// light artillery goes to the HQ, which stays back within its range, and
// the others to the strongest fighting stand.
func platoonStand(rs *rules.Ruleset, u *rules.Unit, pl *rules.Platoon, given map[*rules.Stand]bool) *rules.Stand {
	stands := slices.Clone(u.Stands)
	rank := func(s *rules.Stand) int {
		hq := rs.StandTypes[s.Type].Role == rules.RoleHQ
		if hq == (rs.StandTypes[pl.Type].Role == rules.RoleLightArtillery) {
			return 100 + s.SP
		}
		return s.SP
	}
	slices.SortStableFunc(stands, func(a, b *rules.Stand) int { return rank(b) - rank(a) })
	for _, s := range stands {
		if !given[s] && roomFor(rs, s, pl) {
			return s
		}
	}
	return nil
}

// roomFor: one support platoon and one transport a stand, and an exclusive
// platoon shares with neither (1.3, 2.1).
func roomFor(rs *rules.Ruleset, s *rules.Stand, pl *rules.Platoon) bool {
	exclusive := func(q *rules.Platoon) bool { return q != nil && rs.StandTypes[q.Type].Exclusive }
	if rs.StandTypes[pl.Type].Class == rules.ClassTransport {
		return s.Transport == nil && !exclusive(s.Support)
	}
	return s.Support == nil && (s.Transport == nil || !exclusive(pl))
}

// validNight returns night orders rules.Validate accepts: an order the
// rules refuse is dropped, with every order of that unit and stand (or
// platoon); the night's defaults give out what is left.
func validNight(rs *rules.Ruleset, st *rules.State, side string, n *rules.NightOrders) *rules.Orders {
	o := &rules.Orders{Side: side, Night: n}
	for range 8 {
		if len(n.Strength)+len(n.Platoons)+len(n.Rebuild) == 0 {
			o.Night = nil
		}
		probs := rules.Validate(rs, st, o)
		if len(probs) == 0 {
			return o
		}
		for _, pr := range probs {
			match := func(unit, stand string) bool {
				return unit == pr.Unit && (pr.Stand == "" || stand == pr.Stand)
			}
			n.Strength = slices.DeleteFunc(n.Strength, func(r rules.Recovery) bool { return match(r.Unit, r.Stand) })
			n.Platoons = slices.DeleteFunc(n.Platoons, func(r rules.PlatoonRecovery) bool { return match(r.Unit, r.Platoon) })
			n.Rebuild = slices.DeleteFunc(n.Rebuild, func(r rules.Rebuild) bool { return match(r.Unit, r.Stand) })
		}
	}
	return &rules.Orders{Side: side}
}
