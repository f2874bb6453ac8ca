package rules

import (
	"fmt"
	"slices"
)

// platoonMove is a planned change of stands for a support platoon or truck.
type platoonMove struct {
	p        *Platoon
	from, to *Stand
}

// swapSupport moves support platoons and trucks between the unit's stands:
// after the unit's movement, between stands in command, across any distance
// (2SG 2.3); or before any core stand moves, while every core stand is in
// command, as far as the platoon can move (3SG 2.4). Swaps take effect
// together, so two stands may exchange their platoons; a swap that would
// break the stacking limit does not happen (1.3, 2.1).
func (r *resolver) swapSupport(u *Unit, uo *UnitOrders) {
	if len(uo.Swaps) == 0 {
		return
	}
	if !slices.Contains(r.rs.SupportSwapStatuses, u.Status) {
		r.emit(Event{Kind: EvNote, Side: u.Side, Unit: u.ID, Section: r.sec(SecSupportSwap),
			Text: fmt.Sprintf("%s swaps no support platoons: a unit on %s orders does not (%s)", u.ID, statusWord(u.Status), r.sec(SecSupportSwap))})
		return
	}
	before := r.rs.SupportSwap == SwapBeforeMove
	if before {
		for _, s := range u.Stands {
			if !r.b.inCommand(u, s) {
				r.emit(Event{Kind: EvNote, Side: u.Side, Unit: u.ID, Section: r.sec(SecSupportSwap),
					Text: fmt.Sprintf("%s swaps no support platoons: %s is out of command, and platoons change stands before the move only while every core stand is in command (%s)", u.ID, s.Name, r.sec(SecSupportSwap))})
				return
			}
		}
	}
	skip := func(name, why string) {
		r.emit(Event{Kind: EvNote, Side: u.Side, Unit: u.ID, Stand: name, Section: r.sec(SecSupportSwap),
			Text: fmt.Sprintf("%s platoon %s does not change stands: %s (%s)", u.ID, name, why, r.sec(SecSupportSwap))})
	}
	var plan []platoonMove
	for _, sw := range uo.Swaps {
		from, p := u.Platoon(sw.Platoon)
		to := u.Stand(sw.To)
		switch {
		case p == nil:
			skip(sw.Platoon, "it has been lost")
		case to == nil:
			skip(sw.Platoon, sw.To+" has been destroyed")
		case from == to:
		case !before && !r.b.inCommand(u, from):
			skip(sw.Platoon, fmt.Sprintf("%s, the stand it leaves, is out of command", from.Name))
		case !before && !r.b.inCommand(u, to):
			skip(sw.Platoon, fmt.Sprintf("%s, the stand it joins, is out of command", to.Name))
		case before && !r.canReach(u.Side, from.Hex, to.Hex, r.platoonAllowance(from, p)):
			skip(sw.Platoon, fmt.Sprintf("it cannot reach %s at %s with its normal move", to.Name, to.Hex))
		default:
			plan = append(plan, platoonMove{p: p, from: from, to: to})
		}
	}
	for {
		i := r.overstacked(u, plan)
		if i < 0 {
			break
		}
		skip(plan[i].p.Name, fmt.Sprintf("%s would hold too many platoons: one support platoon and one truck a stand, and nothing else with armoured transport (1.3, 2.1)", plan[i].to.Name))
		plan = append(plan[:i], plan[i+1:]...)
	}
	for _, pm := range plan {
		detach(pm.from, pm.p)
	}
	for _, pm := range plan {
		if r.rs.StandTypes[pm.p.Type].Class == ClassTransport {
			pm.to.Transport = pm.p
		} else {
			pm.to.Support = pm.p
		}
		r.emit(Event{Kind: EvSwap, Side: u.Side, Unit: u.ID, Stand: pm.p.Name, From: pm.from.Hex, To: pm.to.Hex, Section: r.sec(SecSupportSwap),
			Text: fmt.Sprintf("%s platoon %s (%s) moves from %s to %s (%s)", u.ID, pm.p.Name, r.rs.StandTypes[pm.p.Type].Title, pm.from.Name, pm.to.Name, r.sec(SecSupportSwap))})
	}
}

func detach(s *Stand, p *Platoon) {
	if s.Support == p {
		s.Support = nil
	}
	if s.Transport == p {
		s.Transport = nil
	}
}

// overstacked returns the index of the last planned swap into a stand that
// would break the stacking limit, or -1 when every stand is within it.
func (r *resolver) overstacked(u *Unit, plan []platoonMove) int {
	moving := map[*Platoon]bool{}
	for _, pm := range plan {
		moving[pm.p] = true
	}
	for _, s := range u.Stands {
		var platoons []*Platoon
		for _, p := range []*Platoon{s.Support, s.Transport} {
			if p != nil && !moving[p] {
				platoons = append(platoons, p)
			}
		}
		last := -1
		for i, pm := range plan {
			if pm.to == s {
				platoons = append(platoons, pm.p)
				last = i
			}
		}
		if last >= 0 && !stackingOK(r.rs, platoons) {
			return last
		}
	}
	return -1
}

// stackingOK: one support platoon and one transport with a core stand, and
// nothing else with an exclusive platoon such as armoured transport (1.3, 2.1).
func stackingOK(rs *Ruleset, platoons []*Platoon) bool {
	support, transport, exclusive := 0, 0, false
	for _, p := range platoons {
		t := rs.StandTypes[p.Type]
		if t.Class == ClassTransport {
			transport++
		} else {
			support++
		}
		exclusive = exclusive || t.Exclusive
	}
	return support <= 1 && transport <= 1 && (!exclusive || len(platoons) == 1)
}

// platoonAllowance is a platoon's normal move: its own vehicle's, or that of
// the stand it is with (2: support platoons move as their unit does).
func (r *resolver) platoonAllowance(carrier *Stand, p *Platoon) int {
	t := r.rs.StandTypes[p.Type]
	class := t.GivesMove
	if class == "" {
		class = t.Move
	}
	if class == "" {
		class = r.b.moveClass(carrier)
	}
	return r.rs.Movement[class].Normal
}

// canReach reports whether a normal move of at most steps hexes leads from
// one hex to another under the movement rules (2.4, 2.5): never into enemy
// stands, halting in enemy ZOC and halting terrain.
func (r *resolver) canReach(side string, from, to Hex, steps int) bool {
	frontier := []Hex{from}
	seen := map[Hex]bool{from: true}
	for step := 1; step <= steps; step++ {
		var next []Hex
		for _, c := range frontier {
			for _, h := range c.Neighbours() {
				if seen[h] || !r.b.passable(h) {
					continue
				}
				if o := r.b.at(h); !o.empty() && o.side() != side {
					continue
				}
				t := r.b.terrain(h)
				switch t.Normal {
				case MoveImpassable, MoveHaltBefore:
					continue
				case MoveHaltBeforeAndOnEnter:
					if step != 1 {
						continue
					}
				}
				if h == to {
					return true
				}
				seen[h] = true
				if _, zoc := r.zocOf(h, side); zoc || t.Normal == MoveHaltOnEnter || t.Normal == MoveHaltBeforeAndOnEnter {
					continue
				}
				next = append(next, h)
			}
		}
		frontier = next
	}
	return false
}
