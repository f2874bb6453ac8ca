package bot

import (
	"slices"

	"fieldpost/engine/stargeneral/rules"
)

// maxTargets bounds the enemy hexes an advancing unit weighs an attack on.
const maxTargets = 4

// attackOption is one way for a stand to take part in an attack: the path
// to where it fights from, and how.
type attackOption struct {
	stand *rules.Stand
	path  []rules.Hex
	close bool
}

// bestAttack finds the M unit's best attack this round (3.3, 3.4): on each
// enemy hex within reach, with its best one or two stands, in close combat,
// by distant fire or both, the rest of the unit arranged around them and
// all the support in reach called. An attack that leaves the unit behind
// where advance (if any) would take it pays for the ground, but for in the
// battle's last round. It returns the plan when the forecast odds are good
// enough, and then books the support it calls.
func (p *planner) bestAttack(u *rules.Unit, g goal, advance *unitPlan) *unitPlan {
	var best *unitPlan
	for _, t := range p.attackTargets(u, g.hex) {
		for _, variant := range p.attackVariants(u, t) {
			fixed := map[*rules.Stand][]rules.Hex{}
			a := &rules.Attack{Target: t}
			for _, opt := range variant {
				fixed[opt.stand] = opt.path
				a.Stands = append(a.Stands, rules.AttackStand{Stand: opt.stand.Name, Close: opt.close})
			}
			pl := p.arrange(u, g.hex, fixed)
			if pl == nil {
				continue
			}
			pl.kind = kindAttack
			pl.orders.Attack = a
			p.callSupport(u, pl)
			value, ok := p.forecast(&pl.orders)
			if advance != nil && !p.finalRound() {
				value -= p.odds().ground * p.groundLost(u, pl, advance, g.hex)
			}
			if ok && (best == nil || value > best.value) {
				pl.value = value
				best = pl
			}
		}
	}
	if best == nil || best.value < p.odds().attack {
		return nil
	}
	p.bookSupport(best.orders.Attack)
	p.wearDown(&best.orders)
	return best
}

// attackTargets lists the enemy hexes the unit's attacking stands could
// reach with a normal move and distant fire: objectives first, then those
// nearest its goal, at most maxTargets.
func (p *planner) attackTargets(u *rules.Unit, goalHex rules.Hex) []rules.Hex {
	var out []rules.Hex
	for _, e := range p.enemies {
		for _, s := range u.Stands {
			if p.rs.CanInitiate(p.role(s)) && rules.Distance(s.Hex, e) <= p.allowance(s).Normal+p.rs.DistantFireRange {
				out = append(out, e)
				break
			}
		}
	}
	objValue := func(h rules.Hex) int {
		if ob := p.objective(h); ob != nil {
			return ob.Value
		}
		return 0
	}
	slices.SortStableFunc(out, func(a, b rules.Hex) int {
		if va, vb := objValue(a), objValue(b); va != vb {
			return vb - va
		}
		if !goalHex.IsZero() {
			return rules.Distance(a, goalHex) - rules.Distance(b, goalHex)
		}
		return 0
	})
	return out[:min(len(out), maxTargets)]
}

// attackVariants lists the ways the unit's two best attacking stands can
// attack t: each alone or both together, each in close combat or by
// distant fire, from the best hex it can reach for that (3.3, 3.4).
func (p *planner) attackVariants(u *rules.Unit, t rules.Hex) [][]attackOption {
	type stand struct {
		s           *rules.Stand
		close, fire *attackOption
	}
	var cands []stand
	for _, s := range u.Stands {
		if !p.rs.CanInitiate(p.role(s)) {
			continue
		}
		c := stand{s: s}
		c.close, c.fire = p.attackPositions(s, t)
		if c.close != nil || c.fire != nil {
			cands = append(cands, c)
		}
	}
	slices.SortStableFunc(cands, func(a, b stand) int { return dice(b.s) - dice(a.s) })
	var out [][]attackOption
	add := func(opts ...*attackOption) {
		var v []attackOption
		ends := map[rules.Hex]bool{}
		for _, o := range opts {
			end := endOf(o.stand, o.path)
			if ends[end] {
				return // two stands cannot finish in one hex (1.3)
			}
			ends[end] = true
			v = append(v, *o)
		}
		out = append(out, v)
	}
	if len(cands) == 0 {
		return nil
	}
	a := cands[0]
	for _, oa := range []*attackOption{a.close, a.fire} {
		if oa != nil {
			add(oa)
		}
	}
	if len(cands) < 2 || p.rs.MaxAttackStands < 2 {
		return out
	}
	b := cands[1]
	for _, oa := range []*attackOption{a.close, a.fire} {
		for _, ob := range []*attackOption{b.close, b.fire} {
			if oa != nil && ob != nil {
				add(oa, ob)
			}
		}
	}
	return out
}

// attackPositions finds where a stand can attack t from after a normal
// move (a strategic one forbids attacking, 2): the best hex next to it for
// close combat, and the best one in distant fire range with a line of sight
// (3.3). Short paths and hexes outside rivers (3.7.3) are better; for fire,
// nearer ones too (2SG 3.7.3: long range costs dice).
func (p *planner) attackPositions(s *rules.Stand, t rules.Hex) (close, fire *attackOption) {
	r := p.reachOf(s, false)
	blocked := func(h rules.Hex) bool { return h != s.Hex && (p.held(h) || p.taken[h]) }
	var bestClose, bestFire float64
	for _, e := range r.hexes {
		if !p.free(s, e, nil) {
			continue
		}
		score := 0.1 * float64(len(r.paths[e]))
		if p.terrain(e).River {
			score++
		}
		switch d := rules.Distance(e, t); {
		case d == 1:
			if close == nil || score < bestClose {
				close, bestClose = &attackOption{stand: s, path: r.paths[e], close: true}, score
			}
		case d >= 2 && d <= p.rs.DistantFireRange && p.lineOfSight(e, t, blocked):
			score += 0.5 * float64(d)
			if fire == nil || score < bestFire {
				fire, bestFire = &attackOption{stand: s, path: r.paths[e]}, score
			}
		}
	}
	return close, fire
}

// holdAttack finds the best attack an H unit can make with one stand from
// where it stands, with its light artillery (3.4, 3.5.1), if the odds are
// good enough for a stand to give up its cover for it.
func (p *planner) holdAttack(u *rules.Unit) *unitPlan {
	if !rules.StatusAllowed(p.rs, p.st, u, rules.Hold) {
		return nil
	}
	var best *unitPlan
	for _, s := range u.Stands {
		if !p.rs.CanInitiate(p.role(s)) {
			continue
		}
		blocked := func(h rules.Hex) bool { return h != s.Hex && p.held(h) }
		for _, t := range p.enemies {
			d := rules.Distance(s.Hex, t)
			if d > p.rs.DistantFireRange || (d > 1 && !p.lineOfSight(s.Hex, t, blocked)) {
				continue
			}
			pl := p.stay(u, kindAttack, rules.Hold)
			pl.orders.Attack = &rules.Attack{Target: t, Stands: []rules.AttackStand{{Stand: s.Name, Close: d == 1}}}
			p.callSupport(u, pl)
			value, ok := p.forecast(&pl.orders)
			if ok && (best == nil || value > best.value) {
				pl.value = value
				best = pl
			}
		}
	}
	if best == nil || best.value < p.odds().holdAttack {
		return nil
	}
	p.wearDown(&best.orders)
	return best
}

// callSupport adds to a planned attack the unit's light artillery in reach
// (3.5; 3SG 3.5.2) and, for an M unit, the batteries in range with shots to
// spare, the most dice first, and an air point (3.5.1, 7).
func (p *planner) callSupport(u *rules.Unit, pl *unitPlan) {
	a := pl.orders.Attack
	hqEnd := pl.ends[u.HQ(p.rs)]
	var attackers []rules.Hex
	for _, as := range a.Stands {
		attackers = append(attackers, pl.ends[u.Stand(as.Stand)])
	}
	for _, s := range u.Stands {
		la := s.Support
		if la == nil || p.rs.StandTypes[la.Type].Role != rules.RoleLightArtillery {
			continue
		}
		e := pl.ends[s]
		if rules.Distance(e, hqEnd) > p.rs.CommandRange || p.rs.FireSupportOutOfReach(e, []rules.Hex{a.Target}, attackers) != "" {
			continue
		}
		a.LightArtillery = append(a.LightArtillery, la.Name)
	}
	if pl.orders.Status != rules.Move {
		return
	}
	var batteries []*rules.Battery
	for _, bt := range p.st.Batteries {
		if bt.Side == p.side && !bt.Removed && p.shots[bt.ID] > 0 && rules.Distance(bt.Hex, a.Target) <= bt.Range {
			batteries = append(batteries, bt)
		}
	}
	slices.SortStableFunc(batteries, func(x, y *rules.Battery) int { return min(y.FS, y.SP) - min(x.FS, x.SP) })
	for _, bt := range batteries[:min(len(batteries), p.rs.MaxBatteries)] {
		a.Batteries = append(a.Batteries, bt.ID)
	}
	if p.air > 0 {
		a.Air = 1
	}
}

// bookSupport takes the shots and air an attack calls from what is left
// for the other attacks of the round.
func (p *planner) bookSupport(a *rules.Attack) {
	for _, id := range a.Batteries {
		p.shots[id]--
	}
	p.air -= a.Air
}

// forecast is the value of a planned attack, from the dice pools the
// engine forecasts for it. Not ok when the engine says it cannot be made,
// or leaves out one of the stands plotted to make it.
func (p *planner) forecast(uo *rules.UnitOrders) (float64, bool) {
	o := &rules.Orders{Side: p.side, Units: []rules.UnitOrders{*uo}}
	c, err := rules.Forecast(p.rs, p.fst, o, uo.Unit)
	if err != nil {
		return 0, false
	}
	for _, as := range uo.Attack.Stands {
		who := uo.Unit + " " + as.Stand
		if !slices.ContainsFunc(c.Attacker.Sources, func(src rules.DiceSource) bool { return src.Who == who }) {
			return 0, false
		}
	}
	return p.attackValue(c, len(uo.Attack.Stands)), true
}

// attackValue is what an attack is worth, in SP: the losses it expects to
// inflict (weighted by what the target is worth) less those it expects to
// suffer (4), and in close combat the chance of winning the hex, objectives
// counting, less that of falling back (4.1, 4.2). A close combat too likely
// lost is worth nothing. Where the loss cap is per hex (3SG 4), each of the
// attacking stands may lose up to the cap.
func (p *planner) attackValue(c *rules.Combat, stands int) float64 {
	att := p.rs.PoolOdds(c.Attacker)
	def := []float64{1}
	if c.NoReturn == "" {
		def = p.rs.PoolOdds(c.Defender)
	}
	if p.finalRound() {
		return p.lastRoundValue(c, att, def)
	}
	maxLoss, ownMaxLoss := p.rs.MaxLossPerCombat, p.rs.MaxLossPerCombat
	if p.rs.MaxLossPer == rules.LossCapPerHex {
		ownMaxLoss *= stands
	}
	v := cappedMean(att, maxLoss)*p.worth(c.Target) - cappedMean(def, ownMaxLoss)
	if c.Close {
		win, lose := rules.ChanceMore(att, def), rules.ChanceMore(def, att)
		if lose > p.odds().closeLoss {
			return 0
		}
		if p.holdsAtCost(c.Target) {
			v += win * p.worth(c.Target) // the extra SP it pays to stay
		} else {
			hexValue := 0.5
			if ob := p.objective(c.Target); ob != nil {
				hexValue += float64(ob.Value)
			}
			v += win * hexValue
		}
		v -= 0.5 * lose
	}
	return v
}

// lastRoundValue is what an attack is worth in the battle's last round,
// after which only the objectives count (11): on an objective the side
// lacks, a little for each SP it takes off the defender and, in close
// combat, the chance of taking the hex times its value; any other attack
// less than nothing, so that it is not made: the stands do better taking
// what they can reach.
func (p *planner) lastRoundValue(c *rules.Combat, att, def []float64) float64 {
	ob := p.objective(c.Target)
	if ob == nil || ob.Owner == p.side {
		return -1
	}
	// Worn down, the defender falls to the side's next attack on it.
	v := wearWorth * cappedMean(att, p.rs.MaxLossPerCombat)
	if c.Close && !p.holdsAtCost(c.Target) {
		v += rules.ChanceMore(att, def) * float64(ob.Value)
	}
	return v
}

// wearWorth is what each SP an attack in the last round takes off the
// defender of an objective is worth: it makes the next attack on it likelier
// to take it.
const wearWorth = 0.1

// holdsAtCost: the stand in h, dug in where the ruleset lets a beaten D
// stand pay to stay, keeps its hex even if beaten in close combat: it has
// more SP than the most a combat takes and the one it pays (4, 4.1).
func (p *planner) holdsAtCost(h rules.Hex) bool {
	u, s := p.fstStand(h)
	if s == nil || u.Status != rules.DigIn {
		return false
	}
	where := p.rs.HoldAtCost == rules.HoldAtCostAnywhere || p.terrain(h).Cover
	return where && s.SP > p.rs.MaxLossPerCombat+1
}

// fstStand is the enemy core stand in h on the position the forecasts are
// made on, with its unit; nil for none or a battery.
func (p *planner) fstStand(h rules.Hex) (*rules.Unit, *rules.Stand) {
	for _, u := range p.fst.Units {
		if u.Side == p.side || u.Removed {
			continue
		}
		for _, s := range u.Stands {
			if s.Hex == h {
				return u, s
			}
		}
	}
	return nil, nil
}

// wearDown takes off the defender, on the position the later forecasts of
// the round are made on, the losses a planned attack is expected to
// inflict: the side's later attacks on the same hex meet a weaker defender
// (3.1, 3.7.2), fewer SP to hold at cost with, so that regiments
// concentrating on one objective see what their attacks can do together.
func (p *planner) wearDown(uo *rules.UnitOrders) {
	c, err := rules.Forecast(p.rs, p.fst, &rules.Orders{Side: p.side, Units: []rules.UnitOrders{*uo}}, uo.Unit)
	if err != nil {
		return
	}
	_, s := p.fstStand(c.Target)
	losses := int(cappedMean(p.rs.PoolOdds(c.Attacker), p.rs.MaxLossPerCombat) + 0.5)
	if s != nil {
		s.SP = max(1, s.SP-losses)
	}
}

// worth weighs hits on what stands in h: more on a stand they can destroy,
// an HQ (6) or a battery.
func (p *planner) worth(h rules.Hex) float64 {
	o := p.occ[h]
	w := 1.0
	switch {
	case o.battery != nil:
		w = 1.3
	case o.stand != nil && p.role(o.stand) == rules.RoleHQ:
		w = 1.5
	}
	if sp := spOf(o); sp > 0 && sp <= p.rs.MaxLossPerCombat {
		w += 0.5
	}
	return w
}

func spOf(o holder) int {
	switch {
	case o.battery != nil:
		return o.battery.SP
	case o.stand != nil:
		return o.stand.SP
	}
	return 0
}

// dice is what a stand throws by itself (3.1).
func dice(s *rules.Stand) int { return min(s.FS, s.SP) }

// cappedMean is the expected number of losses from a distribution of hits,
// at most limit a combat (4).
func cappedMean(dist []float64, limit int) float64 {
	m := 0.0
	for h, pr := range dist {
		m += float64(min(h, limit)) * pr
	}
	return m
}

func minDistance(from rules.Hex, to []rules.Hex) int {
	best := 99
	for _, h := range to {
		best = min(best, rules.Distance(from, h))
	}
	return best
}
