package rules

import (
	"sort"
	"strings"
)

// SupplyDue is the side's supply bill (Inset V.4): 10% of the cost of its
// deployed supplied units, halves up, less 5 per controlled port.
func (s *State) SupplyDue(side string) (due, gross, ports int) {
	cost := 0
	for _, u := range s.Units {
		if u.Side == side && u.OnMap() && s.supplied(u) {
			cost += s.Card(u).Cost
		}
	}
	gross = roundHalfUp(float64(cost) * float64(s.lib.Rules.SupplyPercent) / 100)
	cut, ports := s.portCut(side)
	return max(gross-cut, 0), gross, ports
}

// supplied: units that pay supply (Inset V.4).
func (s *State) supplied(u *Unit) bool {
	c := s.Card(u)
	return c.Cost > 0 && !c.NoSupply && c.Kind != "obstacle" && c.Kind != "structure" && s.inUse(u)
}

// idleEligible: units a deficit may idle (§V.3.2): supplied, deployed, not
// idle in the last turn, not aloft.
func (r *resolver) idleEligible(u *Unit) bool {
	return u.Side == r.side && u.OnMap() && r.s.supplied(u) && !r.s.inFlight(u) && (u.IdleTurn == 0 || u.IdleTurn != r.own-1) && !r.s.atWork(u)
}

// inFlight: an aircraft aloft, or the crew aboard one (Inset V.5).
func (s *State) inFlight(u *Unit) bool {
	if u.Aloft {
		return true
	}
	v := s.Unit(u.Side, u.In)
	return u.Role == "crew" && v != nil && v.Aloft
}

// atWork: a unit spending idle turns on a function, building or being
// repaired or merged, with the crew aboard such a unit. Supply deficits
// may not be applied to it (Inset V.5).
func (s *State) atWork(u *Unit) bool {
	if u.Building != "" || u.Repairing != 0 {
		return true
	}
	if u.Role == "crew" {
		if v := s.Unit(u.Side, u.In); v != nil {
			return s.atWork(v)
		}
	}
	return false
}

// supply plays the Supply Phase (§V.3): pay what the treasury allows; a
// deficit idles units worth ten times the unpaid amount.
func (r *resolver) supply(o Orders) {
	r.phase = "supply"
	s := r.s
	p := s.Player(r.side)
	for _, u := range s.Units {
		if u.Side == r.side && u.Idle {
			u.Idle = false
		}
	}
	due, gross, ports := s.SupplyDue(r.side)
	paid := min(due, p.Treasury)
	p.Treasury -= paid
	r.emit("supply", "V.3", Hex{}, r.side, "%s supply: %d due (%d less %d for %d port(s)); paid %d, treasury %d", r.side, due, gross, gross-due, ports, paid, p.Treasury)
	// Guns that fired for effect have their munitions again (Inset VI.6);
	// those a deficit idles stay silent anyway.
	for _, u := range s.Units {
		if u.Side == r.side && s.munitionsSpent(u) {
			u.Spent = false
		}
	}
	deficit := due - paid
	if deficit == 0 {
		return
	}
	need := deficit * r.r.DeficitIdleFactor
	var chosen []*Unit
	total := 0
	// A unit and its crew idle together (Inset V.5): both costs count.
	pick := func(u *Unit) {
		for _, c := range chosen {
			if c == u {
				return
			}
		}
		chosen = append(chosen, u)
		total += s.Card(u).Cost
		for _, v := range s.Units {
			if v.Side == u.Side && v != u && ((u.Role == "crew" && v.ID == u.In) || (v.In == u.ID && v.Role == "crew")) {
				chosen = append(chosen, v)
				total += s.Card(v).Cost
			}
		}
	}
	for _, id := range o.Idle {
		if u := s.Unit(r.side, id); u != nil && r.idleEligible(u) {
			pick(u)
		}
	}
	if total < need {
		var rest []*Unit
		for _, u := range s.Units {
			if r.idleEligible(u) {
				rest = append(rest, u)
			}
		}
		sort.SliceStable(rest, func(i, j int) bool { return s.Card(rest[i]).Cost < s.Card(rest[j]).Cost })
		for _, u := range rest {
			if total >= need {
				break
			}
			pick(u)
		}
	}
	var names []string
	for _, u := range chosen {
		u.Idle, u.IdleTurn = true, r.own
		names = append(names, u.ID)
	}
	r.emit("supply", "V.3.2", Hex{}, r.side, "%s deficit %d: units worth %d must stay idle; idle: %s (cost %d)", r.side, deficit, need, strings.Join(names, " "), total)
}
