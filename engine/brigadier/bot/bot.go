// Package bot plays a side of Brigadier General Commands from what the
// side can see: the attacker (the side that must hold objectives) moves on
// the nearest objective it lacks, firing on the move and assaulting what it
// reaches; the defender holds and fires, keeping fire in reserve when it
// sees nothing; commanders raise the platoon that most needs it; artillery
// answers the nearest target seen.
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
	for _, p := range view.Active(side) {
		po := rules.PlatoonOrder{Platoon: p.Name, Order: p.Order}
		want := rules.Aim
		// HQs command from behind; heavy weapons give fire support.
		mover := attacker && rs.Movement[rs.Types[p.Type].Move].Move.I() > 1 && !isHeavy(rs, p) && !rs.Types[p.Type].HQ
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
			if path := pathTo(rs, view, p, goal(view, p, side), taken, rng); len(path) > 0 {
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

// underFire: an enemy p sees is within 10 hexes but more than a Move away.
func underFire(rs *rules.Ruleset, view *rules.State, p *rules.Platoon) bool {
	for _, e := range rules.Seen(rs, view, p.Side) {
		d := rules.Distance(p.Hex, e.Hex)
		if d <= 10 && d > rules.Allowance(rs, p, rules.Move)+1 && rules.Sees(rs, view, p, e) {
			return true
		}
	}
	return false
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

// goal is the nearest objective the side does not hold, or the nearest
// enemy seen when it holds them all.
func goal(view *rules.State, p *rules.Platoon, side string) rules.Hex {
	var best rules.Hex
	for _, o := range view.Objectives {
		if o.Holder != side && (best.IsZero() || rules.Distance(p.Hex, o.Hex) < rules.Distance(p.Hex, best)) {
			best = o.Hex
		}
	}
	if best.IsZero() {
		return p.Hex
	}
	return best
}

// pathTo walks greedily towards goal within the Move allowance, stopping
// next to an enemy it sees.
func pathTo(rs *rules.Ruleset, view *rules.State, p *rules.Platoon, goal rules.Hex, taken map[rules.Hex]bool, rng *rand.Rand) []rules.Hex {
	var path []rules.Hex
	at := p.Hex
	spent := 0
	allowance := rules.Allowance(rs, p, rules.Move)
	seen := rules.Seen(rs, view, p.Side)
	for at != goal {
		var options []rules.Hex
		for _, n := range at.Neighbours() {
			c := rules.StepCost(rs, view, p, at, n, rules.Move)
			if c == 0 || spent+c > allowance || taken[n] || slices.Contains(path, n) || rules.Distance(n, goal) >= rules.Distance(at, goal) {
				continue
			}
			options = append(options, n)
		}
		if len(options) == 0 {
			break
		}
		// Closer first; among equals, cover, where a platoon that has not
		// fired is unseen and interrupt fire cannot find it (9.1, FP-7).
		slices.SortFunc(options, func(a, b rules.Hex) int {
			if d := rules.Distance(a, goal) - rules.Distance(b, goal); d != 0 {
				return d
			}
			if ca, cb := view.Map.Hides(a), view.Map.Hides(b); ca != cb {
				if ca {
					return -1
				}
				return 1
			}
			return rules.Compare(a, b)
		})
		next := options[0]
		if len(options) > 1 && rng.IntN(3) == 0 {
			next = options[1]
		}
		spent += rules.StepCost(rs, view, p, at, next, rules.Move)
		path = append(path, next)
		at = next
		if slices.ContainsFunc(seen, func(e *rules.Platoon) bool { return rules.Adjacent(e.Hex, at) }) {
			break
		}
	}
	for len(path) > 0 && rules.CheckPath(rs, view, p, rules.Move, path) != "" {
		path = path[:len(path)-1]
	}
	return path
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
