package bot

import (
	"slices"
	"sort"

	"fieldpost/engine/stargeneral/rules"
)

// target is an objective worth going for: one the side lacks, or one of its
// own the enemy threatens.
type target struct {
	hex      rules.Hex
	value    float64
	defend   bool
	capacity int // units it still takes
}

// assignGoals gives units their goals (11): each objective the side lacks
// draws up to two units, each threatened objective of its own one, the
// most valuable and nearest first (a unit covers two or three hexes a
// round); a side that must gain ground to win cares more for the objectives
// it lacks, one that is winning for those it holds. Units left over follow
// the nearest attack on an objective, or have no goal and hold where they are.
func (p *planner) assignGoals() {
	attack, defend := 1.5, 1.0
	if !p.mustGain() {
		attack, defend = 1.0, 1.5
	}
	var targets []target
	for _, ob := range p.st.SortedObjectives() {
		v := 2 + 2*float64(ob.Value)
		switch {
		case ob.Owner != p.side:
			targets = append(targets, target{hex: ob.Hex, value: attack * v, capacity: 2})
		case p.enemyDistance(ob.Hex) <= threatRange:
			targets = append(targets, target{hex: ob.Hex, value: defend * v, defend: true, capacity: 1})
		}
	}
	type pair struct {
		u     *rules.Unit
		t     int
		score float64
	}
	var pairs []pair
	var units []*rules.Unit
	for _, u := range p.st.ActiveUnits(p.side) {
		if u.HQ(p.rs) == nil {
			continue
		}
		units = append(units, u)
		for i, t := range targets {
			pairs = append(pairs, pair{u, i, t.value / (1 + float64(p.unitDistance(u, t.hex))/3) * p.jitter()})
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].score > pairs[j].score })
	for _, pr := range pairs {
		t := &targets[pr.t]
		if _, done := p.goals[pr.u]; done || t.capacity == 0 {
			continue
		}
		t.capacity--
		p.goals[pr.u] = goal{hex: t.hex, defend: t.defend}
	}
	for _, u := range units {
		if _, done := p.goals[u]; done {
			continue
		}
		best := -1
		for i, t := range targets {
			if !t.defend && (best < 0 || p.unitDistance(u, t.hex) < p.unitDistance(u, targets[best].hex)) {
				best = i
			}
		}
		if best >= 0 {
			p.goals[u] = goal{hex: targets[best].hex}
		}
	}
}

// mustGain: the side loses if the objectives stay as they are (11): it
// holds no more than the enemy, or it is the side that must hold enough
// and does not, or the other side and the enemy does.
func (p *planner) mustGain() bool {
	points := func(side string) int {
		n := 0
		for _, ob := range p.st.Objectives {
			if ob.Owner == side {
				n += ob.Value
			}
		}
		return n
	}
	v := p.st.Victory
	switch {
	case v.Kind != rules.VictoryHold:
		return points(p.side) <= points(p.st.Enemy(p.side))
	case v.Side == p.side:
		return points(p.side) < v.Need
	}
	return points(v.Side) >= v.Need
}

// unitDistance is how far the unit's nearest stand is from h.
func (p *planner) unitDistance(u *rules.Unit, h rules.Hex) int {
	best := 99
	for _, s := range u.Stands {
		best = min(best, rules.Distance(s.Hex, h))
	}
	return best
}

// reachable is where a stand can finish its move, with the paths there.
type reachable struct {
	paths map[rules.Hex][]rules.Hex
	hexes []rules.Hex // the same hexes, sorted
}

// reachOf is position.reach, remembered for the round.
func (p *planner) reachOf(s *rules.Stand, strategic bool) reachable {
	k := reachKey{s, strategic}
	if r, ok := p.reaches[k]; ok {
		return r
	}
	paths := p.reach(s, strategic)
	r := reachable{paths: paths, hexes: sortedHexes(paths)}
	p.reaches[k] = r
	return r
}

// free: a stand may finish its move in h: its own hex, or one nobody holds
// now or has been given by a plan made before (1.3). Hexes that stands of
// the side will leave are not counted on: they may not have left in time.
func (p *planner) free(s *rules.Stand, h rules.Hex, claimed map[rules.Hex]bool) bool {
	return !claimed[h] && (h == s.Hex || (!p.held(h) && !p.taken[h]))
}

// arrange moves an M unit towards goal as one body (1.1, 2): the stands
// in fixed go where their paths take them (the attackers), the HQ to a hex
// within command range of them from which the others can stay in command,
// and the others as near the goal as they can get within command of it.
// Stands that are not fixed may move strategically where the enemy is far.
// Nil when the HQ cannot keep the fixed stands in command.
func (p *planner) arrange(u *rules.Unit, goal rules.Hex, fixed map[*rules.Stand][]rules.Hex) *unitPlan {
	hq := u.HQ(p.rs)
	fixedEnds := map[rules.Hex]bool{}
	for s, path := range fixed {
		fixedEnds[endOf(s, path)] = true
	}
	var others []*rules.Stand
	for _, s := range u.Stands {
		if _, ok := fixed[s]; !ok && s != hq {
			others = append(others, s)
		}
	}
	// The stands nearest the goal choose first: the others follow.
	slices.SortStableFunc(others, func(a, b *rules.Stand) int {
		return rules.Distance(a.Hex, goal) - rules.Distance(b.Hex, goal)
	})
	var best *unitPlan
	bestScore := 0.0
	for _, h := range p.reachOf(hq, true).hexes {
		if !p.free(hq, h, fixedEnds) || !p.commands(h, fixed) {
			continue
		}
		pl := &unitPlan{kind: kindAdvance, orders: rules.UnitOrders{Unit: u.ID, Status: rules.Move}, ends: map[*rules.Stand]rules.Hex{hq: h}}
		claimed := map[rules.Hex]bool{h: true}
		for s, path := range fixed {
			pl.ends[s] = endOf(s, path)
			claimed[pl.ends[s]] = true
		}
		score := p.hqScore(h, goal)
		nearest := 99
		placed := true
		for _, s := range others {
			end, sc := s.Hex, 0.0
			found := false
			for _, e := range p.reachOf(s, true).hexes {
				if rules.Distance(e, h) > p.rs.CommandRange || !p.free(s, e, claimed) {
					continue
				}
				if v := p.endScore(e, goal); !found || v < sc {
					end, sc, found = e, v, true
				}
			}
			if !found {
				// Out of command where it is, unless its hex is taken:
				// then it has nowhere to go.
				placed = !claimed[s.Hex]
				sc = p.endScore(s.Hex, goal) + outOfCommandCost
			}
			pl.ends[s] = end
			claimed[end] = true
			score += sc
			nearest = min(nearest, rules.Distance(end, goal))
		}
		if !placed {
			continue
		}
		for s := range fixed {
			nearest = min(nearest, rules.Distance(pl.ends[s], goal))
		}
		if !goal.IsZero() && rules.Distance(h, goal) < nearest {
			score += hqAheadCost // the HQ leads from behind
		}
		if best == nil || score < bestScore {
			best, bestScore = pl, score
		}
	}
	if best == nil {
		return nil
	}
	for _, s := range u.Stands {
		end := best.ends[s]
		if end == s.Hex {
			continue
		}
		path := fixed[s]
		if path == nil {
			path = p.reachOf(s, true).paths[end]
		}
		best.orders.Moves = append(best.orders.Moves, rules.StandMove{Stand: s.Name, Path: path})
	}
	return best
}

// Costs in the arrangement scores, in hexes from the goal.
const (
	outOfCommandCost = 5
	hqAheadCost      = 1
	hqInZOCCost      = 4
	hqNearEnemyCost  = 1
)

// commands: an HQ at h keeps every fixed stand in command (1.1).
func (p *planner) commands(h rules.Hex, fixed map[*rules.Stand][]rules.Hex) bool {
	for s, path := range fixed {
		if rules.Distance(h, endOf(s, path)) > p.rs.CommandRange {
			return false
		}
	}
	return true
}

func endOf(s *rules.Stand, path []rules.Hex) rules.Hex {
	if len(path) == 0 {
		return s.Hex
	}
	return path[len(path)-1]
}

// endScore rates a hex for a stand to finish in, lower is better: near the
// goal, in cover, not in a river (3.7.3), and an objective it would take.
func (p *planner) endScore(e, goal rules.Hex) float64 {
	v := 0.0
	if !goal.IsZero() {
		v += float64(rules.Distance(e, goal))
	}
	t := p.terrain(e)
	if t.Cover {
		v -= 0.3
	}
	if t.River {
		v += 0.5
	}
	if ob := p.objective(e); ob != nil && ob.Owner != p.side {
		v -= 3
	}
	return v
}

// hqScore rates a hex for the HQ: it follows the unit, out of the enemy's
// reach: an HQ lost stops the whole unit (6).
func (p *planner) hqScore(h, goal rules.Hex) float64 {
	v := 0.2 * p.endScore(h, goal)
	switch d := p.enemyDistance(h); {
	case d <= 1:
		v += hqInZOCCost
	case d == 2:
		v += hqNearEnemyCost
	}
	return v
}
