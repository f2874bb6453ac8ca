package rules

import (
	"fmt"
	"slices"
	"strings"
)

// attacker is one core stand taking part in an attack, and how it fights.
type attacker struct {
	s     *Stand
	close bool
}

// engagement is one combat being worked out (3, 4).
type engagement struct {
	c         *Combat
	unit      *Unit
	stands    []attacker
	target    occupant
	attStatus Status // the attacker's status on the chart (3.2; 2.5: M in a river)
	defStatus Status // the defender's, likewise (5: a battery acts as H)
	close     bool   // some stand fights in close combat
	mixed     bool   // close combat and distant fire together (3.4, 4)
}

// attack makes a unit's plotted attack, after its movement (1.7): it checks
// who can still fight, builds both dice pools with their support (3.5, 3.7),
// rolls them (3.2) and applies the results (4).
func (r *resolver) attack(u *Unit, a *Attack) {
	e := r.engage(u, a)
	if e == nil {
		return
	}
	c := e.c
	c.Attacker.Rolled = rollDice(r.dice, c.Attacker.Dice)
	c.Defender.Rolled = rollDice(r.dice, c.Defender.Dice)
	c.Attacker.Hits = c.Attacker.Rule.Hits(c.Attacker.Rolled)
	if c.NoReturn == "" {
		c.Defender.Hits = c.Defender.Rule.Hits(c.Defender.Rolled)
	}
	if e.close {
		// 4.1: the winner is the side that rolled more hits, not the one that
		// inflicted more losses.
		switch {
		case c.Attacker.Hits > c.Defender.Hits:
			c.Winner = c.Attacker.Side
		case c.Defender.Hits > c.Attacker.Hits:
			c.Winner = c.Defender.Side
		}
	}
	r.emit(Event{Kind: EvCombat, Side: u.Side, Unit: u.ID, To: a.Target, Section: r.sec(SecCombat), Text: r.combatText(e), Combat: c})
	r.combatResults(e)
}

// engage checks a plotted attack against the position as it is now and
// builds both dice pools, ready to roll; nil when nothing is left of it.
func (r *resolver) engage(u *Unit, a *Attack) *engagement {
	e := r.prepareAttack(u, a)
	if e == nil {
		return nil
	}
	r.combats++
	target := e.target
	c := &Combat{Number: r.combats, Close: e.close, Target: a.Target}
	e.c = c
	c.Attacker = Force{Side: u.Side, Unit: u.ID, Status: e.attStatus}
	c.Defender = Force{Side: target.side(), Unit: occupantUnitID(target), Status: e.defStatus}
	c.Attacker.Rule = r.rs.Attacking(e.attStatus, e.defStatus)

	c.Attacker.Sources = r.attackerPool(e, a)
	c.NoReturn = r.noReturn(target, e.defStatus, e.close)
	if c.NoReturn == "" {
		c.Defender.Rule = r.rs.Defending(e.defStatus)
		c.Defender.Sources = r.defenderPool(e)
		if e.close {
			c.Defender.MinDice = closeDefenceMinDice
		}
	}
	c.Attacker.Dice = poolDice(c.Attacker.Sources)
	c.Defender.Dice = poolDice(c.Defender.Sources)
	return e
}

// prepareAttack checks the plotted attack against the position as it is now
// and returns the combat to fight, or nil when nothing is left of it. Every
// part that cannot be made gets an event saying why.
func (r *resolver) prepareAttack(u *Unit, a *Attack) *engagement {
	cancel := func(stand, section, format string, args ...any) {
		who := u.ID
		if stand != "" {
			who += " " + stand
		}
		r.emit(Event{Kind: EvAttackCancel, Side: u.Side, Unit: u.ID, Stand: stand, To: a.Target, Section: section,
			Text: fmt.Sprintf("%s cannot attack %s: %s (%s)", who, a.Target, fmt.Sprintf(format, args...), section)})
	}
	if u.Status != Move && u.Status != Hold {
		cancel("", r.sec(SecCombatOverview), "only units on Move or Hold orders can attack, and it is on %s", statusWord(u.Status))
		return nil
	}
	target := r.b.at(a.Target)
	if target.empty() {
		cancel("", r.sec(SecInitiating), "there is no enemy stand in the hex now")
		return nil
	}
	if target.side() == u.Side {
		cancel("", r.sec(SecInitiating), "the hex holds %s, a friendly stand", r.label(target))
		return nil
	}
	limit := r.rs.MaxAttackStands
	if u.Status == Hold {
		limit = r.rs.HoldAttackStands
	}
	e := &engagement{unit: u, target: target}
	seen := map[string]bool{}
	for i, as := range a.Stands {
		if seen[as.Stand] {
			continue
		}
		seen[as.Stand] = true
		if i >= limit {
			cancel(as.Stand, r.sec(SecInitiating), "a unit on %s orders attacks with at most %d core stands", statusWord(u.Status), limit)
			continue
		}
		s := u.Stand(as.Stand)
		if why, section := r.whyCannotAttack(u, s, as.Close, a.Target); why != "" {
			cancel(as.Stand, section, "%s", why)
			continue
		}
		e.stands = append(e.stands, attacker{s: s, close: as.Close})
	}
	if len(e.stands) == 0 {
		r.emit(Event{Kind: EvAttackCancel, Side: u.Side, Unit: u.ID, To: a.Target, Section: r.sec(SecInitiating),
			Text: fmt.Sprintf("%s's attack on %s is cancelled: no stand is able to make it", u.ID, a.Target)})
		return nil
	}
	hasClose, hasFire := false, false
	for _, as := range e.stands {
		r.initiated[as.s] = true
		hasClose = hasClose || as.close
		hasFire = hasFire || !as.close
	}
	e.close, e.mixed = hasClose, hasClose && hasFire
	e.attStatus = u.Status
	for _, as := range e.stands {
		if r.b.terrain(as.s.Hex).River {
			e.attStatus = Move // 2.5: a stand in a river or bridge hex fights as M
		}
	}
	e.defStatus = r.effStatus(target)
	return e
}

// whyCannotAttack says why a stand cannot take part in an attack now, with
// the rule, or "" when it can (2, 2.4, 3.3, 3.4, 6).
func (r *resolver) whyCannotAttack(u *Unit, s *Stand, close bool, target Hex) (string, string) {
	if s == nil {
		return "it is no longer on the map", r.sec(SecLosses)
	}
	role := r.b.role(s)
	if role == RoleHQ {
		return "an HQ cannot initiate combat", r.sec(SecHQ)
	}
	if !r.rs.CanInitiate(role) {
		return fmt.Sprintf("%s %s stand cannot initiate combat", Article(r.b.standType(s).Title), r.b.standType(s).Title), r.sec(SecInitiating)
	}
	if r.strategic[s] {
		return "it moved strategically this round", r.sec(SecMovement)
	}
	if r.outOfCommandStart[s] && !r.b.inCommand(u, s) {
		return "it started its move out of command range of its HQ and did not finish within it", r.sec(SecMoveRestrictions)
	}
	if !r.b.inCommand(u, s) {
		return fmt.Sprintf("it is more than %d hexes from its HQ", r.rs.CommandRange), r.sec(SecInitiating)
	}
	d := Distance(s.Hex, target)
	if close {
		if d != 1 {
			return fmt.Sprintf("close combat needs the target adjacent, and it is %d hexes away", d), r.sec(SecCombatOverview)
		}
		return "", ""
	}
	switch {
	case d == 1:
		return "the target is adjacent, which makes it close combat, and distant fire was plotted", r.sec(SecCombatOverview)
	case d > r.rs.DistantFireRange:
		return fmt.Sprintf("the target is %d hexes away, beyond the distant fire range of %d", d, r.rs.DistantFireRange), r.sec(SecCombatOverview)
	case !r.b.lineOfSight(s.Hex, target, true):
		return "no line of sight: blocking terrain or stands in between", r.sec(SecCombatOverview)
	}
	return "", ""
}

// noReturn says why a defender does not fire back, or "" when it does.
func (r *resolver) noReturn(o occupant, status Status, close bool) string {
	switch {
	case status == Retreat:
		return fmt.Sprintf("%s is on Retreat orders and does not fire back (%s)", r.label(o), r.sec(SecRetreatCombat))
	case o.stand != nil && r.b.role(o.stand) == RoleHQ && !close:
		return fmt.Sprintf("%s is an HQ: it returns close combat only, not distant fire (%s)", r.label(o), r.sec(SecHQ))
	case o.battery != nil && !close && o.battery.Shots == 0:
		return fmt.Sprintf("battery %s has no shots left: a battery needs a shot to return distant fire (%s)", o.battery.ID, r.sec(SecArtillery))
	}
	return ""
}

// effStatus is the status a core stand fights with: a battery acts as H (5),
// and a stand in a river or bridge hex fights as M (2.5) unless it is
// retreating, which never fires back (3.6).
func (r *resolver) effStatus(o occupant) Status {
	st := Hold
	if o.stand != nil {
		st = o.unit.Status
	}
	if st != Retreat && r.b.terrain(o.hex()).River {
		return Move
	}
	return st
}

func (r *resolver) occRole(o occupant) string {
	if o.battery != nil {
		return RoleArtillery
	}
	return r.b.role(o.stand)
}

func (r *resolver) occArmoured(o occupant) bool {
	if o.battery != nil {
		return o.battery.Armoured || r.rs.StandTypes[o.battery.Type].Armoured
	}
	return r.b.armoured(o.stand)
}

// label names a core stand in event texts: "I/77 1A" or "battery 2/26".
func (r *resolver) label(o occupant) string {
	if o.battery != nil {
		return "battery " + o.battery.ID
	}
	return o.name()
}

func occupantUnitID(o occupant) string {
	if o.battery != nil {
		return o.battery.ID
	}
	return o.unit.ID
}

func poolDice(sources []DiceSource) int {
	n := 0
	for _, s := range sources {
		n += s.Dice
	}
	return n
}

// combatText tells a combat as a sum a player can check against the play
// sheet: every source of dice with its factors, the rolls and the hits.
func (r *resolver) combatText(e *engagement) string {
	c := e.c
	var who []string
	for _, as := range e.stands {
		who = append(who, fmt.Sprintf("%s (%s)", as.s.Name, AttackStand{Close: as.close}.Mode()))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Combat %d: %s attacks %s at %s with %s. Attack: %s",
		c.Number, e.unit.ID, r.label(e.target), c.Target, strings.Join(who, " and "), forceText(c.Attacker))
	if c.NoReturn != "" {
		fmt.Fprintf(&b, " No return fire: %s.", c.NoReturn)
	} else {
		fmt.Fprintf(&b, " Defence: %s", forceText(c.Defender))
	}
	if e.close {
		switch c.Winner {
		case "":
			fmt.Fprintf(&b, " Close combat drawn, %s each (%s).", hitsText(c.Attacker.Hits), r.sec(SecFallBack))
		case c.Attacker.Side:
			fmt.Fprintf(&b, " %s wins the close combat (%s).", c.Attacker.Side, r.sec(SecFallBack))
		default:
			fmt.Fprintf(&b, " %s wins the close combat (%s).", c.Defender.Side, r.sec(SecFallBack))
		}
	}
	return b.String()
}

// forceText is one side's pool, roll and hits.
func forceText(f Force) string {
	var parts []string
	for _, s := range f.Sources {
		parts = append(parts, sourceText(s))
	}
	return fmt.Sprintf("%s; %d dice hitting on %s roll %s: %s.", strings.Join(parts, "; "), f.Dice, f.Rule, diceText(f.Rolled), hitsText(f.Hits))
}

// sourceText is one source of dice: "A1 1A 3 -1 the target is Dug In (3.7.2) = 2".
func sourceText(s DiceSource) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d", s.Who, s.Base)
	for _, f := range s.Factors {
		if f.Dice == 0 {
			fmt.Fprintf(&b, " [%s, %s]", f.Why, f.Section)
			continue
		}
		fmt.Fprintf(&b, " %+d %s (%s)", f.Dice, f.Why, f.Section)
	}
	fmt.Fprintf(&b, " = %d", s.Dice)
	return b.String()
}

func diceText(dice []int) string {
	if len(dice) == 0 {
		return "nothing"
	}
	parts := make([]string, len(dice))
	for i, d := range dice {
		parts[i] = fmt.Sprint(d)
	}
	return strings.Join(parts, " ")
}

func hitsText(n int) string {
	if n == 1 {
		return "1 hit"
	}
	return fmt.Sprintf("%d hits", n)
}

// inStatuses reports whether every status is in the list.
func inStatuses(all []Status, list ...Status) bool {
	for _, s := range all {
		if !slices.Contains(list, s) {
			return false
		}
	}
	return true
}
