package rules

// Command posts beyond the first setting up (§IV.1.3-1.5, Inset IV.3): the
// half price in a Key City the side holds, and moving a post.

// Relocate is RELOCATE cp TO hex BY unit: the post is taken down at once
// and set up again at the hex at the end of a later own turn, if a
// friendly land unit holds it then (§IV.1.3: posts may be relocated).
type Relocate struct {
	Line int    `json:"line,omitempty"`
	Post string `json:"post"`
	To   Hex    `json:"to"`
	By   string `json:"by"`
}

// PostCost is what a command post or a new Forward HQ staged for h costs:
// a post as CommandPostCost says, a Forward HQ its card's price (the
// half price is the book's for posts, §IV.1.3).
func (s *State) PostCost(side, code string, h Hex) (cost int, half bool) {
	if code == "CP" {
		return s.CommandPostCost(side, h)
	}
	return s.lib.Cards[code].Cost, false
}

// CommandPostCost is what a command post staged for h costs the side: half
// its card's price, rounded up, in a Key City the side controls or within
// an emplacement of its own standing there (a pillbox, a captured one
// too), whose existing structures house it (§IV.1.3).
func (s *State) CommandPostCost(side string, h Hex) (cost int, half bool) {
	c := s.lib.Cards["CP"].Cost
	if (s.Map.Terrain(h) == KeyCity && s.Control[h] == side) || s.emplacementOf(side, h) != nil {
		return (c*s.lib.Rules.CPKeyCityPercent + 99) / 100, true
	}
	return c, false
}

// emplacementOf finds a side's emplacement standing (built) in h.
func (s *State) emplacementOf(side string, h Hex) *Unit {
	for _, u := range s.UnitsAt(h) {
		if u.Side == side && s.Card(u).Structure == "emplacement" {
			return u
		}
	}
	return nil
}

// postSite reports why h cannot hold a command post: any passable hex
// that is not water or marsh (§IV.1.3).
func (s *State) postSite(h Hex) string {
	switch s.Map.Terrain(h) {
	case Sea:
		return "sea"
	case Impassable:
		return "impassable mountain"
	case Swamp:
		return "swamp"
	}
	return ""
}

// relocations checks RELOCATE orders: the side's own command post on the
// map (the FHQ moves by conversion, §IV.1.9), a site for a post, a land
// unit of the side standing there after its move, and 10 hexes from every
// other post and the FHQ, staged or moving ones included (Inset IV.3).
func (v *validator) relocations() {
	s, o := v.s, v.o
	seen := map[string]bool{}
	for _, rl := range o.Relocate {
		cp := v.own(rl.Line, rl.Post, "RELOCATE")
		if cp == nil {
			continue
		}
		if seen[cp.ID] {
			v.add(rl.Line, "IV.1.3", "%s is relocated twice", cp.ID)
		}
		seen[cp.ID] = true
		switch {
		case cp.Code != "CP":
			v.add(rl.Line, "IV.1.9", "RELOCATE %s: only command posts move; the FHQ changes by CONVERT", cp.ID)
			continue
		case !cp.OnMap():
			v.add(rl.Line, "IV.1.3", "RELOCATE %s: it is not set up on the map", cp.ID)
			continue
		case o.Convert == cp.ID:
			v.add(rl.Line, "IV.1.9", "RELOCATE %s: it is converted into the FHQ this turn", cp.ID)
		}
		if why := s.postSite(rl.To); why != "" {
			v.add(rl.Line, "IV.1.3", "RELOCATE %s TO %s: a command post cannot stand in %s", cp.ID, rl.To, why)
		}
		if by := v.own(rl.Line, rl.By, "RELOCATE"); by != nil {
			at, ok := v.dest[by.ID]
			if !ok {
				at = by.Hex
			}
			if !by.OnMap() || by.In != "" || !s.Card(by).Land() || at != rl.To {
				v.add(rl.Line, "Inset IV.3", "RELOCATE %s: %s must be a land unit standing in %s after its move", cp.ID, by.ID, rl.To)
			}
		}
		for _, x := range s.Units {
			if x == cp || x.Side != o.Side || s.Card(x).Radius == 0 || x.Hex.IsZero() || s.Card(x).Kind != "structure" {
				continue
			}
			if d := Distance(x.Hex, rl.To); d < 10 {
				v.add(rl.Line, "Inset IV.3", "RELOCATE %s TO %s: %s is %d hexes away; posts stand at least 10 from every other post and the FHQ", cp.ID, rl.To, x.ID, d)
			}
		}
		for _, b := range o.Builds {
			if isPost(s.lib.Cards[b.Code]) && Distance(b.Hex, rl.To) < 10 {
				v.add(rl.Line, "Inset IV.3", "RELOCATE %s TO %s: the post built at %s is %d hexes away", cp.ID, rl.To, b.Hex, Distance(b.Hex, rl.To))
			}
		}
		for _, other := range o.Relocate {
			if other.Post != rl.Post && other.Line < rl.Line && Distance(other.To, rl.To) < 10 {
				v.add(rl.Line, "Inset IV.3", "RELOCATE %s TO %s: %s moves to %s, %d hexes away", cp.ID, rl.To, other.Post, other.To, Distance(other.To, rl.To))
			}
		}
	}
}

// takeDown packs up the posts being relocated: off the map at once (no
// radius, no income, no longer a target; the enemy's recon counter is
// gone, §IV.1.6), set up again at the end of a later own turn.
func (r *resolver) takeDown(o Orders) {
	s := r.s
	for _, rl := range o.Relocate {
		cp := s.Unit(r.side, rl.Post)
		from := cp.Hex
		cp.Hex, cp.Found, cp.Revealed = rl.To, false, false
		cp.Relocate = r.own + r.r.CPRelocateTurns
		r.emit("command", "IV.1.3", from, r.side, "%s takes down %s at %s to set it up at %s at the end of its turn %d", r.side, cp.ID, from, rl.To, cp.Relocate)
	}
}

// setUpMoved sets up the relocated posts that are due where a friendly
// land unit holds the hex free of enemy land units; otherwise they wait
// for a later turn (Inset IV.3). A post set up works from the next turn.
func (r *resolver) setUpMoved() {
	s := r.s
	for _, cp := range s.Units {
		if cp.Side != r.side || cp.Relocate == 0 || cp.Relocate > r.own {
			continue
		}
		if !s.landUnit(r.side, cp.Hex) || s.enemyLand(r.side, cp.Hex) {
			r.emit("command", "Inset IV.3", cp.Hex, r.side, "%s waits: no friendly land unit holds %s free of the enemy", cp.ID, cp.Hex)
			continue
		}
		cp.Relocate = 0
		cp.Hidden = s.Card(cp).Hidden
		cp.Works = r.own + 1
		r.emit("command", "IV.1.3", cp.Hex, r.side, "%s is set up again at %s; it works from %s's next turn", cp.ID, cp.Hex, r.side)
	}
}
