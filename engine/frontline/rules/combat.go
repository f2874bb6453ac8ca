package rules

import (
	"strings"
)

// fighter is a unit in an engagement with what it carries between rounds.
type fighter struct {
	u      *Unit
	jam    map[int]int // weapon index -> last round it is jammed
	target string      // current target, an enemy unit key
	he     bool        // fires HE, not AP
	gun    bool        // a mission gun
	done   bool        // fired for effect: out for the engagement
	left   bool        // an aircraft that flew out of the fight
}

// battle is one engagement (§V.5): the starting side is the Attacker.
type battle struct {
	hex       Hex
	att, def  string
	fighters  map[string][]*fighter // by side
	defensive bool
	round     int
	dmg       map[*Unit]int  // net damage taken this round (reading 4)
	startDmg  map[*Unit]bool // damaged when first hit this round
	lost      map[string]int
	first     string   // side that fires first every round
	mission   *Mission // the attacker's fire mission
	fo        *Unit
	gunHit    map[int]bool // rounds in which an attacker's mission gun hit
	// The defender's SUPPORT mission (design 3.4), in the same terms.
	dmission  *Mission
	dfo       *Unit
	dgunHit   map[int]bool
	onTarget  map[string]int    // rounds a mission has fired on a target
	policy    map[string]string // side -> target policy
	apNever   map[string]bool   // side -> AP never
	withdrawn map[string]bool   // sides gone
	over      bool
	fixed     bool // the enemy units are fixed (an interception)
	// stack is the enemy stack revealed in the engaged hex: the units the
	// attackers may shoot though they do not fire back. Crews and
	// passengers that bail out later are not part of the engagement.
	stack map[*Unit]bool
	// pinned units skip their side's next volley (Inset VI.6 Pin).
	pinned map[*Unit]bool
	// smoked units fire at a penalty until the round given (Glossary Smoke).
	smoked map[*Unit]int
	// screens are smoke laid by vehicles; layer the round each vehicle
	// laid its smoke in instead of firing (Glossary Smoke).
	screens []smokeScreen
	layer   map[*Unit]int
	// diving are the attackers' dive bombers that came with their bombs:
	// ground units firing back at them get a bonus (Glossary Dive Bomb).
	diving map[*Unit]bool
	// noExperience: a Cease Fire or a Conditional Surrender ended it
	// (§IV.3.1, §VI.1.1).
	noExperience bool
	// idleIn is the round a carrier spends idle while its passengers get
	// off, and they with it (§VI.3.3).
	idleIn map[*Unit]int
}

// missionOf returns a side's fire mission in the engagement, its
// spotting observer (nil when it does not spot) and the rounds its guns hit.
func (b *battle) missionOf(side string) (*Mission, *Unit, map[int]bool) {
	if side == b.att {
		return b.mission, b.fo, b.gunHit
	}
	return b.dmission, b.dfo, b.dgunHit
}

// fights: u is one of the engagement's fighters, on either side.
func (b *battle) fights(u *Unit) bool {
	for _, fs := range b.fighters {
		for _, f := range fs {
			if f.u == u {
				return true
			}
		}
	}
	return false
}

// isSmoked: u lies under smoke this round.
func (b *battle) isSmoked(u *Unit) bool {
	until, ok := b.smoked[u]
	return ok && until >= b.round
}

// combat plays the Combat Phase (§V.5): the active side's engagements in
// written order, then the waiting side's Defensive Combat (§VI.2.1).
func (r *resolver) combat(o Orders) {
	r.phase = "combat"
	s := r.s
	r.cover()
	for _, e := range o.Engagements {
		var att []*Unit
		for _, id := range e.Units {
			u := s.Unit(r.side, id)
			if u == nil || !u.OnMap() || r.engaged[u.Key()] || u.Idle || !s.crewed(u) || (u.In != "" && !s.firesAboard(u) && !e.Dismounts(id)) || s.munitionsSpent(u) {
				r.emit("combat", "V.5.2", e.Hex, r.side, "%s cannot take part in the engagement at %s (gone, idle, uncrewed, still carried, munitions spent or already engaged)", id, e.Hex)
				continue
			}
			reach := -1
			for _, w := range s.Card(u).Weapons {
				reach = max(reach, w.Range)
			}
			if Distance(u.Hex, e.Hex) > reach {
				r.emit("combat", "V.5.2", e.Hex, r.side, "%s (at %s) cannot reach %s: range %d; it stays out of the engagement", id, u.Hex, e.Hex, max(reach, 0))
				continue
			}
			att = append(att, u)
		}
		if len(att) == 0 {
			continue
		}
		r.scramble(e, att)
		att = onMap(att)
		if len(att) == 0 {
			continue
		}
		r.engage(e, att, r.side, false)
	}
	if s.Player(r.enemy).Standing.DefensiveCombat {
		r.defensiveCombat()
	}
	r.landAircraft()
}

// engage fights one engagement started by side with its units at e.Hex.
func (r *resolver) engage(e Engagement, att []*Unit, side string, defensive bool) {
	r.engageWith(e, att, side, defensive, nil)
}

// engageWith fights an engagement; fixed, when given, are the only enemy
// units in it (an interception fights the sortie's aircraft alone). The
// experience it earned is rolled when it ends (Inset VIII.2).
func (r *resolver) engageWith(e Engagement, att []*Unit, side string, defensive bool, fixed []*Unit) {
	b := r.fight(e, att, side, defensive, fixed)
	r.settleExperience(b)
}

// fight plays an engagement from the reveal to its last round.
func (r *resolver) fight(e Engagement, att []*Unit, side string, defensive bool, fixed []*Unit) *battle {
	s := r.s
	enemy := s.Enemy(side)
	b := &battle{hex: e.Hex, att: side, def: enemy, defensive: defensive, fighters: map[string][]*fighter{}, fixed: fixed != nil,
		dmg: map[*Unit]int{}, startDmg: map[*Unit]bool{}, lost: map[string]int{}, gunHit: map[int]bool{},
		onTarget: map[string]int{}, policy: map[string]string{}, apNever: map[string]bool{}, withdrawn: map[string]bool{}, mission: e.Mission,
		stack: map[*Unit]bool{}, pinned: map[*Unit]bool{}, smoked: map[*Unit]int{}, dgunHit: map[int]bool{}, diving: map[*Unit]bool{}}
	b.policy[side] = s.Player(side).Standing.targetPolicy()
	b.policy[enemy] = s.Player(enemy).Standing.targetPolicy()
	b.apNever[enemy] = s.Player(enemy).Standing.AP == "never"
	he := map[string]bool{}
	for _, id := range e.HE {
		he[id] = true
	}
	for _, u := range att {
		f := &fighter{u: u, jam: map[int]int{}, he: he[u.ID], target: e.Targets[u.ID]}
		if e.Mission != nil {
			for _, g := range e.Mission.Guns {
				f.gun = f.gun || g == u.ID
			}
		}
		b.fighters[side] = append(b.fighters[side], f)
		r.engaged[u.Key()] = true
		u.Hidden, u.Revealed = false, true
		b.diving[u] = s.divesIn(u)
	}
	if e.Mission != nil {
		b.fo = s.Unit(side, e.Mission.FO)
		if b.fo != nil && (!b.fo.OnMap() || Distance(b.fo.Hex, e.Hex) > s.Card(b.fo).Spotting) {
			b.fo = nil
		}
	}
	// The defending stack is revealed (§VIII.1) and the waiting side's
	// retaliation chosen (reading 12).
	st := s.Player(enemy).Standing
	var names []string
	targeted := map[string]bool{}
	for _, t := range e.Targets {
		targeted[t] = true
	}
	for _, u := range fixed {
		names = append(names, u.ID)
		b.fighters[enemy] = append(b.fighters[enemy], &fighter{u: u, jam: map[int]int{}})
		r.engaged[u.Key()] = true
	}
	for _, u := range s.UnitsAt(e.Hex) {
		if fixed != nil {
			break
		}
		if u.Side == enemy && s.exposed(u) {
			b.stack[u] = true
			names = append(names, u.ID+" (with "+u.In+")")
			if (s.firesAboard(u) || s.groundCrew(u)) && !r.engaged[u.Key()] && r.retaliates(u, st) {
				b.fighters[enemy] = append(b.fighters[enemy], &fighter{u: u, jam: map[int]int{}, he: b.apNever[enemy]})
				r.engaged[u.Key()] = true
			}
			continue
		}
		// An obstacle "stays active ... until it is attacked and destroyed as
		// a normal Unit" (§VI.5.1): it is in the fight only when an attacker
		// is ordered AT it, so that no shot is spent on it unasked.
		if u.Side == enemy && s.Card(u).Kind == "obstacle" && targeted[u.Key()] {
			b.stack[u] = true
			names = append(names, u.ID)
			continue
		}
		if u.Side != enemy || u.In != "" || s.Card(u).Kind == "obstacle" || (u.Hidden && !u.Found) {
			continue
		}
		u.Revealed = true
		names = append(names, u.ID)
		b.stack[u] = true
		if r.engaged[u.Key()] || !r.retaliates(u, st) {
			continue
		}
		b.fighters[enemy] = append(b.fighters[enemy], &fighter{u: u, jam: map[int]int{}, he: b.apNever[enemy]})
		r.engaged[u.Key()] = true
	}
	for _, u := range s.Units {
		if fixed != nil || u.Side != enemy || !u.OnMap() || (u.In != "" && !s.firesAboard(u)) || u.Hex == e.Hex || r.engaged[u.Key()] || (u.Hidden && !u.Found) || !r.retaliates(u, st) {
			continue
		}
		if r.reachesAny(u, b.fighters[side]) {
			b.fighters[enemy] = append(b.fighters[enemy], &fighter{u: u, jam: map[int]int{}, he: b.apNever[enemy]})
			r.engaged[u.Key()] = true
			u.Revealed = true
		}
	}
	r.support(b, st)
	var attNames, defNames []string
	for _, f := range b.fighters[side] {
		attNames = append(attNames, f.u.ID)
	}
	for _, f := range b.fighters[enemy] {
		defNames = append(defNames, f.u.ID)
	}
	kind := "Engagement"
	if defensive {
		kind = "Defensive Combat"
	}
	r.emit("engage", "V.5", e.Hex, "", "%s at %s (%s) by %s: attackers %s; the stack there: %s; retaliating: %s", kind, e.Hex, terrainName(s.Map.Terrain(e.Hex)), side,
		strings.Join(attNames, " "), orDash(names), orDash(defNames))
	r.putBack(b)

	r.bridgeFire(b, e)
	r.portFire(b)
	if len(b.fighters[enemy]) == 0 && len(b.stack) == 0 {
		return b // only a bridge or a port was shot at
	}
	r.smokeAtOpen(b, e)
	if e.Suspend != nil && r.condition(b, side, e.Suspend) && s.Player(side).holds("Suspend") && r.cardsAllowed(side, b.fighters[side]) {
		if r.suspend(b) {
			return b
		}
	}
	switch {
	case r.coverFirst:
		r.coverFirst = false
		b.first = side
		r.emit("initiative", "VI.7.6.2", b.hex, "", "Cover: %s wins the initiative without a roll", side)
	case !r.interdict(b):
		r.initiative(b, e)
	}
	if b.over {
		return b
	}
	if r.hitAndRunStrike(b) {
		return b
	}
	// Inspire: once per Combat Phase per side (§IV.3.4).
	r.tryInspire(b, side, e.Inspire)
	r.tryInspire(b, enemy, r.standingInspire(enemy, e.Hex))
	maxRounds := r.r.MaxRounds
	for b.round = 1; b.round <= maxRounds && !b.over; b.round++ {
		r.sweep(b)
		if b.round == 1 {
			r.dismount(b, e)
		}
		r.smokeAtRound(b, e)
		if r.withdrawals(b, e) {
			break
		}
		if r.offers(b, e) {
			break
		}
		if !r.anyTargets(b) {
			r.emit("combat", "reading 11", b.hex, "", "no unit on either side has a target it can affect: the engagement ends")
			break
		}
		r.emit("round", "V.5.1", b.hex, "", "Round %d at %s", b.round, b.hex)
		r.volley(b, b.first)
		r.volley(b, s.Enemy(b.first))
		r.sweep(b)
		r.aircraftExit(b, e)
		// Over when the attackers are gone or nothing of the enemy's is left
		// for them: defenders that do not fire are still there to be shot.
		if len(r.alive(b, side)) == 0 || len(r.pool(b, side)) == 0 {
			break
		}
		if b.round == maxRounds {
			r.emit("combat", "V.5.4", b.hex, "", "%d rounds fought: the engagement is broken off (a safety net far beyond any real fight, rules.json max_rounds)", maxRounds)
		}
	}
	r.afterBattle(b)
	return b
}

func onMap(us []*Unit) []*Unit {
	var out []*Unit
	for _, u := range us {
		if u.OnMap() {
			out = append(out, u)
		}
	}
	return out
}

func orDash(a []string) string {
	if len(a) == 0 {
		return "-"
	}
	return strings.Join(a, " ")
}

func terrainName(t byte) string {
	return map[byte]string{Plains: "plains", Coastal: "coastal", Sea: "sea", Mountain: "mountain", Impassable: "impassable", Swamp: "swamp",
		KeyCity: "key city", RuinedCity: "ruined city", PortCity: "ruined city, port"}[t]
}

func (r *resolver) retaliates(u *Unit, st Standing) bool {
	if u.Idle || r.s.munitionsSpent(u) || holdsFire(u, st) || u.Staged != 0 || !r.s.crewed(u) || len(r.s.Card(u).Weapons) == 0 || r.s.Card(u).Kind == "obstacle" {
		return false
	}
	switch st.Retaliate {
	case "none":
		return false
	case "list":
		for _, id := range st.RetaliateUnits {
			if id == u.ID {
				return true
			}
		}
		return false
	}
	return !(u.Hidden && !u.Found)
}

// reachesAny: some weapon of u can affect some unit of fs.
func (r *resolver) reachesAny(u *Unit, fs []*fighter) bool {
	for _, w := range r.s.Card(u).Weapons {
		for _, f := range fs {
			if r.s.CanAffect(u, w, f.u) {
				return true
			}
		}
	}
	return false
}

func (r *resolver) alive(b *battle, side string) []*fighter {
	var out []*fighter
	for _, f := range b.fighters[side] {
		if f.u.OnMap() && f.u.Side == side && !b.withdrawn[side] && !f.done && !f.left {
			out = append(out, f)
		}
	}
	return out
}

// pool lists the legal targets for side's units: the enemy's engaged
// units, and for the starting side every enemy unit it can see in the
// engaged hex (retaliating or not).
func (r *resolver) pool(b *battle, side string) []*Unit {
	s := r.s
	enemy := s.Enemy(side)
	var out []*Unit
	seen := map[*Unit]bool{}
	for _, f := range b.fighters[enemy] {
		if f.u.OnMap() && f.u.Side == enemy && !b.withdrawn[enemy] && !f.left && (f.u.In == "" || s.exposed(f.u)) {
			out = append(out, f.u)
			seen[f.u] = true
		}
	}
	if side == b.att && !b.withdrawn[enemy] && !b.fixed {
		for _, u := range s.UnitsAt(b.hex) {
			if b.stack[u] && !seen[u] && (u.In == "" || s.exposed(u)) {
				out = append(out, u)
			}
		}
	}
	return out
}

func (r *resolver) anyTargets(b *battle) bool {
	for _, side := range []string{b.att, b.def} {
		for _, f := range r.alive(b, side) {
			for _, w := range r.s.Card(f.u).Weapons {
				for _, t := range r.pool(b, side) {
					if r.s.CanAffect(f.u, w, t) {
						return true
					}
				}
			}
		}
	}
	return false
}

// dismount plays the engagement's `carrier UNLOAD unit` lines at the start
// of round 1: "Soldiers, Teams, or Squads riding tanks (expedient) or
// carried in transporting vehicles may disembark ... at any time during
// the Combat Phase, as long as the transporting Unit spends one Idle
// Combat Round while the disembarkation takes place" (§VI.3.3; §VI.3.4:
// then the tank fires its main gun again). The passengers fight from the
// next round.
func (r *resolver) dismount(b *battle, e Engagement) {
	s := r.s
	for _, d := range e.Dismount {
		c, u := s.Unit(b.att, d.Carrier), s.Unit(b.att, d.Unit)
		if c == nil || u == nil || !c.OnMap() || u.In != c.ID || u.Role != "passenger" {
			continue
		}
		u.In, u.Role = "", ""
		u.Hex = c.Hex
		if b.idleIn == nil {
			b.idleIn = map[*Unit]int{}
		}
		b.idleIn[c], b.idleIn[u] = b.round, b.round
		r.emit("combat", "VI.3.3", b.hex, "", "%s gets off %s at %s: %s spends round %d idle, and %s fights from the next", u.ID, c.ID, c.Hex, c.ID, b.round, u.ID)
	}
}

// sweep ends the round: net damage resets and each unit is measured again
// against the Endurance of the side it shows, full or half (reading 4,
// Glossary Net Damage), whether it fires back or not.
func (r *resolver) sweep(b *battle) {
	b.dmg = map[*Unit]int{}
	b.startDmg = map[*Unit]bool{}
}

// afterBattle settles momentum (§VIII.3, Inset VIII.4): the battle's
// winner and the loser's groups count it (momentum.go).
func (r *resolver) afterBattle(b *battle) {
	if !r.s.Options.Momentum {
		return
	}
	if w := r.battleWinner(b); w != "" {
		r.settleMomentum(b, w)
	}
}

// battleWinner is the side whose engaged enemies are all gone while some
// of its own remain; "" when neither.
func (r *resolver) battleWinner(b *battle) string {
	a, d := len(r.alive(b, b.att)), len(r.pool(b, b.att))
	switch {
	case a > 0 && d == 0:
		return b.att
	case d > 0 && a == 0:
		return b.def
	}
	return ""
}
