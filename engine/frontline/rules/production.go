package rules

import "strings"

// production plays the Production Phase of own turns 1, 6, 11... (§V.2):
// purchases are staged; crewed units take a crew bought with them.
func (r *resolver) production(o Orders) {
	r.phase = "production"
	if !r.s.ProductionTurn(r.side) {
		return
	}
	p := r.s.Player(r.side)
	var needCrew []*Unit
	var crews []*Unit
	for _, b := range o.Buys {
		c := r.s.lib.Cards[b.Code]
		for range b.Count {
			cost := c.Cost + b.XP*r.r.ExperienceRollCost
			p.Treasury -= cost
			u := &Unit{ID: r.s.nextID(r.side, b.Code), Side: r.side, Code: b.Code, Staged: r.own}
			r.s.Units = append(r.s.Units, u)
			r.s.sortUnits()
			var xp []string
			for range b.XP {
				xp = append(xp, r.experience(u))
			}
			extra := ""
			if len(xp) > 0 {
				extra = "; experience " + strings.Join(xp, ", ")
			}
			r.emit("buy", "V.2", Hex{}, r.side, "%s buys %s (%s) for %d, staged; treasury %d%s", r.side, u.ID, c.Name, cost, p.Treasury, extra)
			if c.Requires != "" {
				needCrew = append(needCrew, u)
			}
			if c.Crew != "" {
				crews = append(crews, u)
			}
		}
	}
	for _, b := range o.Builds {
		c := r.s.lib.Cards[b.Code]
		eng := r.s.Unit(r.side, b.By)
		cost, half := c.Cost, false
		if isPost(c) {
			cost, half = r.s.PostCost(r.side, b.Code, b.Hex)
		}
		p.Treasury -= cost
		u := &Unit{ID: r.s.nextID(r.side, b.Code), Side: r.side, Code: b.Code, Staged: r.own, Hex: b.Hex, Across: b.Across}
		r.s.Units = append(r.s.Units, u)
		r.s.sortUnits()
		if c.Radius > 0 {
			price := ""
			if half {
				price = " (half price in a Key City it holds)"
				if r.s.emplacementOf(r.side, b.Hex) != nil {
					price = " (half price within its emplacement)"
				}
			}
			r.emit("build", "IV.1.3", b.Hex, r.side, "%s stages %s (%s) for %s for %d%s, treasury %d; it is set up at the next Deployment Phase", r.side, u.ID, c.Name, b.Hex, cost, price, p.Treasury)
			continue
		}
		eng.Building, eng.DugIn = u.ID, false
		r.emit("build", "VI.5.3", b.Hex, r.side, "%s begins building %s (%s) at %s for %d, treasury %d; it stays idle there until the next Deployment Phase", eng.ID, u.ID, c.Name, b.Hex, c.Cost, p.Treasury)
	}
	for _, v := range needCrew {
		for i, c := range crews {
			if r.s.Card(c).Crew == r.s.Card(v).Requires {
				c.In, c.Role = v.ID, "crew"
				crews = append(crews[:i], crews[i+1:]...)
				r.emit("buy", "III.2.2", Hex{}, r.side, "%s crews %s", c.ID, v.ID)
				break
			}
		}
	}
}

// convert makes a command post the side's new FHQ (§IV.1.9, Inset IV.4):
// the old FHQ, if any, is abandoned; the new one costs half an FHQ and
// works after three turns.
func (r *resolver) convert(id string) {
	s := r.s
	cp := s.Unit(r.side, id)
	p := s.Player(r.side)
	cost := (s.lib.Cards["FHQ"].Cost*r.r.ConvertCostPercent + 99) / 100
	p.Treasury -= cost
	for _, u := range append([]*Unit(nil), s.Units...) {
		if u.Side == r.side && u.Code == "FHQ" {
			h := u.Hex
			r.remove(u)
			r.emit("command", "IV.1.9", h, r.side, "%s abandons %s at %s", r.side, u.ID, h)
		}
	}
	old := cp.ID
	cp.Code, cp.ID = "FHQ", s.nextID(r.side, "FHQ")
	cp.Works = r.own + r.r.ConvertTurns
	s.sortUnits()
	r.emit("command", "IV.1.9", cp.Hex, r.side, "%s converts %s into %s for %d (treasury %d); it works from %s's turn %d", r.side, old, cp.ID, cost, p.Treasury, r.side, cp.Works)
}

// ProductionTurn reports own turns 1, 6, 11...
func (s *State) ProductionTurn(side string) bool {
	t := s.Player(side).OwnTurn
	return (t-1)%s.lib.Rules.ProductionEvery == 0
}
