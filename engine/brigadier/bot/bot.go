// Package bot plays a side of Brigadier General Commands from what the
// side can see: the attacker (the side that must hold objectives) moves on
// the objective it lacks worth most for the way, by the cheapest way round
// the enemy it sees (vehicles keep out of woods and towns), firing on the
// move and assaulting what it reaches; the defender holds and fires,
// keeping fire in reserve when it sees nothing, and sends its nearest
// platoon back into an objective it lost; commanders raise the platoon
// that most needs it; artillery answers the nearest target seen.
package bot

import (
	"math/rand/v2"
	"slices"

	"fieldpost/engine/brigadier/rules"
)

// Plan writes side's orders from its view of the game (rules.View).
func Plan(rs *rules.Ruleset, view *rules.State, side string, seed uint64) *rules.Orders {
	rng := rand.New(rand.NewPCG(seed, uint64(view.Turn)))
	attacker := view.Victory.Side == side
	o := &rules.Orders{Side: side}
	pursue := attacker
	never := 0
	o.Pursue, o.BugoutDefault = &pursue, &never
	if view.Initiative == side {
		o.Initiative = "keep"
	}
	used := map[string]bool{}     // commanders that gave their one raise
	taken := map[rules.Hex]bool{} // hexes other platoons will stand in
	for _, p := range view.Active("") {
		taken[p.Hex] = true
	}
	retake := retakers(rs, view, side)
	for _, p := range view.Active(side) {
		po := rules.PlatoonOrder{Platoon: p.Name, Order: p.Order}
		want := rules.Aim
		// HQs command from behind; heavy weapons give fire support.
		mover := attacker && mobile(rs, p)
		target := goal(view, p, side)
		if h, ok := retake[p.Name]; ok {
			mover, target = true, h
		}
		// Under the guns of an enemy it sees and cannot reach this turn, a
		// mover stops and shoots aimed rather than walk into the open.
		if mover && underFire(rs, view, p) {
			mover = false
		}
		if mover {
			want = rules.Move
		}
		if p.Order > max(want, rules.Defend) || (mover && p.Order > want) {
			if c := raiser(view, p, used); c != nil {
				po.Order, po.By = want, c.Name
				used[c.Name] = true
			}
		}
		if po.Order < rules.Move || (po.Order == rules.Move && !mover) {
			po.Order = want // never Double; non-movers drop to Aim
		}
		if po.Order == rules.Move && mover {
			if path := pathTo(rs, view, p, target, taken, rng); len(path) > 0 {
				po.Path = path
				delete(taken, p.Hex)
				taken[path[len(path)-1]] = true
			}
		}
		end := p.Hex
		if len(po.Path) > 0 {
			end = po.Path[len(po.Path)-1]
		}
		if po.Order == rules.Move && rs.Types[p.Type].Infantry {
			for _, e := range rules.Seen(rs, view, side) {
				if rules.Adjacent(e.Hex, end) {
					po.Assault = e.Hex
					break
				}
			}
		}
		if po.Assault.IsZero() && rs.Rung(po.Order).Fire != "none" {
			if t := rules.NearestTarget(rs, view, p, po.Order); t != nil {
				po.Fire = t.Hex
				po.ElseNearest = true
			} else if rs.Rung(po.Order).Fire == "aimed" {
				po.Reserve = &rules.Reserve{Min: 1}
			}
		}
		o.Platoons = append(o.Platoons, po)
	}
	o.Calls = calls(rs, view, side, o)
	if night, _ := view.Night(rs); !night {
		o.Strikes = strikes(rs, view, side)
	}
	return o
}

// strikes sends each flight with sorties left at the enemy platoon seen
// nearest to the side's own platoons (11.4.3).
func strikes(rs *rules.Ruleset, view *rules.State, side string) []rules.Strike {
	var target *rules.Platoon
	best := 0
	for _, e := range rules.Seen(rs, view, side) {
		for _, p := range view.Active(side) {
			if d := rules.Distance(p.Hex, e.Hex); target == nil || d < best {
				target, best = e, d
			}
		}
	}
	if target == nil {
		return nil
	}
	var out []rules.Strike
	for _, fl := range view.Flights {
		if fl.Side == side && fl.Sorties > 0 {
			out = append(out, rules.Strike{Flight: fl.Name, Target: target.Hex})
		}
	}
	return out
}

// underFire: an enemy p sees, that has dice against it where it stands,
// is within 10 hexes but more than a Move away. A tank does not stop for
// rifles that cannot hurt it.
func underFire(rs *rules.Ruleset, view *rules.State, p *rules.Platoon) bool {
	for _, e := range rules.Seen(rs, view, p.Side) {
		d := rules.Distance(p.Hex, e.Hex)
		if _, dice := rules.BestWeapon(rs, e, p, d); dice == 0 {
			continue
		}
		if d <= 10 && d > rules.Allowance(rs, p, rules.Move)+1 && rules.Sees(rs, view, p, e) {
			return true
		}
	}
	return false
}

// mobile: a platoon that goes forward: neither an HQ nor a heavy weapon.
func mobile(rs *rules.Ruleset, p *rules.Platoon) bool {
	return rs.Movement[rs.Types[p.Type].Move].Move.I() > 1 && !isHeavy(rs, p) && !rs.Types[p.Type].HQ
}

// retakers sends, for each objective the side has lost and no enemy it
// sees stands in, its nearest mobile platoon in good order back to it.
func retakers(rs *rules.Ruleset, view *rules.State, side string) map[string]rules.Hex {
	out := map[string]rules.Hex{}
	if view.Victory.Side == side {
		return out
	}
	for _, o := range view.Objectives {
		if o.Holder == side || view.At(o.Hex) != nil {
			continue
		}
		var best *rules.Platoon
		for _, p := range view.Active(side) {
			if _, busy := out[p.Name]; busy || !mobile(rs, p) || p.Order > rules.Defend || p.Count(rs) == 0 {
				continue
			}
			if best == nil || rules.Distance(p.Hex, o.Hex) < rules.Distance(best.Hex, o.Hex) {
				best = p
			}
		}
		if best != nil {
			out[best.Name] = o.Hex
		}
	}
	return out
}

func isHeavy(rs *rules.Ruleset, p *rules.Platoon) bool {
	m := rs.Types[p.Type].Move
	return m == "heavy_foot" || m == "gun"
}

// raiser is a commander of p that has not given its order and can reach
// it: by radio, or within 1 hex (11.2).
func raiser(view *rules.State, p *rules.Platoon, used map[string]bool) *rules.Platoon {
	for _, c := range view.Superiors(p) {
		bn := view.Battalion(p.Side, c.Battalion)
		if !used[c.Name] && (rules.Adjacent(c.Hex, p.Hex) || (bn != nil && bn.Radio)) {
			return c
		}
	}
	return nil
}

// goal is the objective the side does not hold worth most for the way to
// it (value over distance), or the platoon's own hex when it holds them all.
func goal(view *rules.State, p *rules.Platoon, side string) rules.Hex {
	var best rules.Hex
	bestScore := 0.0
	for _, o := range view.Objectives {
		if o.Holder == side {
			continue
		}
		score := float64(o.Value) / float64(rules.Distance(p.Hex, o.Hex)+1)
		if best.IsZero() || score > bestScore {
			best, bestScore = o.Hex, score
		}
	}
	if best.IsZero() {
		return p.Hex
	}
	return best
}

// pathTo follows the cheapest way to goal (route) as far as the Move
// allowance goes, stopping next to an enemy it sees and short of hexes
// other platoons will stand in.
func pathTo(rs *rules.Ruleset, view *rules.State, p *rules.Platoon, goal rules.Hex, taken map[rules.Hex]bool, rng *rand.Rand) []rules.Hex {
	route := routeTo(rs, view, p, goal, rng)
	seen := rules.Seen(rs, view, p.Side)
	var path []rules.Hex
	at := p.Hex
	spent := 0
	allowance := rules.Allowance(rs, p, rules.Move)
	for _, next := range route {
		c := rules.StepCost(rs, view, p, at, next, rules.Move)
		if c == 0 || spent+c > allowance {
			break
		}
		spent += c
		path = append(path, next)
		at = next
		if slices.ContainsFunc(seen, func(e *rules.Platoon) bool { return rules.Adjacent(e.Hex, at) }) {
			break
		}
	}
	for len(path) > 0 && (taken[path[len(path)-1]] || rules.CheckPath(rs, view, p, rules.Move, path) != nil) {
		path = path[:len(path)-1]
	}
	return path
}

// routeTo is the cheapest way from p to goal (Dijkstra over the map):
// each step costs its movement cost, more where danger lies — in reach of
// an enemy it sees that has dice against it, and, for a vehicle, in woods
// and towns where bazookas wait unseen (9.1, FP-1) — and less in cover
// that hides foot (9.1). A little noise varies equal ways.
func routeTo(rs *rules.Ruleset, view *rules.State, p *rules.Platoon, goal rules.Hex, rng *rand.Rand) []rules.Hex {
	m := view.Map
	vehicle := rs.Types[p.Type].Vehicle
	seen := rules.Seen(rs, view, p.Side)
	weight := func(from, to rules.Hex) int {
		c := rules.StepCost(rs, view, p, from, to, rules.Move)
		if c == 0 {
			return 0
		}
		w := 4 * c
		if vehicle && m.Blocks(to) && to != goal {
			w += 12
		}
		if !vehicle && m.Hides(to) {
			w -= 2
		}
		for _, e := range seen {
			d := rules.Distance(e.Hex, to)
			if _, dice := rules.BestWeapon(rs, e, p, d); dice > 0 && d <= 10 {
				w += 6
			}
		}
		return w + rng.IntN(2)
	}
	dist := map[rules.Hex]int{p.Hex: 0}
	prev := map[rules.Hex]rules.Hex{}
	done := map[rules.Hex]bool{}
	for {
		var at rules.Hex
		best := -1
		for h, d := range dist {
			if !done[h] && (best < 0 || d < best || (d == best && rules.Compare(h, at) < 0)) {
				at, best = h, d
			}
		}
		if best < 0 || at == goal {
			break
		}
		done[at] = true
		for _, n := range at.Neighbours() {
			if !m.On(n) || done[n] {
				continue
			}
			w := weight(at, n)
			if w <= 0 {
				continue
			}
			if d, ok := dist[n]; !ok || best+w < d {
				dist[n] = best + w
				prev[n] = at
			}
		}
	}
	if _, ok := dist[goal]; !ok {
		return nil
	}
	var route []rules.Hex
	for h := goal; h != p.Hex; h = prev[h] {
		route = append([]rules.Hex{h}, route...)
	}
	return route
}

// calls brings each artillery unit with missions onto the nearest enemy an
// Aim or Defend platoon sees, one unit a call (11.4.1, FP-5).
func calls(rs *rules.Ruleset, view *rules.State, side string, o *rules.Orders) []rules.Call {
	var out []rules.Call
	callers := map[string]bool{}
	for _, b := range view.Batteries {
		if b.Side != side || b.Missions == 0 {
			continue
		}
		for _, po := range o.Platoons {
			p := view.Platoon(side, po.Platoon)
			if callers[p.Name] || !rs.Rung(po.Order).Calls || view.EnemyAdjacent(side, p.Hex) {
				continue // a platoon in contact may not call (11.4.1)
			}
			var target *rules.Platoon
			for _, e := range rules.Seen(rs, view, side) {
				if rules.Sees(rs, view, p, e) && (target == nil || rules.Distance(p.Hex, e.Hex) < rules.Distance(p.Hex, target.Hex)) {
					target = e
				}
			}
			if target != nil {
				out = append(out, rules.Call{Batteries: []string{b.Name}, Target: target.Hex, By: p.Name})
				callers[p.Name] = true
				break
			}
		}
	}
	return out
}
