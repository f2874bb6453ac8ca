package rules

import (
	"fmt"
	"sort"
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

// Defense is a unit's Defense now (Inset III.1): the damaged side, dug in
// +2 and a city +1 for infantry (Glossary Dig In, Inset VII.1).
func (s *State) Defense(u *Unit) int {
	c := s.Card(u)
	// A passenger in an open-top carrier is shot at through the carrier's
	// Defense if it has one (§VI.3); tank riders have only their own.
	if u.Role == "passenger" {
		if carrier := s.Unit(u.Side, u.In); carrier != nil && s.openCarrier(s.Card(carrier)) {
			if cd := s.Defense(carrier); cd > 0 {
				return cd
			}
		}
	}
	d := c.Defense
	if u.Damaged {
		if c.Damaged.Defense != nil {
			d = *c.Damaged.Defense
		} else if d >= s.lib.Rules.DamagedDefenseLossFrom {
			d--
		}
	}
	if c.Kind == "infantry" {
		if u.DugIn {
			d += s.lib.Rules.DigInDefense
		}
		if s.Map.City(u.Hex) {
			d += s.lib.Rules.CityDefense
		}
	}
	return d
}

// targetType: grounded aircraft are vehicle targets (§VI.7.1).
func (s *State) targetType(u *Unit) byte {
	c := s.Card(u)
	if c.Kind == "aircraft" && !u.Aloft {
		return 'V'
	}
	return c.TargetType()
}

// CanAffect reports whether weapon w of unit a may fire at t: range, the
// target types allowed, bullets against armour (§VI.7.2, reading 6), heavy
// weapons for airfields (§VII.5).
func (s *State) CanAffect(a *Unit, w Weapon, t *Unit) bool {
	if Distance(a.Hex, t.Hex) > w.Range || !w.Allows(s.targetType(t)) {
		return false
	}
	tc := s.Card(t)
	if w.Bullet && w.AP == 0 && tc.Kind != "infantry" && s.Defense(t) >= 2 {
		return false
	}
	if tc.Structure == "airfield" && !w.Heavy {
		return false
	}
	if (tc.Structure == "bridge" && w.Bullet) || s.emplacementShields(a, t) {
		return false
	}
	return true
}

// exposed: a unit carried that can be shot at directly: a passenger aboard
// an open-top carrier or riding a tank (§VI.3, §VI.3.4), or the crew of an
// aircraft on the ground (§VII.5.4).
func (s *State) exposed(u *Unit) bool {
	carrier := s.Unit(u.Side, u.In)
	if carrier == nil {
		return false
	}
	if u.Role == "crew" {
		return s.groundCrew(u)
	}
	c := s.Card(carrier)
	return u.Role == "passenger" && (s.openCarrier(c) || s.TakesRiders(c))
}

// groundCrew: "When on the ground, pilots and crews are considered to be
// separate from their aircraft and are treated as Infantry" (§VII.5.4).
func (s *State) groundCrew(u *Unit) bool {
	a := s.Unit(u.Side, u.In)
	return u.Role == "crew" && a != nil && s.Card(a).Kind == "aircraft" && !a.Aloft
}

// openCarrier: a transport with Open Top/Back: its passengers are exposed
// and fight from it (Glossary Open Top/Back, §VI.3).
func (s *State) openCarrier(c *Card) bool { return c.OpenTop && c.Transport > 0 }

// TakesRiders: "medium or larger Tanks, defined as a Cost of 10 Currency
// or greater" carry infantry riding on top (§VI.3.4); a transport carries
// passengers instead.
func (s *State) TakesRiders(c *Card) bool {
	return c.Kind == "vehicle" && c.Requires == "tank" && c.Transport == 0 && c.Cost >= s.lib.Rules.RidersMinCost
}

// munitionsSpent: a gun that fired for effect, out of munitions until its
// side's next Supply Phase is completed (Inset VI.6). Aircraft keep Spent
// for their bombs alone, until they land (§VI.7.4).
func (s *State) munitionsSpent(u *Unit) bool {
	return u.Spent && s.Card(u).Kind != "aircraft"
}

// firesAboard: a passenger of an open-top carrier, a "fighting platform":
// "Any Units within this Unit may attack enemies while embarked without
// penalty" (Glossary Open Top/Back). Tank riders are not so (§VI.3.4).
func (s *State) firesAboard(u *Unit) bool {
	if u.Role != "passenger" {
		return false
	}
	carrier := s.Unit(u.Side, u.In)
	return carrier != nil && s.openCarrier(s.Card(carrier))
}

// carriesRiders: a tank with infantry riding on it cannot use its primary
// weapon (§VI.3.4).
func (s *State) carriesRiders(u *Unit) bool {
	if !s.TakesRiders(s.Card(u)) {
		return false
	}
	for _, x := range s.cargo(u) {
		if x.Role == "passenger" {
			return true
		}
	}
	return false
}

// crewed: a unit that needs a crew fires only with one aboard.
func (s *State) crewed(u *Unit) bool {
	c := s.Card(u)
	if c.Requires == "" {
		return true
	}
	for _, x := range s.cargo(u) {
		if x.Role == "crew" {
			return true
		}
	}
	return false
}

func (s *State) crewOf(u *Unit) *Unit {
	for _, x := range s.cargo(u) {
		if x.Role == "crew" {
			return x
		}
	}
	return nil
}

// InCommand reports whether u stands inside its side's command network
// (Inset IV.1), as the map marks it.
func (s *State) InCommand(u *Unit) bool { return s.commanded(u) }

// commanded: inside a friendly FHQ or CP radius (Inset IV.1); aircraft
// are exempt.
func (s *State) commanded(u *Unit) bool {
	if s.Card(u).Kind == "aircraft" {
		return true
	}
	if s.Card(u).Kind == "ship" {
		return s.navalCommand(u)
	}
	for _, c := range s.Units {
		cc := s.Card(c)
		if c.Side != u.Side || !c.OnMap() || cc.Radius == 0 || cc.Kind == "ship" || !s.working(c) {
			continue
		}
		rad := cc.Radius
		if c.Damaged {
			rad = cc.RadiusDamaged
		}
		if Distance(c.Hex, u.Hex) <= rad {
			return true
		}
	}
	return false
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

// initiative rolls once for the engagement (Inset V.6 step 3).
func (r *resolver) initiative(b *battle, e Engagement) {
	am, aw := r.initMods(b, b.att, e)
	dm, dw := r.initMods(b, b.def, e)
	var text []string
	for {
		a := r.roll(10, b.att+" initiative", "")
		d := r.roll(10, b.def+" initiative", "")
		text = append(text, fmt.Sprintf("%s d10=%d%s = %d; %s d10=%d%s = %d", b.att, a, aw, a+am, b.def, d, dw, d+dm))
		if a+am != d+dm {
			b.first = b.att
			if d+dm > a+am {
				b.first = b.def
			}
			break
		}
	}
	r.emit("initiative", "V.5", b.hex, "", "Initiative: %s -> %s fires first for the whole engagement", strings.Join(text, "; tie, re-roll: "), b.first)
}

// initMods sums one side's initiative modifiers, each kind counted once
// (reading 7), and says them in words.
//
// "The Active Player or Team is always considered the Attacker and the
// Passive Player or Team is always considered the Defender" (§V.5.5;
// Glossary Defender; §VI.7.1 for scrambles): in Defensive Combat, which
// the passive side starts, the attacker's modifiers and Stealthy still go
// to the active side (its +2 negated), and the defender's (Vigilant, the
// city, the command penalty) to the passive side.
func (r *resolver) initMods(b *battle, side string, e Engagement) (int, string) {
	attacker := side == r.side
	s := r.s
	mod := 0
	var words []string
	add := func(n int, why string) {
		mod += n
		words = append(words, fmt.Sprintf("%+d %s", n, why))
	}
	fs := b.fighters[side]
	outside, vehicleIntoCity := false, false
	// Stars of one kind are cumulative on a unit (§VIII.2.1); each kind
	// counts once for the engagement, from the unit that has most of it
	// (reading 7).
	stealthy, vigilant, veteran := 0, 0, 0
	for _, f := range fs {
		if !s.commanded(f.u) {
			outside = true
		}
		// "If a vehicle enters a Key City with intent to attack" (Inset
		// VII.1, VII.2): one that stood in the city before its Movement
		// Phase, or fires into it from outside, enters nothing.
		if s.Card(f.u).Kind == "vehicle" && s.Map.City(b.hex) && f.u.Hex == b.hex && r.entered(f.u) {
			vehicleIntoCity = true
		}
		x := s.experienceHolder(f.u)
		stealthy = max(stealthy, x.stars("stealthy"))
		vigilant = max(vigilant, x.stars("vigilant"))
		veteran = max(veteran, x.stars("veteran"))
	}
	if attacker {
		switch {
		case b.defensive:
		case outside:
			words = append(words, "no attack bonus: outside the command network")
		case vehicleIntoCity:
			words = append(words, "no attack bonus: a vehicle entering a city to attack")
		default:
			add(r.r.AttackInitiative, "attack")
		}
		if r.recon[b.hex] {
			add(r.r.ReconInitiative, "recon")
		}
		if _, ok := r.encircled[b.hex]; ok {
			add(r.r.EncircleInitiative, "encircle")
		}
		for _, f := range fs {
			if r.hitAndRun[f.u.Key()] {
				add(r.r.HitAndRunInitiative, "hit and run")
				break
			}
		}
		if stealthy > 0 {
			add(stealthy, "stealthy")
		}
	} else {
		if s.Map.City(b.hex) {
			add(r.r.CityInitiative, "city")
		}
		if outside {
			add(-r.r.OutsideCommandInitiative, "outside command")
		}
		if vigilant > 0 {
			add(vigilant, "vigilant")
		}
	}
	if veteran > 0 {
		add(veteran, "combat veteran")
	}
	if s.modifier("bold-leadership", side) {
		add(1, "Bold Leadership")
	}
	if s.Options.Momentum {
		if m := r.groupMomentum(b, side); m != 0 {
			add(m, "momentum")
		}
	}
	if len(words) == 0 {
		return mod, ""
	}
	return mod, " " + strings.Join(words, " ")
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

// entered: u moved into the hex it stands in during this Movement Phase.
func (r *resolver) entered(u *Unit) bool {
	p, ok := r.prevHex[u.Key()]
	return ok && p != u.Hex
}

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
