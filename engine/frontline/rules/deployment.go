package rules

// DeploymentTurn reports own turns 5, 10, 15...
func (s *State) DeploymentTurn(side string) bool {
	return s.Player(side).OwnTurn%s.lib.Rules.ProductionEvery == 0
}

// deployment plays the Deployment Phase of own turns 5, 10, 15... (§V.6)
// and Rush Deployment (§IV.3.6).
func (r *resolver) deployment(o Orders) {
	r.phase = "deployment"
	s := r.s
	p := s.Player(r.side)
	if len(o.Rush) > 0 {
		s.spend(p, "Rush")
		r.emit("card", "IV.3.6", Hex{}, "", "%s plays Rush Deployment", r.side)
	}
	scheduled := (s.DeploymentTurn(r.side) || s.modifier("priority-shipping", r.side)) && !s.modifier("convoy-delayed", r.side)
	if s.DeploymentTurn(r.side) && s.modifier("convoy-delayed", r.side) {
		r.emit("deploy", "design 2.2", Hex{}, "", "Convoy Delayed: %s deploys nothing this phase", r.side)
		s.dropModifier("convoy-delayed", r.side)
	}
	// Constructions complete at the Deployment Phase, or later when their
	// engineers fought meanwhile (Inset VI.2).
	for _, eng := range append([]*Unit(nil), s.Units...) {
		if eng.Side != r.side || eng.Building == "" || !r.constructionDue(eng, scheduled) {
			continue
		}
		item := s.Unit(r.side, eng.Building)
		if item != nil && item.Staged >= r.own {
			continue // begun this turn (Priority Shipping deploys now): not yet
		}
		eng.Building, eng.Ready = "", 0
		if item == nil || item.Staged == 0 {
			continue
		}
		item.Staged = 0
		if s.Card(item).Structure == "airfield" {
			s.Control[item.Hex] = r.side
		}
		r.emit("build", "VI.5.3", item.Hex, "", "%s completes %s at %s", eng.ID, item.ID, item.Hex)
	}
	if scheduled {
		// Command posts are set up where a friendly land unit holds the
		// hex free of enemy land units (§IV.1.3-1.5); otherwise they wait.
		for _, cp := range s.Units {
			if cp.Side != r.side || cp.Staged <= 0 || cp.Staged >= r.own || cp.Hex.IsZero() || s.Card(cp).Radius == 0 {
				continue
			}
			if !s.Holds(r.side, cp.Hex) && !(s.landUnit(r.side, cp.Hex) && !s.enemyLand(r.side, cp.Hex)) {
				r.emit("build", "IV.1.3", cp.Hex, r.side, "%s waits: no friendly land unit holds %s", cp.ID, cp.Hex)
				continue
			}
			cp.Staged = 0
			cp.Hidden = s.Card(cp).Hidden
			cp.Works = r.own + 1
			r.emit("build", "IV.1.3", cp.Hex, r.side, "%s is set up at %s; it works from %s's next turn", cp.ID, cp.Hex, r.side)
		}
	}
	for _, dp := range o.Deploys {
		u := s.Unit(r.side, dp.Unit)
		if u == nil || u.Staged == 0 {
			continue
		}
		rushed := false
		for _, id := range o.Rush {
			rushed = rushed || id == dp.Unit
		}
		if !scheduled && !rushed {
			continue
		}
		if r.deployNaval(u, dp) {
			continue
		}
		if !s.CanDeployAt(u, dp.Hex) {
			r.emit("deploy", "V.6", dp.Hex, r.side, "%s cannot deploy at %s any more: not a controlled port or airfield", u.ID, dp.Hex)
			continue
		}
		u.Staged, u.Hex = 0, dp.Hex
		u.Hidden = s.Card(u).Hidden
		for _, c := range s.Units {
			if c.Side == u.Side && c.In == u.ID {
				c.Staged, c.Hex = 0, dp.Hex
			}
		}
		r.emit("deploy", "V.6", dp.Hex, r.side, "%s deploys at %s", u.ID, dp.Hex)
	}
}

// landUnit reports a side's land unit (not carried) in h.
func (s *State) landUnit(side string, h Hex) bool {
	for _, u := range s.UnitsAt(h) {
		if u.Side == side && u.In == "" && s.Card(u).Land() {
			return true
		}
	}
	return false
}

func (s *State) dropModifier(name, side string) {
	out := s.Modifiers[:0]
	for _, m := range s.Modifiers {
		if !(m.Name == name && m.Side == side) {
			out = append(out, m)
		}
	}
	s.Modifiers = out
}

// CanDeployAt checks Table V.1: land units at a controlled port, aircraft
// at a controlled airfield. Works and command posts are never deployed:
// they are set up where they were staged (§IV.1.3, §VI.5.3).
func (s *State) CanDeployAt(u *Unit, h Hex) bool {
	c := s.Card(u)
	if builtInPlace(c) {
		return false
	}
	if c.Kind == "ship" {
		return s.shipDeployable(u, h)
	}
	if s.Control[h] != u.Side {
		return false
	}
	if c.Kind == "aircraft" {
		return s.airfieldAt(h) != nil
	}
	return s.Map.Port(h) && s.Ports[h] != portDestroyed && !s.modifier("high-seas", u.Side)
}

// builtInPlace reports a card staged at the hex where it will stand:
// command posts, obstacles and engineers' works.
func builtInPlace(c *Card) bool {
	return c.Kind == "structure" || c.Kind == "obstacle"
}

func (s *State) airfieldAt(h Hex) *Unit {
	for _, u := range s.Units {
		if u.OnMap() && u.Hex == h && s.Card(u).Structure == "airfield" {
			return u
		}
	}
	return nil
}
