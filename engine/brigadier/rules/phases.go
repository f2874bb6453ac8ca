package rules

import (
	"fmt"
	"strings"
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

// --- 7 Movement (FP-8), with interrupt fire (FP-7)

func (r *resolver) movement() {
	for _, side := range r.sides() {
		for _, p := range r.st.Active(side) {
			if (p.Order == Back || p.Order == Rout) && !r.bugged[p] && !p.Removed {
				r.retreat(p)
			}
		}
	}
	for _, side := range r.sides() {
		for i := range r.orders[side].Platoons {
			po := &r.orders[side].Platoons[i]
			p := r.st.Platoon(side, po.Platoon)
			if p == nil || len(po.Path) == 0 || r.bugged[p] || r.moved[p] {
				continue
			}
			if p.Order != Move && p.Order != Double {
				r.emit(Event{Side: side, Text: fmt.Sprintf("%s does not move: it is now on %s (FP-7).", p.Name, r.order(p)), Seen: []string{side}})
				continue
			}
			start := p.Hex
			trail := append([]Hex{start}, r.walk(p, po.Path)...)
			r.column(p, trail)
		}
	}
	// Held fire that did not trigger lapses (FP-7).
	for _, p := range r.st.Active("") {
		if p.Reserve != nil && !r.spent[p] {
			r.spent[p] = true
		}
	}
}

// walk moves p along its plotted path as far as it legally goes and
// returns the hexes entered.
func (r *resolver) walk(p *Platoon, path []Hex) []Hex {
	start := p.Hex
	order := p.Order
	allowance := Allowance(r.rs, p, order)
	if order == Double && allPaved(r.st.Map, p.Hex, path) && p.Wounded == 0 {
		allowance = r.rs.Movement[r.rs.Types[p.Type].Move].Move.I() * r.rs.PavedDouble.I()
	}
	spent := 0
	var entered []Hex
	why := ""
	for i, h := range path {
		c := StepCost(r.rs, r.st, p, p.Hex, h, order)
		if q := r.st.At(h); q != nil {
			if q.Side != p.Side {
				why = fmt.Sprintf("stops: %s holds %s", q.Name, h)
				break
			}
			if i == len(path)-1 {
				why = fmt.Sprintf("stops short: %s stands in %s (FP-0)", q.Name, h)
				break
			}
		}
		if c == 0 || spent+c > allowance || !Adjacent(p.Hex, h) {
			why = fmt.Sprintf("stops: it cannot enter %s", h)
			break
		}
		if q := r.st.At(h); q != nil && i+1 < len(path) {
			if q2 := r.st.At(path[i+1]); q2 != nil {
				why = fmt.Sprintf("stops short: %s and %s block the way (FP-0)", q.Name, q2.Name)
				break
			}
		}
		spent += c
		r.step1(p, h)
		entered = append(entered, h)
		if r.st.At(h) != p {
			continue // passing through a friend
		}
		r.interrupt(p)
		if p.Removed {
			why = "is removed"
			break
		}
		if p.Order != order && p.Order != Move && p.Order != Double {
			why = fmt.Sprintf("stops: pushed to %s (FP-7)", r.order(p))
			break
		}
		if r.bugged[p] {
			why = "bugged out"
			break
		}
		if names := r.contact(p); names != "" {
			why = fmt.Sprintf("stops: in contact with %s (FP-8)", names)
			break
		}
	}
	// a platoon passing through a friend and stopped there steps back
	for len(entered) > 0 && r.st.At(p.Hex) != p {
		entered = entered[:len(entered)-1]
		back := start
		if len(entered) > 0 {
			back = entered[len(entered)-1]
		}
		p.Hex = back
	}
	if len(entered) == 0 && why == "" {
		return nil
	}
	text := fmt.Sprintf("%s (%s) moves %s -> %s", p.Name, title(r.rs.OrderName(order)), start, pathText(start, entered))
	if why != "" {
		text += "; " + why
	}
	other := fmt.Sprintf("%s (%s) seen at %s.", p.Name, r.order(p), p.Hex)
	seen := []string{p.Side}
	if !p.Removed {
		seen = r.seenBy(p)
	}
	r.emit(Event{Side: p.Side, Text: text + ".", Other: other, Seen: seen, From: start, To: p.Hex})
	return entered
}

// contact reveals every enemy touching p, and p to them (FP-8, FP-14);
// it names them, "" if none.
func (r *resolver) contact(p *Platoon) string {
	var names []string
	for _, e := range r.st.Active(r.st.Enemy(p.Side)) {
		if Adjacent(e.Hex, p.Hex) {
			e.Hidden = false
			names = append(names, e.Name+" at "+e.Hex.String())
		}
	}
	return strings.Join(names, ", ")
}

// interrupt fires every held platoon whose RESERVE trigger the mover p
// sets off, as one round (FP-7).
func (r *resolver) interrupt(p *Platoon) {
	enemy := r.st.Enemy(p.Side)
	var ready, triggered []*Platoon
	for _, e := range r.st.Active(enemy) {
		if e.Reserve == nil || r.spent[e] || r.rs.Rung(e.Order).Fire != "aimed" || e.Count(r.rs) == 0 || !Sees(r.rs, r.st, e, p) {
			continue
		}
		w, dice := BestWeapon(r.rs, e, p, Distance(e.Hex, p.Hex))
		if w == "" || dice == 0 || r.rs.Weapons[w].Indirect {
			continue
		}
		ready = append(ready, e)
		at := e.Reserve.At
		if at == 0 {
			at = r.rs.Weapons[w].Range.I()
		}
		vehicle := r.rs.Types[p.Type].Vehicle
		if Distance(e.Hex, p.Hex) > at || (e.Reserve.Only == "vehicles" && !vehicle) || (e.Reserve.Only == "foot" && vehicle) {
			continue
		}
		triggered = append(triggered, e)
	}
	var firing []*firePlan
	for _, e := range triggered {
		if len(ready) >= max(e.Reserve.Min, 1) {
			firing = append(firing, &firePlan{side: enemy, firer: e, target: p})
		}
	}
	if len(firing) == 0 {
		return
	}
	r.fireRound(firing, true)
}

// retreat moves a Back platoon away from the nearest enemy it sees within
// reach, and a Rout platoon towards its own edge and off it (FP-3).
func (r *resolver) retreat(p *Platoon) {
	start := p.Hex
	if p.Order == Rout {
		allowance := Allowance(r.rs, p, Rout)
		spent := 0
		var path []Hex
		for {
			if r.homeDistance(p.Side, p.Hex) == 0 {
				p.Removed = true
				p.Fate = "routed off the map"
				r.lose(p)
				r.emit(Event{Side: p.Side, Text: fmt.Sprintf("%s routs off the map at %s (FP-3).", p.Name, p.Hex), Seen: r.all(), From: start, To: p.Hex})
				return
			}
			var best Hex
			bestCost := 0
			for _, n := range p.Hex.Neighbours() {
				c := StepCost(r.rs, r.st, p, p.Hex, n, Rout)
				if c == 0 || spent+c > allowance || r.st.At(n) != nil || r.homeDistance(p.Side, n) >= r.homeDistance(p.Side, p.Hex) {
					continue
				}
				if best.IsZero() || Compare(n, best) < 0 {
					best, bestCost = n, c
				}
			}
			if best.IsZero() {
				break
			}
			spent += bestCost
			r.step1(p, best)
			path = append(path, best)
		}
		if len(path) > 0 {
			r.emit(Event{Side: p.Side, Text: fmt.Sprintf("%s routs %s -> %s (FP-3).", p.Name, start, pathText(start, path)),
				Other: fmt.Sprintf("%s (Rout) seen at %s.", p.Name, p.Hex), Seen: r.seenBy(p), From: start, To: p.Hex})
		}
		return
	}
	var nearest *Platoon
	for _, e := range Seen(r.rs, r.st, p.Side) {
		if d := Distance(e.Hex, p.Hex); d <= r.rs.BackFlees.I() && (nearest == nil || d < Distance(nearest.Hex, p.Hex)) {
			nearest = e
		}
	}
	if nearest == nil {
		return
	}
	path := r.flee(p, nearest.Hex, Allowance(r.rs, p, Back), Back)
	if len(path) > 0 {
		r.emit(Event{Side: p.Side, Text: fmt.Sprintf("%s (Back) falls back from %s: %s -> %s (FP-3).", p.Name, nearest.Name, start, pathText(start, path)),
			Other: fmt.Sprintf("%s (Back) seen at %s.", p.Name, p.Hex), Seen: r.seenBy(p), From: start, To: p.Hex})
	}
}

// column brings the leader's followers along its trail, each ending
// behind the one ahead (FP-3).
func (r *resolver) column(leader *Platoon, trail []Hex) {
	slot := len(trail) - 2
	for _, f := range r.followers[leader] {
		if f.Removed || f.Order >= Back || r.bugged[f] {
			continue
		}
		for slot >= 0 && r.st.At(trail[slot]) != nil && r.st.At(trail[slot]) != f {
			slot--
		}
		if slot < 0 {
			return
		}
		to := trail[slot]
		if Distance(f.Hex, to) > Allowance(r.rs, f, Move) || f.Hex == to {
			continue
		}
		from := f.Hex
		r.step1(f, to)
		r.emit(Event{Side: f.Side, Text: fmt.Sprintf("%s follows %s in column: %s -> %s (FP-3).", f.Name, leader.Name, from, to),
			Other: fmt.Sprintf("%s seen at %s.", f.Name, to), Seen: r.seenBy(f), From: from, To: to})
		slot--
	}
}

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
