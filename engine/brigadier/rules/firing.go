package rules

import (
	"fmt"
	"slices"
	"strings"
)

// --- 5 Firing [11.5]

// firePlan is one firer's (or artillery unit's) fire at one target.
type firePlan struct {
	side        string
	step        int
	firer       *Platoon // nil for an artillery unit
	battery     *Battery
	caller      *Platoon
	target      *Platoon
	indirect    bool
	elseNearest bool
	flight      *Flight // an air strike [11.4.3]
	aircraft    int
	liaison     bool // directed by an air liaison observer [11.4.4]
	planned     bool // a planned barrage [11.4.1]
}

func (r *resolver) firing() {
	for _, p := range r.st.Active("") {
		r.startOrder[p] = p.Order
	}
	contesting := r.st.Contesting()
	for _, side := range r.sides() {
		for i := range r.orders[side].Platoons {
			po := &r.orders[side].Platoons[i]
			p := r.st.Platoon(side, po.Platoon)
			if p == nil || po.Fire.IsZero() || po.Reserve != nil {
				continue
			}
			t := r.st.At(po.Fire)
			if t == nil || t.Side == side {
				continue
			}
			if w, _ := BestWeapon(r.rs, p, t, Distance(p.Hex, t.Hex)); w != "" && r.rs.Weapons[w].Indirect {
				continue // a mortar's own call, planned in phase 4
			}
			step := 5
			if side == contesting {
				step = 6
				if r.rs.Rung(p.Order).Fire == "aimed" && !po.Delay {
					step = 4
				}
			}
			r.plans = append(r.plans, &firePlan{side: side, step: step, firer: p, target: t, elseNearest: po.ElseNearest})
		}
	}
	for step := 1; step <= 6; step++ {
		r.step = step
		if step == 1 {
			r.antiAircraft()
		}
		var groups [][]*firePlan
		for _, pl := range r.plans {
			if pl.step != step {
				continue
			}
			if pl.flight != nil {
				r.airStrike(pl)
				continue
			}
			placed := false
			for gi, g := range groups {
				if g[0].side == pl.side && g[0].target == pl.target {
					groups[gi] = append(g, pl)
					placed = true
					break
				}
			}
			if !placed {
				groups = append(groups, []*firePlan{pl})
			}
		}
		for _, g := range groups {
			r.fireRound(g, false)
		}
	}
	r.step = 0
}

// antiAircraft: at step 1 every AA or HMG platoon within range of an air
// strike's target rolls ⌈Count × 2⌉; each 6 takes one aircraft off that
// attack (FP-6).
func (r *resolver) antiAircraft() {
	for _, pl := range r.plans {
		if pl.flight == nil {
			continue
		}
		for _, p := range r.st.Active(r.st.Enemy(pl.side)) {
			if p.Count(r.rs) == 0 || Distance(p.Hex, pl.target.Hex) > r.rs.Air["aa_range"].I() || !r.antiAircraftWeapon(p) {
				continue
			}
			n := ceilMul(p.Count(r.rs), r.rs.Air["aa_fd"].V)
			hitOn := r.rs.Air["aa_hit_on"].I()
			var dice []Die
			var rolls []int
			down := 0
			for range n {
				d := r.roll()
				rolls = append(rolls, d)
				dice = append(dice, Die{d, p.Name, fmt.Sprintf("%d downs an aircraft", hitOn)})
				if d >= hitOn {
					down++
				}
			}
			down = min(down, pl.aircraft)
			pl.aircraft -= down
			r.emit(Event{Side: p.Side, Text: fmt.Sprintf("Step 1 (AA): %s fires %d dice at flight %s: %s: %d aircraft off the attack, %d left (FP-6).", p.Name, n, pl.flight.Name, joinInts(rolls), down, pl.aircraft),
				Seen: r.all(), Dice: dice})
		}
	}
}

func (r *resolver) antiAircraftWeapon(p *Platoon) bool {
	for _, w := range r.rs.Types[p.Type].Weapons {
		if r.rs.Weapons[w].AntiAircraft {
			return true
		}
	}
	return false
}

// airStrike rolls the mission [11.4.3] and attacks: the enemy platoon
// named, or the striking side's own platoon nearest it (FP-6), or nothing.
func (r *resolver) airStrike(pl *firePlan) {
	m := r.rs.Missions[pl.flight.Mission]
	if pl.aircraft == 0 {
		r.emit(Event{Side: pl.side, Text: fmt.Sprintf("Flight %s has no aircraft left for its attack (FP-6).", pl.flight.Name), Seen: r.all()})
		return
	}
	result, face := "enemy", ""
	var dice []Die
	if pl.liaison {
		m = r.rs.Missions["liaison"]
	}
	if m.Dice > 0 {
		var rolls []int
		for range m.Dice {
			d := r.roll()
			rolls = append(rolls, d)
		}
		slices.Sort(rolls)
		var parts []string
		for _, d := range rolls {
			parts = append(parts, fmt.Sprint(d))
		}
		face = strings.Join(parts, "+")
		need := fmt.Sprintf("friends on %s, enemy on %s", strings.Join(m.Friends, ","), strings.Join(m.Enemy, ","))
		for _, d := range rolls {
			dice = append(dice, Die{d, pl.flight.Name, need})
		}
		switch {
		case slices.Contains(m.Friends, face):
			result = "friends"
		case slices.Contains(m.Enemy, face):
			result = "enemy"
		default:
			result = "off table"
		}
	}
	t := pl.target
	text := fmt.Sprintf("Flight %s (%s mission) rolls %s: %s (11.4.3).", pl.flight.Name, pl.flight.Mission, face, result)
	if m.Dice == 0 {
		text = fmt.Sprintf("Flight %s is directed by its air liaison observer: no roll, it strikes the enemy (11.4.4).", pl.flight.Name)
	}
	switch result {
	case "off table":
		r.emit(Event{Side: pl.side, Text: text, Seen: r.all(), Dice: dice})
		return
	case "friends":
		var near *Platoon
		for _, p := range r.st.Active(pl.side) {
			if near == nil || Distance(p.Hex, t.Hex) < Distance(near.Hex, t.Hex) {
				near = p
			}
		}
		if near == nil {
			return
		}
		text += fmt.Sprintf(" It strikes %s, the nearest friend of %s (FP-6).", near.Name, t.Name)
		pl.target = near
	}
	r.emit(Event{Side: pl.side, Text: text, Seen: r.all(), Dice: dice})
	r.fireRound([]*firePlan{pl}, false)
}

// member is one firer's part of a round.
type member struct {
	plan  *firePlan
	name  string
	hex   Hex
	dice  int
	mode  string // aimed or area
	rolls []int
}

// fireRound resolves one round: a side's fire at one target in one step,
// or the interrupt fire triggered at one moment (11.5.1, FP-7). It
// reports whether the target was hit at all.
func (r *resolver) fireRound(plans []*firePlan, interrupt bool) {
	side := plans[0].side
	t := plans[0].target
	if t.Removed {
		var alt *Platoon
		for _, pl := range plans {
			if pl.elseNearest && pl.firer != nil && !pl.firer.Removed {
				alt = NearestTarget(r.rs, r.st, pl.firer, r.worse(pl.firer))
				break
			}
		}
		if alt == nil {
			r.emit(Event{Side: side, Text: fmt.Sprintf("Fire at %s lost: it is gone (11.5).", t.Name), Seen: []string{side}})
			return
		}
		r.emit(Event{Side: side, Text: fmt.Sprintf("%s is gone: ELSE NEAREST turns the fire on %s at %s.", t.Name, alt.Name, alt.Hex), Seen: []string{side}})
		for _, pl := range plans {
			pl.target = alt
		}
		t = alt
	}
	var members []*member
	for _, pl := range plans {
		m, why := r.member(pl, t, interrupt)
		if why != "" {
			r.emit(Event{Side: side, Text: why, Seen: []string{side}})
		}
		if m == nil {
			continue
		}
		members = append(members, m)
	}
	if len(members) == 0 {
		return
	}
	mult := r.rs.Rung(t.Order).EnemyDice.I()
	total := 0
	air := true
	ambush := true
	var names []string
	for _, m := range members {
		total += m.dice
		air = air && m.plan.flight != nil
		if m.plan.firer == nil || Sees(r.rs, r.st, t, m.plan.firer) {
			ambush = false
		}
		names = append(names, m.name)
	}
	for _, m := range members {
		if m.plan.firer != nil {
			r.spent[m.plan.firer] = true
		}
	}
	// Bug out, chosen before the roll [11.5.8]: not from air attacks nor
	// from an ambush (A15); from indirect fire it goes away from the
	// caller (A14).
	threshold := t.Bugout
	if threshold == 0 {
		threshold = r.st.Side(t.Side).BugoutDefault
	}
	label := fmt.Sprintf("Step %d (%s, %s)", r.step, side, members[0].mode)
	if interrupt {
		label = fmt.Sprintf("Interrupt fire (%s, aimed)", side)
	}
	planned := members[0].plan.planned // a barrage on the clock falls by surprise (R3)
	if threshold > 0 && total*mult >= threshold && !r.bugged[t] && !ambush && !air && !planned {
		r.bugOut(t, members[0].hex, label, strings.Join(names, "+"), total*mult)
		// Every fire of the side at it is lost, delayed fire included (A17).
		for _, pl := range r.plans {
			if pl.side == side && pl.target == t && pl.step > r.step {
				pl.step = 0
				if pl.firer != nil {
					r.spent[pl.firer] = true
				}
			}
		}
		return
	}
	var dice []Die
	var lines []string
	// Sixes are pooled by mode and by the cover each firer meets: only
	// artillery bursts in the trees [11.5.9].
	type pool struct{ mode, cover string }
	sixes := map[pool]int{}
	var pools []pool
	steps := 0
	hitOn := r.rs.HitOn.I()
	for _, m := range members {
		stepFrom := r.rs.AreaStepFrom.I()
		if m.mode == "aimed" {
			stepFrom = r.rs.AimedStepFrom.I()
		}
		need := fmt.Sprintf("%d hits, %d+ a step", hitOn, stepFrom)
		key := pool{m.mode, r.coverOf(t, r.artillery(m.plan))}
		if _, ok := sixes[key]; !ok {
			sixes[key] = 0
			pools = append(pools, key)
		}
		var rolls []string
		for range m.dice {
			d := r.roll()
			m.rolls = append(m.rolls, d)
			dice = append(dice, Die{d, m.name, need})
			rolls = append(rolls, fmt.Sprint(d))
			if d >= hitOn {
				sixes[key] += mult
			}
			if d >= stepFrom {
				steps += mult
			}
		}
		lines = append(lines, fmt.Sprintf("  %s (%s, %d dice; %s): %s", m.name, m.mode, m.dice, need, strings.Join(rolls, " ")))
		if m.plan.firer != nil {
			f := m.plan.firer
			f.Hidden = false // revealed when it fires (FP-14)
			f.FiredTurn = r.st.Turn
		}
	}
	kills, wounds := 0, 0
	var sums []string
	for _, key := range pools {
		n := sixes[key]
		div := r.rs.Cover[key.cover].AimedDiv.I()
		if key.mode == "area" {
			div = r.rs.Cover[key.cover].AreaDiv.I()
		}
		k, w := Hits(n, div)
		kills += k
		wounds += w
		sums = append(sums, fmt.Sprintf("6s: %d x 1/%d (%s %s) = %d kills, %d wound", n, div, key.mode, key.cover, k, w))
	}
	if mult > 1 {
		sums = append(sums, "dice count twice against Double (11.2.1)")
	}
	before := t.Order
	desc := fmt.Sprintf("%s %s (%s, %s, %s)", t.Name, t.Hex, r.order(t), r.st.Map.Kind(t.Hex), title(t.Exp))
	r.applyHits(t, kills, wounds)
	absorb := r.rs.Absorb[t.Exp].I()
	rungs := Rungs(steps, absorb)
	if !t.Removed {
		t.Order = min(Rout, t.Order+rungs)
	}
	result := fmt.Sprintf("steps %d - %s %d = %d: %s -> %s.", steps, title(t.Exp), absorb, rungs, title(r.rs.OrderName(before)), r.order(t))
	if t.Removed {
		result = fmt.Sprintf("steps %d. %s is removed (11.5.2).", steps, t.Name)
	}
	text := fmt.Sprintf("%s: %s (%d dice) at %s\n%s\n  -> %s; %s  %s: %d dead, %d wounded, Count %d.",
		label, strings.Join(names, "+"), total, desc, strings.Join(lines, "\n"), strings.Join(sums, "; "), result, t.Name, t.Dead, t.Wounded, t.Count(r.rs))
	other := ""
	for _, m := range members {
		if m.plan.caller != nil {
			other = strings.ReplaceAll(text, "called by "+m.plan.caller.Name, "called")
		}
	}
	e := Event{Side: side, Text: text, Other: other, Seen: r.all(), Dice: dice, From: members[0].hex, To: t.Hex}
	if other := r.st.Enemy(t.Side); planned && !SideSees(r.rs, r.st, other, t) {
		// A barrage on the map falls by the clock, friend or foe: the
		// side that does not own the platoon hit, and does not see it,
		// learns nothing of it [11.4.1, 14].
		e.Side = t.Side
		e.Other = fmt.Sprintf("%s: %s (%d dice) falls on %s; what it hits there is not seen (11.4.1).", label, strings.Join(names, "+"), total, t.Hex)
	}
	r.emit(e)
	if t.Order >= Back && before < Back {
		r.lose(t)
	}
}

// member checks one firer at its moment and counts its dice.
func (r *resolver) member(pl *firePlan, t *Platoon, interrupt bool) (*member, string) {
	if pl.flight != nil {
		dice := ceilMul(pl.aircraft, r.rs.Air[r.rs.Types[t.Type].Class].V)
		return &member{plan: pl, name: fmt.Sprintf("flight %s (%d aircraft)", pl.flight.Name, pl.aircraft), hex: t.Hex, dice: dice, mode: "area"}, ""
	}
	if pl.battery != nil {
		w := r.rs.Weapons[r.rs.Batteries[pl.battery.Type].Weapon]
		dice := ceilMul(r.rs.Count.I(), w.FD(r.rs.Types[t.Type].Class))
		if dice == 0 {
			return nil, fmt.Sprintf("%s has no dice against %s (FP-1).", pl.battery.Name, t.Name)
		}
		if pl.planned {
			return &member{plan: pl, name: fmt.Sprintf("%s (planned fire)", pl.battery.Name), hex: t.Hex, dice: dice, mode: "area"}, ""
		}
		return &member{plan: pl, name: fmt.Sprintf("%s (called by %s)", pl.battery.Name, pl.caller.Name), hex: pl.caller.Hex, dice: dice, mode: "area"}, ""
	}
	f := pl.firer
	worse := r.worse(f)
	rung := r.fireRung(f)
	switch {
	case f.Removed:
		return nil, ""
	case r.spent[f]:
		return nil, fmt.Sprintf("%s has already spent its fire this turn (11.5.8, A17).", f.Name)
	case rung.Fire == "none":
		return nil, fmt.Sprintf("%s's fire is lost: it is now on %s (11.5.1, A8).", f.Name, r.order(f))
	case r.step == 4 && rung.Fire != "aimed":
		return nil, fmt.Sprintf("%s's aimed fire is lost: it is now on %s (11.5.1).", f.Name, r.order(f))
	case r.bugged[f]:
		return nil, fmt.Sprintf("%s bugged out and does not fire (11.5.8).", f.Name)
	}
	if f.Count(r.rs) == 0 {
		return nil, fmt.Sprintf("%s's fire is lost: no unwounded man left (11.5.2).", f.Name)
	}
	d := Distance(f.Hex, t.Hex)
	w, dice := BestWeapon(r.rs, f, t, d)
	mode := rung.Fire
	if w != "" && r.rs.Weapons[w].Indirect {
		mode = "area"
	} else if !Sees(r.rs, r.st, f, t) {
		return nil, fmt.Sprintf("%s's fire is lost: it no longer sees %s (9.1).", f.Name, t.Name)
	}
	if rung.FireRange != nil && d > rung.FireRange.I() {
		return nil, fmt.Sprintf("%s's fire is lost: on %s it fires only within %d hexes (FP-3).", f.Name, r.order(f), rung.FireRange.I())
	}
	if interrupt {
		mode = "aimed"
	}
	if dice == 0 {
		return nil, fmt.Sprintf("%s's fire is lost: no weapon reaches %s with any dice (FP-1).", f.Name, t.Name)
	}
	m := &member{plan: pl, name: fmt.Sprintf("%s (%s, %s)", f.Name, title(r.rs.OrderName(worse)), w), hex: f.Hex, dice: dice, mode: mode}
	switch {
	case pl.planned:
		m.name, m.hex = fmt.Sprintf("%s (%s, planned fire)", f.Name, w), t.Hex
	case pl.caller != nil:
		m.name, m.hex = fmt.Sprintf("%s (%s, %s, called by %s)", f.Name, title(r.rs.OrderName(worse)), w, pl.caller.Name), pl.caller.Hex
	}
	return m, ""
}

// fireRung is what a firer may do: the worse of its order at the start of
// the Firing Phase and now (A8), in each respect: Move knocked to Aim still
// fires Area, Aim knocked to Hold does not fire.
func (r *resolver) fireRung(p *Platoon) Rung {
	now := r.rs.Rung(p.Order)
	start, ok := r.startOrder[p]
	if !ok {
		return now
	}
	was := r.rs.Rung(start)
	strength := map[string]int{"none": 0, "area": 1, "aimed": 2}
	if strength[was.Fire] < strength[now.Fire] {
		now.Fire = was.Fire
	}
	if was.FireRange != nil && (now.FireRange == nil || was.FireRange.V < now.FireRange.V) {
		now.FireRange = was.FireRange
	}
	return now
}

// worse is the later rung of a firer's order at the start of the Firing
// Phase and now, for the report.
func (r *resolver) worse(p *Platoon) int {
	if o, ok := r.startOrder[p]; ok && o > p.Order {
		return o
	}
	return p.Order
}

func ceilMul(n int, fd float64) int {
	v := float64(n) * fd
	c := int(v)
	if float64(c) < v {
		c++
	}
	return c
}

func (r *resolver) coverOf(t *Platoon, artillery bool) string {
	return CoverOf(r.rs, r.st, t, artillery)
}

// CoverOf is t's cover class [11.5.9]: town, fortification, river bed
// (behind its bank) and dug in are hard; woods and hedge soft; under
// artillery fire woods are open (tree bursts) unless the target is dug in
// or in a fully enclosed armoured vehicle.
func CoverOf(rs *Ruleset, st *State, t *Platoon, artillery bool) string {
	if t.DugIn {
		return "hard"
	}
	switch st.Map.Letter(t.Hex) {
	case 'T', 'F', 's':
		return "hard"
	case 'W':
		if artillery && !rs.Types[t.Type].Enclosed {
			return "open"
		}
		return "soft"
	case 'H':
		return "soft"
	}
	return "open"
}

// artillery reports whether a fire is artillery fire, which bursts in the
// tree tops [11.5.9]: an artillery unit's or a mortar's; not an air
// attack's nor direct fire (A11).
func (r *resolver) artillery(pl *firePlan) bool {
	if pl.flight != nil {
		return false
	}
	if pl.battery != nil {
		return true
	}
	w, _ := BestWeapon(r.rs, pl.firer, pl.target, Distance(pl.firer.Hex, pl.target.Hex))
	return w != "" && r.rs.Weapons[w].Indirect
}

// Hits turns sixes into kills and wounds with a cover divisor [11.5.9]:
// the whole part kills, any fraction is one wound; at factor 1 an odd
// number of sixes turns a kill into a wound.
func Hits(sixes, div int) (kills, wounds int) {
	if div == 1 {
		if sixes%2 == 1 {
			return sixes - 1, 1
		}
		return sixes, 0
	}
	kills = sixes / div
	if sixes%div > 0 {
		wounds = 1
	}
	return kills, wounds
}

// Rungs are the rungs down from steps after experience absorbs its share
// (FP-2).
func Rungs(steps, absorb int) int { return max(0, steps-absorb) }

// applyHits puts kills, then wounds, on unwounded men; a kill that finds
// none is lost (A4), a wound wasted; 4 dead remove the platoon [11.5.9].
func (r *resolver) applyHits(t *Platoon, kills, wounds int) {
	for range kills {
		if t.Count(r.rs) > 0 {
			t.Dead++
		}
	}
	for range wounds {
		if t.Count(r.rs) > 0 {
			t.Wounded++
		}
	}
	if t.Dead >= r.rs.Count.I() && !t.Removed {
		t.Removed = true
		t.Fate = "destroyed"
		r.lose(t)
	}
}

// bugOut moves t a full Move allowance away from the firer, puts it on
// Back and rolls its casualty die [11.5.8].
func (r *resolver) bugOut(t *Platoon, from Hex, label, firers string, announced int) {
	firingSide := r.st.Enemy(t.Side)
	start := t.Hex
	path := r.flee(t, from, r.rs.Movement[r.rs.Types[t.Type].Move].Move.I(), Back)
	r.bugged[t] = true
	before := t.Order
	t.Order = max(t.Order, Back)
	d := r.roll()
	cas := ""
	on := r.rs.BugoutCasualtyOn.I()
	if d == on {
		r.applyHits(t, 1, 1)
		cas = " = 1 kill + 1 wound"
	}
	text := fmt.Sprintf("%s: %s announce %d dice at %s %s; it bugs out (BUGOUT %d) to %s, %s -> %s; casualty die %d (on %d: 1 kill + 1 wound)%s. The fire is lost (11.5.8).",
		label, firers, announced, t.Name, start, max(t.Bugout, r.st.Side(t.Side).BugoutDefault), pathText(start, path), title(r.rs.OrderName(before)), r.order(t), d, on, cas)
	// The target's side learns of the fire, not of firers it cannot see.
	other := strings.Replace(text, firers+" announce", "the enemy announces", 1)
	r.emit(Event{Side: firingSide, Text: text, Other: other, Seen: r.all(), Dice: []Die{{d, t.Name, fmt.Sprintf("%d = 1 kill + 1 wound", on)}}, From: start, To: t.Hex})
	if before < Back {
		r.lose(t)
	}
}
