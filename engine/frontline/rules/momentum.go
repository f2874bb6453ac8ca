package rules

import (
	"fmt"
	"sort"
	"strings"
)

// Momentum (§VIII.3, Inset VIII.4) belongs to groups of three or more
// units of one general type (land, air, naval). By mail a group is what
// the map shows: a side's units of one type that fight together, or stand
// together in a hex. Each unit carries its group's momentum; a group's
// value is the one most of its units carry (ties: the one nearest 0).

// generalType is land, air or naval (Inset VIII.4).
func generalType(c *Card) string {
	switch c.Kind {
	case "aircraft":
		return "air"
	case "ship":
		return "naval"
	}
	return "land"
}

// groupsOf splits units by general type, types in a fixed order.
func (s *State) groupsOf(units []*Unit) [][]*Unit {
	by := map[string][]*Unit{}
	for _, u := range units {
		t := generalType(s.Card(u))
		by[t] = append(by[t], u)
	}
	var out [][]*Unit
	for _, t := range []string{"land", "air", "naval"} {
		if len(by[t]) > 0 {
			out = append(out, by[t])
		}
	}
	return out
}

// groupValue is the momentum most of the units carry, ties to the one
// nearest 0.
func groupValue(us []*Unit) int {
	count := map[int]int{}
	for _, u := range us {
		count[u.Momentum]++
	}
	best, n := 0, 0
	for v, c := range count {
		if c > n || (c == n && abs(v) < abs(best)) {
			best, n = v, c
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// groupMomentum is the initiative modifier of a side's engaged units: the
// value of its largest group of three or more (§VIII.3.2).
func (r *resolver) groupMomentum(b *battle, side string) int {
	var us []*Unit
	for _, f := range b.fighters[side] {
		if f.u.OnMap() && f.u.Side == side {
			us = append(us, f.u)
		}
	}
	best := []*Unit(nil)
	for _, g := range r.s.groupsOf(us) {
		if len(g) > len(best) {
			best = g
		}
	}
	if len(best) < r.r.MomentumGroup {
		return 0
	}
	return groupValue(best)
}

// settleMomentum counts the battle for both sides' groups (§VIII.3.2-3.3):
// the winner's groups one up (a negative one is broken to 0), the loser's
// surviving groups one down (a positive one broken to 0), at most ±6;
// units left fewer than three of a type are no group and lose theirs.
func (r *resolver) settleMomentum(b *battle, winner string) {
	s := r.s
	var text []string
	for _, side := range []string{winner, s.Enemy(winner)} {
		var us []*Unit
		for _, f := range b.fighters[side] {
			if f.u.OnMap() && f.u.Side == side {
				us = append(us, f.u)
			}
		}
		for _, g := range s.groupsOf(us) {
			v := groupValue(g)
			switch {
			case len(g) < r.r.MomentumGroup:
				v = 0
			case side == winner && v < 0, side != winner && v > 0:
				v = 0
			case side == winner:
				v = min(v+1, r.r.MomentumMax)
			default:
				v = max(v-1, -r.r.MomentumMax)
			}
			var ids []string
			for _, u := range g {
				u.Momentum = v
				ids = append(ids, u.ID)
			}
			if len(g) >= r.r.MomentumGroup {
				text = append(text, fmt.Sprintf("%s %s %+d", side, strings.Join(ids, " "), v))
			}
		}
	}
	if len(text) == 0 {
		r.emit("momentum", "VIII.3", b.hex, "", "%s wins the battle at %s: no group of three units carries momentum", winner, b.hex)
		return
	}
	r.emit("momentum", "VIII.3", b.hex, "", "%s wins the battle at %s: momentum %s", winner, b.hex, strings.Join(text, "; "))
}

// breakMomentum: after the Movement Phase a unit whose hex no longer holds
// three units of its side and type with its momentum has left its group,
// and the momentum is broken (§VIII.3.3).
func (r *resolver) breakMomentum() {
	s := r.s
	if !s.Options.Momentum {
		return
	}
	var broken []string
	for _, u := range s.Units {
		if u.Side != r.side || u.Momentum == 0 || !u.OnMap() {
			continue
		}
		n := 0
		for _, x := range s.UnitsAt(u.Hex) {
			if x.Side == u.Side && x.Momentum == u.Momentum && generalType(s.Card(x)) == generalType(s.Card(u)) {
				n++
			}
		}
		if n < r.r.MomentumGroup {
			broken = append(broken, u.ID)
		}
	}
	sort.SliceStable(broken, func(i, j int) bool { return lessID(broken[i], broken[j]) })
	for _, id := range broken {
		s.Unit(r.side, id).Momentum = 0
	}
	if len(broken) > 0 {
		r.emit("momentum", "VIII.3.3", Hex{}, r.side, "momentum broken, fewer than three together: %s", strings.Join(broken, " "))
	}
}

// cityMomentum: a group of three land units taking a Key City gains one
// momentum (Inset VII.1).
func (r *resolver) cityMomentum(side string, h Hex) {
	s := r.s
	if !s.Options.Momentum || s.Map.Terrain(h) != KeyCity {
		return
	}
	var land []*Unit
	for _, u := range s.UnitsAt(h) {
		if u.Side == side && u.In == "" && s.Card(u).Land() {
			land = append(land, u)
		}
	}
	if len(land) < r.r.MomentumGroup {
		return
	}
	v := min(groupValue(land)+1, r.r.MomentumMax)
	for _, u := range land {
		u.Momentum = v
	}
	r.emit("momentum", "Inset VII.1", h, "", "%s's group in %s takes the Key City: momentum %+d", side, h, v)
}
