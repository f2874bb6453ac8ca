package rules

// moves checks the Movement Phase. Units idled by the last turn's supply
// deficit are not refused: the Supply Phase before it supplies them again,
// since "the same Units MAY NOT be selected for the Supply Deficit two
// Operational Turns in a row" (§V.3.2, Example V.1: idle "until they are
// re-supplied, which must occur the following Operational Turn"); units
// this turn's deficit idles lose their orders when played.
func (v *validator) moves() {
	s, o := v.s, v.o
	p := s.Player(o.Side)
	loaded := map[string]string{}
	manned := map[string]bool{}
	pushed := 0
	for _, m := range o.Moves {
		u := v.own(m.Line, m.Unit, "MOVE")
		if u == nil {
			continue
		}
		c := s.Card(u)
		if v.mover[u.ID] {
			v.add(m.Line, "V.4", "%s has two move orders", u.ID)
			continue
		}
		v.mover[u.ID] = true
		switch {
		case !u.OnMap():
			v.add(m.Line, "V.6", "%s is not deployed", u.ID)
			continue
		case u.In != "" && loaded[u.ID] == "":
			v.add(m.Line, "VI.3", "%s is carried by %s and cannot move itself", u.ID, u.In)
			continue
		case u.Building != "":
			v.add(m.Line, "Inset VI.2", "%s is building %s and stays idle in its hex", u.ID, u.Building)
			continue
		case u.Repairing != 0:
			v.add(m.Line, "reading 23", "%s is still being repaired (put back by fighting) and stays idle", u.ID)
		case u.Captured && !s.crewed(u):
			v.add(m.Line, "VI.1.2", "captured %s needs a crew of yours (MAN) before it moves", u.ID)
			continue
		case u.SkipMove != 0 && u.SkipMove == p.OwnTurn:
			v.add(m.Line, "IV.3.5", "%s was pushed last turn and skips this Movement Phase", u.ID)
			continue
		}
		if m.Push {
			pushed++
			switch {
			case !s.Options.Cards || countCard(p.Hand, "Push") < pushed:
				v.add(m.Line, "IV.3.5", "PUSH: no Push card left in your hand")
			case c.Kind != "infantry" && u.Damaged:
				v.add(m.Line, "IV.3.5", "PUSH: never for a damaged mechanised unit (vehicles, tanks, aircraft, ships)")
			case u.PushTurn != 0 && p.OwnTurn-u.PushTurn < s.lib.Rules.PushInterval:
				v.add(m.Line, "IV.3.5", "PUSH: %s was pushed in your turn %d; once per %d Movement Phases", u.ID, u.PushTurn, s.lib.Rules.PushInterval)
			case !s.hasFHQ(o.Side) || !s.commanded(u) || s.modifier("signals-breakdown", o.Side):
				v.add(m.Line, "IV.3", "PUSH: %s is outside the command network (or no FHQ, or Signals Breakdown)", u.ID)
			}
		}
		if c.Kind == "aircraft" && !groundRepair(m, u) {
			v.sortie(m, u)
			continue
		}
		at := u.Hex
		steps, clearing := 0, 0
		allowance := s.Movement(u, m.Push)
		for _, st := range m.Steps {
			if st.Act == ActClear || st.Act == ActDetonate {
				clearing++
				if clearing == 2 {
					v.add(m.Line, "VI.5.4", "%s: a single Combat Engineer Squad clears or detonates a single obstacle in a Movement Phase", u.ID)
				}
			}
			switch st.Act {
			case ActEnter:
				if c.Move == 0 && u.In == "" {
					v.add(m.Line, "V.4", "%s has Movement 0: it is towed or stays", u.ID)
					break
				}
				if Distance(at, st.Hex) != 1 {
					v.add(m.Line, "V.4", "%s: %s is not next to %s", u.ID, st.Hex, at)
					break
				}
				switch t := s.Map.Terrain(st.Hex); {
				case c.Kind == "ship":
					v.shipEnter(m, u, st.Hex)
				case !s.Map.On(st.Hex):
					v.add(m.Line, "III.3", "%s: %s is off the map", u.ID, st.Hex)
				case t == Sea:
					v.add(m.Line, "III.3.1", "%s: %s is sea, for ships and landings only", u.ID, st.Hex)
				case t == Impassable:
					v.add(m.Line, "III.3.1", "%s: %s is impassable mountain", u.ID, st.Hex)
				case t == Swamp && c.Kind == "vehicle" && !s.Map.Road(at, st.Hex):
					v.add(m.Line, "III.3.1", "%s: vehicles enter swamp %s only along a road", u.ID, st.Hex)
				}
				steps++
				at = st.Hex
			case ActDig:
				if !c.DigIn {
					v.add(m.Line, "VI.2.4", "%s cannot dig in", u.ID)
				} else if len(m.Steps) != 1 {
					v.add(m.Line, "VI.2.4", "DIG takes %s's whole Movement Phase (idle): no other step", u.ID)
				} else if u.DugIn {
					v.add(m.Line, "VI.2.4", "%s is already dug in", u.ID)
				} else if s.shielded(u) {
					v.add(m.Line, "Glossary Emplacement", "%s occupies %s and may not dig in there", u.ID, u.Within)
				}
			case ActOccupy:
				v.occupyCheck(m.Line, u, at, st.Unit, st == m.Steps[len(m.Steps)-1])
			case ActRecon:
				if !c.Recon {
					v.add(m.Line, "VI.6", "%s has no Reconnaissance", u.ID)
				} else if Distance(at, st.Hex) > 1 {
					v.add(m.Line, "VI.6", "RECON %s: more than one hex from %s", st.Hex, at)
				} else if v.recon[u.ID] {
					v.add(m.Line, "VI.6", "%s reconnoitres once per Movement Phase", u.ID)
				}
				v.recon[u.ID] = true
			case ActLoad:
				q := v.own(m.Line, st.Unit, "LOAD")
				if q == nil {
					break
				}
				qc := s.Card(q)
				n := 0
				for _, x := range s.cargo(u) {
					if x.Role == "passenger" {
						n++
					}
				}
				for _, w := range loaded {
					if w == u.ID {
						n++
					}
				}
				switch {
				case c.Kind == "ship":
					v.shipLoad(m, u, q, at, n)
				case c.Transport == 0 && !(s.TakesRiders(c) && qc.Kind == "infantry"):
					v.add(m.Line, "VI.3", "%s carries no passengers", u.ID)
				case qc.Kind != "infantry" || (c.TeamsOnly && !qc.Team):
					v.add(m.Line, "VI.3", "%s cannot carry %s", u.ID, q.ID)
				case n >= max(c.Transport, 1):
					v.add(m.Line, "VI.3", "%s is full", u.ID)
				case q.Hex != at || q.In != "" || !q.OnMap():
					v.add(m.Line, "VI.3", "LOAD %s: it is not free in %s", q.ID, at)
				case v.mover[q.ID]:
					v.add(m.Line, "VI.3", "LOAD %s: it moved itself this phase", q.ID)
				}
				loaded[q.ID] = u.ID
				v.mover[q.ID] = true
			case ActUnload:
				q := s.Unit(o.Side, st.Unit)
				if q == nil || (q.In != u.ID && loaded[q.ID] != u.ID) || q.Role == "crew" {
					v.add(m.Line, "VI.3", "UNLOAD %s: %s does not carry it", st.Unit, u.ID)
				}
				if c.Kind == "ship" {
					v.shipUnload(m, u, at)
				}
				delete(loaded, st.Unit)
				v.unloaded[st.Unit] = at
			case ActHitch, ActUnhitch:
				g := v.own(m.Line, st.Unit, st.Act)
				if g == nil {
					break
				}
				gc := s.Card(g)
				if len(m.Steps) != 1 {
					v.add(m.Line, "VI.3.5", "%s takes %s's whole Movement Phase (idle)", st.Act, u.ID)
				}
				if st.Act == ActHitch {
					switch {
					case gc.Towed == "" || c.Tow == "":
						v.add(m.Line, "VI.3.5", "%s cannot tow %s", u.ID, g.ID)
					case towSize(gc.Towed) > towSize(c.Tow):
						v.add(m.Line, "VI.3.5", "%s's tow capacity %s is too small for %s (%s)", u.ID, c.Tow, g.ID, gc.Towed)
					case g.Hex != u.Hex || g.In != "":
						v.add(m.Line, "VI.3.5", "%s is not free in %s's hex", g.ID, u.ID)
					case s.towing(u) != nil:
						v.add(m.Line, "VI.3.5", "%s already tows a gun", u.ID)
					}
				} else if g.In != u.ID || g.Role != "towed" {
					v.add(m.Line, "VI.3.5", "%s does not tow %s", u.ID, g.ID)
				}
			case ActDetonate:
				hs := hexside(at, st.Hex)
				if !c.Engineer {
					v.add(m.Line, "VI.5", "%s is not a combat engineer", u.ID)
				} else if st.Hex == at {
					v.portDetonateCheck(m.Line, u, at, st.Hex)
				} else if Distance(at, st.Hex) != 1 || (s.Bridges[hs] != "intact" && s.engineeredBridge(hs) == nil) {
					v.add(m.Line, "VII.4", "DETONATE %s: no intact bridge between %s and %s", st.Hex, at, st.Hex)
				}
			case ActClear:
				if !c.Engineer {
					v.add(m.Line, "VI.5", "%s is not a combat engineer", u.ID)
				}
			case ActRepair:
				switch {
				case len(m.Steps) != 1:
					v.add(m.Line, "VI.4", "REPAIR takes %s's whole turn (idle): no other step", u.ID)
				case !u.Damaged:
					v.add(m.Line, "VI.4", "%s is not damaged", u.ID)
				case c.Kind == "infantry":
					v.add(m.Line, "VI.4", "infantry is not repaired but merged: MERGE with an identical damaged unit")
				case !v.repairable(u):
					v.add(m.Line, "VI.4", "%s can be repaired only at a friendly CP or FHQ standing this turn, not one taken down by RELOCATE (aircraft at a friendly airfield)", u.ID)
				}
			case ActMerge:
				q := s.Unit(o.Side, st.Unit)
				switch {
				case len(m.Steps) != 1:
					v.add(m.Line, "VI.4", "MERGE takes %s's whole turn (idle): no other step", u.ID)
				case q == nil || q == u || q.Code != u.Code || c.Kind != "infantry":
					v.add(m.Line, "VI.4", "MERGE %s: two identical infantry units merge", st.Unit)
				case !u.Damaged || !q.Damaged || q.Hex != u.Hex || !q.OnMap() || q.In != "":
					v.add(m.Line, "VI.4", "MERGE %s: both must be damaged and together in %s", st.Unit, u.Hex)
				case v.mover[q.ID]:
					v.add(m.Line, "VI.4", "MERGE %s: it moves this phase", st.Unit)
				}
				v.mover[st.Unit] = true
			case ActMan:
				if last := m.Steps[len(m.Steps)-1]; last.Act != ActMan || last.Unit != st.Unit {
					v.add(m.Line, "III.2.2", "MAN %s ends %s's move: no step after it", st.Unit, u.ID)
				}
				v.manCheck(m, u, at, st.Unit, manned)
			}
		}
		if steps > allowance {
			v.add(m.Line, "V.4", "%s moves %d hexes, its Movement is %d", u.ID, steps, allowance)
		}
		if m.HitAndRun {
			if !c.HitAndRun {
				v.add(m.Line, "Glossary Hit & Run", "%s has no Hit & Run", u.ID)
			} else if steps > allowance-1 {
				v.add(m.Line, "Glossary Hit & Run", "a Hit & Run unit moves at most one less than its Movement (%d)", allowance-1)
			}
		}
		v.dest[u.ID] = at
		for q, carrier := range loaded {
			if carrier == u.ID {
				v.dest[q] = at
			}
		}
		for _, x := range s.cargo(u) {
			v.dest[x.ID] = at
		}
		for q, h := range v.unloaded {
			v.dest[q] = h
		}
	}
	v.boarded = loaded
}

// repairable: a CP or FHQ of the side in the unit's hex, or for an
// aircraft a friendly airfield.
func (v *validator) repairable(u *Unit) bool {
	s := v.s
	if s.Card(u).Kind == "aircraft" {
		return s.repairField(u) != nil
	}
	for _, c := range s.UnitsAt(u.Hex) {
		if c.Side == u.Side && s.Card(c).Radius > 0 && !v.relocated(c) {
			return true
		}
	}
	return false
}

// groundRepair: a grounded aircraft's move that is only REPAIR stays on
// its airfield: no sortie (§VI.4.1).
func groundRepair(m Move, u *Unit) bool {
	return !u.Aloft && len(m.Steps) == 1 && m.Steps[0].Act == ActRepair
}

// repairField is the airfield a grounded aircraft is repaired at: "any
// controlled Airfield" (§VI.4.1), whoever built it (airfields are neutral
// structures, §VII.5).
func (s *State) repairField(u *Unit) *Unit {
	if u.Aloft || s.Control[u.Hex] != u.Side {
		return nil
	}
	return s.airfieldAt(u.Hex)
}

// relocated: a post this turn's RELOCATE takes down before the Movement
// Phase, so no repair begins at it.
func (v *validator) relocated(cp *Unit) bool {
	for _, rl := range v.o.Relocate {
		if rl.Post == cp.ID && cp.Side == v.o.Side {
			return true
		}
	}
	return false
}

// sortie checks an aircraft's flight (§VI.2.2-2.3, reading 19).
func (v *validator) sortie(m Move, u *Unit) {
	s := v.s
	if !u.Aloft {
		if s.modifier("low-cloud", u.Side) {
			v.add(m.Line, "design 2.2", "Low Cloud: no aircraft take off")
		}
		if s.airfieldAt(u.Hex) == nil {
			v.add(m.Line, "VI.2.2", "%s is not at an airfield", u.ID)
		}
	}
	at := u.Hex
	n := 0
	for _, st := range m.Steps {
		if st.Act != ActEnter {
			v.add(m.Line, "VI.2.2", "%s: aircraft fly a path of hexes only", u.ID)
			continue
		}
		if !s.Map.On(st.Hex) || Distance(at, st.Hex) != 1 {
			v.add(m.Line, "VI.2.2", "%s: %s is not next to %s on the map", u.ID, st.Hex, at)
		}
		at = st.Hex
		n++
	}
	tof := u.TOF
	if !u.Aloft {
		tof = s.Card(u).TOF
	}
	allow := s.Movement(u, m.Push)
	if !m.Land.IsZero() {
		if s.airfieldAt(m.Land) == nil {
			v.add(m.Line, "VI.2.2", "%s: LAND %s: no airfield there", u.ID, m.Land)
		}
		n += Distance(at, m.Land)
	} else if tof <= 1 {
		v.add(m.Line, "VI.2.3", "%s has one turn of flight: its sortie must end on a friendly airfield (LAND hex)", u.ID)
	}
	if n > allow {
		v.add(m.Line, "VI.2.2", "%s flies %d hexes out and home, its Movement is %d", u.ID, n, allow)
	}
	v.dest[u.ID] = at
}
