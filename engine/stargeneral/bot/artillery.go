package bot

import (
	"fieldpost/engine/stargeneral/rules"
)

// batterySafeDistance: a battery moving up stays this far from the enemy.
const batterySafeDistance = 4

// artillery plots the artillery phase (5.1, 7): each battery keeps a shot
// back from attack support and fires what it has left at the best target
// the side's stands will spot, or, with no enemy in range, moves up
// towards the nearest; air points no attack called strike the best spotted
// targets where the ruleset allows.
func (p *planner) artillery() {
	spotters := p.spotters()
	for _, bt := range p.st.Batteries {
		if bt.Side != p.side || bt.Removed {
			continue
		}
		bo := rules.BatteryOrders{Battery: bt.ID, Keep: min(keepShots, bt.ShotsPerRound)}
		inRange := func(h rules.Hex) bool { return rules.Distance(bt.Hex, h) <= bt.Range }
		fire, ok := p.strikeTarget(spotters, min(bt.FS, bt.SP), inRange)
		switch {
		case ok:
			bo.Fire = fire
		case p.enemyDistance(bt.Hex) > bt.Range:
			bo.Move = p.batteryMove(bt)
		}
		p.o.Batteries = append(p.o.Batteries, bo)
	}
	if !p.rs.AirInArtilleryPhase {
		return
	}
	anywhere := func(rules.Hex) bool { return true }
	for ; p.air > 0; p.air-- {
		t, ok := p.strikeTarget(spotters, p.rs.AirDicePerPoint, anywhere)
		if !ok {
			break
		}
		p.o.AirStrikes = append(p.o.AirStrikes, t)
	}
}

// spotters are the hexes the side's stands will finish in, in command of
// their HQ: the stands that can spot for the artillery (5.2).
func (p *planner) spotters() []rules.Hex {
	var out []rules.Hex
	for _, pl := range p.plans {
		u := p.st.Unit(pl.orders.Unit)
		hq := u.HQ(p.rs)
		if hq == nil {
			continue
		}
		for _, s := range u.Stands {
			if rules.Distance(pl.ends[s], pl.ends[hq]) <= p.rs.CommandRange {
				out = append(out, pl.ends[s])
			}
		}
	}
	return out
}

// spotted: one of the spotters sees the enemy in h (5.2): within the
// spotting range, shorter into cover or at a D stand, with a view that
// terrain does not block.
func (p *planner) spotted(h rules.Hex, spotters []rules.Hex) bool {
	// A unit on Hold may dig in this round, which shortens the range.
	rng := p.rs.SpottingOpen
	if o := p.occ[h]; p.terrain(h).Cover || (o.unit != nil && (o.unit.Status == rules.DigIn || o.unit.Status == rules.Hold)) {
		rng = p.rs.SpottingCover
	}
	for _, s := range spotters {
		if rules.Distance(s, h) <= rng && p.lineOfSight(s, h, nil) {
			return true
		}
	}
	return false
}

// strikeTarget picks the spotted enemy hex where a shot of so many dice,
// rolled as M against the target's status with at most one hit (5.1), does
// the most good: the chance of a hit times what the target is worth.
func (p *planner) strikeTarget(spotters []rules.Hex, base int, reachable func(rules.Hex) bool) (rules.Hex, bool) {
	var best rules.Hex
	bestValue := 0.0
	for _, h := range p.enemies {
		if !reachable(h) || !p.spotted(h, spotters) {
			continue
		}
		n := base
		if p.armoured(h) || p.covered(h) {
			n-- // 3.7.2: armour and cover cost one die, not cumulative
		}
		dist := p.rs.Attacking(rules.Move, p.statusOf(h)).HitDistribution(max(n, 0))
		if v := (1 - dist[0]) * p.worth(h) * p.stays(h); v > bestValue {
			best, bestValue = h, v
		}
	}
	return best, bestValue > 0
}

// stays is how likely the stand in h still is there in the artillery phase,
// when the shots land: a barrage at an empty hex is lost (5.1). Dug-in
// units and batteries stay, units on Hold only shuffle, units on the move
// mostly move.
func (p *planner) stays(h rules.Hex) float64 {
	o := p.occ[h]
	switch {
	case o.unit == nil || o.unit.Status == rules.DigIn:
		return 1
	case o.unit.Status == rules.Hold:
		return 0.9
	case o.unit.Status == rules.Move && p.inOwnZOC(h):
		return 0.6 // in contact with the side's stands: likely to fight there
	}
	return 0.3
}

// inOwnZOC: next to one of the side's core stands.
func (p *planner) inOwnZOC(h rules.Hex) bool {
	for _, n := range h.Neighbours() {
		if o, ok := p.occ[n]; ok && o.side == p.side {
			return true
		}
	}
	return false
}

// statusOf is the status a stand in h defends with as far as can be known:
// its unit's last order, M in a river (2.5); a battery acts as H (5).
func (p *planner) statusOf(h rules.Hex) rules.Status {
	o := p.occ[h]
	st := rules.Hold
	if o.unit != nil {
		st = o.unit.Status
	}
	if st != rules.Retreat && p.terrain(h).River {
		return rules.Move
	}
	return st
}

// armoured: the stand in h counts as armour (3.7.2): by its type, by
// itself, or carried in armoured transport.
func (p *planner) armoured(h rules.Hex) bool {
	o := p.occ[h]
	if o.battery != nil {
		return o.battery.Armoured || p.rs.StandTypes[o.battery.Type].Armoured
	}
	s := o.stand
	return s.Armoured || p.rs.StandTypes[s.Type].Armoured || (s.Support != nil && p.rs.StandTypes[s.Support.Type].GivesArmour)
}

// covered: the stand in h is dug in, or on Hold in cover (3.7.2).
func (p *planner) covered(h rules.Hex) bool {
	st := p.statusOf(h)
	return st == rules.DigIn || (st == rules.Hold && p.terrain(h).Cover)
}

// batteryMove moves a battery with nothing in range towards the nearest
// enemy, as far as its move takes it (5.1) and no nearer than
// batterySafeDistance; nil when it can get no nearer.
func (p *planner) batteryMove(bt *rules.Battery) []rules.Hex {
	class := bt.MoveClass
	if class == "" {
		class = p.rs.StandTypes[bt.Type].Move
	}
	paths := p.reachFrom(bt.Hex, p.rs.Movement[class], false)
	goal := p.nearestEnemy(bt.Hex)
	if goal.IsZero() {
		return nil
	}
	best := bt.Hex
	for _, h := range sortedHexes(paths) {
		if p.held(h) || p.taken[h] || p.enemyDistance(h) < batterySafeDistance {
			continue
		}
		if rules.Distance(h, goal) < rules.Distance(best, goal) {
			best = h
		}
	}
	if best == bt.Hex {
		return nil
	}
	p.taken[best] = true
	return paths[best]
}
