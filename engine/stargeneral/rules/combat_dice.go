package rules

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// foeView is what a stand fights against, as far as the factors of 3.7 ask.
type foeView struct {
	armoured bool     // some armoured core stand (3.7.2)
	softOpen bool     // only non-armoured infantry or artillery in open ground (3.7.1)
	statuses []Status // their statuses on the chart
	cover    string   // why attacking it costs a die (H in cover, or D), "" if not (3.7.2)
}

// fightCtx is how one core stand fights in a combat.
type fightCtx struct {
	close     bool
	attacking bool // it initiated this combat; false: it defends
	dist      int  // hexes to what it fires at
	foe       foeView
}

// foeOf describes a single core stand as a target.
func (r *resolver) foeOf(o occupant) foeView {
	st := r.effStatus(o)
	t := r.b.terrain(o.hex())
	v := foeView{armoured: r.occArmoured(o), statuses: []Status{st}}
	role := r.occRole(o)
	v.softOpen = !v.armoured && (role == RoleInfantry || role == RoleArtillery) && t.Open
	switch {
	case st == DigIn:
		v.cover = "the target is Dug In"
	case st == Hold && t.Cover && !(o.stand != nil && r.initiated[o.stand]):
		v.cover = fmt.Sprintf("the target is on Hold in %s (cover)", t.Title)
	}
	return v
}

// foeOfAttackers describes the attacking stands as the defender's target: a
// defender fires at all of them, so they count as armoured when any is, and
// as soft targets in the open only when all are (our ruling).
func (r *resolver) foeOfAttackers(e *engagement) foeView {
	v := foeView{softOpen: true}
	for _, as := range e.stands {
		f := r.foeOf(occupant{unit: e.unit, stand: as.s})
		v.armoured = v.armoured || f.armoured
		v.softOpen = v.softOpen && f.softOpen
		v.statuses = append(v.statuses, f.statuses...)
	}
	return v
}

// attackerPool is the attacker's dice (3.4, 3.5.1, 3.7): each attacking
// stand with its attached platoon, then light artillery, batteries and air.
func (r *resolver) attackerPool(e *engagement, a *Attack) []DiceSource {
	var out []DiceSource
	foe := r.foeOf(e.target)
	var supported []Hex
	for _, as := range e.stands {
		ctx := fightCtx{close: as.close, attacking: true, dist: Distance(as.s.Hex, a.Target), foe: foe}
		out = append(out, r.coreSource(occupant{unit: e.unit, stand: as.s}, ctx))
		if src, ok := r.platoonSource(e.unit, as.s, ctx); ok {
			out = append(out, src)
		}
		supported = append(supported, as.s.Hex)
	}
	out = append(out, r.attackLightArtillery(e, a, supported)...)
	out = append(out, r.attackBatteries(e, a, foe)...)
	out = append(out, r.attackAir(e, a, foe)...)
	return out
}

// defenderPool is the dice the attacked stand fires back with (3.4, 3.5.2,
// 3.7): its own hex, its unit's light artillery in range and, for H and D
// stands and batteries, batteries and air.
func (r *resolver) defenderPool(e *engagement) []DiceSource {
	o := e.target
	var attHexes []Hex
	for _, as := range e.stands {
		attHexes = append(attHexes, as.s.Hex)
	}
	foe := r.foeOfAttackers(e)
	ctx := fightCtx{close: e.close, dist: minDistance(o.hex(), attHexes), foe: foe}
	core := r.coreSource(o, ctx)
	if o.battery != nil && !e.close {
		o.battery.Shots-- // 5: returning distant fire takes a shot
		core.Shots = 1
	}
	out := []DiceSource{core}
	hqLost := o.stand != nil && o.unit.HQ(r.rs) == nil
	if o.stand != nil && !(hqLost && r.rs.HQLostNoOwnSupport) {
		if src, ok := r.platoonSource(o.unit, o.stand, ctx); ok {
			out = append(out, src)
		}
	}
	// 3.5, 6: support from outside its own hex only for a stand in command
	// of a present HQ; a battery is never out of command.
	inCommand := o.battery != nil || r.b.inCommand(o.unit, o.stand)
	switch {
	case hqLost && r.rs.HQLostNoOwnSupport:
		r.note(r.sec(SecHQ), "%s's unit has lost its HQ: it summons no support and uses none of its support stands, not even in its own hex", r.label(o))
	case hqLost:
		r.note(r.sec(SecHQ), "%s's unit has lost its HQ: it gets no support from outside its hex", r.label(o))
	case !inCommand:
		r.note(r.sec(SecSupport), "%s is more than %d hexes from its HQ: it gets no support from outside its hex", r.label(o), r.rs.CommandRange)
	}
	if !inCommand {
		return r.closeMinimum(out, e.close)
	}
	if o.stand != nil {
		out = append(out, r.defenceLightArtillery(o, attHexes)...)
	}
	// 3.5.2: an M stand has only its own hex and its light artillery.
	if (e.defStatus == Hold || e.defStatus == DigIn) && !r.choices(o.side()).NoDefensiveSupport {
		out = append(out, r.defenceBatteries(o, attHexes, foe)...)
		out = append(out, r.defenceAir(o, attHexes, foe)...)
	}
	return r.closeMinimum(out, e.close)
}

// closeDefenceMinDice is what a defender in close combat always throws at
// least (3.4).
const closeDefenceMinDice = 1

// closeMinimum: a defender in close combat always throws at least one die (3.4).
func (r *resolver) closeMinimum(out []DiceSource, close bool) []DiceSource {
	if close && poolDice(out) < closeDefenceMinDice {
		out = append(out, DiceSource{Who: "close-combat minimum", Kind: "minimum", Dice: closeDefenceMinDice,
			Factors: []Factor{{Dice: 1, Why: "a defender in close combat throws at least 1 die", Section: r.sec(SecInitiating)}}})
	}
	return out
}

// coreSource is a core stand's dice: min(fighting strength, strength left)
// (3.1) with the factors of 3.7. Armour and cover cost at most one die
// together (3.7.2); the stand never throws fewer than none.
func (r *resolver) coreSource(o occupant, ctx fightCtx) DiceSource {
	role := r.occRole(o)
	var src DiceSource
	var elite, superior bool
	if o.battery != nil {
		bt := o.battery
		src = DiceSource{Who: r.label(o), Kind: bt.Type, Base: min(bt.FS, bt.SP)}
	} else {
		s := o.stand
		src = DiceSource{Who: r.label(o), Kind: s.Type, Base: min(s.FS, s.SP)}
		elite, superior = s.Elite, s.SuperiorGun
	}
	add := func(n int, section, format string, args ...any) {
		src.Factors = append(src.Factors, Factor{Dice: n, Why: fmt.Sprintf(format, args...), Section: section})
	}
	// 3.7.1
	if role == RoleTank && r.tankBonus(ctx) {
		add(1, r.sec(SecWeapons), "tank against soft targets in the open")
	}
	if elite && role == RoleInfantry && ctx.close && r.rs.EliteCloseBonus > 0 {
		add(r.rs.EliteCloseBonus, r.sec(SecWeapons), "elite infantry in close combat")
	}
	if superior {
		add(1, r.sec(SecWeapons), "superior gun")
	}
	// 3.7.2
	var minus []string
	if ctx.foe.armoured {
		switch {
		case !ctx.close && (role == RoleInfantry || role == RoleArtillery):
			minus = append(minus, fmt.Sprintf("%s firing on armour", role))
		case ctx.close && role == RoleInfantry && !r.occArmoured(o) && (ctx.attacking || !r.defendsCover(o)):
			minus = append(minus, "non-armoured infantry in close combat with armour")
		case ctx.close && role == RoleArtillery && r.rs.ArtilleryArmourClose:
			minus = append(minus, "artillery against armour")
		}
	}
	if ctx.attacking && ctx.foe.cover != "" {
		if ctx.close && r.hasEngineers(o) {
			add(0, r.sec(SecArmourCover), "%s, but attached engineers in close combat cancel the cover penalty", ctx.foe.cover)
		} else {
			minus = append(minus, ctx.foe.cover)
		}
	}
	switch len(minus) {
	case 1:
		add(-1, r.sec(SecArmourCover), "%s", minus[0])
	case 2:
		add(-1, r.sec(SecArmourCover), "%s (armour and cover are not cumulative)", strings.Join(minus, "; "))
	}
	// 3.7.3
	if t := r.b.terrain(o.hex()); t.River {
		add(-1, r.sec(SecOtherFactors), "in %s %s hex", Article(t.Title), t.Title)
	}
	if !ctx.close && r.rs.LongRange > 0 && ctx.dist >= r.rs.LongRange && role != RoleArtillery {
		add(-1, r.sec(SecOtherFactors), "long range (%d hexes)", ctx.dist)
	}
	return total(src)
}

// tankBonus: +1D6 for a tank against non-armoured infantry or artillery in
// the open, in the kinds of combat and against the statuses the ruleset
// gives (3.7.1).
func (r *resolver) tankBonus(ctx fightCtx) bool {
	tb := r.rs.TankOpenBonus
	if (ctx.close && !tb.Close) || (!ctx.close && !tb.Distant) || !ctx.foe.softOpen {
		return false
	}
	for _, st := range ctx.foe.statuses {
		if !slices.Contains(tb.VsStatus, string(st)) {
			return false
		}
	}
	return true
}

// defendsCover: infantry on H or D orders defending in cover escape the
// close-combat armour penalty (3.7.2), unless they launched an attack this round.
func (r *resolver) defendsCover(o occupant) bool {
	st := r.effStatus(o)
	return (st == Hold || st == DigIn) && r.b.terrain(o.hex()).Cover && !(o.stand != nil && r.initiated[o.stand])
}

func (r *resolver) hasEngineers(o occupant) bool {
	return o.stand != nil && o.stand.Support != nil && r.rs.StandTypes[o.stand.Support.Type].Role == RoleEngineers
}

// platoonSource is the dice of the support platoon attached to a core stand
// (3.1, 3.7.1): those are the platoon's own dice, not extra ones. Light
// artillery fires as support (3.5) and trucks do not fight.
func (r *resolver) platoonSource(u *Unit, s *Stand, ctx fightCtx) (DiceSource, bool) {
	p := s.Support
	if p == nil {
		return DiceSource{}, false
	}
	pt := r.rs.StandTypes[p.Type]
	switch {
	case pt.Role == RoleLightArtillery:
		return DiceSource{}, false
	case pt.CloseOnly && !ctx.close:
		return DiceSource{}, false
	case pt.CloseDefenceOnly && (!ctx.close || ctx.attacking):
		return DiceSource{}, false
	}
	src := DiceSource{Who: fmt.Sprintf("%s %s (%s with %s)", u.ID, p.Name, pt.Title, s.Name), Kind: p.Type, Base: pt.FS}
	if pt.FSVsSoft > 0 && !ctx.foe.armoured {
		src.Base = pt.FSVsSoft
		src.Factors = append(src.Factors, Factor{Dice: 0, Why: "against a non-armoured target", Section: r.sec(SecWeapons)})
	}
	if pt.Role == RoleTankPlatoon && ctx.close && r.b.role(s) == RoleInfantry && ctx.foe.softOpen && inStatuses(ctx.foe.statuses, Move, Hold) {
		src.Factors = append(src.Factors, Factor{Dice: 1, Why: "tank platoon with infantry against soft M or H targets in the open in close combat", Section: r.sec(SecWeapons)})
	}
	src = total(src)
	return src, src.Dice > 0
}

func total(src DiceSource) DiceSource {
	n := src.Base
	for _, f := range src.Factors {
		n += f.Dice
	}
	src.Dice = max(n, 0)
	return src
}

// supportSource is a battery's or an air point's dice: its own dice with the
// 3.7.2 penalties against armour and against H in cover or D, at most one.
func (r *resolver) supportSource(who, kind string, base int, foe foeView) DiceSource {
	src := DiceSource{Who: who, Kind: kind, Base: base, Shots: 1}
	var minus []string
	if foe.armoured {
		minus = append(minus, "firing on armour")
	}
	if foe.cover != "" {
		minus = append(minus, foe.cover)
	}
	switch len(minus) {
	case 1:
		src.Factors = append(src.Factors, Factor{Dice: -1, Why: minus[0], Section: r.sec(SecArmourCover)})
	case 2:
		src.Factors = append(src.Factors, Factor{Dice: -1, Why: strings.Join(minus, "; ") + " (not cumulative)", Section: r.sec(SecArmourCover)})
	}
	return total(src)
}

func (r *resolver) batterySource(bt *Battery, foe foeView) DiceSource {
	return r.supportSource("battery "+bt.ID, bt.Type, min(bt.FS, bt.SP), foe)
}

// cancelSupport tells why a called support cannot fire.
func (r *resolver) cancelSupport(u *Unit, who string, target Hex, section, format string, args ...any) {
	r.emit(Event{Kind: EvAttackCancel, Side: u.Side, Unit: u.ID, Stand: who, To: target, Section: section,
		Text: fmt.Sprintf("%s cannot support %s's attack on %s: %s (%s)", who, u.ID, target, fmt.Sprintf(format, args...), section)})
}

// attackLightArtillery: the light artillery attached to the attacking stands
// and that the attack calls by name (3.4, 3.5.1).
func (r *resolver) attackLightArtillery(e *engagement, a *Attack, supported []Hex) []DiceSource {
	u := e.unit
	named := map[string]bool{}
	for _, n := range a.LightArtillery {
		named[n] = true
	}
	attached := map[*Stand]bool{}
	for _, as := range e.stands {
		attached[as.s] = true
	}
	var out []DiceSource
	for _, s := range u.Stands {
		p := s.Support
		if p == nil || r.rs.StandTypes[p.Type].Role != RoleLightArtillery || (!named[p.Name] && !attached[s]) {
			continue
		}
		delete(named, p.Name)
		label := u.ID + " " + p.Name
		if !r.b.inCommand(u, s) {
			r.cancelSupport(u, label, a.Target, r.sec(SecSupport), "its stand %s is more than %d hexes from its HQ", s.Name, r.rs.CommandRange)
			continue
		}
		if why := r.rs.FireSupportOutOfReach(s.Hex, []Hex{a.Target}, supported); why != "" {
			r.cancelSupport(u, label, a.Target, r.sec(SecSupportRange), "%s", why)
			continue
		}
		out = append(out, r.laSource(u, s))
	}
	for _, n := range a.LightArtillery {
		if named[n] {
			r.cancelSupport(u, u.ID+" "+n, a.Target, r.sec(SecSupportAttacking), "the unit has no light artillery platoon %s on the map", n)
		}
	}
	return out
}

// defenceLightArtillery: every light artillery platoon of the defender's
// unit that is in command and in range (3.5.2).
func (r *resolver) defenceLightArtillery(o occupant, attHexes []Hex) []DiceSource {
	var out []DiceSource
	for _, s := range o.unit.Stands {
		p := s.Support
		if p == nil || r.rs.StandTypes[p.Type].Role != RoleLightArtillery {
			continue
		}
		if r.b.inCommand(o.unit, s) && r.rs.FireSupportOutOfReach(s.Hex, attHexes, []Hex{o.hex()}) == "" {
			out = append(out, r.laSource(o.unit, s))
		}
	}
	return out
}

func (r *resolver) laSource(u *Unit, s *Stand) DiceSource {
	pt := r.rs.StandTypes[s.Support.Type]
	return total(DiceSource{Who: fmt.Sprintf("%s %s (%s with %s)", u.ID, s.Support.Name, pt.Title, s.Name), Kind: s.Support.Type, Base: pt.FS})
}

// FireSupportOutOfReach says why a light artillery (fire support) platoon
// at from cannot fire at the nearest of fireAt in support of a core stand at
// one of supported, or "": the target must be within its range and, where the
// ruleset caps the path (3SG 3.5.2), the path from the platoon to the stand
// it supports and on to what that stand fights must be no longer than the
// cap. In attack the supported stands are the attackers and fireAt the
// target; in defence the attacked stand is supported and fires at its
// attackers. Adding the platoon's distance to the target to its distance to
// the stand would measure no path (rulings revisited).
func (rs *Ruleset) FireSupportOutOfReach(from Hex, fireAt, supported []Hex) string {
	d := minDistance(from, fireAt)
	if d > rs.LightArtilleryMax {
		return fmt.Sprintf("its target is %d hexes away, beyond its range of %d", d, rs.LightArtilleryMax)
	}
	if rs.LightArtilleryPath == 0 {
		return ""
	}
	best, toStand, onward := -1, 0, 0
	for _, s := range supported {
		for _, t := range fireAt {
			if p := Distance(from, s) + Distance(s, t); best < 0 || p < best {
				best, toStand, onward = p, Distance(from, s), Distance(s, t)
			}
		}
	}
	if best > rs.LightArtilleryPath {
		return fmt.Sprintf("the path from it to the stand it supports (%d hexes) and on to the enemy (%d) is %d hexes, more than %d",
			toStand, onward, best, rs.LightArtilleryPath)
	}
	return ""
}

func minDistance(from Hex, to []Hex) int {
	best := -1
	for _, h := range to {
		if d := Distance(from, h); best < 0 || d < best {
			best = d
		}
	}
	return best
}

// keep is the shots a battery keeps back from combat support (5).
func (r *resolver) keep(bt *Battery) int {
	if bo := r.orders[bt.Side].BatteryOrder(bt.ID); bo != nil {
		return bo.Keep
	}
	return 0
}

// attackBatteries: the batteries an M unit's attack calls, each firing one
// shot, at most MaxBatteries (3.5.1, 5).
func (r *resolver) attackBatteries(e *engagement, a *Attack, foe foeView) []DiceSource {
	u := e.unit
	if len(a.Batteries) == 0 {
		return nil
	}
	var out []DiceSource
	seen := map[string]bool{}
	for _, id := range a.Batteries {
		if seen[id] {
			continue
		}
		seen[id] = true
		label := "battery " + id
		bt := r.st.Battery(id)
		switch {
		case u.Status != Move:
			r.cancelSupport(u, label, a.Target, r.sec(SecSupportAttacking), "only a unit on Move orders calls batteries to its attack")
			continue
		case len(out) >= r.rs.MaxBatteries:
			r.cancelSupport(u, label, a.Target, r.sec(SecArtillery), "at most %d batteries support one combat", r.rs.MaxBatteries)
			continue
		case bt == nil || bt.Side != u.Side:
			r.cancelSupport(u, label, a.Target, r.sec(SecArtillery), "the side has no such battery")
			continue
		case bt.Removed:
			r.cancelSupport(u, label, a.Target, r.sec(SecArtillery), "it has been destroyed")
			continue
		case Distance(bt.Hex, a.Target) > bt.Range:
			r.cancelSupport(u, label, a.Target, r.sec(SecArtillery), "the target is %d hexes away, beyond its range of %d", Distance(bt.Hex, a.Target), bt.Range)
			continue
		case bt.Shots <= r.keep(bt):
			r.cancelSupport(u, label, a.Target, r.sec(SecArtillery), "it has %d shots left and keeps %d back", bt.Shots, r.keep(bt))
			continue
		}
		bt.Shots--
		out = append(out, r.batterySource(bt, foe))
	}
	return out
}

// defenceBatteries: an H or D stand, or a battery, calls the batteries of its
// side that can reach the attackers and have a shot left, kept ones included,
// nearest first, ties by id (3.5.2, 5).
func (r *resolver) defenceBatteries(o occupant, attHexes []Hex, foe foeView) []DiceSource {
	var cands []*Battery
	for _, bt := range r.st.Batteries {
		if bt.Removed || bt.Side != o.side() || bt == o.battery {
			continue
		}
		// KEEP holds shots back from attacks for exactly this: defence.
		if minDistance(bt.Hex, attHexes) <= bt.Range && bt.Shots > 0 {
			cands = append(cands, bt)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		di, dj := Distance(cands[i].Hex, o.hex()), Distance(cands[j].Hex, o.hex())
		if di != dj {
			return di < dj
		}
		return cands[i].ID < cands[j].ID
	})
	var out []DiceSource
	for _, bt := range cands[:min(len(cands), r.rs.MaxBatteries)] {
		bt.Shots--
		out = append(out, r.batterySource(bt, foe))
	}
	return out
}

// attackAir: the air points an M unit's attack calls (7).
func (r *resolver) attackAir(e *engagement, a *Attack, foe foeView) []DiceSource {
	u := e.unit
	n := a.Air
	if n <= 0 {
		return nil
	}
	side := r.st.Side(u.Side)
	label := "air support"
	if u.Status != Move {
		r.cancelSupport(u, label, a.Target, r.sec(SecSupportAttacking), "only a unit on Move orders calls air support to its attack")
		return nil
	}
	if r.rs.MaxAirPerCombat > 0 && n > r.rs.MaxAirPerCombat {
		r.cancelSupport(u, label, a.Target, r.sec(SecAir), "%d air points called, but at most %d join one combat", n, r.rs.MaxAirPerCombat)
		n = r.rs.MaxAirPerCombat
	}
	if n > side.AirLeft {
		r.cancelSupport(u, label, a.Target, r.sec(SecAir), "%d air points called, but the side has %d left this round", n, side.AirLeft)
		n = side.AirLeft
	}
	return r.airPoints(u.Side, n, []Hex{a.Target}, foe)
}

// defenceAir: an H or D stand, or a battery, calls the ruleset's number of
// air points by itself while its side has some left (3.5.2, 7).
func (r *resolver) defenceAir(o occupant, attHexes []Hex, foe foeView) []DiceSource {
	n := min(r.rs.DefenceAirPoints, r.st.Side(o.side()).AirLeft)
	if r.rs.MaxAirPerCombat > 0 {
		n = min(n, r.rs.MaxAirPerCombat)
	}
	return r.airPoints(o.side(), n, attHexes, foe)
}

// airPoints spends n air points of a side against the given hexes: enemy AA
// fires at each first, and a point it hits is lost for the round (7).
func (r *resolver) airPoints(side string, n int, over []Hex, foe foeView) []DiceSource {
	var out []DiceSource
	sd := r.st.Side(side)
	for range n {
		sd.AirLeft--
		if through, aaShots := r.airGetsThrough(side, over); through {
			src := r.supportSource(side+" air point", "air", r.rs.AirDicePerPoint, foe)
			src.AAShots = aaShots
			out = append(out, src)
		}
	}
	return out
}

// airGetsThrough rolls the enemy AA platoons within range of where an air
// point of side strikes, one after the other until one hits (7), and says
// whether the point got through and how many AA platoons fired at it.
func (r *resolver) airGetsThrough(side string, over []Hex) (bool, int) {
	shots := 0
	enemy := r.st.Enemy(side)
	for _, u := range r.st.Units {
		// 6: a unit whose HQ is lost cannot use its own support stands where
		// the ruleset says so (3SG), its AA included.
		if u.Removed || u.Side != enemy || (u.HQ(r.rs) == nil && r.rs.HQLostNoOwnSupport) {
			continue
		}
		for _, s := range u.Stands {
			if s.Support == nil || r.rs.StandTypes[s.Support.Type].Role != RoleAA {
				continue
			}
			if d := minDistance(s.Hex, over); d > r.rs.AARange {
				continue
			}
			dice := rollDice(r.dice, r.rs.AADice)
			shots++
			hit := r.rs.aaRule.Hits(dice) > 0
			ev := Event{Kind: EvAir, Side: enemy, Unit: u.ID, Stand: s.Support.Name, From: s.Hex, Dice: dice, Section: r.sec(SecAir)}
			if hit {
				ev.Text = fmt.Sprintf("%s %s (AA with %s) fires at %s's air point: rolls %s, a hit: the air point is lost for the round",
					u.ID, s.Support.Name, s.Name, side, diceText(dice))
				r.emit(ev)
				return false, shots
			}
			ev.Text = fmt.Sprintf("%s %s (AA with %s) fires at %s's air point: rolls %s, no hit", u.ID, s.Support.Name, s.Name, side, diceText(dice))
			r.emit(ev)
		}
	}
	return true, shots
}
