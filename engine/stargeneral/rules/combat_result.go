package rules

import (
	"fmt"
	"sort"
)

// combatResults applies a combat's losses (4), then in close combat the fall
// back of the loser or a beaten D stand's paying to hold (4.1), and pursuit (4.2).
func (r *resolver) combatResults(e *engagement) {
	c := e.c
	// 4: the target is one hex; the attacker's cap is for the side, or for
	// each hex it attacks from where the cap is per hex (3SG 4).
	defLoss := min(c.Attacker.Hits, r.rs.MaxLossPerCombat)
	attCap := r.rs.MaxLossPerCombat
	if r.rs.MaxLossPer == LossCapPerHex {
		attCap *= len(e.stands)
	}
	attLoss := min(c.Defender.Hits, attCap)
	r.lossCapNote(r.label(e.target), c.Attacker.Hits, defLoss)
	r.lossCapNote(e.unit.ID, c.Defender.Hits, attLoss)
	var eliminated bool
	c.Defender.Losses, eliminated = r.takeLosses(e.target, defLoss, r.sec(SecLosses))
	c.Attacker.Losses = r.attackerLosses(e, attLoss)
	if !e.close {
		return
	}
	switch c.Winner {
	case c.Attacker.Side:
		if !eliminated {
			r.beaten(e.target)
		}
	case c.Defender.Side:
		// 4.1: the attacker's close-assaulting stands fall back; a stand that
		// fired from a distance was not in the close combat.
		for _, as := range e.stands {
			if as.close && r.standAlive(e.unit, as.s) {
				r.fallBack(occupant{unit: e.unit, stand: as.s})
			}
		}
	}
	r.pursue(e, eliminated)
}

func (r *resolver) standAlive(u *Unit, s *Stand) bool {
	if u.Removed {
		return false
	}
	for _, us := range u.Stands {
		if us == s {
			return true
		}
	}
	return false
}

// attackerLosses spreads the attacker's losses over its attacking stands
// (4): where they cost the fewest dice (keep-strength) or the fewest
// strength points (platoons-first), ties on the stand with the fewest SP left
// (2SG Example 1 puts both on the damaged panzer), and in a mixed attack at
// least one on a close-assaulting stand.
func (r *resolver) attackerLosses(e *engagement, n int) int {
	if n <= 0 {
		return 0
	}
	policy := r.choices(e.unit.Side).Losses
	stands := append([]attacker(nil), e.stands...)
	// Stands that lose first on a tie: fewest SP left, then attack order.
	sort.SliceStable(stands, func(i, j int) bool { return stands[i].s.SP < stands[j].s.SP })
	capacity := 0
	for _, as := range stands {
		capacity += r.lossCapacity(as.s)
	}
	n = min(n, capacity)
	type split struct {
		ks        []int
		dice, sps int
	}
	var best *split
	better := func(a, b *split) bool {
		ka, kb := [2]int{a.dice, a.sps}, [2]int{b.dice, b.sps}
		if policy == LossesPlatoonsFirst {
			ka, kb = [2]int{a.sps, a.dice}, [2]int{b.sps, b.dice}
		}
		if ka != kb {
			return ka[0] < kb[0] || (ka[0] == kb[0] && ka[1] < kb[1])
		}
		for i := range a.ks {
			if a.ks[i] != b.ks[i] {
				return a.ks[i] > b.ks[i]
			}
		}
		return false
	}
	ks := make([]int, len(stands))
	var try func(i, left int)
	try = func(i, left int) {
		if i == len(stands) {
			if left > 0 {
				return
			}
			cand := &split{ks: append([]int(nil), ks...)}
			closeLoss := 0
			for j, as := range stands {
				d, sp := r.lossCost(as.s, ks[j], policy)
				cand.dice += d
				cand.sps += sp
				if as.close {
					closeLoss += ks[j]
				}
			}
			if e.mixed && closeLoss == 0 {
				return // 4: at least one loss from the close-assaulting stand
			}
			if best == nil || better(cand, best) {
				best = cand
			}
			return
		}
		for k := min(left, r.lossCapacity(stands[i].s)); k >= 0; k-- {
			ks[i] = k
			try(i+1, left-k)
		}
	}
	try(0, n)
	taken := 0
	for j, as := range stands {
		if best.ks[j] > 0 && r.standAlive(e.unit, as.s) {
			t, _ := r.takeLosses(occupant{unit: e.unit, stand: as.s}, best.ks[j], r.sec(SecLosses))
			taken += t
		}
	}
	return taken
}

// lossCapacity is how many losses a stand can take in one combat: its
// strength points and at most one platoon, and no more than the cap where
// the cap is per hex (4).
func (r *resolver) lossCapacity(s *Stand) int {
	n := s.SP
	if s.Support != nil || s.Transport != nil {
		n++
	}
	if r.rs.MaxLossPer == LossCapPerHex {
		n = min(n, r.rs.MaxLossPerCombat)
	}
	return n
}

// lossCost works out, on a copy, what k losses would cost a stand taken as
// takeLosses takes them: the dice it would no longer throw and the strength
// points it would lose.
func (r *resolver) lossCost(s *Stand, k int, policy string) (dice, sp int) {
	c := *s
	before := r.nominalDice(&c)
	platoonTaken := false
	for range k {
		if p := r.platoonToLose(&c, policy, platoonTaken); p != nil {
			platoonTaken = true
			if c.Transport == p {
				c.Transport = nil
			} else {
				c.Support = nil
			}
			continue
		}
		c.SP--
		sp++
		if c.SP == 0 {
			return before, sp
		}
	}
	return before - r.nominalDice(&c), sp
}

// nominalDice is what a stand and its platoon throw before factors (3.1).
func (r *resolver) nominalDice(s *Stand) int {
	n := min(s.FS, s.SP)
	if s.Support != nil {
		n += r.rs.StandTypes[s.Support.Type].FS
	}
	return n
}

// beaten handles a defender that lost a close combat (4.1): a D stand may pay
// one more SP to hold where the ruleset allows, otherwise it falls back.
func (r *resolver) beaten(o occupant) {
	if o.stand != nil && o.unit.Status == DigIn && !r.choices(o.side()).NoHoldAtCost {
		t := r.b.terrain(o.hex())
		where := r.rs.HoldAtCost == HoldAtCostAnywhere || t.Cover
		survives := o.stand.SP > 1 || o.stand.Support != nil || o.stand.Transport != nil
		switch {
		case where && survives:
			r.emit(Event{Kind: EvHoldAtCost, Side: o.side(), Unit: o.unit.ID, Stand: o.stand.Name, From: o.hex(), Section: r.sec(SecFallBack),
				Text: fmt.Sprintf("%s is beaten but holds %s at the cost of 1 more loss (%s)", r.label(o), o.hex(), r.sec(SecFallBack))})
			r.takeLosses(o, 1, r.sec(SecFallBack))
			return
		case where:
			r.note(r.sec(SecFallBack), "%s cannot pay 1 more SP to hold without being destroyed: it falls back", r.label(o))
		default:
			r.note(r.sec(SecFallBack), "%s is Dug In but not in defensive terrain: it cannot pay to hold and falls back", r.label(o))
		}
	}
	r.fallBack(o)
}

// fallBack moves a beaten stand back along the retreat of 4.1, or, with no
// legal path at all, costs it 1 more SP where it stands (our ruling). Beaten
// artillery loses the shots it has left (5).
func (r *resolver) fallBack(o occupant) {
	from := o.hex()
	ev := Event{Kind: EvFallBack, Side: o.side(), Unit: occupantUnitID(o), From: from, Section: r.sec(SecFallBack)}
	if o.stand != nil {
		ev.Stand = o.stand.Name
	}
	shots := ""
	if o.battery != nil && o.battery.Shots > 0 {
		shots = fmt.Sprintf("; it loses its %d remaining shots (%s)", o.battery.Shots, r.sec(SecArtillery))
		o.battery.Shots = 0
	}
	path := r.fallBackPath(o)
	if path == nil {
		ev.To = from
		ev.Text = fmt.Sprintf("%s must fall back from %s but has no legal path: it loses 1 more SP and stays (%s)%s", r.label(o), from, r.sec(SecFallBack), shots)
		r.emit(ev)
		r.takeLosses(o, 1, r.sec(SecFallBack))
		return
	}
	to := path[len(path)-1]
	if o.battery != nil {
		r.b.moveBattery(o.battery, to)
	} else {
		r.b.moveStand(o.unit, o.stand, to)
	}
	ev.To, ev.Path, ev.SP = to, path, len(path)
	hexes := "hexes"
	if len(path) == 1 {
		hexes = "hex"
	}
	ev.Text = fmt.Sprintf("%s falls back %d %s from %s to %s (%s)%s", r.label(o), len(path), hexes, from, to, r.sec(SecFallBack), shots)
	r.emit(ev)
}

// fallBackPath is the retreat of 4.1: the shortest path to a hex clear of
// enemy ZOC and of other core stands, through enemy ZOC and friendly stands
// if need be but never through enemy stands or impassable or off-map hexes;
// among the shortest, the one breaking the fewest movement rules, then the one
// ending farthest from the enemy, then nearest its HQ, then by hex number.
// It returns nil when no such path exists.
func (r *resolver) fallBackPath(o occupant) []Hex {
	side, from := o.side(), o.hex()
	clear := func(h Hex) bool { return r.b.at(h).empty() && !r.b.inEnemyZOC(h, side) }
	enterable := func(h Hex) bool {
		return r.b.passable(h) && (r.b.at(h).empty() || r.b.at(h).side() == side)
	}
	dist := map[Hex]int{from: 0}
	frontier := []Hex{from}
	length := 0
	for len(frontier) > 0 && length == 0 {
		var next []Hex
		for _, h := range frontier {
			for _, n := range h.Neighbours() {
				if _, seen := dist[n]; seen || !enterable(n) {
					continue
				}
				dist[n] = dist[h] + 1
				if clear(n) {
					length = dist[n] // a retreat stops at the first clear hex
					continue
				}
				next = append(next, n)
			}
		}
		frontier = next
	}
	if length == 0 {
		return nil
	}
	var paths [][]Hex
	var walk func(path []Hex)
	walk = func(path []Hex) {
		last := from
		if len(path) > 0 {
			last = path[len(path)-1]
		}
		for _, n := range last.Neighbours() {
			if d, ok := dist[n]; !ok || d != len(path)+1 {
				continue
			}
			p := append(append([]Hex(nil), path...), n)
			switch {
			case len(p) == length && clear(n):
				paths = append(paths, p)
			case len(p) < length && !clear(n):
				walk(p)
			}
		}
	}
	walk(nil)
	var hq *Stand
	if o.stand != nil {
		if h := o.unit.HQ(r.rs); h != o.stand {
			hq = h
		}
	}
	allowance := r.normalAllowance(o)
	type choice struct {
		path                    []Hex
		breaks, enemy, fromHome int
	}
	choices := make([]choice, len(paths))
	for i, p := range paths {
		end := p[len(p)-1]
		c := choice{path: p, breaks: r.retreatBreaks(p, side, allowance), enemy: r.b.nearestEnemy(end, side)}
		if hq != nil {
			c.fromHome = Distance(end, hq.Hex)
		}
		choices[i] = c
	}
	sort.SliceStable(choices, func(i, j int) bool {
		a, b := choices[i], choices[j]
		switch {
		case a.breaks != b.breaks:
			return a.breaks < b.breaks
		case a.enemy != b.enemy:
			return a.enemy > b.enemy
		case a.fromHome != b.fromHome:
			return a.fromHome < b.fromHome
		}
		ea, eb := a.path[len(a.path)-1], b.path[len(b.path)-1]
		if ea != eb {
			return hexNumber(ea) < hexNumber(eb)
		}
		for k := range a.path {
			if a.path[k] != b.path[k] {
				return hexNumber(a.path[k]) < hexNumber(b.path[k])
			}
		}
		return false
	})
	return choices[0].path
}

func hexNumber(h Hex) int { return h.Col*100 + h.Row }

// retreatBreaks counts the movement rules a retreat path breaks (4.1): going
// on after entering an enemy ZOC (2.4) or halting terrain (2.5), entering a
// hex that must be halted before, and every hex beyond the normal allowance.
func (r *resolver) retreatBreaks(path []Hex, side string, allowance int) int {
	n := 0
	for i, h := range path {
		t := r.b.terrain(h)
		last := i == len(path)-1
		if t.Normal == MoveHaltBefore || (t.Normal == MoveHaltBeforeAndOnEnter && i > 0) {
			n++
		}
		if !last && (t.Normal == MoveHaltOnEnter || t.Normal == MoveHaltBeforeAndOnEnter) {
			n++
		}
		if !last && r.b.inEnemyZOC(h, side) {
			n++
		}
		if i >= allowance {
			n++
		}
	}
	return n
}

// normalAllowance is a core stand's or battery's normal move (2).
func (r *resolver) normalAllowance(o occupant) int {
	if o.battery != nil {
		return r.rs.Movement[r.batteryMoveClass(o.battery)].Normal
	}
	return r.b.allowance(o.stand).Normal
}

// pursue lets a winning close-assaulting stand advance into the hex its
// enemy left (4.2): not when the attacker took more hits than it dealt, even
// though the defender was eliminated; when hits were even and the defender
// was eliminated it may.
func (r *resolver) pursue(e *engagement, eliminated bool) {
	c := e.c
	if !r.b.at(c.Target).empty() {
		return
	}
	switch {
	case c.Attacker.Hits < c.Defender.Hits:
		if eliminated {
			r.note(r.sec(SecPursuit), "%s took more hits than it dealt (%d to %d): it does not advance into %s although the defender was eliminated",
				e.unit.ID, c.Defender.Hits, c.Attacker.Hits, c.Target)
		}
		return
	case c.Attacker.Hits == c.Defender.Hits && !eliminated:
		return
	}
	if r.choices(e.unit.Side).NoPursuit {
		r.note(r.sec(SecPursuit), "%s does not advance into %s: its standing orders say no pursuit", e.unit.ID, c.Target)
		return
	}
	for _, as := range e.stands {
		if as.close && r.standAlive(e.unit, as.s) && Adjacent(as.s.Hex, c.Target) {
			from := as.s.Hex
			r.b.moveStand(e.unit, as.s, c.Target)
			r.emit(Event{Kind: EvPursuit, Side: e.unit.Side, Unit: e.unit.ID, Stand: as.s.Name, From: from, To: c.Target,
				Path: []Hex{c.Target}, Section: r.sec(SecPursuit), Text: fmt.Sprintf("%s %s advances from %s into %s (%s)", e.unit.ID, as.s.Name, from, c.Target, r.sec(SecPursuit))})
			return
		}
	}
}

// lossCapNote says that who takes fewer losses than the hits scored on it
// because of the cap on the strength lost in one combat (4).
func (r *resolver) lossCapNote(who string, hits, losses int) {
	if hits > losses {
		r.note(r.sec(SecLosses), "%d hits on %s, but the loss cap applies: at most %d SP are lost in one combat, so %d are taken",
			hits, who, losses, losses)
	}
}
