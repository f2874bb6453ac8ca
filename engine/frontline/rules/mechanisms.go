package rules

import (
	"fmt"
	"strings"
)

// encircle plays Encircle at the end of the Movement Phase (§IV.3.3,
// reading 16): own units in three hexes around the target; a roll-off won
// gives +5 attack initiative there this turn and leaves the defender only
// the open hex to withdraw to; lost, the defender's standing Withdraw for
// the hex may fire, escaping into the open hex if it wins its own
// roll-off; without one nothing happens.
func (r *resolver) encircle(e Encircle) {
	s := r.s
	p := s.Player(r.side)
	s.spend(p, "Encircle")
	won, text := r.rollOff(r.side, r.enemy, "Encircle")
	if won {
		r.encircled[e.Hex] = e.Open
		r.emit("card", "IV.3.3", e.Hex, "", "%s plays Encircle on %s (open hex %s): %s -> encircled: +%d attack initiative there this turn", r.side, e.Hex, e.Open, text, r.r.EncircleInitiative)
		return
	}
	r.emit("card", "IV.3.3", e.Hex, "", "%s plays Encircle on %s (open hex %s): %s -> lost", r.side, e.Hex, e.Open, text)
	q := s.Player(r.enemy)
	answered := false
	for _, o := range q.Standing.Withdraw {
		if (o.Hex.IsZero() || o.Hex == e.Hex) && q.holds("Withdraw") && s.hasFHQ(r.enemy) {
			answered = true
			break
		}
	}
	if !answered {
		r.emit("card", "IV.3.3", e.Hex, "", "%s does not answer with Withdraw: nothing happens", r.enemy)
		return
	}
	s.spend(q, "Withdraw")
	escaped, text := r.rollOff(r.enemy, r.side, "Withdraw")
	if !escaped {
		r.encircled[e.Hex] = e.Open
		r.emit("card", "IV.3.3", e.Hex, "", "%s answers with Withdraw: %s -> lost: the encirclement holds", r.enemy, text)
		return
	}
	r.emit("card", "IV.3.3", e.Hex, "", "%s answers with Withdraw: %s -> its units escape into %s", r.enemy, text, e.Open)
	for _, u := range s.UnitsAt(e.Hex) {
		if u.Side != r.enemy || u.In != "" || !s.Card(u).Land() || s.Movement(u, false) == 0 {
			continue
		}
		from := u.Hex
		if r.enterCheck(u, from, e.Open) {
			r.place(u, e.Open)
			u.DugIn = false
			r.emit("move", "IV.3.8", e.Open, "", "%s withdraws %s -> %s", u.ID, from, e.Open)
		}
	}
}

// hitAndRunStrike: Hit & Run attackers that win the initiative fire once
// with no reply and step back to an adjacent hex, ending the engagement
// (Glossary Hit & Run). It reports that the engagement is over.
func (r *resolver) hitAndRunStrike(b *battle) bool {
	if b.first != b.att || b.att != r.side {
		return false
	}
	for _, f := range b.fighters[b.att] {
		if !r.hitAndRun[f.u.Key()] {
			return false
		}
	}
	r.emit("combat", "Glossary Hit & Run", b.hex, "", "Hit & Run: %s won the initiative and fires once with no reply", b.att)
	b.round = 1
	r.volley(b, b.att)
	for _, f := range r.alive(b, b.att) {
		to := r.escapeHex(f.u, Hex{})
		if to.IsZero() {
			continue
		}
		from := f.u.Hex
		if r.enterCheck(f.u, from, to) {
			r.place(f.u, to)
			r.emit("move", "Glossary Hit & Run", to, "", "%s runs %s -> %s (not a withdrawal)", f.u.ID, from, to)
		}
	}
	r.afterBattle(b)
	return true
}

// offers plays Cease Fire and Conditional Surrender at the start of a
// round on fixed terms (reading 17, design 3.5): the offer spends the card
// either way; the opponent's standing ACCEPT policy answers. A cease fire
// ends the engagement with no experience; an accepted surrender gives the
// offering side's engaged units to the enemy: infantry and crews are
// removed, equipment destroyed (§IV.3.2). It reports the engagement over.
func (r *resolver) offers(b *battle, e Engagement) bool {
	s := r.s
	type offer struct {
		side, card string
	}
	var list []offer
	for _, side := range []string{b.att, b.def} {
		var cease, surr *Condition
		if side == r.side && b.att == r.side {
			cease, surr = e.CeaseFire, e.Surrender
		} else if side == r.enemy {
			for _, o := range s.Player(side).Standing.CeaseFire {
				if (o.Hex.IsZero() || o.Hex == b.hex) && cease == nil {
					cease = o.If
				}
			}
			for _, o := range s.Player(side).Standing.Surrender {
				if (o.Hex.IsZero() || o.Hex == b.hex) && surr == nil {
					surr = o.If
				}
			}
		}
		if surr != nil && r.condition(b, side, surr) {
			list = append(list, offer{side, "Surrender"})
		}
		if cease != nil && r.condition(b, side, cease) {
			list = append(list, offer{side, "CeaseFire"})
		}
	}
	for _, of := range list {
		p := s.Player(of.side)
		if !p.holds(of.card) || !r.cardsAllowed(of.side, r.alive(b, of.side)) || len(r.alive(b, of.side)) == 0 {
			continue
		}
		s.spend(p, of.card)
		other := s.Enemy(of.side)
		st := s.Player(other).Standing
		switch of.card {
		case "CeaseFire":
			accept := false
			switch st.AcceptCeasefire {
			case "always":
				accept = true
			case "if-losing":
				accept = r.condition(b, other, &Condition{Kind: "ODDS<", R: 1})
			}
			if !accept {
				r.emit("card", "IV.3.1", b.hex, "", "%s offers a Cease Fire at the start of round %d: %s refuses (%s); the card is spent", of.side, b.round, other, orDefault(st.AcceptCeasefire, "never"))
				continue
			}
			r.emit("card", "IV.3.1", b.hex, "", "%s offers a Cease Fire at the start of round %d: %s accepts; the engagement ends, no experience for either side", of.side, b.round, other)
			b.noExperience = true
			return true
		case "Surrender":
			if st.AcceptSurrender == "no" {
				r.emit("card", "IV.3.2", b.hex, "", "%s offers Conditional Surrender at the start of round %d: %s refuses; the card is spent", of.side, b.round, other)
				continue
			}
			r.emit("card", "IV.3.2", b.hex, "", "%s offers Conditional Surrender at the start of round %d: %s accepts", of.side, b.round, other)
			for _, f := range r.alive(b, of.side) {
				if !f.u.Aloft { // aircraft in flight do not surrender (§VI.2.3)
					r.capture(f.u, other, 1, "IV.3.2")
				}
			}
			r.captureWorks(b.hex, of.side, other, 1, "IV.3.2")
			b.noExperience = true
			s.Player(of.side).Score += r.r.ScoreCommand
			r.afterBattle(b)
			return true
		}
	}
	return false
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// capture removes a surrendering unit with the crew and passengers it
// carries; the captor scores each at factor times its cost (Table II.1:
// 1 conditional, 2 unconditional).
func (r *resolver) capture(u *Unit, captor string, factor int, section string) {
	s := r.s
	for _, c := range s.cargo(u) {
		if c.Role == "towed" {
			c.In, c.Role = "", ""
			continue
		}
		r.capture(c, captor, factor, section)
	}
	score := factor*s.Card(u).Cost + len(u.Stars)*r.r.ScoreStar
	s.Player(captor).Score += score
	r.emit("captured", section, u.Hex, "", "%s:%s is captured by %s (+%d score)", u.Side, u.ID, captor, score)
	if s.Card(u).Kind == "infantry" {
		r.remove(u)
		return
	}
	r.seize(u, captor, section)
}

// captureWorks: once a surrender leaves loser no land unit in h, the
// emplacements it built there go to the captor with the units (§VI.1.2:
// "Equipment, Emplacements, Structures ... once captured, may be used by
// the capturing force"). Bridges are neutral, used by either side
// (§VII.4), so they stand as they are; command posts are left to combat:
// the book gives no reading of a captured command network.
func (r *resolver) captureWorks(h Hex, loser, captor string, factor int, section string) {
	s := r.s
	if s.landUnit(loser, h) {
		return
	}
	for _, u := range s.UnitsAt(h) {
		if u.Side == loser && s.Card(u).Structure == "emplacement" {
			r.capture(u, captor, factor, section)
		}
	}
}

// surrender: at the end of the active side's turn an enemy land unit whose
// six neighbours all hold active land units or cannot be entered is
// surrounded; still so at the end of the active side's next turn, it
// surrenders unconditionally (§VI.1.2, reading 21): captured, double cost.
func (r *resolver) surrender() {
	s := r.s
	var victims []*Unit
	for _, u := range s.Units {
		if u.Side != r.enemy || !u.OnMap() || u.In != "" || !s.Card(u).Land() {
			continue
		}
		if !r.surrounded(u) {
			u.Surrounded = 0
			continue
		}
		if u.Surrounded != 0 && u.Surrounded < r.own {
			victims = append(victims, u)
			continue
		}
		if u.Surrounded == 0 {
			u.Surrounded = r.own
			r.emit("surrounded", "VI.1.2", u.Hex, "", "%s:%s is surrounded: it surrenders if still so at the end of %s's next turn", u.Side, u.ID, r.side)
		}
	}
	for _, u := range victims {
		h := u.Hex
		r.emit("surrender", "VI.1.2", h, "", "%s:%s, surrounded a full turn, surrenders unconditionally", u.Side, u.ID)
		r.capture(u, r.side, 2, "VI.1.2")
		r.captureWorks(h, r.enemy, r.side, 2, "VI.1.2")
		// Each enemy unit involved rolls for experience (§VI.1.2).
		if s.Options.Experience {
			for _, e := range s.Units {
				if e.Side == r.side && e.OnMap() && e.In == "" && s.Card(e).Land() && Distance(e.Hex, h) == 1 {
					x := s.experienceHolder(e)
					r.emit("experience", "VI.1.2", e.Hex, "", "%s took part in a surrender: %s", x.ID, r.experience(x))
				}
			}
		}
	}
}

func (r *resolver) surrounded(u *Unit) bool {
	s := r.s
	for _, n := range u.Hex.Neighbours() {
		t := s.Map.Terrain(n)
		if t == Sea || t == Impassable || (t == Swamp && s.Card(u).Kind == "vehicle" && !s.Map.Road(u.Hex, n)) {
			continue
		}
		if !s.enemyLand(u.Side, n) {
			return false
		}
	}
	return true
}

// cover fires the waiting side's Cover missions at the start of the
// Combat Phase on active land units that ended their move in the covered
// hex: the covering side wins the initiative and its guns fire through
// the observer at +3 (Inset VI.6, reading 14).
func (r *resolver) cover() {
	s := r.s
	for _, o := range s.Player(r.enemy).Standing.Cover {
		fo := s.Unit(r.enemy, o.FO)
		if fo == nil || !fo.OnMap() || fo.Idle || Distance(fo.Hex, o.Hex) > s.Card(fo).Spotting {
			continue
		}
		var targets []*Unit
		for _, u := range s.UnitsAt(o.Hex) {
			if u.Side == r.side && u.In == "" && s.Card(u).Land() && r.moved[u.Key()] {
				targets = append(targets, u)
			}
		}
		var guns []*Unit
		var ids []string
		for _, id := range o.Guns {
			g := s.Unit(r.enemy, id)
			if g == nil || !g.OnMap() || g.Idle || g.In != "" || r.engaged[g.Key()] || !s.crewed(g) || s.munitionsSpent(g) || s.modifier("ammo-shortage", r.enemy) {
				continue
			}
			if w := s.Card(g).Weapons; len(w) > 0 && w[0].Indirect && Distance(g.Hex, o.Hex) <= w[0].Range {
				guns = append(guns, g)
				ids = append(ids, g.ID)
			}
		}
		if len(targets) == 0 || len(guns) == 0 {
			continue
		}
		r.emit("cover", "VI.7.6.2", o.Hex, "", "%s's Cover on %s through %s: %v fire on the units that entered", r.enemy, o.Hex, fo.ID, ids)
		r.coverFirst = true
		r.engageWith(Engagement{Hex: o.Hex, Units: ids, Mission: &Mission{FO: fo.ID, Guns: ids}}, guns, r.enemy, true, targets)
		for _, t := range targets {
			delete(r.engaged, t.Key())
		}
	}
}

// aircraftExit: aircraft leave a fight after an even number of rounds
// (§VI.2.3): the active side's after its ENGAGE's EXIT (default from
// rules.json), the waiting side's after the default.
func (r *resolver) aircraftExit(b *battle, e Engagement) {
	if b.round%2 != 0 {
		return
	}
	for _, side := range []string{b.att, b.def} {
		after := r.r.AircraftExitRounds
		if side == r.side && e.Exit > 0 {
			after = e.Exit
		}
		for _, f := range b.fighters[side] {
			// A damaged aircraft breaks off at the first even round
			// (ABORT-IF-DAMAGED, design 3.4 default).
			if f.u.Aloft && f.u.OnMap() && !f.left && (b.round >= after || f.u.Damaged) {
				f.left = true
				r.emit("air", "VI.2.3", b.hex, "", "%s leaves the fight after %d rounds", f.u.ID, b.round)
			}
		}
	}
}

// support sets up the waiting side's standing SUPPORT mission for the
// engagement (design 3.4): its observer must spot the hex; the named guns
// among its retaliating units fire through it.
func (r *resolver) support(b *battle, st Standing) {
	s := r.s
	for _, o := range st.Support {
		if !o.Hex.IsZero() && o.Hex != b.hex {
			continue
		}
		fo := s.Unit(b.def, o.FO)
		if fo == nil || !fo.OnMap() || fo.Idle || Distance(fo.Hex, b.hex) > s.Card(fo).Spotting {
			continue
		}
		guns := map[string]bool{}
		for _, g := range o.Guns {
			guns[g] = true
		}
		var ids []string
		for _, f := range b.fighters[b.def] {
			if guns[f.u.ID] {
				f.gun = true
				ids = append(ids, f.u.ID)
			}
		}
		if len(ids) == 0 {
			continue
		}
		b.dmission = &Mission{FO: fo.ID, Guns: ids, FFE: o.FFE, Pin: o.Mission == "PIN"}
		b.dfo = fo
		r.emit("support", "VI.7.6", b.hex, "", "%s supports %s through %s with %v", b.def, b.hex, fo.ID, ids)
		return
	}
}

// bridgeFire: units ordered AT BRIDGE:a-b fire their heavy weapon once at
// the existing bridge before the engagement's rounds; any hit by a
// >=155 mm shell or >=500 lb bomb brings it down (§VII.4.4, reading 18).
// They fight on as usual afterwards.
func (r *resolver) bridgeFire(b *battle, e Engagement) {
	s := r.s
	for _, f := range b.fighters[b.att] {
		hs, ok := bridgeTarget(f.target)
		if !ok {
			continue
		}
		f.target = ""
		if s.Bridges[hs] != "intact" {
			r.emit("fire", "VII.4.4", b.hex, "", "%s: the bridge %s is already down", f.u.ID, hs)
			continue
		}
		for _, w := range s.Card(f.u).Weapons {
			if !s.BreaksBridges(w) || Distance(f.u.Hex, b.hex) > w.Range || (w.OneShot && f.u.Spent) {
				continue
			}
			bonus := 0
			if f.gun && b.fo != nil {
				bonus = r.r.DestroyBonus
			}
			need := s.Need(f.u, w, bonus)
			if w.OneShot {
				f.u.Spent = true
			}
			v := r.roll(20, f.u.ID+" "+w.Name+" at the bridge "+hs.String(), fmt.Sprintf("%d+", need))
			if v != 1 && (v == 20 || v >= need) {
				s.Bridges[hs] = "collapsed"
				r.emit("fire", "VII.4.4", b.hex, "", "%s %s at the bridge %s: d20=%d vs %d HIT -> the bridge collapses", f.u.ID, w.Name, hs, v, need)
			} else {
				r.emit("fire", "VII.4.4", b.hex, "", "%s %s at the bridge %s: d20=%d vs %d -> miss", f.u.ID, w.Name, hs, v, need)
			}
			break
		}
	}
}

// BreaksBridges: "Existing Bridges may also be destroyed by artillery
// equal to or larger than 155mm and bombs larger than 500 lb" (§VII.4),
// where ports and airfields take bombs "equal to or larger than 500 lb".
func (s *State) BreaksBridges(w Weapon) bool {
	return w.Heavy && (w.BombLb == 0 || w.BombLb > s.lib.Rules.BridgeBombOverLb)
}

// bridgeTarget reads a target written BRIDGE:CCRR-CCRR.
func bridgeTarget(t string) (Side2, bool) {
	rest, ok := strings.CutPrefix(t, "BRIDGE:")
	if !ok {
		return Side2{}, false
	}
	hs, err := ParseHexside(rest)
	return hs, err == nil
}

// startRepair: a damaged vehicle, gun or aircraft at a friendly CP or FHQ
// (an aircraft at a friendly airfield) spends an idle turn and half its
// cost, one per post per turn (§VI.4); Rest and Refit makes it free.
func (r *resolver) startRepair(u *Unit) {
	s := r.s
	cost := (s.Card(u).Cost*r.r.RepairCostPercent + 99) / 100
	if s.modifier("rest-refit", u.Side) {
		cost = 0
	}
	post := r.repairPost(u)
	if post == "" {
		r.emit("repair", "VI.4", u.Hex, r.side, "%s cannot be repaired here now", u.ID)
		return
	}
	p := s.Player(u.Side)
	if p.Treasury < cost {
		r.emit("repair", "VI.4", u.Hex, r.side, "%s: repair costs %d, treasury %d: not begun", u.ID, cost, p.Treasury)
		return
	}
	p.Treasury -= cost
	r.repairsAt[post] = true
	u.Repairing = r.own
	r.moved[u.Key()] = true
	r.emit("repair", "VI.4", u.Hex, r.side, "%s begins repairs for %d (treasury %d): idle until %s's next turn", u.ID, cost, p.Treasury, r.side)
}

// repairPost names the post (or airfield) that can repair u now.
func (r *resolver) repairPost(u *Unit) string {
	s := r.s
	// "Only ONE Unit may be repaired during a single Operational Turn at
	// each Command Post or Forward HQ" (§VI.4); the book sets no such limit
	// for an airfield.
	if s.Card(u).Kind == "aircraft" {
		if af := s.repairField(u); af != nil {
			return af.Key()
		}
		return ""
	}
	for _, c := range s.UnitsAt(u.Hex) {
		if c.Side == u.Side && !r.repairsAt[c.Key()] && s.Card(c).Radius > 0 {
			return c.Key()
		}
	}
	return ""
}

// startMerge: two identical damaged infantry units in a hex spend an idle
// turn and become one full unit, stars combined up to five (§VI.4).
func (r *resolver) startMerge(u *Unit, other string) {
	o := r.s.Unit(u.Side, other)
	if o == nil || !o.OnMap() || o.Hex != u.Hex {
		r.emit("repair", "VI.4", u.Hex, r.side, "%s cannot merge with %s now", u.ID, other)
		return
	}
	u.Repairing, o.Repairing = r.own, r.own
	u.MergeWith = o.ID
	r.moved[u.Key()], r.moved[o.Key()] = true, true
	r.emit("repair", "VI.4", u.Hex, r.side, "%s and %s begin to merge: idle until %s's next turn", u.ID, o.ID, r.side)
}

// finishRepairs completes repairs and merges begun in the side's last turn.
func (r *resolver) finishRepairs() {
	s := r.s
	for _, u := range append([]*Unit(nil), s.Units...) {
		if u.Side != r.side || u.Repairing == 0 || u.Repairing >= r.own || !u.OnMap() {
			continue
		}
		if u.MergeWith != "" {
			o := s.Unit(u.Side, u.MergeWith)
			u.MergeWith, u.Repairing = "", 0
			if o == nil || !o.OnMap() || o.Hex != u.Hex {
				r.emit("repair", "VI.4", u.Hex, "", "%s's merge falls through", u.ID)
				continue
			}
			u.Damaged = false
			for _, st := range o.Stars {
				if len(u.Stars) < r.r.MaxStars {
					u.Stars = append(u.Stars, st)
				}
			}
			r.remove(o)
			r.emit("repair", "VI.4", u.Hex, "", "%s and %s merge into one full %s", u.ID, o.ID, u.ID)
			continue
		}
		u.Repairing, u.Damaged = 0, false
		r.emit("repair", "VI.4", u.Hex, "", "%s is repaired", u.ID)
	}
}

// scramble: the waiting side's grounded aircraft named in SCRAMBLE
// intercept an enemy sortie engaging within their reach, before it attacks:
// an engagement of its own, fought as Defensive Combat with the aircraft
// only (§VI.7.1, Inset VI.4, reading 19). The survivors fly back to their
// field; the sortie, if not destroyed, goes on to its target.
func (r *resolver) scramble(e Engagement, att []*Unit) {
	s := r.s
	var flyers []*Unit
	for _, u := range att {
		if u.Aloft {
			flyers = append(flyers, u)
		}
	}
	if len(flyers) == 0 || s.modifier("low-cloud", r.enemy) {
		return
	}
	var ids []string
	var up []*Unit
	home := map[*Unit]Hex{}
	for _, id := range s.Player(r.enemy).Standing.Scramble {
		u := s.Unit(r.enemy, id)
		if u == nil || !u.OnMap() || u.Aloft || u.Idle || u.Repairing != 0 || r.engaged[u.Key()] || s.Card(u).Kind != "aircraft" || !s.crewed(u) {
			continue
		}
		if Distance(u.Hex, e.Hex) > s.Movement(u, false) {
			continue
		}
		home[u] = u.Hex
		up = append(up, u)
		ids = append(ids, u.ID)
	}
	if len(up) == 0 {
		return
	}
	for _, u := range up {
		u.Aloft, u.TOF = true, s.Card(u).TOF
		r.place(u, e.Hex)
	}
	r.emit("air", "VI.7.1", e.Hex, "", "%s scrambles %v to intercept over %s", r.enemy, ids, e.Hex)
	r.engageWith(Engagement{Hex: e.Hex, Units: ids}, up, r.enemy, true, flyers)
	for _, u := range up {
		if u.OnMap() {
			r.place(u, home[u])
			u.Aloft, u.TOF = false, 0
			r.rearm(u)
			r.emit("air", "VI.7.1", home[u], "", "%s returns to %s", u.ID, home[u])
		}
	}
	for _, u := range flyers {
		delete(r.engaged, u.Key())
	}
}
