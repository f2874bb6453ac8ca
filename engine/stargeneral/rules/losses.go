package rules

import "fmt"

// takeLosses applies n losses to the core stand in a hex and what is attached
// to it, as its side's loss policy says (4): a loss is a strength point of the
// core stand or a whole platoon, at most one platoon per combat, and a platoon
// is never left alone (it is removed before its core stand goes). It returns
// the losses taken and whether the core stand was destroyed.
func (r *resolver) takeLosses(o occupant, n int, section string) (taken int, destroyed bool) {
	if n <= 0 || o.empty() {
		return 0, false
	}
	if o.battery != nil {
		bt := o.battery
		loss := min(n, bt.SP)
		bt.SP -= loss
		r.emit(Event{Kind: EvLoss, Side: bt.Side, Unit: bt.ID, From: bt.Hex, SP: -loss, Section: section,
			Text: fmt.Sprintf("battery %s loses %d SP (now %d)", bt.ID, loss, bt.SP)})
		if bt.SP == 0 {
			r.removeBattery(bt, "no strength points left")
			return loss, true
		}
		return loss, false
	}
	u, s := o.unit, o.stand
	policy := r.choices(u.Side).Losses
	platoonTaken := false
	for range n {
		p := r.platoonToLose(s, policy, platoonTaken)
		if p != nil {
			platoonTaken = true
			r.losePlatoon(u, s, p, section)
			taken++
			continue
		}
		s.SP--
		taken++
		r.emit(Event{Kind: EvLoss, Side: u.Side, Unit: u.ID, Stand: s.Name, From: s.Hex, SP: -1, Section: section,
			Text: fmt.Sprintf("%s %s loses 1 SP (now %d)", u.ID, s.Name, s.SP)})
		if s.SP == 0 {
			r.removeStand(u, s, "no strength points left")
			return taken, true
		}
	}
	return taken, false
}

// platoonToLose picks the platoon the next loss removes, or nil for a
// strength point: a platoon goes first when the core stand would die
// (4: never left alone); under keep-strength also when a strength point would
// cost dice; under platoons-first always.
func (r *resolver) platoonToLose(s *Stand, policy string, platoonTaken bool) *Platoon {
	if platoonTaken {
		return nil
	}
	first := s.Transport // a truck costs no dice
	if first == nil {
		first = s.Support
	}
	if first == nil {
		return nil
	}
	switch {
	case s.SP == 1:
		return first
	case policy == LossesPlatoonsFirst:
		return first
	case s.SP > s.FS:
		return nil // a strength point above fighting strength costs no dice (3.1)
	case first == s.Transport:
		return first
	default:
		return nil
	}
}

func (r *resolver) losePlatoon(u *Unit, s *Stand, p *Platoon, section string) {
	if s.Transport == p {
		s.Transport = nil
	} else {
		s.Support = nil
	}
	u.LostPlatoons = append(u.LostPlatoons, p)
	r.emit(Event{Kind: EvLoss, Side: u.Side, Unit: u.ID, Stand: p.Name, From: s.Hex, SP: -1, Section: section,
		Text: fmt.Sprintf("%s loses platoon %s (%s) attached to %s", u.ID, p.Name, r.rs.StandTypes[p.Type].Title, s.Name)})
}
