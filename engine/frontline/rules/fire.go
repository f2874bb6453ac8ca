package rules

import (
	"fmt"
	"sort"
)

// volley: every living fighter of side fires once, one at a time
// (Inset V.6 step 4); a bonus round is a volley with no reply.
func (r *resolver) volley(b *battle, side string) {
	s := r.s
	ffeFired := false
	for _, f := range r.alive(b, side) {
		if !f.u.OnMap() || !s.crewed(f.u) {
			continue
		}
		if laid, ok := b.layer[f.u]; ok && laid == b.round {
			continue // it lays smoke this round instead of firing
		}
		if idle, ok := b.idleIn[f.u]; ok && idle == b.round {
			continue // a carrier unloading in combat, and its passengers
		}
		if f.u.In != "" && !s.firesAboard(f.u) {
			continue // still aboard a closed carrier or riding a tank
		}
		if b.pinned[f.u] {
			delete(b.pinned, f.u)
			r.emit("fire", "VI.7.6.2", b.hex, "", "%s is pinned and does not fire this round", f.u.ID)
			continue
		}
		// Fire for Effect fires every mission gun together, so the hit that
		// unlocks it is one of an earlier round (Inset VI.6; docs).
		if m, fo, hits := b.missionOf(side); f.gun && m != nil && m.FFE && fo != nil && !ffeFired && hits[b.round-1] {
			ffeFired = true
			r.fireForEffect(b, side)
			continue
		}
		if f.gun && f.done {
			continue
		}
		usedSecondary := false
		for i, w := range s.Card(f.u).Weapons {
			if w.Slot == "S" && usedSecondary {
				continue
			}
			if w.Slot == "P" && s.carriesRiders(f.u) {
				continue
			}
			if b.round > 0 && f.jam[i] >= b.round {
				continue
			}
			if w.OneShot && f.u.Spent {
				continue
			}
			if w.Indirect && s.modifier("ammo-shortage", side) {
				continue
			}
			t := r.pickTarget(b, f, w, side)
			if t == nil {
				continue
			}
			if w.Slot == "S" {
				usedSecondary = true
			}
			r.fire(b, f, i, w, t, side)
			if !f.u.OnMap() {
				break
			}
		}
	}
}

// pickTarget keeps the current target if the weapon can affect it, else
// takes the side's policy's choice (design 3.4).
func (r *resolver) pickTarget(b *battle, f *fighter, w Weapon, side string) *Unit {
	s := r.s
	var cands []*Unit
	for _, t := range r.pool(b, side) {
		if t.OnMap() && s.CanAffect(f.u, w, t) {
			if t.Key() == f.target {
				return t
			}
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	policy := b.policy[side]
	score := func(t *Unit) float64 {
		p := r.odds(f, w, t, b)
		switch policy {
		case "armour-first":
			if s.Card(t).Kind == "vehicle" {
				p += 10 + float64(s.Defense(t))
			}
		case "infantry-first":
			if s.Card(t).Kind == "infantry" {
				p += 10
			}
		case "damaged-first":
			if t.Damaged {
				p += 10
			}
		}
		return p
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, c := score(cands[i]), score(cands[j])
		if a != c {
			return a > c
		}
		if cands[i].Damaged != cands[j].Damaged {
			return cands[i].Damaged
		}
		ci, cj := s.Card(cands[i]).Cost, s.Card(cands[j]).Cost
		if ci != cj {
			return ci > cj
		}
		return lessID(cands[i].ID, cands[j].ID)
	})
	f.target = cands[0].Key()
	return cands[0]
}

// Need is the d20 roll weapon w of a needs to hit now (Inset V.6 step 5,
// reading 5): its rating, +3 on the damaged side, less bonuses.
func (s *State) Need(a *Unit, w Weapon, bonus int) int {
	need := w.Attack
	if a.Damaged {
		need += s.lib.Rules.DamagedAttackPenalty
	}
	// Marksman stars (Inset VIII.3), cumulative (§VIII.2.1): "If no
	// secondary weapon exists, apply this bonus to primary weapon."
	holder := s.experienceHolder(a)
	switch {
	case w.Slot == "S":
		need -= holder.stars("marksman-secondary")
	case s.hasSecondary(a):
		need -= holder.stars("marksman-primary")
	default:
		need -= holder.stars("marksman-primary") + holder.stars("marksman-secondary")
	}
	if s.Card(a).Kind == "aircraft" && s.modifier("air-superiority", a.Side) {
		need--
	}
	if w.Bomb && s.Card(a).DiveBomb {
		need -= s.lib.Rules.DiveBombBonus
	}
	return need - bonus
}

// hasSecondary: u's card lists a secondary weapon.
func (s *State) hasSecondary(u *Unit) bool {
	for _, w := range s.Card(u).Weapons {
		if w.Slot == "S" {
			return true
		}
	}
	return false
}

// odds is the chance this weapon damages or destroys t this round, from
// the card numbers (design 3.4 best-odds).
func (r *resolver) odds(f *fighter, w Weapon, t *Unit, b *battle) float64 {
	s := r.s
	need := s.Need(f.u, w, r.missionBonus(b, f, t)+r.diveBonus(b, f.u, t)) + r.smokePenalty(b, t)
	hit := float64(21-min(max(need, 2), 20)) / 20
	c := s.Card(t)
	base := c.Endurance
	if t.Damaged {
		base = c.Breakpoint
	}
	thresh := base - c.Breakpoint
	if t.Damaged {
		thresh = base
	}
	def := s.Defense(t)
	if w.AP > def && !f.he {
		def = 0
	}
	faces := 0
	for i := 1; i <= 10; i++ {
		if i+w.DI-def >= thresh-b.dmg[t] {
			faces++
		}
	}
	return (hit*float64(faces)/10 + 0.05) * float64(w.Shots())
}

// missionBonus is a mission gun's Destroy bonus through a spotting FO
// (Inset VI.6): +3, +1 for each later round on the same target, max +10.
func (r *resolver) missionBonus(b *battle, f *fighter, t *Unit) int {
	m, fo, _ := b.missionOf(f.u.Side)
	if !f.gun || fo == nil || !fo.OnMap() {
		return 0
	}
	if b.isSmoked(fo) {
		return 0 // a smoked observer sees nothing
	}
	if m.Pin {
		return r.r.DestroyBonus
	}
	if m.Blind {
		return r.r.BlindBonus
	}
	n := b.onTarget[t.Key()]
	return min(r.r.DestroyBonus+n, r.r.DestroyBonusMax)
}

// divesIn: a dive bomber aloft with a bomb not yet dropped dives on its
// target (Glossary Dive Bomb).
func (s *State) divesIn(u *Unit) bool {
	if !s.Card(u).DiveBomb || !u.Aloft || u.Spent {
		return false
	}
	for _, w := range s.Card(u).Weapons {
		if w.Bomb {
			return true
		}
	}
	return false
}

// diveBonus: "Enemy ground Units retaliating against this Aircraft receive
// a Bonus of 1 to retaliate against the diving Aircraft" (Glossary Dive Bomb).
func (r *resolver) diveBonus(b *battle, a, t *Unit) int {
	if !b.diving[t] || a.Side == t.Side || !r.s.Card(a).Land() {
		return 0
	}
	return r.r.DiveRetaliationBonus
}

// fire rolls one weapon's shots at t (Inset V.6 steps 5-7).
func (r *resolver) fire(b *battle, f *fighter, wi int, w Weapon, t *Unit, side string) {
	s := r.s
	bonus := r.missionBonus(b, f, t)
	need := s.Need(f.u, w, bonus+r.diveBonus(b, f.u, t))
	if b.isSmoked(f.u) {
		need += r.r.SmokeAttackPenalty
	}
	need += r.smokePenalty(b, t)
	if w.OneShot {
		f.u.Spent = true
	}
	if f.gun && bonus > 0 {
		b.onTarget[t.Key()]++
	}
	for shot := 0; shot < w.Shots(); shot++ {
		if !t.OnMap() {
			return
		}
		label := fmt.Sprintf("%s %s at %s:%s", f.u.ID, w.Name, t.Side, t.ID)
		v := r.roll(20, label, fmt.Sprintf("%d+", need))
		switch {
		case v == 1:
			f.jam[wi] = b.round + 1
			rest := ""
			if w.Shots() > 1 && shot < w.Shots()-1 {
				rest = ", its remaining fire cancelled"
			}
			r.emit("fire", "V.6", b.hex, "", "%s: d20=1 -> MISS, jammed this round and next%s", label, rest)
			return
		case v == 20:
			r.emit("fire", "V.6", b.hex, "", "%s: d20=20 -> critical: destroyed outright", label)
			r.gunHit(b, f)
			r.destroyInBattle(b, t, f.u)
			continue
		case v < need:
			r.emit("fire", "V.6", b.hex, "", "%s: d20=%d vs %d -> miss", label, v, need)
			continue
		}
		r.gunHit(b, f)
		m, _, _ := b.missionOf(side)
		if f.gun && bonus > 0 && m.Blind {
			until := b.round + r.r.SmokeRounds
			var ids []string
			for _, u := range r.pool(b, side) {
				if u.Hex == b.hex {
					b.smoked[u] = until
					ids = append(ids, u.ID)
				}
			}
			r.emit("fire", "VI.7.6.2", b.hex, "", "%s: d20=%d vs %d HIT -> smoke on %s: %v fire at -%d and see nothing through round %d", label, v, need, b.hex, ids, r.r.SmokeAttackPenalty, until)
			return
		}
		if f.gun && bonus > 0 && m.Pin {
			b.pinned[t] = true
			if v < r.r.PinDamageRoll {
				r.emit("fire", "VI.7.6.2", b.hex, "", "%s: d20=%d vs %d HIT -> pinned: no fire, no move, no withdrawal in its next round", label, v, need)
				continue
			}
			r.emit("fire", "VI.7.6.2", b.hex, "", "%s: d20=%d vs %d HIT, natural %d+ -> pinned and damaged", label, v, need, r.r.PinDamageRoll)
		}
		r.hit(b, f, w, t, label, v, need, v == 19)
	}
}

func (r *resolver) gunHit(b *battle, f *fighter) {
	if _, fo, hits := b.missionOf(f.u.Side); f.gun && fo != nil {
		hits[b.round] = true
	}
}

// hit resolves a hit: armour piercing, intensity, damage (Inset VI.5, V.6).
func (r *resolver) hit(b *battle, f *fighter, w Weapon, t *Unit, label string, v, need int, double bool) {
	s := r.s
	def := s.Defense(t)
	pierced := false
	apText := ""
	if w.AP > 0 && def > 0 && !f.he {
		wv := r.roll(10, "AP weapon check "+f.u.ID, fmt.Sprintf("<=%d", w.AP))
		switch {
		case wv > w.AP:
			apText = fmt.Sprintf("; AP weapon check d10=%d vs <=%d fails", wv, w.AP)
		case w.AP > def:
			pierced = true
			apText = fmt.Sprintf("; AP weapon check d10=%d vs <=%d passes, AP %d > Defense %d: pierced", wv, w.AP, w.AP, def)
		default:
			av := r.roll(10, "armour check "+t.ID, fmt.Sprintf("<=%d", def))
			if av <= def {
				apText = fmt.Sprintf("; AP weapon check d10=%d passes, armour check d10=%d vs <=%d holds", wv, av, def)
			} else {
				pierced = true
				apText = fmt.Sprintf("; AP weapon check d10=%d passes, armour check d10=%d vs <=%d fails: pierced", wv, av, def)
			}
		}
	}
	r.damage(b, f, w, t, label, fmt.Sprintf("d20=%d vs %d HIT%s", v, need, apText), double, pierced, def)
}

// damage rolls intensity and applies net damage to t (and to its crew
// when pierced), adding up within the round (reading 4).
func (r *resolver) damage(b *battle, f *fighter, w Weapon, t *Unit, label, head string, double, pierced bool, def int) {
	s := r.s
	in := r.roll(10, "intensity", "")
	intensity := in
	words := fmt.Sprintf("intensity d10=%d", in)
	if n := s.experienceHolder(f.u).stars("exploit-weakness"); n > 0 {
		intensity += n
		words += fmt.Sprintf(" +%d exploit weakness", n)
	}
	if double {
		intensity *= 2
		words += " doubled"
	}
	raw := intensity + w.DI
	usedDef := def
	if pierced {
		usedDef = 0
	}
	net := max(raw-usedDef, 0)
	res := r.takeRound(b, t, net, f.u)
	defWord := fmt.Sprintf("-Def %d", def)
	if pierced {
		defWord = "(Defense ignored)"
	}
	r.emit("fire", "V.6", b.hex, "", "%s: %s; %s +DI %d %s = %d -> %s", label, head, words, w.DI, defWord, net, res)
	// The crew takes a pierce's raw damage before its vehicle, destroyed
	// by the same hit, is removed: it then rolls for survival (Example VI.3).
	if c := s.crewOf(t); pierced && c != nil {
		cres := r.takeRound(b, c, raw, f.u)
		r.emit("fire", "VI.7.3", b.hex, "", "pierced: crew %s takes %d -> %s", c.ID, raw, cres)
	}
	r.flushPending(b, f.u)
}

// takeRound adds net damage to t for this round and flips or destroys it
// at once (Inset V.6 step 7); the destroyed unit's crew is handled after
// any pierce damage (flushPending).
func (r *resolver) takeRound(b *battle, t *Unit, net int, by *Unit) string {
	c := r.s.Card(t)
	b.dmg[t] += net
	startDamaged, ok := b.startDmg[t]
	if !ok {
		startDamaged = t.Damaged
		b.startDmg[t] = startDamaged
	}
	base := c.Endurance
	if startDamaged {
		base = c.Breakpoint
	}
	left := base - b.dmg[t]
	switch {
	case left <= 0:
		r.pending = append(r.pending, t)
		return fmt.Sprintf("endurance %d -> %d: DESTROYED", base, left)
	case !t.Damaged && left <= c.Breakpoint:
		t.Damaged = true
		return fmt.Sprintf("endurance %d -> %d (breakpoint %d): DAMAGED", base, left, c.Breakpoint)
	case t.Damaged && startDamaged:
		return fmt.Sprintf("endurance %d -> %d, holds", base, left)
	}
	return fmt.Sprintf("endurance %d -> %d, holds", base, left)
}

func (r *resolver) destroyInBattle(b *battle, t *Unit, by *Unit) {
	r.pending = append(r.pending, t)
	r.flushPending(b, by)
}

// flushPending destroys the units marked this hit: a crew the pierce
// itself destroyed dies first, with no survival roll; a crew it only
// damaged rolls for survival when its vehicle dies (Table VI.3,
// Example VI.3).
func (r *resolver) flushPending(b *battle, by *Unit) {
	sort.SliceStable(r.pending, func(i, j int) bool { return r.pending[i].Role == "crew" && r.pending[j].Role != "crew" })
	for len(r.pending) > 0 {
		t := r.pending[0]
		r.pending = r.pending[1:]
		if !t.OnMap() {
			continue
		}
		if b != nil {
			b.lost[t.Side]++
		}
		r.destroy(t, by)
	}
}
