package rules

import "fmt"

// Engineered bridges and emplacements (§VI.5.3, §VII.4, Glossary
// Emplacement) are built like obstacles: BUILD in a Production Phase by
// an engineer squad standing in the hex, paid with the purchases, staged
// there and complete at the next Deployment Phase, the engineer idle
// meanwhile. An engineered bridge (EBR) is a unit standing in the hex it
// was built from, spanning the river to Across: intact it carries
// everything with no river check; damaged, infantry only (its card's
// OnDamage); shot at as a vehicle by weapons larger than 15 mm (no
// bullets, §VII.4.4); blown by engineers on Table VI.2. An emplacement
// (PILLBOX) shields the one infantry unit that OCCUPYs it: while it stands
// only infantry may shoot at infantry inside (reading 20); the rest must
// destroy the emplacement first. Engineers clear it on Table VI.2.

// engineeredBridge finds the deployed engineered bridge across hs.
func (s *State) engineeredBridge(hs Side2) *Unit {
	for _, u := range s.Units {
		if u.OnMap() && s.Card(u).Structure == "bridge" && !u.Across.IsZero() && hexside(u.Hex, u.Across) == hs {
			return u
		}
	}
	return nil
}

// bridgeCarries: an engineered bridge across hs takes u over the river;
// a damaged one carries infantry only.
func (s *State) bridgeCarries(u *Unit, hs Side2) bool {
	b := s.engineeredBridge(hs)
	return b != nil && (!b.Damaged || s.Card(u).Kind == "infantry")
}

// shielded: t is inside a standing emplacement of its side.
func (s *State) shielded(t *Unit) bool {
	if t.Within == "" {
		return false
	}
	e := s.Unit(t.Side, t.Within)
	return e != nil && e.OnMap() && e.Hex == t.Hex && s.Card(e).Structure == "emplacement"
}

// emplacementShields: a's weapons cannot reach t inside an emplacement,
// unless infantry shoots at infantry (Glossary Emplacement, reading 20).
func (s *State) emplacementShields(a, t *Unit) bool {
	return s.shielded(t) && !(s.Card(a).Kind == "infantry" && s.Card(t).Kind == "infantry")
}

// occupants counts the units inside an emplacement.
func (s *State) occupants(e *Unit) int {
	n := 0
	for _, u := range s.Units {
		if u.Side == e.Side && u.Within == e.ID && u.OnMap() && u.Hex == e.Hex {
			n++
		}
	}
	return n
}

// occupy puts u inside an emplacement of its hex (Glossary Emplacement).
func (r *resolver) occupy(u *Unit, id string) {
	s := r.s
	e := s.Unit(u.Side, id)
	if e == nil || !e.OnMap() || e.Hex != u.Hex || s.occupants(e) >= r.r.EmplacementCapacity {
		r.emit("move", "Glossary Emplacement", u.Hex, r.side, "%s cannot occupy %s now", u.ID, id)
		return
	}
	u.Within, u.DugIn = id, false
	r.moved[u.Key()] = true
	r.emit("move", "Glossary Emplacement", u.Hex, r.visibility(), "%s occupies %s: shielded while it stands; only infantry may shoot at it", u.ID, id)
}

// detonateEngineered: an engineer blows an engineered bridge from either
// end (Table VI.2, Inset VI.3).
func (r *resolver) detonateEngineered(u *Unit, ebr *Unit) {
	hs := hexside(ebr.Hex, ebr.Across)
	r.engineerTry(u, "bridge "+ebr.Key(), r.r.DetonateEngineeredBridge, ebr.Hex, func() {
		r.remove(ebr)
	}, fmt.Sprintf("blows the engineered bridge %s (%s)", ebr.ID, hs))
}

// worksSite checks where an engineered bridge or an emplacement may be
// built (§VI.5.3, §VII.4.3).
func (v *validator) worksSite(b Build, c *Card) {
	s := v.s
	switch c.Structure {
	case "bridge":
		hs := hexside(b.Hex, b.Across)
		switch {
		case b.Across.IsZero() || Distance(b.Hex, b.Across) != 1:
			v.add(b.Line, "VII.4.3", "BUILD %s AT from-to: a bridge spans the river between two neighbouring hexes, the engineer in the first", b.Code)
		case !s.Map.River(b.Hex, b.Across):
			v.add(b.Line, "VII.4.3", "BUILD %s AT %s: no river between %s and %s", b.Code, hs, b.Hex, b.Across)
		case s.Bridges[hs] == "intact" || s.engineeredBridge(hs) != nil:
			v.add(b.Line, "VII.4.3", "BUILD %s AT %s: a bridge already stands there", b.Code, hs)
		}
		for _, x := range s.Units {
			if x.Side == v.o.Side && x.Staged > 0 && s.Card(x).Structure == "bridge" && !x.Across.IsZero() && hexside(x.Hex, x.Across) == hs {
				v.add(b.Line, "VII.4.3", "BUILD %s AT %s: %s is already being built there", b.Code, hs, x.ID)
			}
		}
	default:
		if !b.Across.IsZero() {
			v.add(b.Line, "VI.5.3", "BUILD %s AT hex: only a bridge spans two hexes", b.Code)
		}
	}
}

// occupyCheck: OCCUPY names an own emplacement standing in the unit's hex
// with room, for an infantry unit, as its last step (Glossary Emplacement).
func (v *validator) occupyCheck(line int, u *Unit, at Hex, id string, last bool) {
	s := v.s
	e := s.Unit(v.o.Side, id)
	switch {
	case s.Card(u).Kind != "infantry":
		v.add(line, "Glossary Emplacement", "%s: only infantry occupies an emplacement", u.ID)
	case e == nil || !e.OnMap() || s.Card(e).Structure != "emplacement" || e.Hex != at:
		v.add(line, "Glossary Emplacement", "OCCUPY %s: no emplacement of yours standing in %s", id, at)
	case s.occupants(e) >= s.lib.Rules.EmplacementCapacity && u.Within != e.ID:
		v.add(line, "Glossary Emplacement", "OCCUPY %s: it holds one squad and is full", id)
	case !last:
		v.add(line, "Glossary Emplacement", "OCCUPY %s: a unit occupies an emplacement after moving, as its last step", id)
	}
}
