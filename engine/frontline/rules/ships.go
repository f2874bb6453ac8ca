package rules

import "fmt"

// Ships within the scope of the rulebook's operational game: naval combat
// has no rules (the brief leaves it out), so ships carry no weapons. They
// deploy (Table V.1, §V.6.3, Table V.2), sail on sea, coast and port hexes
// (§III.3.1), carry land units and put them ashore (Glossary Landing
// Ship), a flagship commands naval units and earns income (§IV.1.2 note,
// §V.1), and a captured ship is scuttled (§VI.1.2, in seize).

// Navigable reports a hex ships may enter: sea, coastal and port hexes.
func (s *State) Navigable(h Hex) bool {
	if !s.Map.On(h) {
		return false
	}
	t := s.Map.Terrain(h)
	return t == Sea || t == Coastal || t == PortCity
}

// edgeSea: an empty sea hex on the edge of the map, where large ships
// arrive (Table V.1).
func (s *State) edgeSea(h Hex) bool {
	edge := h.Col == 1 || h.Row == 1 || h.Col == s.Map.Width || h.Row == s.Map.Height
	return edge && s.Map.On(h) && s.Map.Terrain(h) == Sea && len(s.UnitsAt(h)) == 0
}

// shipDeployable checks Table V.1 for ships: a large ship at an empty sea
// hex on the map edge, a small craft within one hex of a port the side
// controls; none while High Seas is in force (design 2.2).
func (s *State) shipDeployable(u *Unit, h Hex) bool {
	if s.modifier("high-seas", u.Side) || !s.Navigable(h) {
		return false
	}
	if s.Card(u).Ship == "large" {
		return s.edgeSea(h)
	}
	// A destroyed port delivers nothing, ships no more than land units
	// (§VII.3.4, Table V.1).
	for p, c := range s.Control {
		if c == u.Side && s.Map.Port(p) && s.Ports[p] != portDestroyed && Distance(p, h) <= 1 {
			return true
		}
	}
	return false
}

// shipEnter checks a ship's step: only navigable hexes (§III.3.1).
func (v *validator) shipEnter(m Move, u *Unit, h Hex) {
	if !v.s.Navigable(h) {
		v.add(m.Line, "III.3.1", "%s: ships sail on sea, coastal and port hexes; %s is %s", u.ID, h, terrainName(v.s.Map.Terrain(h)))
	}
}

// shipLoad checks a land unit boarding a ship in its hex: room (crews
// ride with their vehicle and take none), the vehicle not too heavy for
// the craft, no aircraft or towed gun.
func (v *validator) shipLoad(m Move, ship, q *Unit, at Hex, aboard int) {
	s := v.s
	c, qc := s.Card(ship), s.Card(q)
	switch {
	case c.Capacity == 0:
		v.add(m.Line, "VI.3", "%s carries no units", ship.ID)
	case !qc.Land():
		v.add(m.Line, "VI.3", "%s carries land units only", ship.ID)
	case qc.Kind == "vehicle" && c.VehicleMaxCost > 0 && qc.Cost > c.VehicleMaxCost:
		v.add(m.Line, "VI.3", "%s is too heavy for %s (vehicles of cost %d at most)", q.ID, ship.ID, c.VehicleMaxCost)
	case aboard >= c.Capacity:
		v.add(m.Line, "VI.3", "%s is full (%d units)", ship.ID, c.Capacity)
	case q.Hex != at || q.In != "" || !q.OnMap():
		v.add(m.Line, "VI.3", "LOAD %s: it is not free in %s", q.ID, at)
	case v.mover[q.ID]:
		v.add(m.Line, "VI.3", "LOAD %s: it moved itself this phase", q.ID)
	}
}

// shipUnload checks putting units ashore: a landing ship offloads on a
// coast or in a port, other ships in a port the side controls; offloading
// takes the ship's whole Movement Phase once there (Glossary Landing
// Ship), so the ship enters no hex that phase.
func (v *validator) shipUnload(m Move, ship *Unit, at Hex) {
	s := v.s
	t := s.Map.Terrain(at)
	switch {
	case t != Coastal && t != PortCity:
		v.add(m.Line, "Glossary Landing Ship", "%s can put units ashore only on a coastal or port hex, not at %s", ship.ID, at)
	case !s.Card(ship).Landing && !(t == PortCity && s.Control[at] == ship.Side):
		v.add(m.Line, "Glossary Landing Ship", "%s is no landing ship: it unloads only in a port you control", ship.ID)
	}
	for _, st := range m.Steps {
		if st.Act == ActEnter {
			v.add(m.Line, "Glossary Landing Ship", "offloading takes %s's whole Movement Phase once at the coast: no hex entered that phase", ship.ID)
			return
		}
	}
}

// navalDeploy checks a DEPLOY of a ship, or of a land unit aboard a ship
// deploying in the same orders (Table V.1).
func (v *validator) navalDeploy(d Deploy, u *Unit) {
	s, o := v.s, v.o
	if u.Arrives > 0 {
		v.add(d.Line, "V.6.3", "%s is held back by Table V.2: it arrives at the end of your turn %d", u.ID, u.Arrives)
		return
	}
	if d.On == "" {
		if !s.shipDeployable(u, d.Hex) {
			where := "within one hex of a port you control and not destroyed, on water"
			if s.Card(u).Ship == "large" {
				where = "at an empty sea hex on the map edge"
			}
			v.add(d.Line, "V.6", "%s: a %s ship deploys %s; not %s", u.ID, s.Card(u).Ship, where, d.Hex)
		}
		return
	}
	ship := s.Unit(o.Side, d.On)
	deploying := false
	aboard := 0
	for _, x := range o.Deploys {
		if x.Unit == d.On && x.On == "" {
			deploying = true
		}
		if x.On == d.On && x.Line <= d.Line {
			aboard++
		}
	}
	switch {
	case ship == nil || s.Card(ship).Kind != "ship" || ship.Staged <= 0 || !deploying:
		v.add(d.Line, "Table V.1", "%s ON %s: land units deploy aboard a ship of yours deploying this turn", u.ID, d.On)
	case !s.Card(u).Land():
		v.add(d.Line, "Table V.1", "%s: only land units deploy aboard ships", u.ID)
	case s.Card(u).Kind == "vehicle" && s.Card(ship).VehicleMaxCost > 0 && s.Card(u).Cost > s.Card(ship).VehicleMaxCost:
		v.add(d.Line, "Table V.1", "%s is too heavy for %s", u.ID, ship.ID)
	case aboard > s.Card(ship).Capacity:
		v.add(d.Line, "Table V.1", "%s is full (%d units)", ship.ID, s.Card(ship).Capacity)
	}
}

// deployNaval plays a ship's deployment or a land unit's boarding; it
// reports whether it handled the order. A large ship rolls Table V.2:
// held back, it arrives at the end of a later own turn with its cargo.
func (r *resolver) deployNaval(u *Unit, dp Deploy) bool {
	s := r.s
	switch {
	case dp.On != "":
		ship := s.Unit(r.side, dp.On)
		u.In, u.Role = ship.ID, "passenger"
		r.emit("deploy", "Table V.1", ship.Hex, r.side, "%s boards %s", u.ID, ship.ID)
		if ship.OnMap() {
			r.sail(u, ship.Hex)
		}
		return true
	case s.Card(u).Kind != "ship":
		return false
	}
	if !s.shipDeployable(u, dp.Hex) {
		r.emit("deploy", "V.6", dp.Hex, r.side, "%s cannot deploy at %s any more", u.ID, dp.Hex)
		return true
	}
	if s.Card(u).Ship == "large" {
		bands := r.r.ShipDelay
		v := r.roll(10, "deployment of "+u.ID, fmt.Sprintf("1-%d on time, %d/%d/%d late 1/2/3 turns", bands[0], bands[0]+1, bands[0]+2, bands[0]+3))
		if late := v - bands[0]; late > 0 {
			u.Hex, u.Arrives = dp.Hex, r.own+late
			r.emit("deploy", "Table V.2", dp.Hex, r.side, "%s is requested for %s: d10=%d -> delayed %d turn(s), arrives at the end of %s's turn %d", u.ID, dp.Hex, v, late, r.side, u.Arrives)
			return true
		}
		r.emit("deploy", "Table V.2", dp.Hex, r.side, "%s is requested for %s: d10=%d -> on time", u.ID, dp.Hex, v)
	}
	r.sail(u, dp.Hex)
	r.emit("deploy", "V.6", dp.Hex, r.side, "%s deploys at %s", u.ID, dp.Hex)
	return true
}

// sail puts a staged unit and everything it carries on the map at h.
func (r *resolver) sail(u *Unit, h Hex) {
	u.Staged, u.Arrives, u.Hex = 0, 0, h
	for _, c := range r.s.Units {
		if c.Side == u.Side && c.In == u.ID {
			r.sail(c, h)
		}
	}
}

// shipArrivals brings in the large ships held back by Table V.2 whose turn
// has come, at their edge hex if it is still empty, else a turn later.
func (r *resolver) shipArrivals() {
	s := r.s
	for _, u := range s.Units {
		if u.Side != r.side || u.Arrives == 0 || u.Arrives > r.own {
			continue
		}
		if !s.edgeSea(u.Hex) {
			u.Arrives = r.own + 1
			r.emit("deploy", "Table V.1", u.Hex, r.side, "%s cannot arrive at %s, not an empty edge sea hex: a turn later", u.ID, u.Hex)
			continue
		}
		r.sail(u, u.Hex)
		r.emit("deploy", "V.6.3", u.Hex, r.side, "%s arrives at %s", u.ID, u.Hex)
	}
}

// navalCommand: a naval unit is inside the command network only within
// a flagship's radius, a flagship always (§IV.1.2 note); flagships
// command naval units only.
func (s *State) navalCommand(u *Unit) bool {
	if s.Card(u).Radius > 0 {
		return true
	}
	for _, f := range s.Units {
		fc := s.Card(f)
		if f.Side != u.Side || !f.OnMap() || fc.Kind != "ship" || fc.Radius == 0 {
			continue
		}
		rad := fc.Radius
		if f.Damaged {
			rad = fc.RadiusDamaged
		}
		if Distance(f.Hex, u.Hex) <= rad {
			return true
		}
	}
	return false
}

// lostAtSea: the crew and passengers of a unit destroyed over or on a sea
// hex have no ground to come down on and are lost with it (the book has
// no rescue at sea). It reports whether c was lost.
func (r *resolver) lostAtSea(u, c, by *Unit) bool {
	if r.s.Map.Terrain(u.Hex) != Sea {
		return false
	}
	c.In, c.Role = "", ""
	r.emit("survival", "III.3.1", u.Hex, "", "%s of %s is lost at sea", c.ID, u.ID)
	r.destroy(c, by)
	return true
}

// wasUnloaded: a passenger put down in this Movement Phase fights as any
// unit in the hex where it was unloaded (troops landed from a ship attack
// the beach they landed on).
func (v *validator) wasUnloaded(id string) bool {
	_, ok := v.unloaded[id]
	return ok
}
