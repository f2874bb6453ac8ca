package rules

// Units destroyed in a fight, and the experience the survivors earn.

import (
	"fmt"
)

// destroy removes a unit: its crew and passengers roll for survival
// (Tables VI.3, VI.1), a towed gun is left in the hex, the destroyer's side
// scores the cost and, with experience, rolls for it (§VIII.2).
func (r *resolver) destroy(u *Unit, by *Unit) {
	s := r.s
	h := u.Hex
	for _, c := range s.cargo(u) {
		switch c.Role {
		case "towed":
			c.In, c.Role = "", ""
			continue
		}
		if r.lostAtSea(u, c, by) {
			continue
		}
		if s.groundCrew(c) {
			c.In, c.Role = "", ""
			c.Hex = h
			r.emit("survival", "VII.5.4", h, "", "%s was on the ground apart from %s: unhurt, placed in %s", c.ID, u.ID, h)
			continue
		}
		bands, section := r.r.CrewSurvival, "Table VI.3"
		if c.Role == "passenger" {
			bands, section = r.r.CarrierLoss, "Table VI.1"
		}
		v := r.roll(10, c.ID+" survival", fmt.Sprintf("1-%d destroyed, %d-%d damaged, %d+ intact", bands[0], bands[0]+1, bands[1], bands[1]+1))
		c.In, c.Role = "", ""
		c.Hex = h
		switch {
		case v <= bands[0]:
			r.emit("survival", section, h, "", "%s of %s: d10=%d -> destroyed", c.ID, u.ID, v)
			r.destroy(c, by)
		case v <= bands[1]:
			if c.Damaged {
				r.emit("survival", section, h, "", "%s of %s: d10=%d -> damaged again: destroyed", c.ID, u.ID, v)
				r.destroy(c, by)
			} else {
				c.Damaged = true
				r.emit("survival", section, h, "", "%s of %s: d10=%d -> damaged, placed in %s", c.ID, u.ID, v, h)
			}
		default:
			r.emit("survival", section, h, "", "%s of %s: d10=%d -> intact, placed in %s", c.ID, u.ID, v, h)
		}
		if c.OnMap() {
			r.parachute(u, c)
		}
	}
	r.remove(u)
	r.emit("destroyed", "V.6", h, "", "%s:%s destroyed", u.Side, u.ID)
	// Grounded aircraft die with their airfield (§VII.5).
	if s.Card(u).Structure == "airfield" {
		for _, a := range append([]*Unit(nil), s.UnitsAt(h)...) {
			if s.Card(a).Kind == "aircraft" && !a.Aloft && a.OnMap() {
				r.emit("destroyed", "VII.5", h, "", "%s:%s is lost with the airfield", a.Side, a.ID)
				r.destroy(a, by)
			}
		}
	}
	if by != nil && by.Side != u.Side {
		s.Player(by.Side).Score += r.destroyScore(u)
		if s.Options.Experience && s.Card(by).Kind != "obstacle" {
			r.earn(s.experienceHolder(by), "rolls for experience")
		}
	}
}

// destroyScore is what destroying (or capturing at cost) u scores (Table
// II.1): its cost, 50 for a command post or Forward HQ, and 5 for each of
// its experience stars.
func (r *resolver) destroyScore(u *Unit) int {
	c := r.s.Card(u)
	score := c.Cost
	if c.Kind == "structure" && c.Radius > 0 {
		score = r.r.ScoreCommandPost
	}
	return score + len(u.Stars)*r.r.ScoreStar
}

// experienceHolder: experience goes to the crew or infantry operating a
// unit, "not to the actual artillery piece, vehicle, tank, or aircraft"
// (§VIII.2); a unit with no crew card keeps its own.
func (s *State) experienceHolder(u *Unit) *Unit {
	if c := s.crewOf(u); c != nil {
		return c
	}
	return u
}

// earn gives a unit one chance to roll for experience at the end of the
// engagement (Inset VIII.2); a unit earns one roll an engagement.
func (r *resolver) earn(u *Unit, why string) {
	for _, e := range r.earned {
		if e.u == u {
			return
		}
	}
	r.earned = append(r.earned, earning{u: u, why: why})
}

// settleExperience rolls the experience earned in an engagement at its end
// (Inset VIII.2), one roll a unit. Example VI.3 gives each crew of the side
// that won (its enemies in the fight all gone, some destroyed) one roll,
// the crew that only damaged the Panzer as well as the one that destroyed
// it: they roll first, in the order they fought, then any other earner. A
// Cease Fire or a Conditional Surrender leaves no experience (§IV.3.1,
// §VI.1.1). b is nil for units destroyed outside an engagement.
func (r *resolver) settleExperience(b *battle) {
	s := r.s
	earned := r.earned
	r.earned = nil
	if !s.Options.Experience || (b != nil && b.noExperience) {
		return
	}
	var order []earning
	if b != nil {
		if w := r.battleWinner(b); w != "" && b.lost[s.Enemy(w)] > 0 {
			for _, f := range r.alive(b, w) {
				order = append(order, earning{u: s.experienceHolder(f.u), why: "rolls for experience"})
			}
		}
	}
	rolled := map[*Unit]bool{}
	for _, e := range append(order, earned...) {
		if rolled[e.u] || e.u.Staged != 0 || e.u.Hex.IsZero() {
			continue // one roll a unit; none for one lost before the end
		}
		rolled[e.u] = true
		r.emit("experience", "Inset VIII.2", e.u.Hex, "", "%s %s: %s", e.u.ID, e.why, r.experience(e.u))
	}
}

// remove takes a unit off the game; an engineer's unfinished
// construction goes with it (§VI.5.3).
func (r *resolver) remove(u *Unit) {
	s := r.s
	if u.Building != "" {
		if item := s.Unit(u.Side, u.Building); item != nil && item.Staged > 0 {
			u.Building = ""
			r.remove(item)
			r.emit("build", "VI.5.3", item.Hex, "", "%s's construction of %s is lost", u.ID, item.ID)
		}
	}
	for i, x := range s.Units {
		if x == u {
			s.Units = append(s.Units[:i], s.Units[i+1:]...)
			break
		}
	}
	u.Hex = Hex{}
	u.Staged = -1
}
