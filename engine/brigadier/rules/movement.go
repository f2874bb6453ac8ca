package rules

import (
	"fmt"
	"strings"
)

// --- 7 Movement (FP-8), with interrupt fire (FP-7)

func (r *resolver) movement() {
	for _, side := range r.sides() {
		for _, p := range r.st.Active(side) {
			if (p.Order == Back || p.Order == Rout) && !r.bugged[p] && !p.Removed {
				r.retreat(p)
			}
		}
	}
	for _, side := range r.sides() {
		for i := range r.orders[side].Platoons {
			po := &r.orders[side].Platoons[i]
			p := r.st.Platoon(side, po.Platoon)
			if p == nil || len(po.Path) == 0 || r.bugged[p] || r.moved[p] {
				continue
			}
			if p.Order != Move && p.Order != Double {
				r.emit(Event{Side: side, Text: fmt.Sprintf("%s does not move: it is now on %s (FP-7).", p.Name, r.order(p)), Seen: []string{side}})
				continue
			}
			start := p.Hex
			trail := append([]Hex{start}, r.walk(p, po.Path)...)
			r.column(p, trail)
		}
	}
	// Held fire that did not trigger lapses (FP-7).
	for _, p := range r.st.Active("") {
		if p.Reserve != nil && !r.spent[p] {
			r.spent[p] = true
		}
	}
}

// walk moves p along its plotted path as far as it legally goes and
// returns the hexes entered.
func (r *resolver) walk(p *Platoon, path []Hex) []Hex {
	start := p.Hex
	order := p.Order
	allowance := Allowance(r.rs, p, order)
	if order == Double && allPaved(r.st.Map, p.Hex, path) && p.Wounded == 0 {
		allowance = r.rs.Movement[r.rs.Types[p.Type].Move].Move.I() * r.rs.PavedDouble.I()
	}
	spent := 0
	var entered []Hex
	why := ""
	for i, h := range path {
		c := StepCost(r.rs, r.st, p, p.Hex, h, order)
		if q := r.st.At(h); q != nil {
			if q.Side != p.Side {
				why = fmt.Sprintf("stops: %s holds %s", q.Name, h)
				break
			}
			if i == len(path)-1 {
				why = fmt.Sprintf("stops short: %s stands in %s (FP-0)", q.Name, h)
				break
			}
		}
		if c == 0 || spent+c > allowance || !Adjacent(p.Hex, h) {
			why = fmt.Sprintf("stops: it cannot enter %s", h)
			break
		}
		if q := r.st.At(h); q != nil && i+1 < len(path) {
			if q2 := r.st.At(path[i+1]); q2 != nil {
				why = fmt.Sprintf("stops short: %s and %s block the way (FP-0)", q.Name, q2.Name)
				break
			}
		}
		spent += c
		r.step1(p, h)
		entered = append(entered, h)
		if r.st.At(h) != p {
			continue // passing through a friend
		}
		r.interrupt(p)
		if p.Removed {
			why = "is removed"
			break
		}
		if p.Order != order && p.Order != Move && p.Order != Double {
			why = fmt.Sprintf("stops: pushed to %s (FP-7)", r.order(p))
			break
		}
		if r.bugged[p] {
			why = "bugged out"
			break
		}
		if names := r.contact(p); names != "" {
			why = fmt.Sprintf("stops: in contact with %s (FP-8)", names)
			break
		}
	}
	// a platoon passing through a friend and stopped there steps back
	for len(entered) > 0 && r.st.At(p.Hex) != p {
		entered = entered[:len(entered)-1]
		back := start
		if len(entered) > 0 {
			back = entered[len(entered)-1]
		}
		p.Hex = back
	}
	if len(entered) == 0 && why == "" {
		return nil
	}
	text := fmt.Sprintf("%s (%s) moves %s -> %s", p.Name, title(r.rs.OrderName(order)), start, pathText(start, entered))
	if why != "" {
		text += "; " + why
	}
	other := fmt.Sprintf("%s (%s) seen at %s.", p.Name, r.order(p), p.Hex)
	seen := []string{p.Side}
	if !p.Removed {
		seen = r.seenBy(p)
	}
	r.emit(Event{Side: p.Side, Text: text + ".", Other: other, Seen: seen, From: start, To: p.Hex})
	return entered
}

// contact reveals every enemy touching p, and p to them (FP-8, FP-14);
// it names them, "" if none.
func (r *resolver) contact(p *Platoon) string {
	var names []string
	for _, e := range r.st.Active(r.st.Enemy(p.Side)) {
		if Adjacent(e.Hex, p.Hex) {
			e.Hidden = false
			names = append(names, e.Name+" at "+e.Hex.String())
		}
	}
	return strings.Join(names, ", ")
}

// interrupt fires every held platoon whose RESERVE trigger the mover p
// sets off, as one round (FP-7).
func (r *resolver) interrupt(p *Platoon) {
	enemy := r.st.Enemy(p.Side)
	var ready, triggered []*Platoon
	for _, e := range r.st.Active(enemy) {
		if e.Reserve == nil || r.spent[e] || r.rs.Rung(e.Order).Fire != "aimed" || e.Count(r.rs) == 0 || !Sees(r.rs, r.st, e, p) {
			continue
		}
		w, dice := BestWeapon(r.rs, e, p, Distance(e.Hex, p.Hex))
		if w == "" || dice == 0 || r.rs.Weapons[w].Indirect {
			continue
		}
		ready = append(ready, e)
		at := e.Reserve.At
		if at == 0 {
			at = r.rs.Weapons[w].Range.I()
		}
		vehicle := r.rs.Types[p.Type].Vehicle
		if Distance(e.Hex, p.Hex) > at || (e.Reserve.Only == "vehicles" && !vehicle) || (e.Reserve.Only == "foot" && vehicle) {
			continue
		}
		triggered = append(triggered, e)
	}
	var firing []*firePlan
	for _, e := range triggered {
		if len(ready) >= max(e.Reserve.Min, 1) {
			firing = append(firing, &firePlan{side: enemy, firer: e, target: p})
		}
	}
	if len(firing) == 0 {
		return
	}
	r.fireRound(firing, true)
}

// retreat moves a Back platoon away from the nearest enemy it sees within
// reach, and a Rout platoon towards its own edge and off it (FP-3).
func (r *resolver) retreat(p *Platoon) {
	start := p.Hex
	if p.Order == Rout {
		allowance := Allowance(r.rs, p, Rout)
		spent := 0
		var path []Hex
		for {
			if r.homeDistance(p.Side, p.Hex) == 0 {
				p.Removed = true
				p.Fate = "routed off the map"
				r.lose(p)
				r.emit(Event{Side: p.Side, Text: fmt.Sprintf("%s routs off the map at %s (FP-3).", p.Name, p.Hex), Seen: r.all(), From: start, To: p.Hex})
				return
			}
			var best Hex
			bestCost := 0
			for _, n := range p.Hex.Neighbours() {
				c := StepCost(r.rs, r.st, p, p.Hex, n, Rout)
				if c == 0 || spent+c > allowance || r.st.At(n) != nil || r.homeDistance(p.Side, n) >= r.homeDistance(p.Side, p.Hex) {
					continue
				}
				if best.IsZero() || Compare(n, best) < 0 {
					best, bestCost = n, c
				}
			}
			if best.IsZero() {
				break
			}
			spent += bestCost
			r.step1(p, best)
			path = append(path, best)
		}
		if len(path) > 0 {
			r.emit(Event{Side: p.Side, Text: fmt.Sprintf("%s routs %s -> %s (FP-3).", p.Name, start, pathText(start, path)),
				Other: fmt.Sprintf("%s (Rout) seen at %s.", p.Name, p.Hex), Seen: r.seenBy(p), From: start, To: p.Hex})
		}
		return
	}
	var nearest *Platoon
	for _, e := range Seen(r.rs, r.st, p.Side) {
		if d := Distance(e.Hex, p.Hex); d <= r.rs.BackFlees.I() && (nearest == nil || d < Distance(nearest.Hex, p.Hex)) {
			nearest = e
		}
	}
	if nearest == nil {
		return
	}
	path := r.flee(p, nearest.Hex, Allowance(r.rs, p, Back), Back)
	if len(path) > 0 {
		r.emit(Event{Side: p.Side, Text: fmt.Sprintf("%s (Back) falls back from %s: %s -> %s (FP-3).", p.Name, nearest.Name, start, pathText(start, path)),
			Other: fmt.Sprintf("%s (Back) seen at %s.", p.Name, p.Hex), Seen: r.seenBy(p), From: start, To: p.Hex})
	}
}

// column brings the leader's followers along its trail, each ending
// behind the one ahead (FP-3).
func (r *resolver) column(leader *Platoon, trail []Hex) {
	slot := len(trail) - 2
	for _, f := range r.followers[leader] {
		if f.Removed || f.Order >= Back || r.bugged[f] {
			continue
		}
		for slot >= 0 && r.st.At(trail[slot]) != nil && r.st.At(trail[slot]) != f {
			slot--
		}
		if slot < 0 {
			return
		}
		to := trail[slot]
		if Distance(f.Hex, to) > Allowance(r.rs, f, Move) || f.Hex == to {
			continue
		}
		from := f.Hex
		r.step1(f, to)
		r.emit(Event{Side: f.Side, Text: fmt.Sprintf("%s follows %s in column: %s -> %s (FP-3).", f.Name, leader.Name, from, to),
			Other: fmt.Sprintf("%s seen at %s.", f.Name, to), Seen: r.seenBy(f), From: from, To: to})
		slot--
	}
}
