package rules

import (
	"fmt"
)

// --- 6 Surrender (FP-9)

func (r *resolver) surrender() {
	for _, p := range r.st.Active("") {
		if p.Order != Rout && p.Count(r.rs) > 0 {
			continue
		}
		if r.goodOrderAdjacent(p) {
			continue
		}
		for _, e := range r.st.Active(r.st.Enemy(p.Side)) {
			if goodOrder(e.Order) && Distance(e.Hex, p.Hex) <= r.rs.SurrenderWithin.I() && Sees(r.rs, r.st, e, p) {
				r.capture(p, fmt.Sprintf("%s at %s (%s, %d unwounded) surrenders to %s: no friend in good order next to it (FP-9).", p.Name, p.Hex, r.order(p), p.Count(r.rs), e.Name))
				break
			}
		}
	}
}

func goodOrder(o int) bool { return o == Move || o == Aim || o == Defend }

func (r *resolver) goodOrderAdjacent(p *Platoon) bool {
	for _, f := range r.st.Active(p.Side) {
		if f != p && goodOrder(f.Order) && Adjacent(f.Hex, p.Hex) {
			return true
		}
	}
	return false
}

func (r *resolver) capture(p *Platoon, text string) {
	p.Removed = true
	p.Fate = "captured"
	r.lose(p)
	r.emit(Event{Side: p.Side, Text: text, Seen: r.all(), To: p.Hex})
}
