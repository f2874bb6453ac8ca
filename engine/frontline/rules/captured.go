package rules

// Captured equipment (§VI.1.2, §III.1.2, Inset V.4): after a surrender the
// captor may use the enemy's vehicles, guns and aircraft, crewing them
// with its own crews and paying their supply once in use, or destroy them.
// Infantry and crews are removed; ships are scuttled.

// ActMan puts a loose crew into a vehicle, gun or aircraft that needs
// one and has none: `crew [hex…] MAN unit` (§III.2.2, §VI.1.2).
const ActMan = "MAN"

// seize hands a surrendered unit that is not infantry to the captor, as
// the captor's standing CAPTURED policy says: kept (the default), it is
// the captor's under a new id, uncrewed, and pays supply once in use;
// destroyed, it is removed with no score or experience for it. A ship is
// scuttled whatever the policy (§VI.1.2).
func (r *resolver) seize(u *Unit, captor, section string) {
	s := r.s
	h := u.Hex
	old := u.Key()
	switch {
	case s.Card(u).Kind == "ship":
		r.remove(u)
		r.emit("captured", "VI.1.2", h, "", "%s is scuttled: its crew removed, the ship lost", old)
		return
	case s.Player(captor).Standing.Captured == "destroy":
		r.remove(u)
		r.emit("captured", section, h, "", "%s destroys the captured %s (CAPTURED destroy)", captor, old)
		return
	}
	u.Side, u.ID = captor, s.nextID(captor, u.Code)
	u.Captured = true
	u.DugIn, u.Idle, u.Aloft, u.TOF, u.Found, u.Revealed, u.Surrounded = false, false, false, 0, false, false, 0
	u.Repairing, u.MergeWith, u.PushTurn, u.SkipMove, u.Stars = 0, "", 0, 0, nil
	u.Momentum = 0 // it joins no group of the captor's until it fights in one (§VIII.3)
	u.Hidden = s.Card(u).Hidden
	s.sortUnits()
	use := "in use at once: it pays supply"
	switch {
	case s.Card(u).NoSupply:
		use = "in use at once (no supply to pay)"
	case s.Card(u).Requires != "":
		use = "it needs a " + s.Card(u).Requires + " crew of " + captor + "'s (MAN) before it moves or fires, and pays supply from then"
	}
	r.emit("captured", section, h, "", "%s keeps the captured %s as %s; %s", captor, old, u.ID, use)
}

// inUse: captured equipment pays supply only once used (Inset V.4): with
// a crew aboard when it needs one.
func (s *State) inUse(u *Unit) bool {
	return !u.Captured || s.crewed(u)
}

// manCheck validates MAN on a crew's move line: a crew of the ability the
// unit requires, that unit its side's, uncrewed and where the crew stands.
func (v *validator) manCheck(m Move, u *Unit, at Hex, target string, manned map[string]bool) {
	s := v.s
	t := s.Unit(v.o.Side, target)
	switch {
	case t == nil:
		v.add(m.Line, "III.2.2", "MAN %s: no unit %s of yours", target, target)
	case s.Card(u).Crew == "" || s.Card(u).Crew != s.Card(t).Requires:
		v.add(m.Line, "III.2.2", "MAN %s: %s is not the %s crew it needs", target, u.ID, orNone(s.Card(t).Requires))
	case u.In != "":
		v.add(m.Line, "III.2.2", "MAN %s: %s is aboard %s", target, u.ID, u.In)
	case !t.OnMap() || t.Hex != at || t.In != "":
		v.add(m.Line, "III.2.2", "MAN %s: it is not free in %s where %s stands", target, at, u.ID)
	case s.crewed(t) || manned[t.ID]:
		v.add(m.Line, "III.2.2", "MAN %s: it has a crew", target)
	case v.mover[t.ID]:
		v.add(m.Line, "III.2.2", "MAN %s: it moves this phase; it is manned while it stands", target)
	}
	manned[target] = true
	v.mover[target] = true
}

// man puts the crew aboard: it travels with the unit from now on and
// keeps its experience (§VIII.2).
func (r *resolver) man(u *Unit, target string) {
	t := r.s.Unit(r.side, target)
	if t == nil || t.Hex != u.Hex || !t.OnMap() || r.s.crewed(t) {
		r.emit("move", "III.2.2", u.Hex, r.side, "%s cannot man %s any more", u.ID, target)
		return
	}
	u.In, u.Role, u.DugIn = t.ID, "crew", false
	r.moved[u.Key()] = true
	r.emit("move", "III.2.2", u.Hex, r.side, "%s mans %s", u.ID, t.ID)
}
