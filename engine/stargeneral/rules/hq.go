package rules

import (
	"fmt"
	"slices"
)

// returnHQ is the turn of a unit whose HQ is lost (6): from the round after
// the one in which it was destroyed, a new HQ appears at full strength next
// to a stand of the unit, on a free hex clear of enemy ZOC, and the unit does
// nothing else that turn. Where no such hex exists it does not return yet.
func (r *resolver) returnHQ(u *Unit, uo *UnitOrders) {
	if u.HQLostTurn >= r.st.Turn {
		r.emit(Event{Kind: EvNote, Side: u.Side, Unit: u.ID, Section: r.sec(SecHQ),
			Text: fmt.Sprintf("%s lost its HQ this round: a new HQ appears in its turn next round; until then it neither moves nor attacks (%s)", u.ID, r.sec(SecHQ))})
		return
	}
	var at Hex
	if uo != nil && !uo.HQPlacement.IsZero() {
		if why := r.hqPlacementBar(u, uo.HQPlacement); why != "" {
			r.emit(Event{Kind: EvNote, Side: u.Side, Unit: u.ID, To: uo.HQPlacement, Section: r.sec(SecHQ),
				Text: fmt.Sprintf("%s's new HQ cannot appear at %s: %s (%s)", u.ID, uo.HQPlacement, why, r.sec(SecHQ))})
		} else {
			at = uo.HQPlacement
		}
	}
	if at.IsZero() {
		for _, h := range r.hqCandidates(u) {
			if r.hqPlacementBar(u, h) == "" {
				at = h
				break
			}
		}
	}
	if at.IsZero() {
		r.emit(Event{Kind: EvNote, Side: u.Side, Unit: u.ID, Section: r.sec(SecHQ),
			Text: fmt.Sprintf("%s's HQ cannot return yet: no free hex next to its stands is clear of enemy ZOC (%s)", u.ID, r.sec(SecHQ))})
		return
	}
	hq := r.lostHQ(u)
	hq.SP = hq.MaxSP
	hq.Hex = at
	u.Stands = append([]*Stand{hq}, u.Stands...)
	r.b.moveStand(u, hq, at)
	u.HQLostTurn = -1
	r.emit(Event{Kind: EvHQReturn, Side: u.Side, Unit: u.ID, Stand: hq.Name, To: at, SP: hq.SP, Section: r.sec(SecHQ),
		Text: fmt.Sprintf("%s's new HQ appears at %s with %d SP; the unit does nothing else this turn (%s)", u.ID, at, hq.SP, r.sec(SecHQ))})
}

// hqCandidates lists the hexes next to the unit's stands in CCRR order, the
// stable order in which a new HQ's place is chosen when the player named none.
func (r *resolver) hqCandidates(u *Unit) []Hex {
	seen := map[Hex]bool{}
	var out []Hex
	for _, s := range u.Stands {
		for _, h := range s.Hex.Neighbours() {
			if !seen[h] {
				seen[h] = true
				out = append(out, h)
			}
		}
	}
	slices.SortFunc(out, Compare)
	return out
}

// hqPlacementBar says why a new HQ cannot appear at h (6), or "" if it can.
func (r *resolver) hqPlacementBar(u *Unit, h Hex) string {
	if !r.st.Map.OnMap(h) {
		return "it is off the map"
	}
	if !r.b.passable(h) {
		return fmt.Sprintf("it is %s, impassable", r.b.terrain(h).Title)
	}
	if o := r.b.at(h); !o.empty() {
		return fmt.Sprintf("it is held by %s", o.name())
	}
	next := false
	for _, s := range u.Stands {
		next = next || Adjacent(s.Hex, h)
	}
	if !next {
		return fmt.Sprintf("it is not next to a stand of %s", u.ID)
	}
	if e, ok := r.zocOf(h, u.Side); ok {
		return fmt.Sprintf("it is in the ZOC of %s", e.name())
	}
	return ""
}

// lostHQ takes the unit's destroyed HQ stand off its list of lost stands; a
// unit whose position was written without one gets a fresh HQ stand.
func (r *resolver) lostHQ(u *Unit) *Stand {
	for i := len(u.Lost) - 1; i >= 0; i-- {
		if s := u.Lost[i]; r.rs.StandTypes[s.Type].Role == RoleHQ {
			u.Lost = append(u.Lost[:i], u.Lost[i+1:]...)
			return s
		}
	}
	typ := "hq"
	if r.rs.StandTypes[typ].Role != RoleHQ {
		for _, name := range sortedKeys(r.rs.StandTypes) {
			if r.rs.StandTypes[name].Role == RoleHQ {
				typ = name
				break
			}
		}
	}
	t := r.rs.StandTypes[typ]
	return &Stand{Name: "HQ", Type: typ, MaxSP: t.SP, FS: t.FS, Armoured: t.Armoured}
}
