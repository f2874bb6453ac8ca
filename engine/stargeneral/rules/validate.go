package rules

import (
	"fmt"
	"slices"
	"strings"
)

// Validate checks one side's orders against the position before anything is
// played and returns every problem at once, each with the unit, stand and
// rule concerned. What depends on the enemy's moves earlier in the round (a
// target that may have gone, a ZOC that halts a stand) is not a problem: the
// round deals with it and says so.
func Validate(rs *Ruleset, st *State, o *Orders) Problems {
	b := newBoard(rs, st)
	v := &validator{rs: rs, st: st, o: o, b: b, r: &resolver{rs: rs, st: st, b: b}}
	v.check()
	return v.probs
}

// DefaultOrders are what a side that sent nothing does (email-play.md):
// every unit holds where it is (M and R become H, D stays D), nobody moves
// or attacks, batteries keep their standing defaults and every choice is the
// default one. At night they are the empty night orders.
func DefaultOrders(rs *Ruleset, st *State, side string) *Orders {
	o := &Orders{Side: side}
	if st.Night {
		return o
	}
	for _, u := range st.ActiveUnits(side) {
		s := u.Status
		if s == Move || s == Retreat {
			s = Hold
		}
		o.Units = append(o.Units, UnitOrders{Unit: u.ID, Status: s})
	}
	for _, bt := range st.Batteries {
		if bt.Side == side && !bt.Removed && bt.Keep > 0 {
			o.Batteries = append(o.Batteries, BatteryOrders{Battery: bt.ID, Keep: min(bt.Keep, bt.ShotsPerRound)})
		}
	}
	return o
}

type validator struct {
	rs    *Ruleset
	st    *State
	o     *Orders
	b     *board
	r     *resolver // read-only, for the movement helpers
	probs Problems
	air   int // air points called in all
}

func (v *validator) sec(k Sec) string { return v.rs.Section(k) }

func (v *validator) add(unit, stand, section, format string, args ...any) {
	v.probs = append(v.probs, Problem{Unit: unit, Stand: stand, Section: section, Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) check() {
	side := v.st.Side(v.o.Side)
	if side == nil {
		v.add("", "", "", "orders for unknown side %q", v.o.Side)
		return
	}
	if v.st.Night {
		if len(v.o.Units) > 0 || len(v.o.Priority) > 0 || len(v.o.Batteries) > 0 || len(v.o.AirStrikes) > 0 {
			v.add("", "", v.sec(SecNight), "this is the night round: only night orders (recovery, rebuilding, reshuffle), no unit, priority, battery or air orders")
		}
		v.probs = append(v.probs, validateNight(v.rs, v.st, v.o)...)
		return
	}
	if v.o.Night != nil {
		v.add("", "", v.sec(SecNight), "night orders are only for the night round, and this is a day round")
	}
	seen := map[string]bool{}
	for i := range v.o.Units {
		uo := &v.o.Units[i]
		if seen[uo.Unit] {
			v.add(uo.Unit, "", v.sec(SecOrders), "has more than one set of orders: give each unit one")
			continue
		}
		seen[uo.Unit] = true
		if u := v.ownUnit(uo.Unit, v.sec(SecOrders)); u != nil {
			v.unitOrders(u, uo)
		}
	}
	v.priority()
	v.batteries()
	v.airStrikes()
	if v.air > side.Air {
		v.add("", "", v.sec(SecAir), "the orders call %d air point(s) in all, but %s has %d this round", v.air, side.Name, side.Air)
	}
}

// ownUnit finds a unit of the ordering side still in the battle.
func (v *validator) ownUnit(id, section string) *Unit {
	u := v.st.Unit(id)
	switch {
	case u == nil:
		v.add(id, "", section, "there is no such unit")
	case u.Side != v.o.Side:
		v.add(id, "", section, "belongs to %s, not %s", u.Side, v.o.Side)
	case u.Removed:
		v.add(id, "", v.sec(SecHQ), "has left the battle")
	default:
		return u
	}
	return nil
}

func (v *validator) unitOrders(u *Unit, uo *UnitOrders) {
	hq := u.HQ(v.rs)
	v.status(u, uo, hq == nil)
	if hq == nil {
		if len(uo.Moves) > 0 || len(uo.Swaps) > 0 || uo.Attack != nil {
			v.add(u.ID, "", v.sec(SecHQ), "has lost its HQ: it cannot move, swap platoons or attack until a new HQ appears")
		}
		if h := uo.HQPlacement; !h.IsZero() && !v.st.Map.OnMap(h) {
			v.add(u.ID, "", v.sec(SecHQ), "the new HQ's place %s is off the map", h)
		}
		return
	}
	if !uo.HQPlacement.IsZero() {
		v.add(u.ID, "", v.sec(SecHQ), "has its HQ: a place for a new HQ is only for a unit whose HQ is lost")
	}
	starts := map[*Stand]Hex{}
	for _, s := range u.Stands {
		starts[s] = s.Hex
	}
	attached := currentAttachments(u)
	if v.rs.SupportSwap == SwapBeforeMove {
		attached = v.swaps(u, uo, starts)
	}
	ends, strategic := v.moves(u, uo, attached)
	if v.rs.SupportSwap == SwapAfterMove {
		v.swaps(u, uo, ends)
	}
	if uo.Attack != nil {
		v.attack(u, uo, ends, strategic)
	}
}

// status checks a change of orders (1.6, 6, 9.3).
func (v *validator) status(u *Unit, uo *UnitOrders, hqLost bool) {
	s := uo.Status
	valid := false
	for _, a := range AllStatuses {
		valid = valid || s == a
	}
	if !valid {
		v.add(u.ID, "", v.sec(SecOrders), "status %q: want M, H, D or R", s)
		return
	}
	if StatusAllowed(v.rs, v.st, u, s) {
		return
	}
	switch {
	case hqLost:
		v.add(u.ID, "", v.sec(SecHQ), "has lost its HQ: it takes no new orders and stays on %s until a new HQ appears", statusWord(LegalStatuses(v.rs, v.st, u)[0]))
	case u.Status == DigIn:
		v.add(u.ID, "", v.sec(SecOrders), "is dug in (D): it can only stay D or go to Hold (H), not %s", statusWord(s))
	default:
		v.add(u.ID, "", v.sec(SecOrders), "is on %s: only a unit on Hold (H) can dig in (D)", statusWord(u.Status))
	}
}

// path checks that a path is a line of adjacent hexes on the map that can
// be entered; it reports the first break only.
func (v *validator) path(unit, stand string, from Hex, path []Hex) bool {
	prev := from
	for _, h := range path {
		switch {
		case !v.st.Map.OnMap(h):
			v.add(unit, stand, v.sec(SecMovement), "%s is off the %dx%d map", h, v.st.Map.Cols, v.st.Map.Rows)
		case h == prev:
			v.add(unit, stand, v.sec(SecMovement), "%s repeats the hex before it: list only the hexes entered", h)
		case !Adjacent(prev, h):
			v.add(unit, stand, v.sec(SecMovement), "%s is not adjacent to %s", h, prev)
		case v.b.terrain(h).Impassable:
			v.add(unit, stand, v.sec(SecTerrain), "%s is %s, impassable", h, v.b.terrain(h).Title)
		default:
			prev = h
			continue
		}
		return false
	}
	return true
}

// moves checks the unit's paths (2, 2.2) and returns where each core stand
// would finish, and which stands would move strategically.
func (v *validator) moves(u *Unit, uo *UnitOrders, attached map[*Stand][]*Platoon) (map[*Stand]Hex, map[*Stand]bool) {
	ends := map[*Stand]Hex{}
	held := map[Hex]bool{}
	for _, s := range u.Stands {
		ends[s] = s.Hex
		held[s.Hex] = true
	}
	hq := u.HQ(v.rs)
	strategic := map[*Stand]bool{}
	moving := map[*Stand]bool{}
	outOfCommand := map[*Stand]bool{}
	shuffle := uo.Status == Hold || uo.Status == DigIn
	for _, sm := range uo.Moves {
		s := u.Stand(sm.Stand)
		switch {
		case s == nil && standIn(u.Lost, sm.Stand) != nil:
			v.add(u.ID, sm.Stand, v.sec(SecStrength), "has been destroyed")
			continue
		case s == nil:
			v.add(u.ID, sm.Stand, v.sec(SecCommand), "there is no such stand in %s", u.ID)
			continue
		case moving[s]:
			v.add(u.ID, s.Name, v.sec(SecMovement), "has more than one path: give each stand one")
			continue
		case len(sm.Path) == 0:
			v.add(u.ID, s.Name, v.sec(SecMovement), "the move lists no hexes")
			continue
		}
		moving[s] = true
		if !v.path(u.ID, s.Name, s.Hex, sm.Path) {
			continue
		}
		ends[s] = sm.Path[len(sm.Path)-1]
		allow := v.allowance(s, attached[s])
		n := len(sm.Path)
		switch {
		case uo.Status == Move || uo.Status == Retreat:
			if n > allow.Strategic {
				v.add(u.ID, s.Name, v.sec(SecMovement), "its path of %d hexes is longer than its strategic move of %d", n, allow.Strategic)
			}
			strategic[s] = uo.Status == Move && n > allow.Normal
		case shuffle:
			for _, h := range sm.Path {
				if !held[h] {
					v.add(u.ID, s.Name, v.sec(SecStatusMovement), "only M units move out of their hexes: on %s a stand only shuffles into hexes its unit holds, without crossing a vacant hex, and %s is not one", statusWord(uo.Status), h)
					break
				}
			}
			if n > allow.Normal {
				v.add(u.ID, s.Name, v.sec(SecStatusMovement), "a shuffle is a normal move: its path of %d hexes is longer than %d", n, allow.Normal)
			}
			if d := Distance(hq.Hex, s.Hex); d > v.rs.CommandRange {
				v.add(u.ID, s.Name, v.sec(SecStatusMovement), "is %d hexes from its HQ, out of command: only stands in command can shuffle", d)
				outOfCommand[s] = true
			}
		}
	}
	if shuffle && v.rs.ShuffleFinishInCommand {
		for _, s := range u.Stands {
			if d := Distance(ends[hq], ends[s]); moving[s] && !outOfCommand[s] && d > v.rs.CommandRange {
				v.add(u.ID, s.Name, v.sec(SecStatusMovement), "would finish %d hexes from its HQ at %s: a shuffled stand must finish in command", d, ends[hq])
			}
		}
	}
	at := map[Hex]*Stand{}
	for _, s := range u.Stands {
		other := at[ends[s]]
		at[ends[s]] = s
		switch {
		case other == nil:
		case moving[s] && moving[other]:
			v.add(u.ID, s.Name, v.sec(SecStacking), "%s and %s would both finish in %s: one core stand a hex", other.Name, s.Name, ends[s])
		case moving[s]:
			v.add(u.ID, s.Name, v.sec(SecStacking), "would finish in %s, where %s stays: one core stand a hex", ends[s], other.Name)
		default:
			v.add(u.ID, other.Name, v.sec(SecStacking), "would finish in %s, where %s stays: one core stand a hex", ends[s], s.Name)
		}
	}
	return ends, strategic
}

// allowance is a stand's movement with the platoons it will carry (2, 2.1).
func (v *validator) allowance(s *Stand, platoons []*Platoon) MoveAllowance {
	if s.MoveClass != "" {
		return v.rs.Movement[s.MoveClass]
	}
	for _, p := range platoons {
		if gm := v.rs.StandTypes[p.Type].GivesMove; gm != "" {
			return v.rs.Movement[gm]
		}
	}
	return v.rs.Movement[v.rs.StandTypes[s.Type].Move]
}

// currentAttachments lists each stand's platoons, transport first as in board.moveClass.
func currentAttachments(u *Unit) map[*Stand][]*Platoon {
	out := map[*Stand][]*Platoon{}
	for _, s := range u.Stands {
		for _, p := range []*Platoon{s.Transport, s.Support} {
			if p != nil {
				out[s] = append(out[s], p)
			}
		}
	}
	return out
}

// swaps checks the support platoon changes (1.3, 2.1, 2.3) with the stands
// at the hexes given (where they start or finish, as the ruleset times the
// swaps) and returns the platoons each stand would then carry.
func (v *validator) swaps(u *Unit, uo *UnitOrders, at map[*Stand]Hex) map[*Stand][]*Platoon {
	attached := currentAttachments(u)
	if len(uo.Swaps) == 0 {
		return attached
	}
	if !slices.Contains(v.rs.SupportSwapStatuses, uo.Status) {
		v.add(u.ID, "", v.sec(SecSupportSwap), "a unit on %s orders cannot swap support platoons: only units on %s can", statusWord(uo.Status), statusList(v.rs.SupportSwapStatuses))
		return attached
	}
	hq := u.HQ(v.rs)
	before := v.rs.SupportSwap == SwapBeforeMove
	if before {
		for _, s := range u.Stands {
			if d := Distance(hq.Hex, s.Hex); d > v.rs.CommandRange {
				v.add(u.ID, s.Name, v.sec(SecSupportSwap), "is %d hexes from its HQ: platoons change stands before the move only while every core stand is in command", d)
			}
		}
	}
	seen := map[string]bool{}
	for _, sw := range uo.Swaps {
		from, p := u.Platoon(sw.Platoon)
		to := u.Stand(sw.To)
		switch {
		case p == nil:
			v.add(u.ID, sw.Platoon, v.sec(SecSupportSwap), "there is no platoon %s with the stands of %s", sw.Platoon, u.ID)
			continue
		case seen[sw.Platoon]:
			v.add(u.ID, sw.Platoon, v.sec(SecSupportSwap), "platoon %s changes stands twice: give it one", sw.Platoon)
			continue
		case to == nil:
			v.add(u.ID, sw.To, v.sec(SecSupportSwap), "platoon %s cannot join %s: there is no such stand in %s", sw.Platoon, sw.To, u.ID)
			continue
		}
		seen[sw.Platoon] = true
		if from == to {
			continue
		}
		if before {
			if n := v.r.platoonAllowance(from, p); !v.r.canReach(u.Side, from.Hex, to.Hex, n) {
				v.add(u.ID, sw.Platoon, v.sec(SecSupportSwap), "platoon %s cannot reach %s at %s from %s with its normal move of %d", sw.Platoon, to.Name, to.Hex, from.Hex, n)
			}
		} else {
			for _, s := range []*Stand{from, to} {
				if d := Distance(at[hq], at[s]); d > v.rs.CommandRange {
					v.add(u.ID, sw.Platoon, v.sec(SecSupportSwap), "platoon %s: %s would be %d hexes from its HQ after the move, and platoons only change between stands in command", sw.Platoon, s.Name, d)
				}
			}
		}
		for i, q := range attached[from] {
			if q == p {
				attached[from] = append(attached[from][:i:i], attached[from][i+1:]...)
				break
			}
		}
		attached[to] = append(attached[to], p)
	}
	for _, s := range u.Stands {
		if !stackingOK(v.rs, attached[s]) {
			var names []string
			for _, p := range attached[s] {
				names = append(names, p.Name)
			}
			v.add(u.ID, s.Name, v.sec(SecStacking), "would carry %s: one support platoon and one truck a stand, and nothing else with armoured transport", strings.Join(names, " and "))
		}
	}
	return attached
}

// attack checks the unit's attack (2, 3.3, 3.4, 3.5.1, 7) from where its
// stands would finish their moves.
func (v *validator) attack(u *Unit, uo *UnitOrders, ends map[*Stand]Hex, strategic map[*Stand]bool) {
	a := uo.Attack
	var most int
	switch uo.Status {
	case Move:
		most = v.rs.MaxAttackStands
	case Hold:
		most = v.rs.HoldAttackStands
	case Retreat:
		v.add(u.ID, "", v.sec(SecRetreatCombat), "a unit on Retreat (R) cannot attack")
		return
	case DigIn:
		v.add(u.ID, "", v.sec(SecCombatOverview), "a unit dug in (D) cannot attack: only M and H units can")
		return
	default:
		return
	}
	if !v.st.Map.OnMap(a.Target) {
		v.add(u.ID, "", v.sec(SecCombatOverview), "the target %s is off the map", a.Target)
		return
	}
	switch {
	case len(a.Stands) == 0:
		v.add(u.ID, "", v.sec(SecInitiating), "the attack names no attacking stand")
	case len(a.Stands) > most:
		v.add(u.ID, "", v.sec(SecInitiating), "a unit on %s attacks with at most %d core stand(s), not %d", statusWord(uo.Status), most, len(a.Stands))
	}
	hqAt := ends[u.HQ(v.rs)]
	seen := map[string]bool{}
	for _, as := range a.Stands {
		s := u.Stand(as.Stand)
		switch {
		case s == nil:
			v.add(u.ID, as.Stand, v.sec(SecInitiating), "there is no such stand in %s to attack with", u.ID)
			continue
		case seen[as.Stand]:
			v.add(u.ID, as.Stand, v.sec(SecInitiating), "is named twice in the attack")
			continue
		}
		seen[as.Stand] = true
		t := v.rs.StandTypes[s.Type]
		if !v.rs.CanInitiate(t.Role) {
			v.add(u.ID, s.Name, v.sec(SecInitiating), "is %s and cannot start a combat: only %s core stands can", t.Title, strings.Join(v.rs.Initiators, ", "))
		}
		if strategic[s] {
			v.add(u.ID, s.Name, v.sec(SecMovement), "moves strategically (more than its normal move), and a stand moving strategically cannot attack")
		}
		from := ends[s]
		if d := Distance(hqAt, from); d > v.rs.CommandRange {
			v.add(u.ID, s.Name, v.sec(SecInitiating), "would be %d hexes from its HQ at %s: only a stand in command can attack", d, hqAt)
		}
		d := Distance(from, a.Target)
		switch {
		case d == 0:
			v.add(u.ID, s.Name, v.sec(SecCombatOverview), "cannot attack %s, its own hex", a.Target)
		case as.Close && d != 1:
			v.add(u.ID, s.Name, v.sec(SecCombatOverview), "%s is not adjacent to %s, where it ends its move: close combat is against an adjacent hex", a.Target, from)
		case !as.Close && d == 1:
			v.add(u.ID, s.Name, v.sec(SecCombatOverview), "%s is adjacent to %s, where it ends its move: fighting an adjacent stand is close combat, not distant fire", a.Target, from)
		case !as.Close && d > v.rs.DistantFireRange:
			v.add(u.ID, s.Name, v.sec(SecCombatOverview), "%s is %d hexes from %s, where it ends its move: distant fire reaches %d", a.Target, d, from, v.rs.DistantFireRange)
		}
	}
	seenLA := map[string]bool{}
	for _, name := range a.LightArtillery {
		_, p := u.Platoon(name)
		switch {
		case p == nil:
			v.add(u.ID, name, v.sec(SecSupportAttacking), "there is no platoon %s with %s: only the unit's own light artillery can support it", name, u.ID)
		case v.rs.StandTypes[p.Type].Role != RoleLightArtillery:
			v.add(u.ID, name, v.sec(SecSupportAttacking), "%s is %s %s, not light artillery", name, Article(v.rs.StandTypes[p.Type].Title), v.rs.StandTypes[p.Type].Title)
		case seenLA[name]:
			v.add(u.ID, name, v.sec(SecSupportAttacking), "light artillery %s is called twice", name)
		}
		seenLA[name] = true
	}
	if len(a.Batteries) > 0 && uo.Status != Move {
		v.add(u.ID, "", v.sec(SecSupportAttacking), "a Hold attack is supported only by the unit's own light artillery, not by batteries")
	}
	if len(a.Batteries) > v.rs.MaxBatteries {
		v.add(u.ID, "", v.sec(SecSupportAttacking), "the attack calls %d batteries: at most %d support one combat", len(a.Batteries), v.rs.MaxBatteries)
	}
	seenBt := map[string]bool{}
	for _, id := range a.Batteries {
		bt := v.ownBattery(id)
		switch {
		case bt == nil:
		case seenBt[id]:
			v.add(u.ID, "", v.sec(SecSupportAttacking), "battery %s is called twice", id)
		case Distance(bt.Hex, a.Target) > bt.Range:
			v.add(u.ID, "", v.sec(SecArtillery), "battery %s at %s is %d hexes from %s, beyond its range of %d", id, bt.Hex, Distance(bt.Hex, a.Target), a.Target, bt.Range)
		}
		seenBt[id] = true
	}
	switch {
	case a.Air < 0:
		v.add(u.ID, "", v.sec(SecAir), "air points cannot be negative")
	case a.Air > 0 && uo.Status != Move:
		v.add(u.ID, "", v.sec(SecAir), "air points support attacks as artillery does: not a Hold attack")
	case v.rs.MaxAirPerCombat > 0 && a.Air > v.rs.MaxAirPerCombat:
		v.add(u.ID, "", v.sec(SecAir), "the attack calls %d air points: at most %d support one combat", a.Air, v.rs.MaxAirPerCombat)
	case a.Air > v.st.Side(u.Side).Air:
		// Not added to the total: a sum of huge numbers could overflow
		// and pass the total's check.
		v.add(u.ID, "", v.sec(SecAir), "the attack calls %d air points, but %s has %d this round", a.Air, u.Side, v.st.Side(u.Side).Air)
		return
	}
	v.air += max(a.Air, 0)
}

// ownBattery finds a battery of the ordering side still in play.
func (v *validator) ownBattery(id string) *Battery {
	bt := v.st.Battery(id)
	switch {
	case bt == nil:
		v.add(id, "", v.sec(SecArtillery), "there is no such battery")
	case bt.Side != v.o.Side:
		v.add(id, "", v.sec(SecArtillery), "belongs to %s, not %s", bt.Side, v.o.Side)
	case bt.Removed:
		v.add(id, "", v.sec(SecArtillery), "has been destroyed")
	default:
		return bt
	}
	return nil
}

// priority checks the activation order names the side's units, once each (1.7).
func (v *validator) priority() {
	seen := map[string]bool{}
	for _, id := range v.o.Priority {
		u := v.st.Unit(id)
		switch {
		case u == nil:
			v.add(id, "", v.sec(SecSequence), "PRIORITY names a unit that does not exist")
		case u.Side != v.o.Side:
			v.add(id, "", v.sec(SecSequence), "PRIORITY names a unit of %s", u.Side)
		case seen[id]:
			v.add(id, "", v.sec(SecSequence), "PRIORITY names it twice")
		}
		seen[id] = true
	}
}

// batteries checks the artillery orders (5, 5.1).
func (v *validator) batteries() {
	seen := map[string]bool{}
	for _, bo := range v.o.Batteries {
		bt := v.ownBattery(bo.Battery)
		if bt == nil {
			continue
		}
		if seen[bt.ID] {
			v.add(bt.ID, "", v.sec(SecArtillery), "has more than one set of orders: give each battery one")
			continue
		}
		seen[bt.ID] = true
		if !bo.Fire.IsZero() && len(bo.Move) > 0 {
			v.add(bt.ID, "", v.sec(SecArtilleryPhase), "a battery either fires or moves in the artillery phase, not both")
		}
		if bo.Keep < 0 || bo.Keep > bt.ShotsPerRound {
			v.add(bt.ID, "", v.sec(SecArtillery), "keeps %d shots back, but it gets %d a round", bo.Keep, bt.ShotsPerRound)
		}
		if h := bo.Fire; !h.IsZero() {
			switch {
			case !v.st.Map.OnMap(h):
				v.add(bt.ID, "", v.sec(SecArtilleryPhase), "the target %s is off the map", h)
			case Distance(bt.Hex, h) > bt.Range:
				v.add(bt.ID, "", v.sec(SecArtilleryPhase), "the target %s is %d hexes from the battery at %s, beyond its range of %d", h, Distance(bt.Hex, h), bt.Hex, bt.Range)
			}
		}
		if len(bo.Move) > 0 {
			v.path(bt.ID, "", bt.Hex, bo.Move)
		}
	}
}

// airStrikes checks artillery-phase air attacks (7).
func (v *validator) airStrikes() {
	if len(v.o.AirStrikes) > 0 && !v.rs.AirInArtilleryPhase {
		v.add("", "", v.sec(SecAir), "air points cannot strike in the artillery phase in %s: they only support combats", v.rs.Title)
	}
	for _, h := range v.o.AirStrikes {
		if !v.st.Map.OnMap(h) {
			v.add("", "", v.sec(SecAir), "the air strike at %s is off the map", h)
		}
	}
	v.air += len(v.o.AirStrikes)
}
