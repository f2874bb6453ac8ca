package rules

import (
	"fmt"
	"strings"
)

// Smoke laid by vehicles (Glossary Smoke): in a combat round, instead of
// firing, a unit with the Smoke characteristic screens its side's units
// within its primary weapon's range of its hex. Attacks on them need 2
// more, and their Withdraw and Suspend Attack checks get +4, for three
// rounds. The active side orders `unit SMOKE [IF cond]` under an ENGAGE
// (no condition: the smoke is laid as the engagement opens, before a
// Suspend Attack, instead of the unit's round-1 fire); the waiting side's
// standing `SMOKE hex|any IF cond` has its first smoke vehicle there lay
// it at the start of the first round the condition holds.

// smokeScreen is one vehicle's smoke in an engagement.
type smokeScreen struct {
	side  string
	hex   Hex
	reach int // hexes around hex it screens: the layer's primary range
	until int // last round it lasts
}

// canLaySmoke: a crewed vehicle with the Smoke characteristic.
func (s *State) canLaySmoke(u *Unit) bool {
	c := s.Card(u)
	return c.Smoke && c.Kind == "vehicle" && s.crewed(u)
}

// smokeAtOpen lays the active side's unconditional smoke as the
// engagement opens.
func (r *resolver) smokeAtOpen(b *battle, e Engagement) {
	if b.att != r.side {
		return
	}
	for _, so := range e.Smoke {
		if so.If == nil {
			r.laySmoke(b, b.att, so.Unit)
		}
	}
}

// smokeAtRound lays the smoke whose condition holds at the start of this
// round: the active side's ordered units, the waiting side's standing one.
func (r *resolver) smokeAtRound(b *battle, e Engagement) {
	if b.att == r.side {
		for _, so := range e.Smoke {
			if so.If != nil && r.condition(b, b.att, so.If) {
				r.laySmoke(b, b.att, so.Unit)
			}
		}
	}
	for _, o := range r.s.Player(r.enemy).Standing.Smoke {
		if (o.Hex.IsZero() || o.Hex == b.hex) && o.If != nil && r.condition(b, r.enemy, o.If) {
			r.laySmoke(b, r.enemy, "")
			return
		}
	}
}

// laySmoke has side's named engaged vehicle (or, id empty, its first that
// can, unless smoke already screens it) lay smoke this round instead of
// firing; each vehicle lays once an engagement.
func (r *resolver) laySmoke(b *battle, side, id string) {
	s := r.s
	for _, f := range r.alive(b, side) {
		u := f.u
		if (id != "" && u.ID != id) || !s.canLaySmoke(u) || b.pinned[u] {
			continue
		}
		// A standing order lays no smoke where its smoke still hangs.
		if id == "" && b.screened(u) {
			return
		}
		if _, done := b.layer[u]; done {
			if id != "" {
				return
			}
			continue
		}
		if b.layer == nil {
			b.layer = map[*Unit]int{}
		}
		round := max(b.round, 1)
		reach := 0
		for _, w := range s.Card(u).Weapons {
			if w.Slot == "P" {
				reach = w.Range
				break
			}
		}
		sc := smokeScreen{side: side, hex: u.Hex, reach: reach, until: round + r.r.VehicleSmokeRounds - 1}
		b.screens = append(b.screens, sc)
		b.layer[u] = round
		where := "in " + u.Hex.String()
		if reach > 0 {
			where = fmt.Sprintf("within %d hex(es) of %s", reach, u.Hex)
		}
		r.emit("smoke", "Glossary Smoke", u.Hex, "", "%s lays smoke at %s instead of firing in round %d: attacks on %s units %s need %d more, and their Withdraw and Suspend Attack checks get +%d, through round %d",
			u.ID, u.Hex, round, side, where, r.r.VehicleSmokeAttackPenalty, r.r.SmokeWithdrawBonus, sc.until)
		return
	}
}

// screened: t lies under its own side's smoke this round.
func (b *battle) screened(t *Unit) bool {
	for _, sc := range b.screens {
		if sc.side == t.Side && b.round <= sc.until && Distance(sc.hex, t.Hex) <= sc.reach {
			return true
		}
	}
	return false
}

// smokePenalty is what an attack on t needs more under smoke.
func (r *resolver) smokePenalty(b *battle, t *Unit) int {
	if b.screened(t) {
		return r.r.VehicleSmokeAttackPenalty
	}
	return 0
}

// smokeRollOff is the Withdraw or Suspend Attack check of side (§IV.3.7,
// §IV.3.8): +4 when any of its units concerned lies under its smoke.
func (r *resolver) smokeRollOff(b *battle, side, what string, fs []*fighter) (bool, string) {
	screened := false
	for _, f := range fs {
		screened = screened || b.screened(f.u)
	}
	other := r.s.Enemy(side)
	if !screened {
		return r.rollOff(side, other, what)
	}
	bonus := r.r.SmokeWithdrawBonus
	var text []string
	for {
		a := r.roll(10, side+" "+what, "")
		d := r.roll(10, other+" "+what, "")
		text = append(text, fmt.Sprintf("%s d10=%d +%d smoke = %d, %s d10=%d", side, a, bonus, a+bonus, other, d))
		if a+bonus != d {
			return a+bonus > d, strings.Join(text, "; tie, again: ")
		}
	}
}

// smokeOrders checks `unit SMOKE [IF cond]` lines: the unit attacks in
// this engagement and is a vehicle with the Smoke characteristic.
func (v *validator) smokeOrders(e Engagement) {
	for _, so := range e.Smoke {
		in := false
		for _, id := range e.Units {
			in = in || id == so.Unit
		}
		u := v.s.Unit(v.o.Side, so.Unit)
		switch {
		case !in || u == nil:
			v.add(so.Line, "Glossary Smoke", "%s SMOKE: it must be one of the engagement's units", so.Unit)
		case !v.s.Card(u).Smoke || v.s.Card(u).Kind != "vehicle":
			v.add(so.Line, "Glossary Smoke", "%s cannot lay smoke: only vehicles with the Smoke characteristic do", so.Unit)
		}
	}
}
