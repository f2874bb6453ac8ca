package rules

// Landing among the enemy (§VII.5.1, §VI.1.2). Airfields are held by land
// units only, so no aircraft takes one by landing on it; an aircraft that
// lands on a field the enemy controls is captured with its pilot, and a
// pilot who bails out over a hex the enemy holds is captured as he lands.
// Airborne and air-landed troops are not in the rulebook (§V.6 note).

// landCaptured lands an aircraft on an enemy-controlled airfield: it and
// its pilot are captured by the field's controller, the aircraft kept or
// destroyed by the captor's CAPTURED policy (captured equipment).
func (r *resolver) landCaptured(u *Unit, h Hex) {
	s := r.s
	captor := s.Control[h]
	r.place(u, h)
	u.Aloft, u.TOF, u.Spent = false, 0, false
	r.emit("air", "VII.5.1", h, "", "%s lands at %s, an airfield %s controls: aircraft and crew are captured", u.ID, h, captor)
	r.capture(u, captor, r.r.CaptureScoreFactor, "VII.5.1")
}

// parachute: the surviving crew of an aircraft destroyed in flight comes
// down in the hex below; among enemy land units it is captured at once.
func (r *resolver) parachute(plane, crew *Unit) {
	s := r.s
	if s.Card(plane).Kind != "aircraft" || !plane.Aloft || !s.enemyLand(crew.Side, crew.Hex) {
		return
	}
	r.emit("captured", "VI.1.2", crew.Hex, "", "%s parachutes into %s, held by the enemy", crew.ID, crew.Hex)
	r.capture(crew, s.Enemy(crew.Side), r.r.CaptureScoreFactor, "VI.1.2")
}
