package rules

import "fmt"

// --- 4 Call in indirect fire [11.4.1, FP-5]

func (r *resolver) callsPhase() {
	for si, side := range r.sides() {
		early, late := 2+si, 5+si
		o := r.orders[side]
		r.cancelPlans(side)
		r.plannedFire(side, early)
		for _, c := range o.Calls {
			p := r.st.Platoon(side, c.By)
			t := r.st.At(c.Target)
			step := early
			if c.Delay {
				step = late
			}
			switch {
			case p == nil:
				continue
			case !r.rs.Rung(p.Order).Calls:
				r.emit(Event{Side: side, Text: fmt.Sprintf("Call by %s lost: it is on %s; only Aim or Defend may call (11.4.1).", p.Name, r.order(p)), Seen: []string{side}})
				continue
			case t == nil || t.Side == side || !Sees(r.rs, r.st, p, t):
				r.emit(Event{Side: side, Text: fmt.Sprintf("Call by %s on %s lost: no enemy it sees there (11.4.1).", p.Name, c.Target), Seen: []string{side}})
				continue
			case r.rs.Types[p.Type].Observer != "artillery" && !r.st.Battalion(side, p.Battalion).Radio:
				// An artillery observer talks to the guns on the
				// artillery's own net (11.4.2, R2).
				r.emit(Event{Side: side, Text: fmt.Sprintf("Call by %s on %s lost: battalion %s is out of radio contact (11.4.1, FP-4).", p.Name, c.Target, p.Battalion), Seen: []string{side}})
				continue
			}
			for _, bn := range c.Batteries {
				b := r.st.Battery(side, bn)
				if g := r.st.Artillery(r.rs, side, bn); b == nil && g != nil {
					r.callGun(g, p, t, step)
					continue
				}
				switch {
				case b == nil:
				case !b.Radio:
					r.emit(Event{Side: side, Text: fmt.Sprintf("%s does not answer %s's call: out of radio contact (11.4.1, FP-4).", b.Name, p.Name), Seen: []string{side}})
				case b.Missions == 0:
					r.emit(Event{Side: side, Text: fmt.Sprintf("%s has no missions left (FP-5).", b.Name), Seen: []string{side}})
				default:
					if b.Missions > 0 {
						b.Missions--
					}
					r.plans = append(r.plans, &firePlan{side: side, step: step, battery: b, caller: p, target: t, indirect: true})
					r.emit(Event{Side: side, Text: fmt.Sprintf("%s calls %s on %s at %s: it fires at step %d (11.4.1, 11.5.1).", p.Name, b.Name, t.Name, t.Hex, step), Seen: []string{side}})
				}
			}
		}
		for _, sk := range o.Strikes {
			fl := r.st.Flight(side, sk.Flight)
			t := r.st.At(sk.Target)
			if fl == nil || fl.Sorties == 0 || t == nil || t.Side == side {
				continue
			}
			liaison := false
			if sk.By != "" {
				obs := r.st.Platoon(side, sk.By)
				liaison = obs != nil && r.rs.Rung(obs.Order).Calls && Sees(r.rs, r.st, obs, t)
				if !liaison {
					r.emit(Event{Side: side, Text: fmt.Sprintf("Flight %s flies without its air liaison observer %s: it no longer sees %s or may not call (11.4.4).", fl.Name, sk.By, t.Name), Seen: []string{side}})
				}
			}
			fl.Sorties--
			r.plans = append(r.plans, &firePlan{side: side, step: early, flight: fl, target: t, aircraft: r.rs.Air["aircraft"].I(), liaison: liaison})
			r.emit(Event{Side: side, Text: fmt.Sprintf("Flight %s (%s mission) is sent at %s at %s: it attacks at step %d (11.4.3, 11.5.1).", fl.Name, fl.Mission, t.Name, t.Hex, early), Seen: []string{side}})
		}
		// A mortar on Aim or Defend that sees its target calls for itself (FP-5).
		for i := range o.Platoons {
			po := &o.Platoons[i]
			p := r.st.Platoon(side, po.Platoon)
			if p == nil || po.Fire.IsZero() {
				continue
			}
			t := r.st.At(po.Fire)
			if t == nil || t.Side == side {
				continue
			}
			w, _ := BestWeapon(r.rs, p, t, Distance(p.Hex, t.Hex))
			if w == "" || !r.rs.Weapons[w].Indirect {
				continue
			}
			// A target another platoon sees is passed on by radio: the
			// battalion must be in contact after this turn's roll [11.4.1, 11].
			if !Sees(r.rs, r.st, p, t) && !r.st.Battalion(side, p.Battalion).Radio {
				r.emit(Event{Side: side, Text: fmt.Sprintf("%s's fire at %s lost: it does not see %s and battalion %s is out of radio contact (11.4.1).", p.Name, t.Hex, t.Name, p.Battalion), Seen: []string{side}})
				continue
			}
			step := early
			if po.Delay {
				step = late
			}
			r.plans = append(r.plans, &firePlan{side: side, step: step, firer: p, target: t, indirect: true, elseNearest: po.ElseNearest})
		}
	}
}

// callGun brings an artillery platoon on the table onto a caller's target:
// its battalion must be in radio contact too, and it must be free to fire
// [11.4.1].
func (r *resolver) callGun(g, caller, t *Platoon, step int) {
	side := g.Side
	switch {
	case !r.st.Battalion(side, g.Battalion).Radio:
		r.emit(Event{Side: side, Text: fmt.Sprintf("%s does not answer %s's call: battalion %s is out of radio contact (11.4.1).", g.Name, caller.Name, g.Battalion), Seen: []string{side}})
		return
	case r.rs.Rung(g.Order).Fire == "none":
		r.emit(Event{Side: side, Text: fmt.Sprintf("%s does not answer %s's call: it is on %s (11.4.1).", g.Name, caller.Name, r.order(g)), Seen: []string{side}})
		return
	}
	r.plans = append(r.plans, &firePlan{side: side, step: step, firer: g, caller: caller, target: t, indirect: true})
	r.emit(Event{Side: side, Text: fmt.Sprintf("%s calls %s on %s at %s: it fires at step %d (11.4.1, 11.5.1).", caller.Name, g.Name, t.Name, t.Hex, step), Seen: []string{side}})
}

// cancelPlans: a platoon that sees a planned barrage's target and is in
// radio contact with the artillery calls it off, in this phase of any turn
// up to the one it would fire in [11.4.1].
func (r *resolver) cancelPlans(side string) {
	for _, c := range r.orders[side].Cancels {
		p := r.st.Platoon(side, c.By)
		pl := r.st.PlanOn(side, c.Target)
		if p == nil || pl == nil {
			continue
		}
		radio := r.st.Battalion(side, p.Battalion).Radio || r.rs.Types[p.Type].Observer == "artillery"
		if b := r.st.Battery(side, pl.Unit); b != nil {
			radio = radio && b.Radio
		} else if g := r.st.Artillery(r.rs, side, pl.Unit); g != nil {
			radio = radio && r.st.Battalion(side, g.Battalion).Radio
		}
		switch {
		case !SeesHex(r.rs, r.st, p, c.Target):
			r.emit(Event{Side: side, Text: fmt.Sprintf("%s cannot cancel the barrage planned on %s: it does not see it (11.4.1).", p.Name, c.Target), Seen: []string{side}})
		case !radio:
			r.emit(Event{Side: side, Text: fmt.Sprintf("%s cannot cancel the barrage planned on %s: no radio contact with %s (11.4.1).", p.Name, c.Target, pl.Unit), Seen: []string{side}})
		default:
			pl.Cancelled = true
			r.emit(Event{Side: side, Text: fmt.Sprintf("%s cancels %s's barrage planned on %s at %s (11.4.1).", p.Name, pl.Unit, c.Target, ClockText(pl.At)), Seen: []string{side}})
		}
	}
}

// plannedFire fires each barrage whose time the clock has reached, at
// whatever platoon stands in its hex, friend or foe, with no radio needed
// [11.4.1]; it uses a mission of a limited artillery unit.
func (r *resolver) plannedFire(side string, step int) {
	for _, pl := range r.st.Plans {
		if pl.Side != side || pl.Cancelled || pl.Fired || r.st.Clock < pl.At {
			continue
		}
		pl.Fired = true
		fp := &firePlan{side: side, step: step, indirect: true, planned: true}
		if b := r.st.Battery(side, pl.Unit); b != nil {
			if b.Missions == 0 {
				r.emit(Event{Side: side, Text: fmt.Sprintf("%s has no missions left for the barrage planned on %s (FP-5).", b.Name, pl.Target), Seen: []string{side}})
				continue
			}
			if b.Missions > 0 {
				b.Missions--
			}
			fp.battery = b
		} else if g := r.st.Artillery(r.rs, side, pl.Unit); g != nil {
			fp.firer = g
		} else {
			r.emit(Event{Side: side, Text: fmt.Sprintf("The barrage planned on %s is lost: %s is gone (11.4.1).", pl.Target, pl.Unit), Seen: []string{side}})
			continue
		}
		t := r.st.At(pl.Target)
		if t == nil {
			r.emit(Event{Side: side, Text: fmt.Sprintf("%s's barrage planned on %s for %s falls on empty ground (11.4.1).", pl.Unit, pl.Target, ClockText(pl.At)), Seen: r.all(), To: pl.Target})
			continue
		}
		fp.target = t
		r.plans = append(r.plans, fp)
		r.emit(Event{Side: side, Text: fmt.Sprintf("%s's barrage planned on %s for %s comes down at step %d (11.4.1).", pl.Unit, pl.Target, ClockText(pl.At), step), Seen: []string{side}})
	}
}
