// Package bot plays a Frontline General side: legal orders with a purpose.
// It sees only its side's view; it buys and deploys, sends its units at the
// hexes it lacks of the victory condition nearest to being met along the
// shortest passable way, keeps a unit in each such hex it holds, keeps
// garrisons dug in where the enemy must come, reconnoitres with its scouts,
// flies sorties at stacks within reach, engages where its odds are fair,
// and leaves standing orders that retaliate and withdraw a losing fight.
package bot

import (
	"sort"

	"fieldpost/engine/frontline/rules"
)

// Plan returns the side's orders for the coming turn when it is active,
// or its standing orders (REACT) when it waits.
func Plan(s *rules.State, side string) rules.Orders {
	v := s.View(side)
	b := &planner{v: v, side: side, enemy: v.Enemy(side), line: 0, occupying: map[string]bool{}}
	o := rules.Orders{Side: side, Standing: b.standing()}
	if v.Active != side {
		return o
	}
	b.o = &o
	b.commandPosts()
	b.production()
	b.movement()
	b.manEquipment()
	b.combat()
	b.deployment()
	return legal(v, o)
}

type planner struct {
	v           *rules.State
	side, enemy string
	o           *rules.Orders
	line        int
	dest        map[string]rules.Hex
	occupying   map[string]bool // pillboxes a move of this plan already fills
}

func (b *planner) next() int { b.line++; return b.line }

func (b *planner) standing() *rules.Standing {
	v := b.v
	// Engineers at work and units under repair fight back rather than be
	// shot without reply (Inset VI.2).
	st := &rules.Standing{Retaliate: "all", Targets: "best-odds", AP: "auto", EngineersFight: true, IdleFight: true}
	// Outgunned, a smoke vehicle screens its stack (attacks on it need 2
	// more) and gives a later withdrawal +4 (Glossary Smoke).
	st.Smoke = []rules.HexOrder{{If: &rules.Condition{Kind: "ODDS<", R: 0.5}}}
	p := v.Player(b.side)
	for _, c := range p.Hand {
		if c == "Withdraw" {
			st.Withdraw = []rules.HexOrder{{If: &rules.Condition{Kind: "ODDS<", R: 0.4}}}
		}
		if c == "Inspire" {
			st.Inspire = []rules.HexOrder{{}}
		}
	}
	var fo string
	var guns []string
	for _, u := range v.Units {
		if u.Side != b.side || !u.OnMap() || u.In != "" {
			continue
		}
		c := v.Card(u)
		if c.FireMissions && fo == "" {
			fo = u.ID
		}
		if len(c.Weapons) > 0 && c.Weapons[0].Indirect {
			guns = append(guns, u.ID)
		}
	}
	if fo != "" && len(guns) > 0 {
		st.Interdict = []rules.HexOrder{{FO: fo, Guns: guns}}
	}
	return st
}

// production buys when the treasury allows, keeping supply for five turns.
func (b *planner) production() {
	v := b.v
	if !v.ProductionTurn(b.side) {
		return
	}
	due, _, _ := v.SupplyDue(b.side)
	budget := v.Player(b.side).Treasury - 5*(due+2) - b.buildCost()
	tank := map[string]string{"US": "SHER", "GE": "PZ4"}[b.side]
	lib := v.Lib()
	budget = b.fortify(budget)
	if tc := lib.Cards[tank]; tc != nil && budget >= tc.Cost+lib.Cards["TC"].Cost {
		b.o.Buys = append(b.o.Buys, rules.Buy{Line: b.next(), Code: tank, Count: 1}, rules.Buy{Line: b.next(), Code: "TC", Count: 1})
		budget -= tc.Cost + lib.Cards["TC"].Cost
	}
	if n := budget / lib.Cards["RS"].Cost; n > 0 {
		b.o.Buys = append(b.o.Buys, rules.Buy{Line: b.next(), Code: "RS", Count: min(n, 4)})
	}
}

func (b *planner) deployment() {
	v := b.v
	for _, u := range v.Units {
		if u.Side != b.side || u.Staged <= 0 || u.In != "" || u.Staged >= v.Player(b.side).OwnTurn {
			continue
		}
		var hexes []rules.Hex
		for h, c := range v.Control {
			if c == b.side && v.CanDeployAt(u, h) {
				hexes = append(hexes, h)
			}
		}
		sort.Slice(hexes, func(i, j int) bool { return hexes[i].String() < hexes[j].String() })
		if len(hexes) > 0 {
			b.o.Deploys = append(b.o.Deploys, rules.Deploy{Line: b.next(), Unit: u.ID, Hex: hexes[0]})
		}
	}
}

// goals are the hexes it does not hold yet of the one victory condition
// nearest to being met (the fewest steps from its units to what it lacks),
// or, with no condition of its own, the enemy's stacks. Spread over every
// condition, its units would meet none.
func (b *planner) goals() []rules.Hex {
	v := b.v
	var out []rules.Hex
	best := -1
	for _, r := range v.Victory {
		if r.Side != b.side {
			continue
		}
		var missing []rules.Hex
		cost := 0
		for _, h := range r.Hold {
			if !v.Holds(b.side, h) {
				missing = append(missing, h)
				cost += b.nearestOwn(h)
			}
		}
		if best < 0 || cost < best {
			best, out = cost, missing
		}
	}
	if best < 0 {
		for _, u := range v.Units {
			if u.Side == b.enemy && u.OnMap() {
				out = append(out, u.Hex)
			}
		}
	}
	return out
}

// nearestOwn is the distance from h to the side's nearest unit on the map.
func (b *planner) nearestOwn(h rules.Hex) int {
	d := -1
	for _, u := range b.v.Units {
		if u.Side == b.side && u.OnMap() && u.In == "" && (d < 0 || rules.Distance(u.Hex, h) < d) {
			d = rules.Distance(u.Hex, h)
		}
	}
	if d < 0 {
		return 1000
	}
	return d
}

// occupied are the hexes of its victory conditions that it holds only by
// standing in them (no control, no city: §II.2): a unit stays in each, or
// the hex is lost the moment its units move on to the next one.
func (b *planner) occupied() map[rules.Hex]bool {
	v := b.v
	out := map[rules.Hex]bool{}
	for _, r := range v.Victory {
		if r.Side != b.side {
			continue
		}
		for _, h := range r.Hold {
			if _, controlled := v.Control[h]; !controlled && !v.Map.City(h) && v.Holds(b.side, h) {
				out[h] = true
			}
		}
	}
	return out
}

// guards are own-held hexes the enemy needs to win: garrisons stay there.
func (b *planner) guards() map[rules.Hex]bool {
	v := b.v
	out := map[rules.Hex]bool{}
	for _, r := range v.Victory {
		if r.Side == b.enemy {
			for _, h := range r.Hold {
				out[h] = true
			}
		}
	}
	return out
}

func (b *planner) movement() {
	v := b.v
	b.dest = map[string]rules.Hex{}
	goals := b.goals()
	guards := b.guards()
	occupied := b.occupied()
	dists := map[bool]map[rules.Hex]int{}
	garrison := map[rules.Hex]int{}
	for _, u := range v.Units {
		// Units idled by the last deficit are supplied again before they
		// move (§V.3.2): they are planned like the others.
		if u.Side != b.side || !u.OnMap() || u.In != "" || u.Aloft || b.busy(u) {
			continue
		}
		c := v.Card(u)
		if c.Kind == "aircraft" {
			b.sortie(u)
			continue
		}
		if c.Move == 0 || c.Kind != "infantry" && c.Kind != "vehicle" {
			continue
		}
		if c.Recon {
			if h, ok := b.enemyNear(u.Hex); ok {
				b.o.Moves = append(b.o.Moves, rules.Move{Line: b.next(), Unit: u.ID, Steps: []rules.Step{{Act: rules.ActRecon, Hex: h}}})
				continue
			}
		}
		if guards[u.Hex] && c.Kind == "infantry" && garrison[u.Hex] < 2 {
			garrison[u.Hex]++
			if p := b.emptyPillbox(u); p != "" {
				b.o.Moves = append(b.o.Moves, rules.Move{Line: b.next(), Unit: u.ID, Steps: []rules.Step{{Act: rules.ActOccupy, Unit: p}}})
				continue
			}
			if c.DigIn && !u.DugIn && u.Within == "" {
				b.o.Moves = append(b.o.Moves, rules.Move{Line: b.next(), Unit: u.ID, Steps: []rules.Step{{Act: rules.ActDig}}})
			}
			continue
		}
		if occupied[u.Hex] && garrison[u.Hex] == 0 && !c.Recon {
			garrison[u.Hex]++
			if c.DigIn && !u.DugIn && u.Within == "" {
				b.o.Moves = append(b.o.Moves, rules.Move{Line: b.next(), Unit: u.ID, Steps: []rules.Step{{Act: rules.ActDig}}})
			}
			continue
		}
		vehicle := c.Kind == "vehicle"
		if dists[vehicle] == nil {
			dists[vehicle] = b.distances(goals, vehicle)
		}
		path := b.path(u, dists[vehicle], v.Movement(u, false))
		if len(path) == 0 {
			if c.DigIn && !u.DugIn {
				b.o.Moves = append(b.o.Moves, rules.Move{Line: b.next(), Unit: u.ID, Steps: []rules.Step{{Act: rules.ActDig}}})
			}
			continue
		}
		m := rules.Move{Line: b.next(), Unit: u.ID}
		for _, h := range path {
			m.Steps = append(m.Steps, rules.Step{Hex: h})
		}
		b.o.Moves = append(b.o.Moves, m)
		b.dest[u.ID] = path[len(path)-1]
	}
}

func (b *planner) enemyNear(h rules.Hex) (rules.Hex, bool) {
	for _, n := range append([]rules.Hex{h}, neighbours(h)...) {
		for _, e := range b.v.UnitsAt(n) {
			if e.Side == b.enemy {
				return n, true
			}
		}
	}
	return rules.Hex{}, false
}

func neighbours(h rules.Hex) []rules.Hex {
	n := h.Neighbours()
	return n[:]
}

func (b *planner) passable(from, to rules.Hex, vehicle bool) bool {
	m := b.v.Map
	switch m.Terrain(to) {
	case rules.Sea, rules.Impassable:
		return false
	case rules.Swamp:
		return !vehicle || m.Road(from, to)
	}
	return m.On(to)
}

// distances is a breadth-first count of steps from every hex to the
// nearest goal.
func (b *planner) distances(goals []rules.Hex, vehicle bool) map[rules.Hex]int {
	d := map[rules.Hex]int{}
	queue := append([]rules.Hex(nil), goals...)
	for _, g := range goals {
		d[g] = 0
	}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for _, n := range neighbours(h) {
			if _, seen := d[n]; seen || !b.passable(h, n, vehicle) || !b.passable(n, h, vehicle) {
				continue
			}
			d[n] = d[h] + 1
			queue = append(queue, n)
		}
	}
	return d
}

// path walks downhill on the distances, stopping in an enemy hex.
func (b *planner) path(u *rules.Unit, d map[rules.Hex]int, steps int) []rules.Hex {
	var out []rules.Hex
	at := u.Hex
	for range steps {
		here, ok := d[at]
		if !ok || here == 0 {
			break
		}
		best, bestD := rules.Hex{}, here
		for _, n := range neighbours(at) {
			if dn, ok := d[n]; ok && dn < bestD && b.passable(at, n, b.v.Card(u).Kind == "vehicle") {
				best, bestD = n, dn
			}
		}
		if bestD == here {
			break
		}
		out = append(out, best)
		at = best
		if b.v.Holds(b.enemy, at) || len(b.enemiesAt(at)) > 0 {
			break
		}
	}
	return out
}

func (b *planner) enemiesAt(h rules.Hex) []*rules.Unit {
	var out []*rules.Unit
	for _, e := range b.v.UnitsAt(h) {
		if e.Side == b.enemy && e.In == "" && !(e.Hidden && !e.Found) && b.v.Card(e).Kind != "obstacle" {
			out = append(out, e)
		}
	}
	return out
}

// sortie flies at the nearest visible enemy stack within half the
// aircraft's reach and home again.
func (b *planner) sortie(u *rules.Unit) {
	v := b.v
	reach := v.Movement(u, false) / 2
	var best rules.Hex
	bestD := reach + 1
	for _, e := range v.Units {
		if e.Side == b.enemy && e.OnMap() && e.In == "" && !(e.Hidden && !e.Found) && v.Card(e).Kind != "obstacle" {
			if d := rules.Distance(u.Hex, e.Hex); d >= 1 && d < bestD {
				best, bestD = e.Hex, d
			}
		}
	}
	if bestD > reach || v.Control[u.Hex] == b.enemy {
		return
	}
	m := rules.Move{Line: b.next(), Unit: u.ID, Land: u.Hex}
	at := u.Hex
	for at != best {
		nb := neighbours(at)
		sort.Slice(nb, func(i, j int) bool { return rules.Distance(nb[i], best) < rules.Distance(nb[j], best) })
		at = nb[0]
		m.Steps = append(m.Steps, rules.Step{Hex: at})
	}
	b.o.Moves = append(b.o.Moves, m)
	b.dest[u.ID] = best
}

// combat engages every visible enemy stack its units reach after moving,
// where they are already in the hex or their cost is at least 60% of it.
func (b *planner) combat() {
	v := b.v
	type group struct {
		units []string
		cost  int
	}
	groups := map[rules.Hex]*group{}
	var order []rules.Hex
	reconned := map[string]bool{}
	for _, m := range b.o.Moves {
		for _, st := range m.Steps {
			if st.Act == rules.ActRecon {
				reconned[m.Unit] = true
			}
		}
	}
	for _, u := range v.Units {
		if u.Side != b.side || !u.OnMap() || u.In != "" || reconned[u.ID] || len(v.Card(u).Weapons) == 0 || v.Card(u).Kind == "obstacle" || b.busy(u) {
			continue
		}
		at, ok := b.dest[u.ID]
		if !ok {
			at = u.Hex
		}
		if v.Card(u).Kind == "aircraft" && !ok {
			continue
		}
		reach := 0
		for _, w := range v.Card(u).Weapons {
			reach = max(reach, w.Range)
		}
		var target rules.Hex
		found := false
		for _, h := range append([]rules.Hex{at}, neighbours(at)...) {
			if rules.Distance(at, h) <= reach && len(b.enemiesAt(h)) > 0 {
				target, found = h, true
				break
			}
		}
		if !found {
			continue
		}
		g := groups[target]
		if g == nil {
			g = &group{}
			groups[target] = g
			order = append(order, target)
		}
		g.units = append(g.units, u.ID)
		g.cost += v.Card(u).Cost
	}
	for _, h := range order {
		g := groups[h]
		enemy := 0
		for _, e := range b.enemiesAt(h) {
			enemy += v.Card(e).Cost
		}
		present := false
		for _, id := range g.units {
			if d, ok := b.dest[id]; (ok && d == h) || (!ok && v.Unit(b.side, id).Hex == h) {
				present = true
			}
		}
		if present || float64(g.cost) >= 0.6*float64(enemy) {
			e := rules.Engagement{Line: b.next(), Hex: h, Units: g.units}
			if v.Player(b.side).HandSize == 0 {
				for _, c := range v.Player(b.side).Hand {
					if c == "Withdraw" {
						e.Withdraw = &rules.Condition{Kind: "ODDS<", R: 0.4}
						e.Smoke = b.smokeCover(g.units, e)
					}
				}
			}
			b.portShots(&e)
			b.o.Engagements = append(b.o.Engagements, e)
		}
	}
}

// portShots: at an enemy port, guns of 155 mm class shell it before the
// rounds (§VII.3.4): a shot that costs them nothing in the fight and cuts
// the enemy's supply and landings. Bombs are kept for the units.
func (b *planner) portShots(e *rules.Engagement) {
	v := b.v
	if !v.Map.Port(e.Hex) || v.Control[e.Hex] != b.enemy || v.PortState(e.Hex) == "destroyed" {
		return
	}
	for _, id := range e.Units {
		u := v.Unit(b.side, id)
		at, ok := b.dest[id]
		if !ok {
			at = u.Hex
		}
		for _, w := range v.Card(u).Weapons {
			if w.Heavy && !w.OneShot && rules.Distance(at, e.Hex) <= w.Range {
				if e.Targets == nil {
					e.Targets = map[string]string{}
				}
				e.Targets[id] = "PORT:" + e.Hex.String()
				break
			}
		}
	}
}

// legal drops the orders the rules refuse, line by line, so that the bot
// never sends orders the judge would bounce.
func legal(v *rules.State, o rules.Orders) rules.Orders {
	for range 30 {
		probs := v.Validate(o)
		if len(probs) == 0 {
			return o
		}
		bad := map[int]bool{}
		for _, p := range probs {
			bad[p.Line] = true
		}
		o.Buys = keep(o.Buys, bad, func(x rules.Buy) int { return x.Line })
		o.Builds = keep(o.Builds, bad, func(x rules.Build) int { return x.Line })
		o.Relocate = keep(o.Relocate, bad, func(x rules.Relocate) int { return x.Line })
		o.Moves = keep(o.Moves, bad, func(x rules.Move) int { return x.Line })
		o.Engagements = keep(o.Engagements, bad, func(x rules.Engagement) int { return x.Line })
		o.Deploys = keep(o.Deploys, bad, func(x rules.Deploy) int { return x.Line })
		if bad[0] {
			o.Idle, o.Rush, o.Standing = nil, nil, nil
		}
	}
	return rules.Orders{Side: o.Side}
}

func keep[T any](xs []T, bad map[int]bool, line func(T) int) []T {
	var out []T
	for _, x := range xs {
		if !bad[line(x)] {
			out = append(out, x)
		}
	}
	return out
}

// smokeCover has the first smoke vehicle of an engagement lay smoke when
// the withdrawal's condition comes, so that the withdrawal gets +4
// (Glossary Smoke). Its line is the engagement's: refused, both go.
func (b *planner) smokeCover(units []string, e rules.Engagement) []rules.SmokeOrder {
	for _, id := range units {
		c := b.v.Card(b.v.Unit(b.side, id))
		if c.Smoke && c.Kind == "vehicle" {
			return []rules.SmokeOrder{{Line: e.Line, Unit: id, If: e.Withdraw}}
		}
	}
	return nil
}

// fortify has engineers standing in a hex the enemy needs to win build a
// pillbox there, one a hex, while the budget allows (§VI.5.3); the
// garrison then occupies it. It returns the budget left.
func (b *planner) fortify(budget int) int {
	v := b.v
	card := v.Lib().Cards["PILLBOX"]
	guards := b.guards()
	done := map[rules.Hex]bool{}
	for _, u := range v.Units {
		if u.Side == b.side && v.Card(u).Structure == "emplacement" {
			done[u.Hex] = true
		}
	}
	for _, u := range v.Units {
		if u.Side != b.side || !u.OnMap() || u.In != "" || u.Idle || u.Building != "" || !v.Card(u).Engineer || !guards[u.Hex] || done[u.Hex] || budget < card.Cost {
			continue
		}
		b.o.Builds = append(b.o.Builds, rules.Build{Line: b.next(), Code: card.Code, Hex: u.Hex, By: u.ID})
		done[u.Hex] = true
		budget -= card.Cost
	}
	return budget
}

// emptyPillbox names an own pillbox in u's hex with room for it, or "".
func (b *planner) emptyPillbox(u *rules.Unit) string {
	v := b.v
	if u.Within != "" {
		return ""
	}
	for _, p := range v.UnitsAt(u.Hex) {
		if p.Side != b.side || v.Card(p).Structure != "emplacement" {
			continue
		}
		inside := 0
		for _, x := range v.UnitsAt(u.Hex) {
			if x.Side == b.side && x.Within == p.ID {
				inside++
			}
		}
		if inside < v.Lib().Rules.EmplacementCapacity && !b.occupying[p.ID] {
			b.occupying[p.ID] = true
			return p.ID
		}
	}
	return ""
}

// busy: the unit builds (from an earlier turn or from this plan) or is
// under repair, so stays idle (Inset VI.2, §VI.4).
func (b *planner) busy(u *rules.Unit) bool {
	if u.Building != "" || u.Repairing != 0 {
		return true
	}
	for _, x := range b.o.Builds {
		if x.By == u.ID {
			return true
		}
	}
	return false
}
