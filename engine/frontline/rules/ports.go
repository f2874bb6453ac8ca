package rules

import (
	"fmt"
	"strings"
)

// Ports (shipping facilities, §VII.3) are part of the map, shot at as
// vehicles with their own card (PORT in units.json): only shells of
// 155 mm or more and bombs of 500 lb or more hurt them (§VII.3.4). An
// attacker ordered `unit AT PORT:CCRR` in an engagement at the port fires
// its heavy weapon at it once before the rounds, like a bridge; the
// damage of those shots adds up in the engagement (reading 4). Engineers
// may blow a port with DETONATE on their own hex (Table VI.2). A port
// damaged or destroyed is never rebuilt (§VII.3.1). A damaged port cuts
// supply by less (rules.json port_supply_cut_damaged) and still takes
// deployments; a destroyed one does neither.

const (
	portDamaged   = "damaged"
	portDestroyed = "destroyed"
)

// PortTarget reads a target written PORT:CCRR.
func PortTarget(t string) (Hex, bool) {
	rest, ok := strings.CutPrefix(t, "PORT:")
	if !ok {
		return Hex{}, false
	}
	h, err := ParseHex(rest)
	return h, err == nil
}

// PortState says intact, damaged or destroyed for a port hex.
func (s *State) PortState(h Hex) string {
	if st := s.Ports[h]; st != "" {
		return st
	}
	return "intact"
}

// portCut is what a side's controlled ports take off its supply bill
// (Inset VII.3), and how many of them still work.
func (s *State) portCut(side string) (cut, ports int) {
	if s.modifier("high-seas", side) {
		return 0, 0
	}
	for h, c := range s.Control {
		if c != side || !s.Map.Port(h) {
			continue
		}
		switch s.Ports[h] {
		case portDestroyed:
			continue
		case portDamaged:
			cut += s.lib.Rules.PortSupplyCutDamaged
		default:
			cut += s.lib.Rules.PortSupplyCut
		}
		ports++
	}
	return cut, ports
}

// portFire: attackers ordered AT PORT:hex fire their heavy weapon once at
// the port before the engagement's rounds (§VII.3.4).
func (r *resolver) portFire(b *battle) {
	s := r.s
	card := s.lib.Cards["PORT"]
	sum := 0
	for _, f := range b.fighters[b.att] {
		h, ok := PortTarget(f.target)
		if !ok {
			continue
		}
		f.target = ""
		if s.Ports[h] == portDestroyed {
			r.emit("fire", "VII.3.4", b.hex, "", "%s: the port at %s is already destroyed", f.u.ID, h)
			continue
		}
		for _, w := range s.Card(f.u).Weapons {
			if !w.Heavy || Distance(f.u.Hex, h) > w.Range || (w.OneShot && f.u.Spent) {
				continue
			}
			bonus := 0
			if f.gun && b.fo != nil {
				bonus = r.r.DestroyBonus
			}
			need := s.Need(f.u, w, bonus)
			if w.OneShot {
				f.u.Spent = true
			}
			label := fmt.Sprintf("%s %s at the port %s", f.u.ID, w.Name, h)
			v := r.roll(20, label, fmt.Sprintf("%d+", need))
			switch {
			case v == 20:
				s.setPort(h, portDestroyed)
				r.emit("fire", "VII.3.4", b.hex, "", "%s: d20=20 -> critical: the port is destroyed", label)
			case v == 1 || v < need:
				r.emit("fire", "VII.3.4", b.hex, "", "%s: d20=%d vs %d -> miss", label, v, need)
			default:
				in := r.roll(10, "intensity", "")
				intensity, words := in, fmt.Sprintf("intensity d10=%d", in)
				if v == 19 {
					intensity *= 2
					words += " doubled"
				}
				net := max(intensity+w.DI-card.Defense, 0)
				sum += net
				base := card.Endurance
				if s.Ports[h] == portDamaged {
					base = card.Breakpoint
				}
				left := base - sum
				res := fmt.Sprintf("endurance %d -> %d, holds", base, left)
				switch {
				case left <= 0:
					s.setPort(h, portDestroyed)
					res = fmt.Sprintf("endurance %d -> %d: the port is DESTROYED, never rebuilt", base, left)
				case s.Ports[h] == "" && left <= card.Breakpoint:
					s.setPort(h, portDamaged)
					res = fmt.Sprintf("endurance %d -> %d (breakpoint %d): the port is DAMAGED, never rebuilt", base, left, card.Breakpoint)
				}
				r.emit("fire", "VII.3.4", b.hex, "", "%s: d20=%d vs %d HIT; %s +DI %d -Def %d = %d -> %s", label, v, need, words, w.DI, card.Defense, net, res)
			}
			break
		}
	}
}

func (s *State) setPort(h Hex, st string) {
	if s.Ports == nil {
		s.Ports = map[Hex]string{}
	}
	s.Ports[h] = st
}

// detonatePort: an engineer on a port blows it (Table VI.2, Shipping
// Facility); each try in a later turn needs less, prior recon -2.
func (r *resolver) detonatePort(u *Unit) {
	h := u.Hex
	r.engineerTry(u, "port "+h.String(), r.r.DetonatePort, h, func() {
		r.s.setPort(h, portDestroyed)
	}, "blows the port "+h.String())
}

// portTargetCheck: a port is shot at in an engagement at the port, with a
// heavy weapon in range (§VII.3.4).
func (v *validator) portTargetCheck(e Engagement, id string, u *Unit, h Hex) {
	s := v.s
	line := e.Line
	if l, ok := e.TargetLines[id]; ok {
		line = l
	}
	if u == nil {
		return
	}
	if !s.Map.Port(h) || h != e.Hex || s.Ports[h] == portDestroyed {
		v.add(line, "VII.3.4", "%s AT PORT:%s: no standing port at the engaged hex %s", id, h, e.Hex)
		return
	}
	at := u.Hex
	if d, ok := v.dest[id]; ok {
		at = d
	}
	for _, w := range s.Card(u).Weapons {
		if w.Heavy && Distance(at, h) <= w.Range {
			return
		}
	}
	v.add(line, "VII.3.4", "%s AT PORT:%s: only a 155 mm class shell or a 500 lb bomb in range hurts a port", id, h)
}

// portDetonateCheck: DETONATE on the engineer's own hex blows a port or
// an airfield standing there (Table VI.2; §VII.5.3 "Combat Engineers may
// detonate Airfields"); where both stand, the port goes first.
func (v *validator) portDetonateCheck(line int, u *Unit, at, h Hex) {
	s := v.s
	switch {
	case at == h && s.Map.Port(h) && s.Ports[h] != portDestroyed:
	case at == h && s.airfieldAt(h) != nil:
	case at == h && s.Map.Port(h):
		v.add(line, "VI.5.4", "DETONATE %s: the port is already destroyed", h)
	default:
		v.add(line, "VI.5.4", "DETONATE %s: an engineer blows a port or an airfield standing in its own hex (a bridge: DETONATE the hex across it)", h)
	}
}
