package rules

import "fmt"

// --- 1 Initiative [11.1]

func (r *resolver) initiative() {
	holder := r.st.Initiative
	if r.orders[holder].Initiative == "pass" {
		r.st.Initiative = r.st.Enemy(holder)
		r.emit(Event{Text: fmt.Sprintf("%s passes the initiative: %s holds it this turn (11.1).", holder, r.st.Initiative), Seen: r.all()})
		return
	}
	r.emit(Event{Text: fmt.Sprintf("%s keeps the initiative (11.1).", holder), Seen: r.all()})
}

// --- 2 Orders [11.2]

func (r *resolver) ordersPhase() {
	r.followers = map[*Platoon][]*Platoon{}
	for _, side := range r.sides() {
		o := r.orders[side]
		sd := r.st.Side(side)
		if o.Pursue != nil {
			sd.Pursue = *o.Pursue
		}
		if o.BugoutDefault != nil {
			sd.BugoutDefault = *o.BugoutDefault
		}
		for i := range o.Platoons {
			po := &o.Platoons[i]
			p := r.st.Platoon(side, po.Platoon)
			if p == nil {
				continue
			}
			r.po[p] = po
			p.Bugout, p.Reserve = po.Bugout, po.Reserve
			old := p.Order
			if po.Follow != "" {
				if c := r.st.Platoon(side, po.Follow); c != nil {
					r.followers[c] = append(r.followers[c], p)
					r.emit(Event{Side: side, Text: fmt.Sprintf("%s follows %s in column, keeping %s (FP-3).", p.Name, c.Name, r.order(p)), Seen: []string{side}})
				}
				continue
			}
			if po.Order == old {
				continue
			}
			p.Order = po.Order
			var text string
			if po.Order < old {
				text = fmt.Sprintf("%s: %s -> %s, raised by %s (11.2).", p.Name, title(r.rs.OrderName(old)), r.order(p), po.By)
			} else {
				text = fmt.Sprintf("%s drops from %s to %s (11.2).", p.Name, title(r.rs.OrderName(old)), r.order(p))
			}
			r.emit(Event{Side: side, Text: text, Other: fmt.Sprintf("%s at %s is now on %s.", p.Name, p.Hex, r.order(p)), Seen: r.seenBy(p)})
		}
	}
}

// --- 3 Communications (FP-4)

func (r *resolver) communications() {
	for _, b := range r.st.Battalions {
		hq := r.st.companyHQ(b.Side, b.Name, "")
		if hq == nil {
			for _, p := range r.st.Active(b.Side) {
				if p.Battalion == b.Name && r.st.isHQ(p) {
					hq = p
					break
				}
			}
		}
		if hq == nil {
			b.Radio = false
			r.emit(Event{Side: b.Side, Text: fmt.Sprintf("Radio %s: no HQ platoon on the map: out (FP-4).", b.Name), Seen: []string{b.Side}})
			continue
		}
		need := r.rs.RadioNeed[hq.Exp].I()
		d := r.roll()
		b.Radio = d >= need
		r.emit(Event{Side: b.Side, Text: fmt.Sprintf("Radio %s (%s, %s HQ): rolled %d against %d+: %s (FP-4).", b.Name, hq.Name, title(hq.Exp), d, need, inOut(b.Radio)),
			Seen: []string{b.Side}, Dice: []Die{{d, b.Name, fmt.Sprintf("%d+", need)}}})
	}
	for _, b := range r.st.Batteries {
		need := r.rs.RadioNeed[b.Exp].I()
		d := r.roll()
		b.Radio = d >= need
		r.emit(Event{Side: b.Side, Text: fmt.Sprintf("Radio %s (%s artillery): rolled %d against %d+: %s (FP-4).", b.Name, title(b.Exp), d, need, inOut(b.Radio)),
			Seen: []string{b.Side}, Dice: []Die{{d, b.Name, fmt.Sprintf("%d+", need)}}})
	}
}

func inOut(in bool) string {
	if in {
		return "in"
	}
	return "out"
}
