package rules

// View is the state cut down to what side may know (design 3.5-3.6, §VIII.1):
// its own units, hand and books; of the enemy, the deployed units it can
// see (not hidden ones it has not found; under fog of war only the top unit
// of each stack and units revealed since they last moved), the size of the
// enemy's hand, never its standing orders, treasury or staged units; of the
// decks, only their sizes. side "" is an observer: both sides' public face.
func (s *State) View(side string) *State {
	v := s.Clone()
	v.ViewOf = side
	if side == "" {
		v.ViewOf = "observer"
	}
	v.DeckSizes = []int{len(s.CommandDeck), len(s.EventDeck)}
	v.CommandDeck, v.EventDeck = nil, nil
	v.Tries = nil
	for _, p := range v.Players {
		if p.Side == side {
			continue
		}
		p.HandSize, p.Hand = len(p.Hand), nil
		p.Standing, p.StandingHidden = Standing{}, true
		p.Treasury = 0
	}
	var opening []Event
	for _, e := range v.Opening {
		if e.Visible(side) && (side != "" || e.Private == "") {
			opening = append(opening, e)
		}
	}
	v.Opening = opening
	top := map[Hex]*Unit{}
	if s.Options.Fog {
		for _, u := range s.Units {
			if u.OnMap() && u.In == "" && u.Side != side && !(u.Hidden && !u.Found) {
				if t := top[u.Hex]; t == nil || stackRank(s, u) >= stackRank(s, t) {
					top[u.Hex] = u
				}
			}
		}
	}
	var units []*Unit
	for i, u := range s.Units {
		vu := v.Units[i]
		if u.Side == side {
			units = append(units, vu)
			continue
		}
		if !u.OnMap() || (u.Hidden && !u.Found) {
			continue
		}
		if s.Options.Fog && !u.Revealed && top[u.Hex] != u && !(s.Map.Terrain(u.Hex) == KeyCity) {
			continue
		}
		if u.In != "" && s.Options.Fog && !u.Revealed {
			continue
		}
		vu.IdleTurn, vu.PushTurn, vu.SkipMove = 0, 0, 0
		// What an enemy engineer builds is staged, so secret; so is when.
		vu.Building, vu.Ready = "", 0
		units = append(units, vu)
	}
	v.Units = units
	return v
}

// stackRank orders a stack bottom to top (Inset III.2): infantry,
// obstacles, vehicles, structures, aircraft.
func stackRank(s *State, u *Unit) int {
	switch s.Card(u).Kind {
	case "infantry":
		return 0
	case "obstacle":
		return 1
	case "vehicle":
		return 2
	case "structure":
		return 3
	}
	return 4
}
