package rules

import (
	"fmt"
	"strings"
)

// --- 9 Medic (FP-11)

func (r *resolver) medic() {
	for _, p := range r.st.Active("") {
		if p.Wounded == 0 || r.st.EnemyAdjacent(p.Side, p.Hex) {
			continue
		}
		need, why := r.rs.Medic["need"].I(), ""
		for _, s := range r.st.Superiors(p) {
			if Adjacent(s.Hex, p.Hex) {
				need, why = r.rs.Medic["with_hq"].I(), ", "+s.Name+" next to it"
			}
		}
		if r.rs.Types[p.Type].Vehicle || p.Order == Double || r.assaulted[p] {
			need, why = r.rs.Medic["hard"].I(), ", vehicle, Double or close assault"
		}
		var rolls []int
		var dice []Die
		back := 0
		for range p.Wounded {
			d := r.roll()
			rolls = append(rolls, d)
			dice = append(dice, Die{d, p.Name, fmt.Sprintf("%d+", need)})
			if d >= need {
				back++
			}
		}
		p.Wounded -= back
		r.emit(Event{Side: p.Side, Text: fmt.Sprintf("Medic %s: %s against %d+%s: %d return, %d wounded, Count %d (FP-11).", p.Name, joinInts(rolls), need, why, back, p.Wounded, p.Count(r.rs)),
			Seen: []string{p.Side}, Dice: dice})
	}
}

// --- 10 Time (FP-12), digging in (FP-14), the end

func (r *resolver) timePhase() {
	d := r.roll()
	minutes := 0
	for _, row := range r.rs.Time {
		if d <= row.Upto.I() {
			minutes = row.Minutes.I()
			break
		}
	}
	r.st.Clock += minutes
	var table []string
	low := 1
	for _, row := range r.rs.Time {
		band := fmt.Sprintf("%d-%d", low, row.Upto.I())
		if low == row.Upto.I() {
			band = fmt.Sprint(low)
		}
		table = append(table, fmt.Sprintf("%s +%d", band, row.Minutes.I()))
		low = row.Upto.I() + 1
	}
	need := strings.Join(table, ", ")
	r.emit(Event{Side: r.st.Initiative, Text: fmt.Sprintf("Time: %s rolls %d (%s): +%d minutes, the clock reads %s (FP-12).", r.st.Initiative, d, need, minutes, ClockText(r.st.Clock)),
		Seen: r.all(), Dice: []Die{{d, r.st.Initiative, need}}})
	for _, p := range r.st.Active("") {
		if p.Reserve != nil && r.rs.Rung(p.Order).Fire != "aimed" {
			p.Reserve = nil // only Aim and Defend hold fire in reserve (FP-7)
		}
		if p.Order == Defend && !r.moved[p] && !r.rs.Types[p.Type].Vehicle {
			p.Defending++
			if p.Defending >= r.rs.DigInTurns.I() && !p.DugIn {
				p.DugIn = true
				r.emit(Event{Side: p.Side, Text: fmt.Sprintf("%s is dug in at %s (FP-14).", p.Name, p.Hex), Seen: r.seenBy(p)})
			}
		} else {
			p.Defending = 0
		}
	}
	for _, o := range r.st.Objectives {
		if p := r.st.At(o.Hex); p != nil && p.Side != o.Holder {
			o.Holder = p.Side
			r.emit(Event{Side: p.Side, Text: fmt.Sprintf("%s takes %s (%s).", p.Side, o.Name, o.Hex), Seen: r.all()})
		}
	}
	holder, other := r.st.Initiative, r.st.Contesting()
	lh, lo := r.st.Side(holder).LostThisTurn, r.st.Side(other).LostThisTurn
	if lh > lo {
		r.st.Initiative = other
		r.emit(Event{Text: fmt.Sprintf("The initiative passes to %s: %s lost %d platoons this turn, %s %d (FP-12).", other, holder, lh, other, lo), Seen: r.all()})
	}
	r.checkEnd()
}

func (r *resolver) checkEnd() {
	st := r.st
	for _, s := range st.Sides {
		if len(st.Active(s.Name)) == 0 {
			st.Ended = true
			st.Winner = st.Enemy(s.Name)
			st.Result = fmt.Sprintf("%s has no platoon left on the map", s.Name)
		}
	}
	if !st.Ended && st.Clock >= st.End {
		st.Ended = true
		held := 0
		for _, o := range st.Objectives {
			if o.Holder == st.Victory.Side {
				held += o.Value
			}
		}
		if held >= st.Victory.Value {
			st.Winner = st.Victory.Side
		} else {
			st.Winner = st.Enemy(st.Victory.Side)
		}
		st.Result = fmt.Sprintf("the clock reached %s; %s holds objectives worth %d of the %d it needs", ClockText(st.End), st.Victory.Side, held, st.Victory.Value)
	}
	if st.Ended {
		r.emit(Event{Text: fmt.Sprintf("The game is over: %s. %s wins.", st.Result, st.Winner), Seen: r.all()})
	}
}
