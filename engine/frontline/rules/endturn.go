package rules

import (
	"fmt"
	"sort"
	"strings"
)

// endTurn updates control, checks victory and the turn limit, and lets
// events in force run down (§VII, §II.2).
func (r *resolver) endTurn(o Orders) {
	r.phase = "end"
	s := r.s
	if o.Standing != nil {
		s.Player(r.side).Standing = o.Standing.clone()
	}
	r.surrender()
	s.updateControl(r)
	r.objectives()
	for _, v := range s.Victory {
		if v.Side != r.side {
			continue
		}
		ok := true
		for _, h := range v.Hold {
			ok = ok && s.Holds(v.Side, h)
		}
		if ok {
			s.Over, s.Winner = true, v.Side
			s.Result = fmt.Sprintf("%s wins: holds %s at the end of its turn %d", v.Side, hexList(v.Hold), r.own)
			r.emit("victory", "II.2", Hex{}, "", "%s", s.Result)
			return
		}
	}
	var kept []Modifier
	for _, m := range s.Modifiers {
		if m.Owner == r.side {
			m.Left--
		}
		if m.Left > 0 || m.Left < 0 {
			kept = append(kept, m)
		} else {
			r.emit("event", "III.6.5", Hex{}, "", "%s ends", m.Name)
		}
	}
	s.Modifiers = kept
	if r.side == s.Sides[1] && s.Turns > 0 && s.Turn >= s.Turns {
		s.Over = true
		switch s.Limit {
		case "SCORE", "DRAW":
			a, b := s.Players[0], s.Players[1]
			switch {
			case s.Limit == "DRAW" || a.Score == b.Score:
				s.Result = fmt.Sprintf("draw: turn limit %d reached (score %s %d, %s %d)", s.Turns, a.Side, a.Score, b.Side, b.Score)
			case a.Score > b.Score:
				s.Winner = a.Side
			default:
				s.Winner = b.Side
			}
			if s.Winner != "" {
				s.Result = fmt.Sprintf("%s wins on score at the turn limit %d (%s %d, %s %d)", s.Winner, s.Turns, a.Side, a.Score, b.Side, b.Score)
			}
		default:
			s.Winner = s.Limit
			s.Result = fmt.Sprintf("%s wins: turn limit %d reached", s.Limit, s.Turns)
		}
		r.emit("victory", "II.2", Hex{}, "", "%s", s.Result)
	}
}

func hexList(hs []Hex) string {
	var out []string
	for _, h := range hs {
		out = append(out, h.String())
	}
	return strings.Join(out, " ")
}

// Holds: a city, port or airfield under the side's control, or any other
// hex with its land units and no enemy land units (reading 22). "Hidden
// Units may not hold objectives or cities" (Glossary Hidden), as in
// updateControl.
func (s *State) Holds(side string, h Hex) bool {
	if _, ok := s.Control[h]; ok || s.Map.City(h) {
		return s.Control[h] == side
	}
	own, enemy := false, false
	for _, u := range s.UnitsAt(h) {
		if !s.Card(u).Land() || u.In != "" || u.Hidden {
			continue
		}
		if u.Side == side {
			own = true
		} else {
			enemy = true
		}
	}
	return own && !enemy
}

// updateControl applies §VII.1-3 and reading 22: a Key City needs two land
// units with one infantry, a ruined city or port one infantry, an airfield
// any land unit; with none of the enemy's there. Otherwise the old
// controller keeps it.
func (s *State) updateControl(r *resolver) {
	var places []Hex
	for h := range s.Control {
		places = append(places, h)
	}
	for row := 1; row <= s.Map.Height; row++ {
		for col := 1; col <= s.Map.Width; col++ {
			h := Hex{Col: col, Row: row}
			if _, ok := s.Control[h]; !ok && (s.Map.City(h) || s.airfieldAt(h) != nil) {
				places = append(places, h)
			}
		}
	}
	sort.Slice(places, func(i, j int) bool {
		if places[i].Col != places[j].Col {
			return places[i].Col < places[j].Col
		}
		return places[i].Row < places[j].Row
	})
	for _, h := range places {
		for _, side := range s.Sides {
			land, inf, enemy := 0, 0, false
			for _, u := range s.UnitsAt(h) {
				c := s.Card(u)
				if !c.Land() || u.In != "" || u.Hidden {
					continue
				}
				if u.Side != side {
					enemy = true
					continue
				}
				land++
				if c.Kind == "infantry" {
					inf++
				}
			}
			need := land >= 1
			switch s.Map.Terrain(h) {
			case KeyCity:
				need = land >= s.lib.Rules.KeyCityUnits && inf >= 1
			case RuinedCity, PortCity:
				need = inf >= 1
			}
			if need && !enemy && s.Control[h] != side {
				old := s.Control[h]
				s.Control[h] = side
				points := 0
				switch s.Map.Terrain(h) {
				case KeyCity:
					points = s.lib.Rules.ScoreKeyCity
				case RuinedCity, PortCity:
					points = s.lib.Rules.ScoreRuinedCity
				}
				s.Player(side).Score += points
				if r != nil {
					r.cityScored[side+" "+h.String()] = points
					name := s.Map.Names[h]
					if name == "" {
						name = h.String()
					}
					r.emit("control", "VII.1", h, "", "%s takes %s from %s", side, name, orNone(old))
					r.cityMomentum(side, h)
				}
			}
		}
	}
}

// objectives scores each side's objectives it holds for the first time
// (Table II.1: primary 100, secondary 75). "Points are not cumulative. I.e.
// if a Key City is also an Objective, the highest score value prevails":
// a city taken this turn as an objective scores the objective's points
// instead of the city's.
func (r *resolver) objectives() {
	s := r.s
	for i := range s.Objectives {
		o := &s.Objectives[i]
		if o.Achieved || !s.Holds(o.Side, o.Hex) {
			continue
		}
		o.Achieved = true
		kind, points := "secondary", r.r.ScoreSecondaryObjective
		if o.Primary {
			kind, points = "primary", r.r.ScorePrimaryObjective
		}
		city := r.cityScored[o.Side+" "+o.Hex.String()]
		s.Player(o.Side).Score += max(points, city) - city
		r.emit("objective", "Table II.1", o.Hex, "", "%s achieves its %s objective %s: %d points", o.Side, kind, o.Hex, max(points, city))
	}
}

func orNone(s string) string {
	if s == "" {
		return "nobody"
	}
	return s
}
