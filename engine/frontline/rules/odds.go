package rules

// Odds are the chances of one shot of weapon w of a at t, from the card
// numbers (for the echo and the bot): to hit, to pierce on a hit (AP), and
// to damage or destroy t with that shot alone.
type Odds struct {
	Need   int     // d20 roll needed
	Hit    float64 // P(hit), natural 20 and 1 included
	Pierce float64 // P(armour pierced | hit), 0 without AP
	Damage float64 // P(the shot alone damages or destroys t)
}

// ShotOdds computes Odds; ap says the weapon fires AP.
func (s *State) ShotOdds(a *Unit, w Weapon, t *Unit, ap bool) Odds {
	need := s.Need(a, w, 0)
	o := Odds{Need: need}
	faces := 0
	for v := 2; v <= 20; v++ {
		if v == 20 || v >= need {
			faces++
		}
	}
	o.Hit = float64(faces) / 20
	c := s.Card(t)
	def := s.Defense(t)
	threshold := c.Endurance - c.Breakpoint
	if t.Damaged {
		threshold = c.Breakpoint
	}
	if ap && w.AP > 0 && def > 0 {
		weapon := float64(min(w.AP, 10)) / 10
		if w.AP > def {
			o.Pierce = weapon
		} else {
			o.Pierce = weapon * (1 - float64(min(def, 10))/10)
		}
	}
	damaging := func(d int) float64 {
		n := 0
		for i := 1; i <= 10; i++ {
			if i+w.DI-d >= threshold {
				n++
			}
		}
		return float64(n) / 10
	}
	crit := 1.0 / 20 // a natural 20 destroys outright
	normal := o.Hit - crit
	if normal < 0 {
		normal = 0
	}
	o.Damage = crit + normal*(o.Pierce*damaging(0)+(1-o.Pierce)*damaging(def))
	return o
}
