package rules

// board answers the rules' questions about a position: who is where, zones
// of control, command range, terrain and line of sight. It keeps an index of
// the hexes held and must be told of every move and removal.
type board struct {
	rs  *Ruleset
	st  *State
	occ map[Hex]occupant
}

// occupant is the core stand in a hex: a unit's stand or a battery.
type occupant struct {
	unit    *Unit
	stand   *Stand
	battery *Battery
}

func (o occupant) empty() bool { return o.stand == nil && o.battery == nil }

func (o occupant) side() string {
	switch {
	case o.unit != nil:
		return o.unit.Side
	case o.battery != nil:
		return o.battery.Side
	}
	return ""
}

// name is how events refer to the occupant, e.g. "I/77 1A" or "2/26".
func (o occupant) name() string {
	if o.battery != nil {
		return o.battery.ID
	}
	if o.stand != nil {
		return o.unit.ID + " " + o.stand.Name
	}
	return ""
}

func (o occupant) hex() Hex {
	if o.battery != nil {
		return o.battery.Hex
	}
	return o.stand.Hex
}

func newBoard(rs *Ruleset, st *State) *board {
	b := &board{rs: rs, st: st, occ: map[Hex]occupant{}}
	for _, u := range st.Units {
		if u.Removed {
			continue
		}
		for _, s := range u.Stands {
			if _, taken := b.occ[s.Hex]; !taken {
				b.occ[s.Hex] = occupant{unit: u, stand: s}
			}
		}
	}
	for _, bt := range st.Batteries {
		if bt.Removed {
			continue
		}
		if _, taken := b.occ[bt.Hex]; !taken {
			b.occ[bt.Hex] = occupant{battery: bt}
		}
	}
	return b
}

func (b *board) at(h Hex) occupant { return b.occ[h] }

func (b *board) moveStand(u *Unit, s *Stand, to Hex) {
	if o := b.occ[s.Hex]; o.stand == s {
		delete(b.occ, s.Hex)
	}
	s.Hex = to
	b.occ[to] = occupant{unit: u, stand: s}
}

func (b *board) moveBattery(bt *Battery, to Hex) {
	if o := b.occ[bt.Hex]; o.battery == bt {
		delete(b.occ, bt.Hex)
	}
	bt.Hex = to
	b.occ[to] = occupant{battery: bt}
}

func (b *board) vacate(h Hex) { delete(b.occ, h) }

func (b *board) terrain(h Hex) *TerrainType {
	return b.rs.TerrainByLetter(b.st.Map.Letter(h))
}

// passable: on the map and not lake or sea.
func (b *board) passable(h Hex) bool {
	return b.st.Map.OnMap(h) && !b.terrain(h).Impassable
}

// inEnemyZOC reports whether h is adjacent to a stand of the side's enemy (2.4).
func (b *board) inEnemyZOC(h Hex, side string) bool {
	for _, n := range h.Neighbours() {
		if o, ok := b.occ[n]; ok && o.side() != side {
			return true
		}
	}
	return false
}

// nearestEnemy is the distance from h to the closest enemy core stand (99 if none).
func (b *board) nearestEnemy(h Hex, side string) int {
	best := 99
	for eh, o := range b.occ {
		if o.side() != side {
			best = min(best, Distance(h, eh))
		}
	}
	return best
}

// inCommand reports whether a stand is within command range of its HQ (1.1).
func (b *board) inCommand(u *Unit, s *Stand) bool {
	hq := u.HQ(b.rs)
	return hq != nil && Distance(hq.Hex, s.Hex) <= b.rs.CommandRange
}

// inCommandAt is inCommand for a stand imagined at h.
func (b *board) inCommandAt(u *Unit, h Hex) bool {
	hq := u.HQ(b.rs)
	return hq != nil && Distance(hq.Hex, h) <= b.rs.CommandRange
}

func (b *board) standType(s *Stand) StandType { return b.rs.StandTypes[s.Type] }

func (b *board) role(s *Stand) string { return b.rs.StandTypes[s.Type].Role }

// moveClass: a transport gives its movement to the stand it carries (2.1).
func (b *board) moveClass(s *Stand) string {
	if s.MoveClass != "" {
		return s.MoveClass
	}
	for _, p := range []*Platoon{s.Transport, s.Support} {
		if p != nil {
			if gm := b.rs.StandTypes[p.Type].GivesMove; gm != "" {
				return gm
			}
		}
	}
	return b.rs.StandTypes[s.Type].Move
}

func (b *board) allowance(s *Stand) MoveAllowance { return b.rs.Allowance(s) }

// Allowance is how far a stand moves (2): its normal move, and its
// strategic move beyond that.
func (rs *Ruleset) Allowance(s *Stand) MoveAllowance {
	return rs.Movement[(&board{rs: rs}).moveClass(s)]
}

// armoured: tanks, armoured infantry (by type or carried in armoured
// transport, 2.1), armoured artillery and armoured HQs (6).
func (b *board) armoured(s *Stand) bool {
	if s.Armoured || b.rs.StandTypes[s.Type].Armoured {
		return true
	}
	return s.Support != nil && b.rs.StandTypes[s.Support.Type].GivesArmour
}

// lineOfSight reports whether nothing blocks the view from a to b: blocking
// terrain always, and stands too when unitsBlock (distant fire, 3.3; not
// spotting, 5.2). Where the line runs along a hex side, it is clear if
// either side of it is.
func (b *board) lineOfSight(a, c Hex, unitsBlock bool) bool {
	left, right := Between(a, c)
	clear := func(line []Hex) bool {
		for _, h := range line {
			if !b.st.Map.OnMap(h) {
				continue
			}
			if b.terrain(h).BlocksLOS {
				return false
			}
			if unitsBlock && !b.occ[h].empty() {
				return false
			}
		}
		return true
	}
	return clear(left) || clear(right)
}

// unitOf finds the unit a stand belongs to.
func (b *board) unitOf(s *Stand) *Unit {
	if o := b.occ[s.Hex]; o.stand == s {
		return o.unit
	}
	for _, u := range b.st.Units {
		for _, us := range u.Stands {
			if us == s {
				return u
			}
		}
	}
	return nil
}
