package bot

import (
	"sort"

	"fieldpost/engine/frontline/rules"
)

// commandPosts stages a command post in a Key City the side holds, where
// it costs half (§IV.1.3) and pays for itself in income within a few
// turns, before any purchase, when no post or FHQ of the side stands
// within 10 hexes.
func (b *planner) commandPosts() {
	v := b.v
	if !v.ProductionTurn(b.side) {
		return
	}
	lib := v.Lib()
	due, _, _ := v.SupplyDue(b.side)
	left := v.Player(b.side).Treasury - due
	posts := 0
	var sites []rules.Hex
	for _, u := range v.Units {
		if u.Side == b.side && u.Code == "CP" {
			posts++
		}
	}
	if posts >= lib.Cards["CP"].Limit {
		return
	}
	for h, c := range v.Control {
		if c == b.side && v.Map.Terrain(h) == rules.KeyCity {
			sites = append(sites, h)
		}
	}
	sort.Slice(sites, func(i, j int) bool { return sites[i].String() < sites[j].String() })
	for _, h := range sites {
		cost, half := v.CommandPostCost(b.side, h)
		if !half || cost > left || !b.farFromPosts(h) {
			continue
		}
		for _, u := range v.UnitsAt(h) {
			if u.Side == b.side && u.In == "" && v.Card(u).Land() {
				b.o.Builds = append(b.o.Builds, rules.Build{Line: b.next(), Code: "CP", Hex: h, By: u.ID})
				return
			}
		}
	}
}

// farFromPosts: no post or FHQ of the side, staged or set up, within 10
// hexes of h (Inset IV.3).
func (b *planner) farFromPosts(h rules.Hex) bool {
	for _, u := range b.v.Units {
		if u.Side == b.side && b.v.Card(u).Radius > 0 && b.v.Card(u).Kind == "structure" && !u.Hex.IsZero() && rules.Distance(u.Hex, h) < 10 {
			return false
		}
	}
	return true
}

// buildCost is what the constructions ordered so far cost.
func (b *planner) buildCost() int {
	total := 0
	for _, bu := range b.o.Builds {
		if bu.Code == "CP" {
			c, _ := b.v.CommandPostCost(b.side, bu.Hex)
			total += c
		}
	}
	return total
}
