package rules

import (
	"fmt"
	"strconv"
)

// applyEvent plays a drawn event card on the drawer (§III.6, design 2.2).
func (r *resolver) applyEvent(e EventCard) {
	s := r.s
	switch e.Effect {
	case "currency":
		s.Player(r.side).Treasury += e.Count
		r.emit("event", "III.6", Hex{}, "", "%s: %s +%d, treasury %d", e.Name, r.side, e.Count, s.Player(r.side).Treasury)
	case "draw-card":
		if s.Options.Cards {
			r.drawCard()
		}
	case "damage-random", "restore-random":
		var pool []*Unit
		for _, u := range s.Units {
			if u.Side == r.side && u.OnMap() && s.Card(u).Kind == e.Kind && !u.Aloft && u.Damaged == (e.Effect == "restore-random") {
				pool = append(pool, u)
			}
		}
		if len(pool) == 0 {
			r.emit("event", "III.6", Hex{}, "", "%s: no %s unit it can affect", e.Name, e.Kind)
			return
		}
		u := pool[r.roll(len(pool), "random "+e.Kind+" unit", "")-1]
		u.Damaged = e.Effect == "damage-random"
		word := map[bool]string{true: "damaged", false: "restored"}[u.Damaged]
		r.emit("event", "III.6", u.Hex, "", "%s: %s %s", e.Name, u.ID, word)
	case "frontline-priority":
		var pool []*Unit
		for _, u := range s.Units {
			if u.Side == r.side && u.OnMap() && u.In == "" && s.Card(u).Land() {
				pool = append(pool, u)
			}
		}
		for k := 0; k < e.Count && len(pool) > 0; k++ {
			i := r.roll(len(pool), "unit called away", "") - 1
			u := pool[i]
			pool = append(pool[:i], pool[i+1:]...)
			away, err := strconv.Atoi(e.Duration)
			if err != nil {
				away = 5
			}
			back := r.own + away
			for _, c := range s.Units {
				if c == u || (c.Side == u.Side && c.In == u.ID) {
					c.Away = back
				}
			}
			r.emit("event", "III.6", u.Hex, "", "%s: %s leaves the front until %s's turn %d", e.Name, u.ID, r.side, back)
		}
	case "modifier", "partisan":
		left := 1
		switch e.Duration {
		case "d6":
			left = r.roll(6, e.Name+" duration", "")
		case "deployment":
			left = -1 // lasts until the next Deployment Phase uses it
		default:
			left, _ = strconv.Atoi(e.Duration)
		}
		m := Modifier{Name: e.Modifier, Side: r.side, Left: left, Owner: r.side}
		if e.All {
			m.Side = ""
		}
		s.Modifiers = append(s.Modifiers, m)
		scope := r.side
		if e.All {
			scope = "both sides"
		}
		dur := fmt.Sprintf("%d turn(s)", left)
		if left < 0 {
			dur = "the next Deployment Phase"
		}
		r.emit("event", "III.6.5", Hex{}, "", "%s: in force for %s, %s", e.Name, scope, dur)
		if e.Effect == "partisan" {
			r.partisanReveal()
		}
	}
}

// partisanReveal shows one random enemy stack to the drawer: what fog of
// war hides of it, not a hidden unit, which only recon finds (Glossary
// Hidden).
func (r *resolver) partisanReveal() {
	s := r.s
	var stacks []Hex
	seen := map[Hex]bool{}
	for _, u := range s.Units {
		if u.Side == r.enemy && u.OnMap() && !(u.Hidden && !u.Found) && !seen[u.Hex] {
			seen[u.Hex] = true
			stacks = append(stacks, u.Hex)
		}
	}
	if len(stacks) == 0 {
		return
	}
	h := stacks[r.roll(len(stacks), "enemy stack revealed", "")-1]
	var ids []string
	for _, u := range s.UnitsAt(h) {
		if u.Side == r.enemy && !(u.Hidden && !u.Found) {
			u.Revealed = true
			ids = append(ids, u.ID)
		}
	}
	r.emit("event", "III.6", h, r.side, "Partisan Report: the stack at %s is %v", h, ids)
}

// returnAway brings units sent off by Frontline Priority back at a
// controlled port, each with an experience roll.
func (s *State) returnAway(r *resolver) {
	for _, u := range s.Units {
		if u.Side != r.side || u.Away == 0 || u.Away > r.own || u.In != "" {
			continue
		}
		var port Hex
		for row := 1; row <= s.Map.Height && port.IsZero(); row++ {
			for col := 1; col <= s.Map.Width; col++ {
				h := Hex{Col: col, Row: row}
				if s.Map.Port(h) && s.Control[h] == r.side {
					port = h
					break
				}
			}
		}
		if port.IsZero() {
			continue
		}
		for _, c := range s.Units {
			if c == u || (c.Side == u.Side && c.In == u.ID) {
				c.Away, c.Hex = 0, port
			}
		}
		xp := ""
		if s.Options.Experience {
			xp = "; experience " + r.experience(u)
		}
		r.emit("event", "III.6", port, "", "%s returns to the front at %s%s", u.ID, port, xp)
	}
}
