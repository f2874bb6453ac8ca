package rules

import (
	"fmt"
	"strings"
)

// initiative rolls once for the engagement (Inset V.6 step 3).
func (r *resolver) initiative(b *battle, e Engagement) {
	am, aw := r.initMods(b, b.att, e)
	dm, dw := r.initMods(b, b.def, e)
	var text []string
	for {
		a := r.roll(10, b.att+" initiative", "")
		d := r.roll(10, b.def+" initiative", "")
		text = append(text, fmt.Sprintf("%s d10=%d%s = %d; %s d10=%d%s = %d", b.att, a, aw, a+am, b.def, d, dw, d+dm))
		if a+am != d+dm {
			b.first = b.att
			if d+dm > a+am {
				b.first = b.def
			}
			break
		}
	}
	r.emit("initiative", "V.5", b.hex, "", "Initiative: %s -> %s fires first for the whole engagement", strings.Join(text, "; tie, re-roll: "), b.first)
}

// initMods sums one side's initiative modifiers, each kind counted once
// (reading 7), and says them in words.
//
// "The Active Player or Team is always considered the Attacker and the
// Passive Player or Team is always considered the Defender" (§V.5.5;
// Glossary Defender; §VI.7.1 for scrambles): in Defensive Combat, which
// the passive side starts, the attacker's modifiers and Stealthy still go
// to the active side (its +2 negated), and the defender's (Vigilant, the
// city, the command penalty) to the passive side.
func (r *resolver) initMods(b *battle, side string, e Engagement) (int, string) {
	attacker := side == r.side
	s := r.s
	mod := 0
	var words []string
	add := func(n int, why string) {
		mod += n
		words = append(words, fmt.Sprintf("%+d %s", n, why))
	}
	fs := b.fighters[side]
	outside, vehicleIntoCity := false, false
	// Stars of one kind are cumulative on a unit (§VIII.2.1); each kind
	// counts once for the engagement, from the unit that has most of it
	// (reading 7).
	stealthy, vigilant, veteran := 0, 0, 0
	for _, f := range fs {
		if !s.commanded(f.u) {
			outside = true
		}
		// "If a vehicle enters a Key City with intent to attack" (Inset
		// VII.1, VII.2): one that stood in the city before its Movement
		// Phase, or fires into it from outside, enters nothing.
		if s.Card(f.u).Kind == "vehicle" && s.Map.City(b.hex) && f.u.Hex == b.hex && r.entered(f.u) {
			vehicleIntoCity = true
		}
		x := s.experienceHolder(f.u)
		stealthy = max(stealthy, x.stars("stealthy"))
		vigilant = max(vigilant, x.stars("vigilant"))
		veteran = max(veteran, x.stars("veteran"))
	}
	if attacker {
		switch {
		case b.defensive:
		case outside:
			words = append(words, "no attack bonus: outside the command network")
		case vehicleIntoCity:
			words = append(words, "no attack bonus: a vehicle entering a city to attack")
		default:
			add(r.r.AttackInitiative, "attack")
		}
		if r.recon[b.hex] {
			add(r.r.ReconInitiative, "recon")
		}
		if _, ok := r.encircled[b.hex]; ok {
			add(r.r.EncircleInitiative, "encircle")
		}
		for _, f := range fs {
			if r.hitAndRun[f.u.Key()] {
				add(r.r.HitAndRunInitiative, "hit and run")
				break
			}
		}
		if stealthy > 0 {
			add(stealthy, "stealthy")
		}
	} else {
		if s.Map.City(b.hex) {
			add(r.r.CityInitiative, "city")
		}
		if outside {
			add(-r.r.OutsideCommandInitiative, "outside command")
		}
		if vigilant > 0 {
			add(vigilant, "vigilant")
		}
	}
	if veteran > 0 {
		add(veteran, "combat veteran")
	}
	if s.modifier("bold-leadership", side) {
		add(1, "Bold Leadership")
	}
	if s.Options.Momentum {
		if m := r.groupMomentum(b, side); m != 0 {
			add(m, "momentum")
		}
	}
	if len(words) == 0 {
		return mod, ""
	}
	return mod, " " + strings.Join(words, " ")
}

// entered: u moved into the hex it stands in during this Movement Phase.
func (r *resolver) entered(u *Unit) bool {
	p, ok := r.prevHex[u.Key()]
	return ok && p != u.Hex
}
