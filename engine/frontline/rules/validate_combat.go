package rules

import (
	"fmt"
	"strings"
)

// dismountOrders checks `carrier UNLOAD unit` under an ENGAGE (§VI.3.3):
// both engaged, the unit a passenger of the carrier (aboard when the turn
// began, or taken aboard in this Movement Phase).
func (v *validator) dismountOrders(e Engagement) {
	s := v.s
	for _, d := range e.Dismount {
		carrier, pass := false, false
		for _, id := range e.Units {
			carrier = carrier || id == d.Carrier
			pass = pass || id == d.Unit
		}
		u := s.Unit(v.o.Side, d.Unit)
		aboard := u != nil && ((u.In == d.Carrier && u.Role == "passenger") || v.boarded[d.Unit] == d.Carrier)
		switch {
		case !carrier || !pass:
			v.add(d.Line, "VI.3.3", "%s UNLOAD %s: both must be among the engagement's units", d.Carrier, d.Unit)
		case !aboard:
			v.add(d.Line, "VI.3.3", "%s UNLOAD %s: %s is not a passenger of %s", d.Carrier, d.Unit, d.Unit, d.Carrier)
		}
	}
}

// encircle checks Encircle orders (§IV.3.3, reading 16): the card, and
// own units in at least three distinct hexes around the target after
// their moves, the open hex next to it.
func (v *validator) encircle() {
	s, o := v.s, v.o
	p := s.Player(o.Side)
	for i, e := range o.Encircle {
		if !s.Options.Cards || countCard(p.Hand, "Encircle") <= i {
			v.add(e.Line, "IV.3.3", "ENCIRCLE: no Encircle card left in your hand")
			continue
		}
		if !s.hasFHQ(o.Side) || s.modifier("signals-breakdown", o.Side) {
			v.add(e.Line, "IV.3", "ENCIRCLE: command cards need your Forward HQ (and no Signals Breakdown)")
		}
		if Distance(e.Hex, e.Open) != 1 {
			v.add(e.Line, "IV.3.3", "ENCIRCLE %s OPEN %s: the open hex must border the target", e.Hex, e.Open)
		}
		hexes := map[Hex]bool{}
		for _, u := range s.Units {
			if u.Side != o.Side || !u.OnMap() || u.In != "" || !s.Card(u).Land() {
				continue
			}
			at := u.Hex
			if d, ok := v.dest[u.ID]; ok {
				at = d
			}
			if Distance(at, e.Hex) == 1 && at != e.Open && s.commanded(u) {
				hexes[at] = true
			}
		}
		if len(hexes) < 3 {
			v.add(e.Line, "IV.3.3", "ENCIRCLE %s: your land units (inside the command network) stand in %d hex(es) around it after moving; three are needed", e.Hex, len(hexes))
		}
		if !s.enemyLand(o.Side, e.Hex) {
			v.add(e.Line, "IV.3.3", "ENCIRCLE %s: no enemy land units there", e.Hex)
		}
	}
}

// bridgeTargetCheck: a bridge is shot at from an engagement at one of its
// ends, with a heavy weapon in range (§VII.4.4).
func (v *validator) bridgeTargetCheck(e Engagement, id string, u *Unit, hs Side2) {
	s := v.s
	line := e.Line
	if l, ok := e.TargetLines[id]; ok {
		line = l
	}
	if u == nil {
		return
	}
	if s.Bridges[hs] != "intact" || (hs.A != e.Hex && hs.B != e.Hex) {
		v.add(line, "VII.4.4", "%s AT BRIDGE:%s: no intact bridge with an end at %s", id, hs, e.Hex)
		return
	}
	at := u.Hex
	if d, ok := v.dest[id]; ok {
		at = d
	}
	for _, w := range s.Card(u).Weapons {
		if s.BreaksBridges(w) && Distance(at, e.Hex) <= w.Range {
			return
		}
	}
	v.add(line, "VII.4", "%s AT BRIDGE:%s: only a 155 mm class shell or a bomb larger than 500 lb in range brings an existing bridge down", id, hs)
}

func (v *validator) engagements() {
	s, o := v.s, v.o
	p := s.Player(o.Side)
	used := map[string]bool{}
	for _, e := range o.Engagements {
		if !s.Map.On(e.Hex) {
			v.add(e.Line, "V.5", "ENGAGE %s: off the map", e.Hex)
			continue
		}
		for _, id := range e.Units {
			u := v.own(e.Line, id, "ENGAGE")
			if u == nil {
				continue
			}
			if used[id] {
				v.add(e.Line, "V.5.3", "%s takes part in one engagement per Combat Phase", id)
			}
			used[id] = true
			at, ok := v.dest[id]
			if !ok {
				at = u.Hex
			}
			switch {
			case !u.OnMap():
				v.add(e.Line, "V.6", "%s is not deployed", id)
			case v.recon[id]:
				v.add(e.Line, "VI.6", "%s reconnoitred this turn and may not fight", id)
			case u.Building != "":
				v.add(e.Line, "Inset VI.2", "%s is building %s and stays idle", id, u.Building)
			case u.Repairing != 0:
				v.add(e.Line, "reading 23", "%s is still being repaired (put back by fighting) and stays idle", id)
			case (u.In != "" && u.Role == "towed"):
				v.add(e.Line, "VI.3.5", "%s is hitched for towing and cannot fire", id)
			case u.In != "" && !v.wasUnloaded(id) && !s.firesAboard(u) && !e.Dismounts(id):
				v.add(e.Line, "VI.3", "%s is carried by %s: unload it first", id, u.In)
			default:
				reach := -1
				for _, w := range s.Card(u).Weapons {
					reach = max(reach, w.Range)
				}
				if d := Distance(at, e.Hex); reach < 0 || d > reach {
					v.add(e.Line, "V.5.2", "%s (at %s) cannot reach %s, %s away: %s", id, at, e.Hex, hexCount(d), reachAdvice(e.Hex, reach))
				}
			}
		}
		for id, tk := range e.Targets {
			u := s.Unit(o.Side, id)
			if hs, ok := bridgeTarget(tk); ok {
				v.bridgeTargetCheck(e, id, u, hs)
				continue
			}
			if h, ok := PortTarget(tk); ok {
				v.portTargetCheck(e, id, u, h)
				continue
			}
			side, tid, _ := strings.Cut(tk, ":")
			t := s.Unit(side, tid)
			if u == nil {
				continue
			}
			line := e.Line
			if l, ok := e.TargetLines[id]; ok {
				line = l
			}
			if side == o.Side || t == nil || !t.OnMap() || (t.Hidden && !t.Found) {
				v.add(line, "V.5.2", "%s AT %s: no enemy unit %s you can see", id, tk, tk)
				continue
			}
			at := u.Hex
			if d, ok := v.dest[id]; ok {
				at = d
			}
			probe := *u
			probe.Hex = at
			any := false
			for _, w := range s.Card(u).Weapons {
				any = any || s.CanAffect(&probe, w, t)
			}
			if !any {
				v.add(line, "VI.7.2", "%s AT %s: none of its weapons can affect it from %s (range, targets allowed, or bullets against Defense %d)", id, tk, at, s.Defense(t))
			}
		}
		if e.Mission != nil {
			fo := v.own(e.Line, e.Mission.FO, "MISSION")
			if fo != nil && !s.Card(fo).FireMissions {
				v.add(e.Line, "VI.7.6", "%s cannot call fire missions", fo.ID)
			}
			for _, g := range e.Mission.Guns {
				u := v.own(e.Line, g, "MISSION")
				if u == nil {
					continue
				}
				indirect := false
				for _, w := range s.Card(u).Weapons {
					indirect = indirect || w.Indirect
				}
				in := false
				for _, id := range e.Units {
					in = in || id == g
				}
				if !indirect || !in {
					v.add(e.Line, "VI.7.6", "%s: mission guns need Indirect Fire and must be among the engaged units", g)
				}
			}
		}
		v.smokeOrders(e)
		v.dismountOrders(e)
		if e.Exit != 0 && (e.Exit < 2 || e.Exit%2 != 0) {
			v.add(e.Line, "VI.2.3", "EXIT %d: aircraft leave after an even number of rounds", e.Exit)
		}
		if e.Withdraw != nil || e.Surrender != nil {
			grounded := false
			for _, id := range e.Units {
				if u := s.Unit(o.Side, id); u != nil && s.Card(u).Kind != "aircraft" {
					grounded = true
				}
			}
			if !grounded {
				v.add(e.Line, "VI.2.3", "WITHDRAW and SURRENDER do not apply to aircraft in flight: the engagement has no other unit")
			}
		}
		for _, card := range []string{"Suspend", "Withdraw", "Inspire", "CeaseFire", "Surrender"} {
			want := map[string]bool{"Suspend": e.Suspend != nil, "Withdraw": e.Withdraw != nil, "Inspire": e.Inspire, "CeaseFire": e.CeaseFire != nil, "Surrender": e.Surrender != nil}[card]
			if want && (!s.Options.Cards || !p.holds(card)) {
				v.add(e.Line, "IV.3", "%s: no %s card in your hand", strings.ToUpper(card), card)
			}
		}
	}
}

// reachAdvice says what a unit out of reach of an engagement must do: move
// into the hex with range 0, or within its range.
func reachAdvice(target Hex, reach int) string {
	switch {
	case reach < 0:
		return "it has no weapon to fight with"
	case reach == 0:
		return fmt.Sprintf("its weapons have range 0, so it must move into %s (a MOVE line) to fight there", target)
	}
	return fmt.Sprintf("its range is %d: move it to within %d hexes of %s first", reach, reach, target)
}

// hexCount is a distance in words: "1 hex", "3 hexes".
func hexCount(d int) string {
	if d == 1 {
		return "1 hex"
	}
	return fmt.Sprintf("%d hexes", d)
}
