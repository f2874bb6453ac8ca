package rules

import "strings"

func pathText(start Hex, path []Hex) string {
	if len(path) == 0 {
		return "nowhere (no hex further away) at " + start.String()
	}
	var s []string
	for _, h := range path {
		s = append(s, h.String())
	}
	return strings.Join(s, " ")
}

// flee moves p up to allowance, each hex further from `from`; ties go to
// cover, then towards home, then the lowest hex (brief §3). It returns
// the hexes entered.
func (r *resolver) flee(p *Platoon, from Hex, allowance, order int) []Hex {
	var path []Hex
	spent := 0
	for {
		best := Hex{}
		bestCost := 0
		for _, n := range p.Hex.Neighbours() {
			c := StepCost(r.rs, r.st, p, p.Hex, n, order)
			if c == 0 || spent+c > allowance || r.st.At(n) != nil || Distance(n, from) <= Distance(p.Hex, from) {
				continue
			}
			if best.IsZero() || r.betterFlight(p, n, best, from) {
				best, bestCost = n, c
			}
		}
		if best.IsZero() {
			return path
		}
		spent += bestCost
		r.step1(p, best)
		path = append(path, best)
	}
}

func (r *resolver) betterFlight(p *Platoon, a, b, from Hex) bool {
	if da, db := Distance(a, from), Distance(b, from); da != db {
		return da > db
	}
	if ca, cb := r.st.Map.Hides(a), r.st.Map.Hides(b); ca != cb {
		return ca
	}
	if ha, hb := r.homeDistance(p.Side, a), r.homeDistance(p.Side, b); ha != hb {
		return ha < hb
	}
	return Compare(a, b) < 0
}

// homeDistance is how far h is from the side's own edge.
func (r *resolver) homeDistance(side string, h Hex) int {
	m := r.st.Map
	switch r.st.Side(side).Home {
	case "west":
		return h.Col - 1
	case "east":
		return m.Cols - h.Col
	case "north":
		return h.Row - 1
	}
	return m.Rows - h.Row
}

// step1 moves p one hex: moving ends digging in and recent fire; a hidden
// platoon moves on paper until the enemy sees it [14].
func (r *resolver) step1(p *Platoon, h Hex) {
	p.Hex = h
	p.DugIn = false
	p.Defending = 0
	p.FiredTurn = 0
	r.moved[p] = true
}
