package rules

// What the sides' orders and cards do during a fight: the conditions
// written, suspension, interdiction, inspiration, withdrawal, fire for
// effect and defensive combat.

import (
	"fmt"
	"sort"
)

// condition tests a standing condition for side in battle b (design 3.4).
func (r *resolver) condition(b *battle, side string, c *Condition) bool {
	s := r.s
	enemy := s.Enemy(side)
	cost := func(sd string) int {
		n := 0
		for _, f := range r.alive(b, sd) {
			n += s.Card(f.u).Cost
		}
		return n
	}
	switch c.Kind {
	case "ALWAYS":
		return true
	case "LOST":
		return b.lost[side] >= c.N
	case "ROUND>=":
		return b.round >= c.N
	case "ODDS<", "ODDS>":
		e := cost(enemy)
		if e == 0 {
			return c.Kind == "ODDS>"
		}
		odds := float64(cost(side)) / float64(e)
		if c.Kind == "ODDS<" {
			return odds < c.R
		}
		return odds > c.R
	case "ENEMY-COST>":
		n := 0
		for _, t := range r.pool(b, side) {
			n += s.Card(t).Cost
		}
		return n > c.N
	case "ENEMY-HAS":
		for _, t := range r.pool(b, side) {
			tc := s.Card(t)
			switch c.What {
			case "tank":
				if tc.Requires == "tank" {
					return true
				}
			case "gun":
				if tc.Gun {
					return true
				}
			case "aircraft":
				if tc.Kind == "aircraft" {
					return true
				}
			}
		}
	}
	return false
}

// cardsAllowed: command decisions need the FHQ, no Signals Breakdown and
// every unit concerned inside the command network (§IV.3, Inset IV.1).
func (r *resolver) cardsAllowed(side string, fs []*fighter) bool {
	s := r.s
	if !s.hasFHQ(side) || s.modifier("signals-breakdown", side) {
		return false
	}
	for _, f := range fs {
		if !s.commanded(f.u) {
			return false
		}
	}
	return true
}

// suspend plays Suspend Attack after the reveal (§IV.3.7, reading 15):
// won, the attackers go back unharmed; lost, the defenders in range get a
// bonus round first. It reports that the engagement is over.
func (r *resolver) suspend(b *battle) bool {
	s := r.s
	s.spend(s.Player(b.att), "Suspend")
	won, text := r.smokeRollOff(b, b.att, "Suspend Attack", r.alive(b, b.att))
	if won {
		r.emit("card", "IV.3.7", b.hex, "", "%s plays Suspend Attack: %s -> the attackers pull back unharmed", b.att, text)
	} else {
		r.emit("card", "IV.3.7", b.hex, "", "%s plays Suspend Attack: %s -> %s gets a bonus round first", b.att, text, b.def)
		b.round = 0
		r.volley(b, b.def)
	}
	for _, f := range r.alive(b, b.att) {
		if p, ok := r.prevHex[f.u.Key()]; ok {
			r.place(f.u, p)
			r.emit("move", "IV.3.7", p, "", "%s pulls back to %s", f.u.ID, p)
		}
	}
	b.over = true
	r.afterBattle(b)
	return true
}

// interdict tries the waiting side's standing Interdict before initiative
// (§VI.7.6.2, reading 14): every gun rolls at +5; one hit wins the
// defender the initiative; a natural 18+ hit also damages a random
// attacker. It reports success.
func (r *resolver) interdict(b *battle) bool {
	s := r.s
	if b.def == r.side {
		return false
	}
	for _, o := range s.Player(b.def).Standing.Interdict {
		if !o.Hex.IsZero() && o.Hex != b.hex {
			continue
		}
		fo := s.Unit(b.def, o.FO)
		if fo == nil || !fo.OnMap() || fo.Idle {
			continue
		}
		spots := false
		for _, f := range r.alive(b, b.att) {
			spots = spots || Distance(fo.Hex, f.u.Hex) <= s.Card(fo).Spotting
		}
		if !spots {
			continue
		}
		var guns []*Unit
		for _, id := range o.Guns {
			g := s.Unit(b.def, id)
			// A gun already firing back in this engagement still interdicts
			// first (Example VI.4); one busy in another engagement does not.
			if g == nil || !g.OnMap() || g.Idle || g.In != "" || (r.engaged[g.Key()] && !b.fights(g)) || !s.crewed(g) || s.munitionsSpent(g) || s.modifier("ammo-shortage", b.def) {
				continue
			}
			if Distance(g.Hex, b.hex) <= s.Card(g).Weapons[0].Range {
				guns = append(guns, g)
			}
		}
		if len(guns) == 0 {
			continue
		}
		bonus := r.r.InterdictBonus
		big := r.r.InterdictDamageRoll
		success := false
		var damaging []*Unit
		for _, g := range guns {
			w := s.Card(g).Weapons[0]
			need := s.Need(g, w, bonus)
			v := r.roll(20, g.ID+" interdict", fmt.Sprintf("%d+", need))
			hit := v != 1 && (v >= need || v == 20)
			res := "miss"
			if hit {
				success = true
				res = "hit: interdiction"
				if v >= big {
					damaging = append(damaging, g)
					res = fmt.Sprintf("hit, natural %d+: damages a random attacker", big)
				}
			}
			r.emit("interdict", "VI.7.6.2", b.hex, "", "%s calls Interdict through %s: %s %s +%d area: d20=%d vs %d -> %s", b.def, fo.ID, g.ID, w.Name, bonus, v, need, res)
			if !b.fights(g) {
				r.engaged[g.Key()] = true
				b.fighters[b.def] = append(b.fighters[b.def], &fighter{u: g, jam: map[int]int{}})
			}
		}
		for _, g := range damaging {
			att := r.alive(b, b.att)
			if len(att) == 0 {
				break
			}
			t := att[r.roll(len(att), "random attacker", "")-1].u
			w := s.Card(g).Weapons[0]
			in := r.roll(10, "intensity", "")
			words := fmt.Sprintf("intensity d10=%d", in)
			// Exploit Weakness: "Bonus 1 Intensity during all combat" (Inset VIII.3).
			if n := s.experienceHolder(g).stars("exploit-weakness"); n > 0 {
				in += n
				words += fmt.Sprintf(" +%d exploit weakness", n)
			}
			def := s.Defense(t)
			net := max(in+w.DI-def, 0)
			res := r.applyDamageNow(t, net, g)
			if !t.OnMap() {
				b.lost[t.Side]++
			}
			r.emit("interdict", "VI.7.6.2", b.hex, "", "%s's shell falls on %s:%s (d%d): %s +DI %d -Def %d = %d -> %s", g.ID, t.Side, t.ID, len(att), words, w.DI, def, net, res)
		}
		if success {
			b.first = b.def
			r.emit("initiative", "VI.7.6.2", b.hex, "", "Interdict succeeds: %s wins the initiative without a roll", b.def)
			return true
		}
	}
	return false
}

func (r *resolver) standingInspire(side string, h Hex) bool {
	for _, o := range r.s.Player(side).Standing.Inspire {
		if o.Hex.IsZero() || o.Hex == h {
			return true
		}
	}
	return false
}

// tryInspire: Inspire (§IV.3.4): a roll-off; won, every friendly unit in
// the engagement fires a bonus round with no reply. Once per Combat Phase.
func (r *resolver) tryInspire(b *battle, side string, want bool) {
	s := r.s
	p := s.Player(side)
	if !want || r.inspired[side] || !p.holds("Inspire") || !r.cardsAllowed(side, b.fighters[side]) {
		return
	}
	r.inspired[side] = true
	s.spend(p, "Inspire")
	won, text := r.rollOff(side, s.Enemy(side), "Inspire")
	if !won {
		r.emit("card", "IV.3.4", b.hex, "", "%s plays Inspire: %s -> no effect", side, text)
		return
	}
	r.emit("card", "IV.3.4", b.hex, "", "%s plays Inspire: %s -> a bonus round with no reply", side, text)
	b.round = 0
	r.sweep(b)
	r.volley(b, side)
}

// withdrawals checks both sides' Withdraw orders at the start of a round
// (§IV.3.8): the active side's on the engagement, the waiting side's
// standing ones. It reports the engagement over.
func (r *resolver) withdrawals(b *battle, e Engagement) bool {
	s := r.s
	type want struct {
		side string
		to   Hex
	}
	var wants []want
	if b.att == r.side && e.Withdraw != nil && r.condition(b, b.att, e.Withdraw) {
		wants = append(wants, want{side: b.att})
	}
	for _, o := range s.Player(r.enemy).Standing.Withdraw {
		if (o.Hex.IsZero() || o.Hex == b.hex) && o.If != nil && r.condition(b, r.enemy, o.If) {
			wants = append(wants, want{side: r.enemy, to: o.To})
			break
		}
	}
	for _, w := range wants {
		p := s.Player(w.side)
		// "Certain Command Decisions including Surrender and Withdraw do
		// not apply to aircraft in flight" (§VI.2.3).
		var movers []*fighter
		for _, f := range r.alive(b, w.side) {
			if !f.u.Aloft {
				movers = append(movers, f)
			}
		}
		if !p.holds("Withdraw") || len(movers) == 0 || !r.cardsAllowed(w.side, movers) {
			continue
		}
		s.spend(p, "Withdraw")
		won, text := r.smokeRollOff(b, w.side, "Withdraw", movers)
		if won {
			r.emit("card", "IV.3.8", b.hex, "", "%s plays Withdraw at the start of round %d: %s -> they leave at once", w.side, b.round, text)
		} else {
			r.emit("card", "IV.3.8", b.hex, "", "%s plays Withdraw at the start of round %d: %s -> %s fires a bonus round with no reply", w.side, b.round, text, s.Enemy(w.side))
			r.volley(b, s.Enemy(w.side))
			r.sweep(b)
		}
		left, gone := 0, 0
		for _, f := range r.alive(b, w.side) {
			if f.u.Aloft {
				left++
				continue
			}
			if b.pinned[f.u] {
				r.emit("card", "VI.7.6.2", f.u.Hex, "", "%s is pinned and cannot withdraw this round", f.u.ID)
				left++
				continue
			}
			if s.Movement(f.u, false) == 0 {
				r.emit("card", "IV.3.8", f.u.Hex, "", "%s cannot withdraw (Movement 0) and fights on", f.u.ID)
				left++
				continue
			}
			to := r.escapeHex(f.u, w.to)
			if to.IsZero() {
				r.emit("card", "IV.3.8", f.u.Hex, "", "%s finds no hex to withdraw to and fights on", f.u.ID)
				left++
				continue
			}
			// "If a terrain check fails, the Unit failing the check may not
			// withdraw ... (they may however continue to fight)" (§IV.3.8).
			from := f.u.Hex
			if !r.enterCheck(f.u, from, to) {
				r.emit("card", "IV.3.8", from, "", "%s cannot withdraw and fights on", f.u.ID)
				left++
				continue
			}
			r.place(f.u, to)
			f.u.DugIn = false
			r.emit("move", "IV.3.8", to, "", "%s withdraws %s -> %s", f.u.ID, from, to)
			f.done = true
			gone++
		}
		if gone > 0 && s.Options.Experience {
			for _, f := range r.alive(b, s.Enemy(w.side)) {
				r.earn(s.experienceHolder(f.u), "forced a withdrawal")
			}
		}
		if left == 0 {
			b.withdrawn[w.side] = true
			return true
		}
	}
	return false
}

// escapeHex picks a withdrawal hex (reading 15): the named one if legal,
// else the adjacent passable hex free of enemy land units nearest a
// friendly FHQ or CP, ties to the lowest number.
func (r *resolver) escapeHex(u *Unit, to Hex) Hex {
	s := r.s
	ok := func(h Hex) bool {
		t := s.Map.Terrain(h)
		if !s.Map.On(h) || t == Sea || t == Impassable || s.enemyLand(u.Side, h) {
			return false
		}
		return !(t == Swamp && s.Card(u).Kind == "vehicle" && !s.Map.Road(u.Hex, h))
	}
	if !to.IsZero() && Distance(u.Hex, to) == 1 && ok(to) {
		return to
	}
	var hqs []Hex
	for _, c := range s.Units {
		if c.Side == u.Side && c.OnMap() && s.Card(c).Radius > 0 {
			hqs = append(hqs, c.Hex)
		}
	}
	var cands []Hex
	for _, n := range u.Hex.Neighbours() {
		if ok(n) {
			cands = append(cands, n)
		}
	}
	dist := func(h Hex) int {
		best := 1 << 20
		for _, q := range hqs {
			best = min(best, Distance(h, q))
		}
		return best
	}
	sort.Slice(cands, func(i, j int) bool {
		di, dj := dist(cands[i]), dist(cands[j])
		if di != dj {
			return di < dj
		}
		if cands[i].Col != cands[j].Col {
			return cands[i].Col < cands[j].Col
		}
		return cands[i].Row < cands[j].Row
	})
	if len(cands) == 0 {
		return Hex{}
	}
	return cands[0]
}

// fireForEffect: one d20 for all of a side's mission guns at +6; a hit
// is a hit for every gun with doubled intensity; the guns are then done
// (Inset VI.6).
func (r *resolver) fireForEffect(b *battle, side string) {
	s := r.s
	_, fo, _ := b.missionOf(side)
	var guns []*fighter
	for _, f := range r.alive(b, side) {
		if f.gun && f.u.OnMap() && s.crewed(f.u) {
			guns = append(guns, f)
		}
	}
	if len(guns) == 0 {
		return
	}
	w0 := s.Card(guns[0].u).Weapons[0]
	need := s.Need(guns[0].u, w0, r.r.FFEBonus)
	v := r.roll(20, "Fire for Effect", fmt.Sprintf("%d+", need))
	hit := v != 1 && (v >= need || v == 20)
	r.emit("fire", "VI.7.6.2", b.hex, "", "%s calls Fire for Effect through %s with %d gun(s): d20=%d vs %d (rating %d -%d) -> %s",
		side, fo.ID, len(guns), v, need, w0.Attack, r.r.FFEBonus, map[bool]string{true: "every gun hits, intensity doubled", false: "miss"}[hit])
	// "any Unit engaged in a Fire for Effect mission may not continue to
	// attack for the remainder of the Engagement"; its munitions come back
	// when its side's next Supply Phase is completed (Inset VI.6).
	for _, f := range guns {
		f.done = true
		f.u.Spent = true
		if !hit {
			continue
		}
		w := s.Card(f.u).Weapons[0]
		t := r.pickTarget(b, f, w, side)
		if t == nil {
			continue
		}
		r.damage(b, f, w, t, fmt.Sprintf("%s %s at %s:%s", f.u.ID, w.Name, t.Side, t.ID), "Fire for Effect", true, false, s.Defense(t))
	}
}

// defensiveCombat: the waiting side engages active units left unengaged
// within its range, after the active engagements (§VI.2.1, reading 13).
func (r *resolver) defensiveCombat() {
	s := r.s
	var hexes []Hex
	seen := map[Hex]bool{}
	for _, u := range s.Units {
		if u.Side == r.side && u.OnMap() && u.In == "" && !r.engaged[u.Key()] && s.Card(u).Kind != "obstacle" && s.Card(u).Kind != "structure" && !seen[u.Hex] && !(u.Hidden && !u.Found) {
			seen[u.Hex] = true
			hexes = append(hexes, u.Hex)
		}
	}
	for _, h := range hexes {
		var att []*Unit
		var targets []*fighter
		for _, u := range s.UnitsAt(h) {
			if u.Side == r.side && u.In == "" && !r.engaged[u.Key()] {
				targets = append(targets, &fighter{u: u})
			}
		}
		if len(targets) == 0 {
			continue
		}
		for _, u := range s.Units {
			// Building and repairing units fight only when attacked (Inset VI.2).
			if u.Side == r.enemy && u.OnMap() && u.In == "" && !r.engaged[u.Key()] && u.Building == "" && u.Repairing == 0 && r.retaliates(u, s.Player(r.enemy).Standing) && r.reachesAny(u, targets) {
				att = append(att, u)
			}
		}
		if len(att) == 0 {
			continue
		}
		var ids []string
		for _, u := range att {
			ids = append(ids, u.ID)
		}
		// The active side still answers as it would to any attack.
		r.engage(Engagement{Hex: h, Units: ids}, att, r.enemy, true)
	}
}
