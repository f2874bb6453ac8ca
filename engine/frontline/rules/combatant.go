package rules

// Defense is a unit's Defense now (Inset III.1): the damaged side, dug in
// +2 and a city +1 for infantry (Glossary Dig In, Inset VII.1).
func (s *State) Defense(u *Unit) int {
	c := s.Card(u)
	// A passenger in an open-top carrier is shot at through the carrier's
	// Defense if it has one (§VI.3); tank riders have only their own.
	if u.Role == "passenger" {
		if carrier := s.Unit(u.Side, u.In); carrier != nil && s.openCarrier(s.Card(carrier)) {
			if cd := s.Defense(carrier); cd > 0 {
				return cd
			}
		}
	}
	d := c.Defense
	if u.Damaged {
		if c.Damaged.Defense != nil {
			d = *c.Damaged.Defense
		} else if d >= s.lib.Rules.DamagedDefenseLossFrom {
			d--
		}
	}
	if c.Kind == "infantry" {
		if u.DugIn {
			d += s.lib.Rules.DigInDefense
		}
		if s.Map.City(u.Hex) {
			d += s.lib.Rules.CityDefense
		}
	}
	return d
}

// targetType: grounded aircraft are vehicle targets (§VI.7.1).
func (s *State) targetType(u *Unit) byte {
	c := s.Card(u)
	if c.Kind == "aircraft" && !u.Aloft {
		return 'V'
	}
	return c.TargetType()
}

// CanAffect reports whether weapon w of unit a may fire at t: range, the
// target types allowed, bullets against armour (§VI.7.2, reading 6), heavy
// weapons for airfields (§VII.5).
func (s *State) CanAffect(a *Unit, w Weapon, t *Unit) bool {
	if Distance(a.Hex, t.Hex) > w.Range || !w.Allows(s.targetType(t)) {
		return false
	}
	tc := s.Card(t)
	if w.Bullet && w.AP == 0 && tc.Kind != "infantry" && s.Defense(t) >= 2 {
		return false
	}
	if tc.Structure == "airfield" && !w.Heavy {
		return false
	}
	if (tc.Structure == "bridge" && w.Bullet) || s.emplacementShields(a, t) {
		return false
	}
	return true
}

// exposed: a unit carried that can be shot at directly: a passenger aboard
// an open-top carrier or riding a tank (§VI.3, §VI.3.4), or the crew of an
// aircraft on the ground (§VII.5.4).
func (s *State) exposed(u *Unit) bool {
	carrier := s.Unit(u.Side, u.In)
	if carrier == nil {
		return false
	}
	if u.Role == "crew" {
		return s.groundCrew(u)
	}
	c := s.Card(carrier)
	return u.Role == "passenger" && (s.openCarrier(c) || s.TakesRiders(c))
}

// groundCrew: "When on the ground, pilots and crews are considered to be
// separate from their aircraft and are treated as Infantry" (§VII.5.4).
func (s *State) groundCrew(u *Unit) bool {
	a := s.Unit(u.Side, u.In)
	return u.Role == "crew" && a != nil && s.Card(a).Kind == "aircraft" && !a.Aloft
}

// openCarrier: a transport with Open Top/Back: its passengers are exposed
// and fight from it (Glossary Open Top/Back, §VI.3).
func (s *State) openCarrier(c *Card) bool { return c.OpenTop && c.Transport > 0 }

// TakesRiders: "medium or larger Tanks, defined as a Cost of 10 Currency
// or greater" carry infantry riding on top (§VI.3.4); a transport carries
// passengers instead.
func (s *State) TakesRiders(c *Card) bool {
	return c.Kind == "vehicle" && c.Requires == "tank" && c.Transport == 0 && c.Cost >= s.lib.Rules.RidersMinCost
}

// munitionsSpent: a gun that fired for effect, out of munitions until its
// side's next Supply Phase is completed (Inset VI.6). Aircraft keep Spent
// for their bombs alone, until they land (§VI.7.4).
func (s *State) munitionsSpent(u *Unit) bool {
	return u.Spent && s.Card(u).Kind != "aircraft"
}

// firesAboard: a passenger of an open-top carrier, a "fighting platform":
// "Any Units within this Unit may attack enemies while embarked without
// penalty" (Glossary Open Top/Back). Tank riders are not so (§VI.3.4).
func (s *State) firesAboard(u *Unit) bool {
	if u.Role != "passenger" {
		return false
	}
	carrier := s.Unit(u.Side, u.In)
	return carrier != nil && s.openCarrier(s.Card(carrier))
}

// carriesRiders: a tank with infantry riding on it cannot use its primary
// weapon (§VI.3.4).
func (s *State) carriesRiders(u *Unit) bool {
	if !s.TakesRiders(s.Card(u)) {
		return false
	}
	for _, x := range s.cargo(u) {
		if x.Role == "passenger" {
			return true
		}
	}
	return false
}

// crewed: a unit that needs a crew fires only with one aboard.
func (s *State) crewed(u *Unit) bool {
	c := s.Card(u)
	if c.Requires == "" {
		return true
	}
	for _, x := range s.cargo(u) {
		if x.Role == "crew" {
			return true
		}
	}
	return false
}

func (s *State) crewOf(u *Unit) *Unit {
	for _, x := range s.cargo(u) {
		if x.Role == "crew" {
			return x
		}
	}
	return nil
}

// InCommand reports whether u stands inside its side's command network
// (Inset IV.1), as the map marks it.
func (s *State) InCommand(u *Unit) bool { return s.commanded(u) }

// commanded: inside a friendly FHQ or CP radius (Inset IV.1); aircraft
// are exempt.
func (s *State) commanded(u *Unit) bool {
	if s.Card(u).Kind == "aircraft" {
		return true
	}
	if s.Card(u).Kind == "ship" {
		return s.navalCommand(u)
	}
	for _, c := range s.Units {
		cc := s.Card(c)
		if c.Side != u.Side || !c.OnMap() || cc.Radius == 0 || cc.Kind == "ship" || !s.working(c) {
			continue
		}
		rad := cc.Radius
		if c.Damaged {
			rad = cc.RadiusDamaged
		}
		if Distance(c.Hex, u.Hex) <= rad {
			return true
		}
	}
	return false
}
