package bot

// What one unit does when it neither attacks nor goes for a goal: grab an
// empty objective in the last round, hold, stand, bring its HQ back, or
// retreat.

import (
	"slices"

	"fieldpost/engine/stargeneral/rules"
)

// finalRound: the round st is about to play is the battle's last, after
// which only the objectives count (8, 11).
func (p *planner) finalRound() bool {
	return p.st.Day >= p.st.Days && p.st.Round >= p.rs.RoundsPerDay
}

// grab sends, in the battle's last round, the stands a unit's plan leaves
// free to the objectives the side lacks that nobody holds and that they can
// reach: only the objectives held at the end count (11), and a stand out
// of command holds a hex as well as one in command; a unit that would only
// hold moves for it. The attacking stands, and the HQ of a unit that
// attacks (2.2), stay where the plan has them.
func (p *planner) grab(u *rules.Unit, pl *unitPlan) {
	hq := u.HQ(p.rs)
	canMove := pl.orders.Status == rules.Move || (pl.orders.Status == rules.Hold && pl.orders.Attack == nil && rules.StatusAllowed(p.rs, p.st, u, rules.Move))
	if !p.finalRound() || !canMove || hq == nil {
		return
	}
	busy := map[*rules.Stand]bool{}
	ends := map[rules.Hex]bool{}
	for _, s := range u.Stands {
		ends[pl.ends[s]] = true
		busy[s] = p.objective(pl.ends[s]) != nil || (s == hq && pl.orders.Attack != nil)
	}
	if a := pl.orders.Attack; a != nil {
		for _, as := range a.Stands {
			busy[u.Stand(as.Stand)] = true
		}
	}
	for _, ob := range p.st.SortedObjectives() {
		if ob.Owner == p.side || p.held(ob.Hex) || p.taken[ob.Hex] || ends[ob.Hex] {
			continue
		}
		for _, s := range u.Stands {
			path, ok := p.reachOf(s, true).paths[ob.Hex]
			if busy[s] || !ok {
				continue
			}
			busy[s], ends[ob.Hex] = true, true
			pl.ends[s] = ob.Hex
			pl.orders.Status = rules.Move
			pl.orders.Moves = slices.DeleteFunc(pl.orders.Moves, func(m rules.StandMove) bool { return m.Stand == s.Name })
			pl.orders.Moves = append(pl.orders.Moves, rules.StandMove{Stand: s.Name, Path: path})
			break
		}
	}
}

// hold keeps a unit where it is (stand), first bringing back into command
// any stand that has strayed from its HQ (1.1): the stands on objectives
// stay put, and the HQ and the rest gather round them. It does so only on
// Move orders and only when every stand ends in command.
func (p *planner) hold(u *rules.Unit, g goal) *unitPlan {
	hq := u.HQ(p.rs)
	strays := false
	fixed := map[*rules.Stand][]rules.Hex{}
	for _, s := range u.Stands {
		strays = strays || rules.Distance(s.Hex, hq.Hex) > p.rs.CommandRange
		if s != hq && p.objective(s.Hex) != nil {
			fixed[s] = nil
		}
	}
	if !strays || !rules.StatusAllowed(p.rs, p.st, u, rules.Move) {
		return p.stand(u, false)
	}
	at := g.hex
	if at.IsZero() {
		at = hq.Hex
	}
	pl := p.arrange(u, at, fixed)
	if pl == nil {
		return p.stand(u, false)
	}
	for _, s := range u.Stands {
		if rules.Distance(pl.ends[s], pl.ends[hq]) > p.rs.CommandRange {
			return p.stand(u, false)
		}
	}
	return pl
}

// stand keeps a unit where it is: on Hold, attacking with one stand when
// the odds are good, or else dug in when the enemy is near (1.6, 3.4).
func (p *planner) stand(u *rules.Unit, noDig bool) *unitPlan {
	pl := p.stay(u, kindHold, rules.Hold)
	if a := p.holdAttack(u); a != nil {
		return a
	}
	if !noDig && p.unitEnemyDistance(u) <= digInRange && rules.StatusAllowed(p.rs, p.st, u, rules.DigIn) {
		pl.orders.Status = rules.DigIn
	}
	return pl
}

// stay is a plan in which nobody moves.
func (p *planner) stay(u *rules.Unit, kind planKind, status rules.Status) *unitPlan {
	pl := &unitPlan{kind: kind, orders: rules.UnitOrders{Unit: u.ID, Status: status}, ends: map[*rules.Stand]rules.Hex{}}
	for _, s := range u.Stands {
		pl.ends[s] = s.Hex
	}
	return pl
}

// hqReturn is the plan of a unit whose HQ is lost (6): it takes no new
// orders, and asks for its new HQ where most of its stands are in command,
// away from the enemy.
func (p *planner) hqReturn(u *rules.Unit) *unitPlan {
	pl := p.stay(u, kindNoHQ, rules.LegalStatuses(p.rs, p.st, u)[0])
	var best rules.Hex
	bestScore := -1
	for _, s := range u.Stands {
		for _, h := range s.Hex.Neighbours() {
			if !p.passable(h) || p.held(h) || p.taken[h] || p.inEnemyZOC(h) {
				continue
			}
			score := 10 * p.inCommandCount(u, h)
			score += min(p.enemyDistance(h), 9)
			if score > bestScore {
				best, bestScore = h, score
			}
		}
	}
	if bestScore >= 0 {
		pl.orders.HQPlacement = best
		p.taken[best] = true
	}
	return pl
}

func (p *planner) inCommandCount(u *rules.Unit, hq rules.Hex) int {
	n := 0
	for _, s := range u.Stands {
		if rules.Distance(s.Hex, hq) <= p.rs.CommandRange {
			n++
		}
	}
	return n
}

// shouldRetreat: a badly damaged unit with the enemy close pulls back,
// unless it holds an objective.
func (p *planner) shouldRetreat(u *rules.Unit) bool {
	return p.strength(u) <= retreatStrength && p.unitEnemyDistance(u) <= 2 &&
		rules.StatusAllowed(p.rs, p.st, u, rules.Retreat) && !p.onObjective(u)
}

// retreat moves the HQ as far from the enemy as it can get without
// crossing enemy ZOC, and the stands as far as they can within command of
// it (2.6). Nil when nobody would get any further from the enemy.
func (p *planner) retreat(u *rules.Unit) *unitPlan {
	pl := p.stay(u, kindRetreat, rules.Retreat)
	hq := u.HQ(p.rs)
	claimed := map[rules.Hex]bool{}
	place := func(s *rules.Stand, within func(rules.Hex) bool) bool {
		opts := p.retreatReach(s)
		best, bestScore := s.Hex, p.retreatScore(s.Hex, 0)
		for _, h := range sortedHexes(opts) {
			if h == s.Hex || p.held(h) || p.taken[h] || claimed[h] || !within(h) {
				continue
			}
			if sc := p.retreatScore(h, opts[h].cost); sc > bestScore {
				best, bestScore = h, sc
			}
		}
		pl.ends[s] = best
		if best == s.Hex {
			return false
		}
		claimed[best] = true
		pl.orders.Moves = append(pl.orders.Moves, rules.StandMove{Stand: s.Name, Path: opts[best].path})
		return true
	}
	moved := place(hq, func(rules.Hex) bool { return true })
	for _, s := range u.Stands {
		if s != hq {
			inCommand := func(h rules.Hex) bool { return rules.Distance(h, pl.ends[hq]) <= p.rs.CommandRange }
			moved = place(s, inCommand) || moved
		}
	}
	if !moved {
		return nil
	}
	return pl
}

// retreatScore: farther from the enemy is better, and every SP lost to
// enemy ZOC on the way costs more than a hex gained.
func (p *planner) retreatScore(h rules.Hex, cost int) int {
	return min(p.enemyDistance(h), 9) - 3*cost
}
