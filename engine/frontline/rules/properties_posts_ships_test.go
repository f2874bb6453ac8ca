package rules

import "math/rand/v2"

// randomPostsAndShips adds random orders of the command posts, captured
// equipment, landings and ships to a random turn; the rules drop the
// illegal ones like any other random order.
func randomPostsAndShips(s *State, rng *rand.Rand, o *Orders, next func() int) {
	side := s.Active
	var land []*Unit
	for _, u := range s.Units {
		if u.Side == side && u.OnMap() && u.In == "" && s.Card(u).Land() {
			land = append(land, u)
		}
	}
	if s.ProductionTurn(side) && rng.IntN(3) == 0 {
		if side == "US" {
			o.Buys = append(o.Buys, Buy{Line: next(), Code: []string{"LCVP", "LST"}[rng.IntN(2)], Count: 1})
		}
		if len(land) > 0 {
			u := land[rng.IntN(len(land))]
			o.Builds = append(o.Builds, Build{Line: next(), Code: "CP", Hex: u.Hex, By: u.ID})
		}
	}
	for _, u := range s.Units {
		if u.Side != side || !u.OnMap() {
			continue
		}
		c := s.Card(u)
		switch {
		case c.Code == "CP" && len(land) > 0 && rng.IntN(6) == 0:
			by := land[rng.IntN(len(land))]
			o.Relocate = append(o.Relocate, Relocate{Line: next(), Post: u.ID, To: by.Hex, By: by.ID})
		case u.Damaged && c.Kind == "vehicle" && u.In == "" && rng.IntN(2) == 0:
			// At a post perhaps being relocated this turn (Inset IV.3).
			o.Moves = append(o.Moves, Move{Line: next(), Unit: u.ID, Steps: []Step{{Act: ActRepair}}})
		case c.Crew != "" && u.In == "":
			for _, t := range s.UnitsAt(u.Hex) {
				if t.Side == side && s.Card(t).Requires == c.Crew && !s.crewed(t) {
					o.Moves = append(o.Moves, Move{Line: next(), Unit: u.ID, Steps: []Step{{Act: ActMan, Unit: t.ID}}})
					break
				}
			}
		case c.Kind == "ship":
			m := Move{Line: next(), Unit: u.ID}
			for _, x := range s.Units {
				if x.Side == side && x.In == u.ID && rng.IntN(2) == 0 {
					m.Steps = append(m.Steps, Step{Act: ActUnload, Unit: x.ID})
				}
			}
			if len(m.Steps) == 0 {
				at := u.Hex
				for range c.Move {
					n := at.Neighbours()[rng.IntN(6)]
					if s.Navigable(n) {
						m.Steps = append(m.Steps, Step{Hex: n})
						at = n
					}
				}
				for _, x := range s.UnitsAt(at) {
					if x.Side == side && x.In == "" && s.Card(x).Land() && rng.IntN(2) == 0 {
						m.Steps = append(m.Steps, Step{Act: ActLoad, Unit: x.ID})
						break
					}
				}
			}
			o.Moves = append(o.Moves, m)
		}
	}
	if s.DeploymentTurn(side) {
		for _, u := range s.Units {
			if u.Side != side || u.Staged <= 0 || u.In != "" || s.Card(u).Ship != "large" {
				continue
			}
			var edge []Hex
			for col := 1; col <= s.Map.Width; col++ {
				for _, h := range []Hex{{Col: col, Row: 1}, {Col: col, Row: s.Map.Height}} {
					if s.edgeSea(h) {
						edge = append(edge, h)
					}
				}
			}
			if len(edge) > 0 {
				o.Deploys = append(o.Deploys, Deploy{Line: next(), Unit: u.ID, Hex: edge[rng.IntN(len(edge))]})
			}
		}
		for _, u := range s.Units {
			if u.Side == side && u.Staged > 0 && u.In == "" && s.Card(u).Land() && rng.IntN(3) == 0 {
				for _, d := range o.Deploys {
					if sh := s.Unit(side, d.Unit); sh != nil && s.Card(sh).Kind == "ship" {
						var kept []Deploy
						for _, x := range o.Deploys {
							if x.Unit != u.ID {
								kept = append(kept, x)
							}
						}
						o.Deploys = append(kept, Deploy{Line: next(), Unit: u.ID, On: sh.ID})
						break
					}
				}
			}
		}
	}
	if o.Standing != nil && rng.IntN(2) == 0 {
		o.Standing.Captured = "destroy"
	}
}
