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
// round), those it lacks the more the cheaper they are to take and never
// when out of reach before the end, those it holds the likelier the enemy
// comes for them; a side that must gain ground to win cares more for the
// objectives it lacks, one that is winning for those it holds. Units left
// over follow the nearest attack on an objective, or have no goal and hold
// where they are.
func (p *planner) assignGoals() {
	attack, defend := 1.5, 0.8
	if !p.mustGain() {
		attack, defend = 1.0, 1.5
	}
	var targets []target
	for _, ob := range p.st.SortedObjectives() {
		v := 2 + 2*float64(ob.Value)
		switch {
		case ob.Owner != p.side:
			targets = append(targets, target{hex: ob.Hex, value: attack * v, capacity: 2})
		case p.threat(ob.Hex) > 0:
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
			score := t.value / (1 + p.unitWay(u, t.hex)/3) * p.jitter()
			if t.defend {
				score *= p.threat(t.hex)
			} else {
				score *= p.ease(u, t.hex)
				if p.roundsToReach(u, t.hex) > p.roundsLeft() {
					score *= lateGoal
				}
			}
			pairs = append(pairs, pair{u, i, score})
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

// unitWay is the way to h (way) of the unit's nearest stand.
func (p *planner) unitWay(u *rules.Unit, h rules.Hex) float64 {
	best := 999.0
	for _, s := range u.Stands {
		best = min(best, p.way(h, s.Hex))
	}
	return best
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
		v += p.way(goal, e)
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

// lateGoal weighs an objective the unit cannot reach before the battle
// ends: only the objectives held at the end count (11).
const lateGoal = 0.2

// coverWeight: a stand dug in, or holding in cover, is hit on a 6 only by
// attackers who each throw a die less, and hits back on 5 or 6 (3.2,
// 3.7.1): it counts about three times a stand in the open.
const coverWeight = 3

// ease is how cheaply the unit may take h: its own dice against the
// enemy's in and next to h, those in the hex counting more where cover or
// digging in protects them (3.7.1) and those around it half (they fight
// for it, or take it back). An empty objective nobody guards is taken by
// walking in.
func (p *planner) ease(u *rules.Unit, h rules.Hex) float64 {
	own := 0.0
	for _, s := range u.Stands {
		if p.role(s) != rules.RoleHQ {
			own += float64(dice(s))
		}
	}
	enemy := 0.0
	for _, e := range p.enemies {
		o := p.occ[e]
		d := rules.Distance(e, h)
		if d > 1 || o.stand == nil || p.role(o.stand) == rules.RoleHQ {
			continue
		}
		v := float64(dice(o.stand))
		if o.stand.Support != nil {
			v++
		}
		switch {
		case d == 1:
			v /= 2
		case p.covered(e) || p.terrain(e).Cover:
			v *= coverWeight
		}
		enemy += v
	}
	if o := p.occ[h]; o.side != "" && o.side != p.side {
		for _, bt := range p.st.Batteries {
			if bt.Side != p.side && !bt.Removed && rules.Distance(bt.Hex, h) <= bt.Range {
				enemy += float64(min(bt.FS, bt.SP)) // its defensive fire (3.5.2)
			}
		}
	}
	if own == 0 {
		return 0
	}
	return own / (own + enemy)
}

// roundsLeft is how many rounds of the battle are still to play, the
// coming one included.
func (p *planner) roundsLeft() int {
	return (p.st.Days-p.st.Day)*p.rs.RoundsPerDay + p.rs.RoundsPerDay - p.st.Round + 1
}

// roundsToReach is how many rounds the unit's fighting stands need to get
// its nearest one into h at their normal pace (2).
func (p *planner) roundsToReach(u *rules.Unit, h rules.Hex) int {
	best := 99
	for _, s := range u.Stands {
		if p.role(s) == rules.RoleHQ {
			continue
		}
		if pace := p.allowance(s).Normal; pace > 0 {
			best = min(best, (rules.Distance(s.Hex, h)+pace-1)/pace)
		}
	}
	return best
}

// Costs of the way to a goal, in hexes, on top of each hex entered: a hex
// where the move must halt (2.3) or an enemy ZOC (2.2), which ends the
// round's move there.
const (
	haltWayCost = 1
	zocWayCost  = 3
)

// way is how far h is from goal for a stand going there over the coming
// rounds: hexes entered, plus what halting terrain and the enemy's ZOC
// cost on the way; enemy stands are gone round, the goal itself being
// entered last. Far when no way leads there.
func (p *planner) way(goal, h rules.Hex) float64 {
	field, ok := p.ways[goal]
	if !ok {
		field = p.wayField(goal)
		p.ways[goal] = field
	}
	if d, ok := field[h]; ok {
		return d
	}
	return float64(rules.Distance(goal, h)) + 20
}

// wayField is the way to goal from every hex that has one (Dijkstra from
// the goal outwards, the cost of a step being that of the hex it enters;
// the costs are whole hexes, so a queue of buckets will do).
func (p *planner) wayField(goal rules.Hex) map[rules.Hex]float64 {
	if p.enterCost == nil {
		p.enterCost = map[rules.Hex]int{}
		for c := 1; c <= p.st.Map.Cols; c++ {
			for r := 1; r <= p.st.Map.Rows; r++ {
				h := rules.Hex{Col: c, Row: r}
				if !p.passable(h) || p.enemyAt(h) {
					continue
				}
				cost := 1 + p.haltCost(h)
				if p.inEnemyZOC(h) {
					cost += zocWayCost
				}
				p.enterCost[h] = cost
			}
		}
	}
	enter := func(h rules.Hex) int {
		if h == goal {
			return 1 + p.haltCost(h) // its ZOC does not matter: it is reached
		}
		return p.enterCost[h]
	}
	dist := map[rules.Hex]int{goal: 0}
	buckets := [][]rules.Hex{{goal}}
	for d := 0; d < len(buckets); d++ {
		for _, cur := range buckets[d] {
			if dist[cur] != d {
				continue // reached more cheaply since
			}
			step := enter(cur)
			for _, n := range cur.Neighbours() {
				if _, ok := p.enterCost[n]; !ok {
					continue // off the map, impassable or the enemy's
				}
				if old, ok := dist[n]; ok && old <= d+step {
					continue
				}
				dist[n] = d + step
				for len(buckets) <= d+step {
					buckets = append(buckets, nil)
				}
				buckets[d+step] = append(buckets[d+step], n)
			}
		}
	}
	out := make(map[rules.Hex]float64, len(dist))
	for h, d := range dist {
		out[h] = float64(d)
	}
	return out
}

// haltCost is haltWayCost where a normal move halts on entering (2.3).
func (p *planner) haltCost(h rules.Hex) int {
	if t := p.terrain(h); t.Normal == rules.MoveHaltOnEnter || t.Normal == rules.MoveHaltBeforeAndOnEnter {
		return haltWayCost
	}
	return 0
}

// threat is how likely the enemy is to come for h soon if no unit of the
// side holds it, 0 to 1: a stand of an enemy unit that can move (not dug
// in, 1.5) and garrisons no objective of its own, that can get next to h
// with a normal move (2), or nearly.
func (p *planner) threat(h rules.Hex) float64 {
	best := 0.0
	for _, e := range p.enemies {
		o := p.occ[e]
		if o.stand == nil || o.unit.Status == rules.DigIn || p.garrison(o.unit) {
			continue
		}
		// Next to h, or a few hexes short of it: it may come next round.
		reach := p.allowance(o.stand).Normal + 1
		w := 1 - float64(rules.Distance(e, h)-reach)/3
		best = max(best, min(w, 1))
	}
	return best
}

// garrison: a unit with a stand on an objective its side holds, there to
// keep it.
func (p *planner) garrison(u *rules.Unit) bool {
	for _, s := range u.Stands {
		if ob := p.objective(s.Hex); ob != nil && ob.Owner == u.Side {
			return true
		}
	}
	return false
}
