package bot

import (
	"slices"

	"fieldpost/engine/stargeneral/rules"
)

// position indexes who holds which hex and answers the questions a player
// asks of the map: where a stand can get to this round, what it can see,
// how near the enemy is. The engine's own board is internal to it; this is
// the part of it a player needs, following the same rules.
type position struct {
	rs      *rules.Ruleset
	st      *rules.State
	side    string
	occ     map[rules.Hex]holder
	enemies []rules.Hex // every hex an enemy core stand holds, in roster order
}

// holder is the core stand in a hex: a unit's stand or a battery.
type holder struct {
	unit    *rules.Unit // nil for a battery
	stand   *rules.Stand
	battery *rules.Battery
	side    string
}

func newPosition(rs *rules.Ruleset, st *rules.State, side string) *position {
	p := &position{rs: rs, st: st, side: side, occ: map[rules.Hex]holder{}}
	for _, u := range st.Units {
		if u.Removed {
			continue
		}
		for _, s := range u.Stands {
			p.occ[s.Hex] = holder{unit: u, stand: s, side: u.Side}
			if u.Side != side {
				p.enemies = append(p.enemies, s.Hex)
			}
		}
	}
	for _, bt := range st.Batteries {
		if bt.Removed {
			continue
		}
		p.occ[bt.Hex] = holder{battery: bt, side: bt.Side}
		if bt.Side != side {
			p.enemies = append(p.enemies, bt.Hex)
		}
	}
	return p
}

func (p *position) terrain(h rules.Hex) *rules.TerrainType {
	return p.rs.TerrainByLetter(p.st.Map.Letter(h))
}

// passable: on the map and not lake or sea.
func (p *position) passable(h rules.Hex) bool {
	return p.st.Map.OnMap(h) && !p.terrain(h).Impassable
}

func (p *position) held(h rules.Hex) bool {
	_, ok := p.occ[h]
	return ok
}

func (p *position) enemyAt(h rules.Hex) bool {
	o, ok := p.occ[h]
	return ok && o.side != p.side
}

// inEnemyZOC: next to an enemy core stand (2.4).
func (p *position) inEnemyZOC(h rules.Hex) bool {
	for _, n := range h.Neighbours() {
		if p.enemyAt(n) {
			return true
		}
	}
	return false
}

// enemyDistance is how far the nearest enemy core stand is from h (99: none).
func (p *position) enemyDistance(h rules.Hex) int {
	best := 99
	for _, e := range p.enemies {
		best = min(best, rules.Distance(h, e))
	}
	return best
}

// nearestEnemy is the enemy-held hex nearest to h, the first in roster
// order among equals; the zero hex when the enemy has nothing left.
func (p *position) nearestEnemy(h rules.Hex) rules.Hex {
	var best rules.Hex
	for _, e := range p.enemies {
		if best.IsZero() || rules.Distance(h, e) < rules.Distance(h, best) {
			best = e
		}
	}
	return best
}

// allowance is a stand's movement: its own class, or its transport's (2, 2.1).
func (p *position) allowance(s *rules.Stand) rules.MoveAllowance {
	if s.MoveClass != "" {
		return p.rs.Movement[s.MoveClass]
	}
	for _, pl := range []*rules.Platoon{s.Transport, s.Support} {
		if pl != nil {
			if gm := p.rs.StandTypes[pl.Type].GivesMove; gm != "" {
				return p.rs.Movement[gm]
			}
		}
	}
	return p.rs.Movement[p.rs.StandTypes[s.Type].Move]
}

func (p *position) role(s *rules.Stand) string { return p.rs.StandTypes[s.Type].Role }

// lineOfSight: nothing blocks the view from a to c, blocking terrain
// always and stands too where blocked says a hex is held (3.3, 5.2). Where
// the line runs along a hex side it is clear if either side is.
func (p *position) lineOfSight(a, c rules.Hex, blocked func(rules.Hex) bool) bool {
	left, right := rules.Between(a, c)
	clear := func(line []rules.Hex) bool {
		for _, h := range line {
			if !p.st.Map.OnMap(h) {
				continue
			}
			if p.terrain(h).BlocksLOS || (blocked != nil && blocked(h)) {
				return false
			}
		}
		return true
	}
	return clear(left) || clear(right)
}

// strategicGap: a strategic move keeps more than this many hexes from the
// enemy at its start, all along and at its end (2).
const strategicGap = 2

// reach lists where a stand of an M unit can finish its move this round,
// with a path to each hex (its own hex with none), as the round will play
// the move (2, 2.4, 2.5): enemy stands cannot be entered; entering an enemy
// ZOC or halting terrain ends the move; beyond its normal allowance (only
// when strategic is allowed) the terrain's strategic effects apply and the
// whole move must keep clear of the enemy. Hexes other stands hold are
// passed through; whether a stand may finish in one is the caller's question.
func (p *position) reach(s *rules.Stand, strategic bool) map[rules.Hex][]rules.Hex {
	return p.reachFrom(s.Hex, p.allowance(s), strategic)
}

// reachFrom is reach for anything that moves like a stand from start with
// the given allowance: a battery too, which moves its normal allowance in
// the artillery phase with the same halts (5.1).
func (p *position) reachFrom(from rules.Hex, allow rules.MoveAllowance, strategic bool) map[rules.Hex][]rules.Hex {
	limit := allow.Normal
	if strategic {
		limit = allow.Strategic
	}
	type node struct {
		h    rules.Hex
		far  bool // the move so far kept clear of the enemy, start included
		path []rules.Hex
	}
	type key struct {
		h   rules.Hex
		far bool
	}
	paths := map[rules.Hex][]rules.Hex{from: nil}
	start := node{h: from, far: p.enemyDistance(from) > strategicGap}
	seen := map[key]bool{{start.h, start.far}: true}
	frontier := []node{start}
	for step := 1; step <= limit && len(frontier) > 0; step++ {
		var next []node
		for _, n := range frontier {
			for _, h := range n.h.Neighbours() {
				if !p.passable(h) || p.enemyAt(h) {
					continue
				}
				far := n.far && p.enemyDistance(h) > strategicGap
				beyond := step > allow.Normal
				if beyond && !far {
					continue
				}
				t := p.terrain(h)
				effect := t.Normal
				if beyond {
					effect = t.Strategic
				}
				if effect == rules.MoveHaltBefore || (effect == rules.MoveHaltBeforeAndOnEnter && step != 1) {
					continue
				}
				if seen[key{h, far}] {
					continue
				}
				seen[key{h, far}] = true
				path := append(append([]rules.Hex(nil), n.path...), h)
				if _, ok := paths[h]; !ok {
					paths[h] = path
				}
				halts := p.inEnemyZOC(h) || effect == rules.MoveHaltOnEnter || effect == rules.MoveHaltBeforeAndOnEnter
				if !halts {
					next = append(next, node{h: h, far: far, path: path})
				}
			}
		}
		frontier = next
	}
	return paths
}

// retreatPath is a way out for a stand of an R unit and its cost: the SP
// lost for the enemy ZOC hexes it enters (2.6).
type retreatPath struct {
	path []rules.Hex
	cost int
}

// retreatReach lists where a stand of an R unit can get to (2.6): up to its
// strategic allowance, through enemy ZOC at 1 SP a hex, never into an enemy
// stand, with the terrain's effects (the strategic ones beyond its normal
// allowance). For each hex it keeps the cheapest path, then the shortest.
func (p *position) retreatReach(s *rules.Stand) map[rules.Hex]retreatPath {
	allow := p.allowance(s)
	best := map[rules.Hex]retreatPath{s.Hex: {}}
	frontier := map[rules.Hex]retreatPath{s.Hex: {}}
	for step := 1; step <= allow.Strategic && len(frontier) > 0; step++ {
		next := map[rules.Hex]retreatPath{}
		for _, from := range sortedHexes(frontier) {
			rp := frontier[from]
			for _, h := range from.Neighbours() {
				if !p.passable(h) || p.enemyAt(h) {
					continue
				}
				t := p.terrain(h)
				effect := t.Normal
				if step > allow.Normal {
					effect = t.Strategic
				}
				if effect == rules.MoveHaltBefore || (effect == rules.MoveHaltBeforeAndOnEnter && step != 1) {
					continue
				}
				cand := retreatPath{path: append(append([]rules.Hex(nil), rp.path...), h), cost: rp.cost}
				if p.inEnemyZOC(h) {
					cand.cost++
				}
				if old, ok := best[h]; !ok || cand.cost < old.cost {
					best[h] = cand
				}
				halts := effect == rules.MoveHaltOnEnter || effect == rules.MoveHaltBeforeAndOnEnter
				if old, ok := next[h]; !halts && (!ok || cand.cost < old.cost) {
					next[h] = cand
				}
			}
		}
		frontier = next
	}
	return best
}

// sortedHexes returns a map's hexes in column then row order, so that plans
// never depend on map iteration order.
func sortedHexes[V any](m map[rules.Hex]V) []rules.Hex {
	out := make([]rules.Hex, 0, len(m))
	for h := range m {
		out = append(out, h)
	}
	sortHexes(out)
	return out
}

func sortHexes(hs []rules.Hex) {
	slices.SortFunc(hs, func(a, b rules.Hex) int {
		if a.Col != b.Col {
			return a.Col - b.Col
		}
		return a.Row - b.Row
	})
}
