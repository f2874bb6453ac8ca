package rules

import (
	"fmt"
	"strings"
)

// artilleryPhase ends a day round (5.1, 5.2, 7): batteries with shots left
// fire them at targets friendly stands can spot, or move; the sides alternate
// battery by battery, the winner of a 2D6 roll first, and where the ruleset
// allows, each side's unused air points then strike. No roll is made when
// only one side has anything to do.
func (r *resolver) artilleryPhase() {
	a, b := r.st.Sides[0].Name, r.st.Sides[1].Name
	queues := map[string][]func(){a: r.artilleryActions(a), b: r.artilleryActions(b)}
	if len(queues[a]) == 0 && len(queues[b]) == 0 {
		return
	}
	turn := a
	switch {
	case len(queues[a]) == 0:
		turn = b
	case len(queues[b]) > 0:
		turn = r.rollOff("Artillery phase")
	}
	for len(queues[a])+len(queues[b]) > 0 {
		if len(queues[turn]) == 0 {
			turn = r.st.Enemy(turn)
			continue
		}
		act := queues[turn][0]
		queues[turn] = queues[turn][1:]
		act()
		turn = r.st.Enemy(turn)
	}
}

// artilleryActions lists what a side does in the artillery phase, in
// scenario order of its batteries, then its air strikes.
func (r *resolver) artilleryActions(side string) []func() {
	var out []func()
	o := r.orders[side]
	for _, bt := range r.st.Batteries {
		if bt.Removed || bt.Side != side {
			continue
		}
		bo := o.BatteryOrder(bt.ID)
		switch {
		case bo == nil:
		case !bo.Fire.IsZero() && bt.Shots == 0:
			r.note(r.sec(SecArtilleryPhase), "battery %s has no shots left to fire at %s", bt.ID, bo.Fire)
		case !bo.Fire.IsZero():
			out = append(out, func() { r.barrage(bt, bo.Fire) })
		case len(bo.Move) > 0 && bt.Shots == 0 && !r.batteryArmoured(bt):
			r.note(r.sec(SecArtilleryPhase), "battery %s cannot move: it has no shot left to give up, and only armoured artillery moves without one", bt.ID)
		case len(bo.Move) > 0:
			out = append(out, func() { r.moveBattery(bt, bo.Move) })
		}
	}
	if r.rs.AirInArtilleryPhase {
		for _, h := range o.AirStrikes {
			out = append(out, func() { r.airStrike(side, h) })
		}
	}
	return out
}

func (r *resolver) batteryArmoured(bt *Battery) bool {
	return bt.Armoured || r.rs.StandTypes[bt.Type].Armoured
}

func (r *resolver) batteryMoveClass(bt *Battery) string {
	if bt.MoveClass != "" {
		return bt.MoveClass
	}
	return r.rs.StandTypes[bt.Type].Move
}

// barrage fires all of a battery's shots at a spotted target (5.1).
func (r *resolver) barrage(bt *Battery, target Hex) {
	if bt.Removed {
		r.note(r.sec(SecArtilleryPhase), "battery %s was destroyed before it could fire", bt.ID)
		return
	}
	cancel := func(section, format string, args ...any) {
		r.emit(Event{Kind: EvAttackCancel, Side: bt.Side, Unit: bt.ID, From: bt.Hex, To: target, Section: section,
			Text: fmt.Sprintf("battery %s cannot fire at %s: %s (%s)", bt.ID, target, fmt.Sprintf(format, args...), section)})
	}
	o := r.b.at(target)
	if o.empty() || o.side() == bt.Side {
		cancel(r.sec(SecArtilleryPhase), "there is no enemy stand in the hex")
		return
	}
	if d := Distance(bt.Hex, target); d > bt.Range {
		cancel(r.sec(SecArtillery), "the target is %d hexes away, beyond its range of %d", d, bt.Range)
		return
	}
	spotter, why := r.spotter(bt.Side, o)
	if spotter == "" {
		cancel(r.sec(SecSpotting), "%s", why)
		return
	}
	shots := bt.Shots
	bt.Shots = 0
	r.strike(bt.Side, bt.ID, "battery "+bt.ID, bt.Type, min(bt.FS, bt.SP), shots, o, spotter, r.sec(SecArtilleryPhase))
}

// airStrike spends one of a side's unused air points on a target in the
// artillery phase (7): on the same terms as artillery, so the target must be
// spotted, and enemy AA fires first.
func (r *resolver) airStrike(side string, target Hex) {
	sd := r.st.Side(side)
	cancel := func(section, format string, args ...any) {
		r.emit(Event{Kind: EvAttackCancel, Side: side, To: target, Section: section,
			Text: fmt.Sprintf("%s air strike on %s cancelled: %s (%s)", side, target, fmt.Sprintf(format, args...), section)})
	}
	if sd.AirLeft <= 0 {
		cancel(r.sec(SecAir), "no air points left this round")
		return
	}
	o := r.b.at(target)
	if o.empty() || o.side() == side {
		cancel(r.sec(SecAir), "there is no enemy stand in the hex")
		return
	}
	spotter, why := r.spotter(side, o)
	if spotter == "" {
		cancel(r.sec(SecSpotting), "%s", why)
		return
	}
	sd.AirLeft--
	if through, _ := r.airGetsThrough(side, []Hex{target}); !through {
		return
	}
	r.strike(side, "air", side+" air point", "air", r.rs.AirDicePerPoint, 1, o, spotter, r.sec(SecAir))
}

// strike rolls an artillery-phase barrage or air strike (5.1, 7): each shot
// throws the dice as M against the target's status and scores at most one
// hit; the target does not fire back.
func (r *resolver) strike(side, unitID, who, kind string, base, shots int, o occupant, spotter, section string) {
	r.combats++
	src := r.supportSource(who, kind, base, r.foeOf(o))
	src.Shots = shots
	status := r.effStatus(o)
	c := &Combat{Number: r.combats, Target: o.hex(), Barrage: true,
		Attacker: Force{Side: side, Unit: unitID, Status: Move, Sources: []DiceSource{src}, Rule: r.rs.Attacking(Move, status)},
		Defender: Force{Side: o.side(), Unit: occupantUnitID(o), Status: status},
		NoReturn: fmt.Sprintf("an artillery-phase barrage is not close combat: the target does not fire back (%s)", r.sec(SecArtilleryPhase))}
	var perShot []string
	for range shots {
		roll := rollDice(r.dice, src.Dice)
		c.Attacker.Rolled = append(c.Attacker.Rolled, roll...)
		c.Attacker.Hits += min(1, c.Attacker.Rule.Hits(roll))
		perShot = append(perShot, diceText(roll))
	}
	c.Attacker.Dice = src.Dice * shots
	shotWord := "shots"
	if shots == 1 {
		shotWord = "shot"
	}
	r.emit(Event{Kind: EvBarrage, Side: side, Unit: unitID, To: o.hex(), Section: section, Combat: c,
		Text: fmt.Sprintf("Combat %d: %s fires %d %s at %s in %s, spotted by %s. Each shot: %s, hitting on %s. Rolls %s: %s (at most 1 a shot). No return fire (%s).",
			c.Number, who, shots, shotWord, r.label(o), o.hex(), spotter, sourceText(src), c.Attacker.Rule,
			strings.Join(perShot, " | "), hitsText(c.Attacker.Hits), r.sec(SecArtilleryPhase))})
	r.lossCapNote(r.label(o), c.Attacker.Hits, min(c.Attacker.Hits, r.rs.MaxLossPerCombat))
	c.Defender.Losses, _ = r.takeLosses(o, min(c.Attacker.Hits, r.rs.MaxLossPerCombat), section)
}

// spotter names a friendly stand in command that can see the target for the
// artillery (5.2): within the spotting range (shorter into cover or at a D
// stand), with a line of sight that stands do not block but terrain does.
// When there is none it says why.
func (r *resolver) spotter(side string, o occupant) (string, string) {
	rng := r.rs.SpottingOpen
	if r.b.terrain(o.hex()).Cover || (o.stand != nil && o.unit.Status == DigIn) {
		rng = r.rs.SpottingCover
	}
	for _, u := range r.st.Units {
		if u.Removed || u.Side != side {
			continue
		}
		for _, s := range u.Stands {
			if r.b.inCommand(u, s) && Distance(s.Hex, o.hex()) <= rng && r.b.lineOfSight(s.Hex, o.hex(), false) {
				return u.ID + " " + s.Name, ""
			}
		}
	}
	return "", fmt.Sprintf("no friendly stand in command can spot %s: spotting reaches %d hexes here and blocking terrain stops it", r.label(o), rng)
}

// moveBattery moves a battery in the artillery phase (5.1), giving up the
// shots it has left: at the wheeled rate, or its own tracked rate for
// armoured artillery, with the usual halts.
func (r *resolver) moveBattery(bt *Battery, path []Hex) {
	if bt.Removed {
		r.note(r.sec(SecArtilleryPhase), "battery %s was destroyed before it could move", bt.ID)
		return
	}
	allowance := r.rs.Movement[r.batteryMoveClass(bt)].Normal
	discarded := bt.Shots
	bt.Shots = 0
	from := bt.Hex
	steps, why := r.walkBattery(bt, path, allowance)
	given := ""
	if discarded > 0 {
		given = fmt.Sprintf(", giving up %d shots", discarded)
	}
	if len(steps) == 0 {
		r.emit(Event{Kind: EvHalt, Side: bt.Side, Unit: bt.ID, From: from, To: from, Section: r.sec(SecArtilleryPhase),
			Text: fmt.Sprintf("battery %s cannot move from %s: %s", bt.ID, from, why)})
		return
	}
	to := steps[len(steps)-1]
	r.b.moveBattery(bt, to)
	r.emit(Event{Kind: EvArtilleryMove, Side: bt.Side, Unit: bt.ID, From: from, To: to, Path: steps, Section: r.sec(SecArtilleryPhase),
		Text: fmt.Sprintf("battery %s moves from %s to %s%s (%s)", bt.ID, from, to, given, r.sec(SecArtilleryPhase))})
	if why != "" {
		r.emit(Event{Kind: EvHalt, Side: bt.Side, Unit: bt.ID, From: to, To: to, Section: r.sec(SecMoveRestrictions),
			Text: fmt.Sprintf("battery %s halts at %s: %s", bt.ID, to, why)})
	}
}

// walkBattery follows a plotted path as far as the movement rules allow
// (2.4, 2.5, 1.3) and returns the hexes entered, and why it stopped short.
// The movement rules' own walk is for unit stands; a battery has no unit or
// command range, so it has this small one.
func (r *resolver) walkBattery(bt *Battery, path []Hex, allowance int) ([]Hex, string) {
	cur := bt.Hex
	var steps []Hex
	why := ""
	for i, h := range path {
		more := i < len(path)-1
		if !r.b.st.Map.OnMap(h) {
			why = fmt.Sprintf("%s is off the map", h)
			break
		}
		t := r.b.terrain(h)
		switch occ := r.b.at(h); {
		case i >= allowance:
			why = fmt.Sprintf("its move is %d hexes (%s)", allowance, r.sec(SecArtilleryPhase))
		case !Adjacent(cur, h):
			why = fmt.Sprintf("%s is not next to %s", h, cur)
		case t.Impassable || t.Normal == MoveImpassable:
			why = fmt.Sprintf("%s is %s, impassable (%s)", h, t.Title, r.sec(SecTerrain))
		case !occ.empty() && occ.side() != bt.Side:
			why = fmt.Sprintf("%s holds the enemy stand %s", h, r.label(occ))
		case t.Normal == MoveHaltBefore || (t.Normal == MoveHaltBeforeAndOnEnter && i > 0):
			why = fmt.Sprintf("it must halt before entering the %s at %s (%s)", t.Title, h, r.sec(SecTerrain))
		}
		if why != "" {
			break
		}
		steps = append(steps, h)
		cur = h
		if more && r.b.inEnemyZOC(h, bt.Side) {
			why = fmt.Sprintf("entering an enemy zone of control (%s)", r.sec(SecMoveRestrictions))
			break
		}
		if more && (t.Normal == MoveHaltOnEnter || t.Normal == MoveHaltBeforeAndOnEnter) {
			why = fmt.Sprintf("entering %s (%s)", t.Title, r.sec(SecTerrain))
			break
		}
	}
	// 1.3: one core stand a hex, so it cannot stop in a hex another holds.
	for len(steps) > 0 && !r.b.at(steps[len(steps)-1]).empty() {
		why = fmt.Sprintf("it cannot stop in %s, held by %s (%s)", steps[len(steps)-1], r.label(r.b.at(steps[len(steps)-1])), r.sec(SecStacking))
		steps = steps[:len(steps)-1]
	}
	return steps, why
}
