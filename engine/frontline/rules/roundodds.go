package rules

// Shot is one weapon of an attacker firing at a target in a round: all its
// shots (Double and Triple Fire), AP unless he.
type Shot struct {
	By *Unit
	W  Weapon
	HE bool
}

// RoundOdds are the exact chances of what a round of shots does to one
// target, from the card numbers and the rules' dice (Inset V.6 steps 5-7,
// Inset VI.5): a natural 1 misses and ends the weapon's fire, a 20
// destroys outright, a 19 doubles the intensity; net damage adds up
// within the round, the target damaged at its breakpoint and destroyed at
// 0 endurance.
type RoundOdds struct {
	// Destroyed, Damaged and Holds add up to 1: Damaged is flipped to its
	// damaged side this round, Holds is neither (a unit already damaged
	// holds or is destroyed).
	Destroyed, Damaged, Holds float64
	// Hits is the expected number of hits, NetDamage the expected net
	// damage taken from the endurance (a natural 20's outright kill
	// counts the endurance it had left).
	Hits, NetDamage float64
}

// ExactRoundOdds computes RoundOdds of shots fired at t in order, the
// units standing as they are now: fire missions, smoke and the damage a
// pierced vehicle's crew takes are not counted.
func (s *State) ExactRoundOdds(shots []Shot, t *Unit) RoundOdds {
	c := s.Card(t)
	base := c.Endurance
	if t.Damaged {
		base = c.Breakpoint
	}
	// dist[d] is the chance of d net damage so far (d < base); the rest
	// of the chance is the target destroyed.
	dist := make([]float64, base)
	dist[0] = 1
	var odds RoundOdds
	def := s.Defense(t)
	for _, sh := range shots {
		need := s.Need(sh.By, sh.W, 0)
		exploit := s.experienceHolder(sh.By).stars("exploit-weakness")
		pierce := 0.0
		if sh.W.AP > 0 && def > 0 && !sh.HE {
			pierce = float64(min(sh.W.AP, 10)) / 10
			if sh.W.AP <= def {
				pierce *= float64(10-min(def, 10)) / 10
			}
		}
		// firing[d]: the weapon still fires, d damage so far.
		firing := dist
		stopped := make([]float64, base)
		for range sh.W.Shots() {
			next := make([]float64, base)
			for d, p := range firing {
				if p == 0 {
					continue
				}
				stopped[d] += p / 20 // a natural 1: its fire ends
				for v := 2; v <= 19; v++ {
					if v < need {
						next[d] += p / 20
						continue
					}
					odds.Hits += p / 20
					mult := 1
					if v == 19 {
						mult = 2
					}
					for in := 1; in <= 10; in++ {
						raw := (in+exploit)*mult + sh.W.DI
						for _, pc := range []struct {
							p   float64
							def int
						}{{pierce, 0}, {1 - pierce, def}} {
							if pc.p == 0 {
								continue
							}
							q := p / 20 / 10 * pc.p
							net := max(raw-pc.def, 0)
							odds.NetDamage += q * float64(min(net, base-d))
							if d+net < base {
								next[d+net] += q
							}
						}
					}
				}
				odds.Hits += p / 20 // a natural 20 destroys outright
				odds.NetDamage += p / 20 * float64(base-d)
			}
			firing = next
		}
		for d := range dist {
			dist[d] = firing[d] + stopped[d]
		}
	}
	flip := c.Endurance - c.Breakpoint // damage that flips a fresh unit
	for d, p := range dist {
		if !t.Damaged && d >= flip {
			odds.Damaged += p
		} else {
			odds.Holds += p
		}
	}
	odds.Destroyed = max(0, 1-odds.Damaged-odds.Holds)
	return odds
}

// RoundShots are the weapons a fires at t in a round of an engagement, as
// the volley picks them (Inset V.6 step 4): each weapon that can affect
// t, one secondary at most, no primary while it carries riders. at is
// where a fires from (where its move ends); he says it fires HE.
func (s *State) RoundShots(a *Unit, at Hex, t *Unit, he bool) []Shot {
	from := *a
	from.Hex = at
	var shots []Shot
	secondary := false
	for _, w := range s.Card(a).Weapons {
		if w.Slot == "S" && secondary || w.Slot == "P" && s.carriesRiders(a) || !s.CanAffect(&from, w, t) {
			continue
		}
		secondary = secondary || w.Slot == "S"
		shots = append(shots, Shot{By: a, W: w, HE: he})
	}
	return shots
}
