package rules

import (
	"fmt"
	"strings"
)

// --- 8 Close assault (FP-10)

func (r *resolver) assault() {
	for _, side := range r.sides() {
		var targets []Hex
		for _, po := range r.orders[side].Platoons {
			if !po.Assault.IsZero() && !containsHex(targets, po.Assault) {
				targets = append(targets, po.Assault)
			}
		}
		for _, h := range targets {
			var attackers []*Platoon
			for _, po := range r.orders[side].Platoons {
				p := r.st.Platoon(side, po.Platoon)
				if p != nil && po.Assault == h && p.Order == Move && Adjacent(p.Hex, h) && p.Count(r.rs) > 0 && !r.bugged[p] {
					attackers = append(attackers, p)
				}
			}
			d := r.st.At(h)
			if len(attackers) == 0 || d == nil || d.Side == side {
				continue
			}
			r.closeAssault(attackers, d)
		}
	}
}

// revealSeen: a hidden platoon comes on the table once an enemy sees it,
// contact included, however that came about [14, 8; FP-14].
func (r *resolver) revealSeen() {
	for _, p := range r.st.Active("") {
		if p.Hidden && SideSees(r.rs, r.st, r.st.Enemy(p.Side), p) {
			p.Hidden = false
		}
	}
}

func containsHex(hs []Hex, h Hex) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

func (r *resolver) closeAssault(attackers []*Platoon, d *Platoon) {
	side := attackers[0].Side
	for _, a := range attackers {
		r.assaulted[a] = true
	}
	r.assaulted[d] = true
	rung := r.rs.Rung(d.Order)
	if rung.Defence == "surrender" {
		r.capture(d, fmt.Sprintf("Close assault on %s at %s: it is on Rout and surrenders (FP-3, FP-10).", d.Name, d.Hex))
		r.pursue(attackers, d.Hex)
		return
	}
	mult := rung.EnemyDice.I()
	var dice []Die
	var lines []string
	atkScore, atkSixes := 0, 0
	for _, a := range attackers {
		w, n := bestWeapon(r.rs, a, r.rs.Types[d.Type].Class, 1, true)
		rolls := r.rollN(n, a.Name, &dice)
		for _, v := range rolls {
			if v >= r.rs.AimedStepFrom.I() {
				atkScore += mult
			}
			if v >= r.rs.HitOn.I() {
				atkSixes += mult
			}
		}
		lines = append(lines, fmt.Sprintf("  %s (%s, %d dice): %s", a.Name, w, n, joinInts(rolls)))
	}
	w, n := bestWeapon(r.rs, d, r.rs.Types[attackers[0].Type].Class, 1, true)
	if rung.Defence == "half" {
		n = (n + 1) / 2
	}
	rolls := r.rollN(n, d.Name, &dice)
	defScore, defSixes := 0, 0
	for _, v := range rolls {
		if v >= r.rs.AimedStepFrom.I() {
			defScore++
		}
		if v >= r.rs.HitOn.I() {
			defSixes++
		}
	}
	lines = append(lines, fmt.Sprintf("  %s defends (%s, %s, %d dice): %s", d.Name, r.order(d), w, n, joinInts(rolls)))
	d.Hidden = false
	h0 := d.Hex
	// Hits as Aimed Fire against each side's own cover (FP-10).
	res := []string{r.assaultHits(d, atkSixes, atkScore), r.assaultHits(attackers[0], defSixes, defScore)}
	outcome := "a tie: both stay in contact (FP-10)"
	switch {
	case atkScore > defScore && !d.Removed:
		outcome = "the attackers win: " + r.withdraw(d, attackers[0])
		r.pursue(attackers, h0)
	case atkScore > defScore:
		outcome = "the attackers win"
		r.pursue(attackers, h0)
	case defScore > atkScore:
		var ws []string
		for _, a := range attackers {
			if !a.Removed {
				ws = append(ws, r.withdraw(a, d))
			}
		}
		outcome = "the defender wins: " + strings.Join(ws, "; ")
	}
	r.emit(Event{Side: side, Text: fmt.Sprintf("Close assault on %s at %s by %s:\n%s\n  -> 5s and 6s: attackers %d, defender %d; %s; %s.",
		d.Name, d.Hex, platoonNames(attackers), strings.Join(lines, "\n"), atkScore, defScore, strings.Join(res, "; "), outcome), Seen: r.all(), Dice: dice, From: attackers[0].Hex, To: d.Hex})
}

func (r *resolver) rollN(n int, by string, dice *[]Die) []int {
	var out []int
	for range n {
		v := r.roll()
		out = append(out, v)
		*dice = append(*dice, Die{v, by, fmt.Sprintf("%d kills, %d+ wins and a step", r.rs.HitOn.I(), r.rs.AimedStepFrom.I())})
	}
	return out
}

func (r *resolver) assaultHits(t *Platoon, sixes, steps int) string {
	cover := r.coverOf(t, false)
	k, w := Hits(sixes, r.rs.Cover[cover].AimedDiv.I())
	r.applyHits(t, k, w)
	rungs := Rungs(steps, r.rs.Absorb[t.Exp].I())
	before := t.Order
	if !t.Removed {
		t.Order = min(Rout, t.Order+rungs)
		if t.Order >= Back && before < Back {
			r.lose(t)
		}
	}
	return fmt.Sprintf("%s (%s): %d kills, %d wound, %d rungs, now %s with %d dead", t.Name, cover, k, w, rungs, r.order(t), t.Dead)
}

// withdraw takes the loser a Move allowance away and to at least Back; it
// surrenders if it cannot move (FP-10).
func (r *resolver) withdraw(p, from *Platoon) string {
	before := p.Order
	p.Order = max(p.Order, Back)
	if before < Back {
		r.lose(p)
	}
	start := p.Hex
	path := r.flee(p, from.Hex, r.rs.Movement[r.rs.Types[p.Type].Move].Move.I(), Back)
	if len(path) == 0 {
		p.Removed = true
		p.Fate = "captured"
		r.lose(p)
		return fmt.Sprintf("%s cannot withdraw and surrenders", p.Name)
	}
	return fmt.Sprintf("%s withdraws %s -> %s on %s", p.Name, start, pathText(start, path), r.order(p))
}

// pursue: a lone winning attacker may take the hex, if its side says so.
func (r *resolver) pursue(attackers []*Platoon, h Hex) {
	var alive []*Platoon
	for _, a := range attackers {
		if !a.Removed {
			alive = append(alive, a)
		}
	}
	if len(alive) == 1 && r.st.Side(alive[0].Side).Pursue && r.st.At(h) == nil && alive[0].Order == Move {
		from := alive[0].Hex
		r.step1(alive[0], h)
		r.emit(Event{Side: alive[0].Side, Text: fmt.Sprintf("%s pursues into %s (PURSUE yes, FP-10).", alive[0].Name, h), Seen: r.all(), From: from, To: h})
	}
}

func platoonNames(ps []*Platoon) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Name)
	}
	return strings.Join(s, "+")
}

func joinInts(v []int) string {
	var s []string
	for _, x := range v {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, " ")
}
