// Package bot is a computer player: from a position it plots one side's
// orders for the coming round as a sensible player would. It holds the
// objectives it owns and digs in when the enemy comes near, advances on the
// objectives it lacks with each battalion keeping its stands in command of
// its HQ, attacks when the odds the engine forecasts are good, or merely
// fair when it loses the battle unless it takes objectives (with light
// artillery, batteries and air), fires its batteries in the artillery phase,
// pulls badly damaged units back, and spends the night's recovery. Every
// plan passes rules.Validate: whatever the rules refuse is dropped for
// something simpler.
package bot

import (
	"fieldpost/engine"

	"slices"

	"fieldpost/engine/stargeneral/rules"
)

// Options tune the player.
type Options struct {
	// Seed varies the plans: bots with different seeds weigh their goals a
	// little differently. The same seed and position give the same orders.
	Seed uint64
}

// Plan plots side's orders for the round st is about to play: a day round
// or the night. The orders always pass rules.Validate.
func Plan(rs *rules.Ruleset, st *rules.State, side string, opt Options) *rules.Orders {
	switch {
	case st.Ended || st.Side(side) == nil:
		return rules.DefaultOrders(rs, st, side)
	case st.Night:
		return planNight(rs, st, side)
	}
	return newPlanner(rs, st, side, opt).day()
}

// The planner's thresholds and ranges; values are in strength points, as
// attackValue counts them.
const (
	// attackThreshold: an M unit attacks when it expects to come out this
	// much ahead.
	attackThreshold = 0.3
	// holdAttackThreshold is stricter: the stand of an H unit that attacks
	// gives up its cover for the round (3.7.2).
	holdAttackThreshold = 0.6
	// maxCloseLoss: the largest chance of losing a close combat (and falling
	// back, 4.1) worth taking.
	maxCloseLoss = 0.4
	// groundCost is what an attack gives up for each hex it leaves the
	// unit short of where its advance would have taken it.
	groundCost = 0.4
	// boldGroundCost is groundCost for a side losing the battle: the
	// objectives it must take are worth more than the losses it deals.
	boldGroundCost = 0.8
	// retreatStrength: a unit with no more than this share of its fighting
	// strength left pulls back when the enemy is close.
	retreatStrength = 0.4
	// digInRange: a holding unit digs in when an enemy stand is this near.
	digInRange = 4
	// boldAttackThreshold and boldCloseLoss are the odds a side losing the
	// battle accepts: an attack that costs it a little more than it deals,
	// and close combats it may well lose. (Bolder still, the Germans of
	// krinkelt wasted themselves: 1 win in 20 against 5.)
	boldAttackThreshold = -0.5
	boldCloseLoss       = 0.7
)

// planKind says what a unit does this round; attacks act first (1.7).
type planKind int

const (
	kindAttack planKind = iota
	kindAdvance
	kindHold
	kindRetreat
	kindNoHQ
)

// unitPlan is one unit's orders and what the planner knows of them.
type unitPlan struct {
	kind   planKind
	orders rules.UnitOrders
	ends   map[*rules.Stand]rules.Hex // where each stand finishes, moving or not
	value  float64                    // the attack's value, for the priority
}

// goal is where a unit is going, and whether to hold it once there.
type goal struct {
	hex    rules.Hex
	defend bool // an objective of ours the enemy threatens
}

type planner struct {
	*position
	o     *rules.Orders
	rnd   *engine.SeededDice
	taken map[rules.Hex]bool // hexes planned moves finish in
	// fst is the position with, as a careful player assumes, the enemy's M
	// and R units on Hold, the firmer defence. Forecasts are made on it.
	fst     *rules.State
	shots   map[string]int // battery shots left for attack support
	air     int            // air points left for attack support
	goals   map[*rules.Unit]goal
	plans   []*unitPlan
	reaches map[reachKey]reachable
	ways    map[rules.Hex]map[rules.Hex]float64 // way's fields, by goal
	// enterCost is what entering each hex costs on the way (wayField);
	// the hexes it has no cost for cannot be entered.
	enterCost map[rules.Hex]int
}

// odds are the thresholds an attack must clear: a side that loses the battle
// unless it takes objectives cannot wait for good odds, or it never
// attacks a defender that holds its ground.
type odds struct {
	attack, holdAttack, closeLoss float64
	// ground is what an attack gives up for each hex it leaves the unit
	// short of where its advance would have taken it.
	ground float64
}

var (
	carefulOdds = odds{attack: attackThreshold, holdAttack: holdAttackThreshold, closeLoss: maxCloseLoss, ground: groundCost}
	boldOdds    = odds{attack: boldAttackThreshold, holdAttack: boldAttackThreshold, closeLoss: boldCloseLoss, ground: boldGroundCost}
)

func (p *planner) odds() odds {
	if p.mustGain() {
		return boldOdds
	}
	return carefulOdds
}

type reachKey struct {
	s         *rules.Stand
	strategic bool
}

func newPlanner(rs *rules.Ruleset, st *rules.State, side string, opt Options) *planner {
	p := &planner{
		position: newPosition(rs, st, side),
		o:        &rules.Orders{Side: side},
		rnd:      engine.NewSeededDice(opt.Seed ^ uint64(st.Turn+1)*0x9e3779b97f4a7c15),
		taken:    map[rules.Hex]bool{},
		shots:    map[string]int{},
		goals:    map[*rules.Unit]goal{},
		reaches:  map[reachKey]reachable{},
		ways:     map[rules.Hex]map[rules.Hex]float64{},
	}
	p.fst = st.Clone()
	for _, bt := range p.fst.Batteries {
		if bt.Side == side && !bt.Removed {
			p.shots[bt.ID] = attackShots(bt)
		}
	}
	for _, u := range p.fst.Units {
		if u.Side != side && (u.Status == rules.Move || u.Status == rules.Retreat) {
			u.Status = rules.Hold
		}
	}
	p.air = st.Side(side).Air
	return p
}

// keepShots is what each battery keeps back from attack support (5): a
// shot for the artillery phase.
const keepShots = 1

// attackShots is how many of a battery's shots support attacks: all but the
// one kept back and one more left for defence (3.5.2), but at least one.
func attackShots(bt *rules.Battery) int {
	return max(1, bt.ShotsPerRound-keepShots-1)
}

// day plots a day round: goals, then each unit (those nearest the enemy
// first, so that they have first call on the batteries), then the
// artillery phase and the activation priority.
func (p *planner) day() *rules.Orders {
	p.assignGoals()
	units := p.st.ActiveUnits(p.side)
	slices.SortStableFunc(units, func(a, b *rules.Unit) int {
		return p.unitEnemyDistance(a) - p.unitEnemyDistance(b)
	})
	for _, u := range units {
		pl := p.planUnit(u)
		p.grab(u, pl)
		p.plans = append(p.plans, pl)
		for _, s := range u.Stands {
			if end := pl.ends[s]; end != s.Hex {
				p.taken[end] = true
			}
		}
	}
	for _, pl := range p.plans {
		p.o.Units = append(p.o.Units, pl.orders)
	}
	p.priority()
	p.artillery()
	return p.valid()
}

// planUnit chooses what one unit does.
func (p *planner) planUnit(u *rules.Unit) *unitPlan {
	if u.HQ(p.rs) == nil {
		return p.hqReturn(u)
	}
	if p.shouldRetreat(u) {
		if pl := p.retreat(u); pl != nil {
			return pl
		}
	}
	g, ok := p.goals[u]
	switch {
	case !ok || p.strength(u) <= retreatStrength:
		return p.hold(u, g)
	case g.defend && p.occupies(u, g.hex):
		return p.hold(u, g)
	case !rules.StatusAllowed(p.rs, p.st, u, rules.Move):
		// A dug-in unit goes to Hold first (1.6), to move next round.
		return p.stand(u, true)
	}
	advance := p.arrange(u, g.hex, nil)
	if advance != nil && !p.progresses(u, advance, g.hex) {
		advance = nil
	}
	if pl := p.bestAttack(u, g, advance); pl != nil {
		return pl
	}
	if advance != nil {
		return advance
	}
	return p.stand(u, false)
}

// progresses: a plan brings the unit nearer its goal: its leading stand,
// or its stands together by two hexes or more. Near the enemy, moving
// without getting anywhere only trades a Hold for the weaker defence of a
// unit on the move (3.2); away from it, any move that gets nearer will do.
func (p *planner) progresses(u *rules.Unit, pl *unitPlan, goal rules.Hex) bool {
	if len(pl.orders.Moves) == 0 {
		return false
	}
	leadBefore, leadAfter, sumBefore, sumAfter := 999.0, 999.0, 0.0, 0.0
	for _, s := range u.Stands {
		if p.role(s) == rules.RoleHQ {
			continue
		}
		before, after := p.way(goal, s.Hex), p.way(goal, pl.ends[s])
		leadBefore, leadAfter = min(leadBefore, before), min(leadAfter, after)
		sumBefore += before
		sumAfter += after
	}
	if p.unitEnemyDistance(u) > 2 {
		return sumAfter < sumBefore
	}
	return leadAfter < leadBefore || sumAfter <= sumBefore-2
}

// groundLost is how much farther from the goal a plan leaves the unit
// than the advance would: its leading stand, and its stands on average.
func (p *planner) groundLost(u *rules.Unit, pl, advance *unitPlan, goal rules.Hex) float64 {
	lead := func(pl *unitPlan) float64 {
		best := 999.0
		for _, s := range u.Stands {
			if p.role(s) != rules.RoleHQ {
				best = min(best, p.way(goal, pl.ends[s]))
			}
		}
		return best
	}
	mean := func(pl *unitPlan) float64 {
		sum, n := 0.0, 0
		for _, s := range u.Stands {
			if p.role(s) != rules.RoleHQ {
				sum += p.way(goal, pl.ends[s])
				n++
			}
		}
		return sum / float64(max(n, 1))
	}
	return max(0, lead(pl)-lead(advance)) + max(0, mean(pl)-mean(advance))
}

// priority: the attacks first, the best first, so that they go in before
// the enemy can move away or strike first; then the advances (1.7).
func (p *planner) priority() {
	// Attacks on one hex go in together, ranked by the best of them, and
	// in the order they were planned in: the later ones count on the
	// earlier wearing the defender down (wearDown).
	strongest := map[rules.Hex]*unitPlan{}
	index := map[*unitPlan]int{}
	for i, pl := range p.plans {
		index[pl] = i
		if a := pl.orders.Attack; a != nil {
			if f, ok := strongest[a.Target]; !ok || pl.value > f.value {
				strongest[a.Target] = pl
			}
		}
	}
	lead := func(pl *unitPlan) *unitPlan {
		if a := pl.orders.Attack; a != nil {
			return strongest[a.Target]
		}
		return pl
	}
	order := slices.Clone(p.plans)
	slices.SortStableFunc(order, func(a, b *unitPlan) int {
		if a.kind != b.kind {
			return int(a.kind) - int(b.kind)
		}
		la, lb := lead(a), lead(b)
		switch {
		case la.value > lb.value:
			return -1
		case la.value < lb.value:
			return 1
		}
		return index[a] - index[b]
	})
	for _, pl := range order {
		p.o.Priority = append(p.o.Priority, pl.orders.Unit)
	}
}

// jitter is a factor near 1 drawn from the seed, to vary the weights.
func (p *planner) jitter() float64 {
	return 1 + float64(p.rnd.D6()-1)/50
}

// strength is the share of a unit's fighting strength left: the SP of its
// stands other than the HQ over their full strength, lost ones included.
func (p *planner) strength(u *rules.Unit) float64 {
	sp, full := 0, 0
	for _, s := range u.Stands {
		if p.role(s) != rules.RoleHQ {
			sp += s.SP
			full += s.MaxSP
		}
	}
	for _, s := range u.Lost {
		if p.role(s) != rules.RoleHQ {
			full += s.MaxSP
		}
	}
	if full == 0 {
		return 0
	}
	return float64(sp) / float64(full)
}

// unitEnemyDistance is how near the enemy is to the unit's nearest stand.
func (p *planner) unitEnemyDistance(u *rules.Unit) int {
	best := 99
	for _, s := range u.Stands {
		best = min(best, p.enemyDistance(s.Hex))
	}
	return best
}

func (p *planner) occupies(u *rules.Unit, h rules.Hex) bool {
	for _, s := range u.Stands {
		if s.Hex == h {
			return true
		}
	}
	return false
}

func (p *planner) onObjective(u *rules.Unit) bool {
	for _, s := range u.Stands {
		if p.objective(s.Hex) != nil {
			return true
		}
	}
	return false
}

func (p *planner) objective(h rules.Hex) *rules.Objective {
	for _, ob := range p.st.Objectives {
		if ob.Hex == h {
			return ob
		}
	}
	return nil
}

// valid returns the orders once rules.Validate accepts them: each unit the
// rules find fault with gives up, a step at a time, its support, attack,
// moves and status change; a battery its orders; the side its air strikes.
// Should anything still be refused, the default orders are sent.
func (p *planner) valid() *rules.Orders {
	o := p.o
	for range 8 {
		probs := rules.Validate(p.rs, p.st, o)
		if len(probs) == 0 {
			return o
		}
		done := map[string]bool{}
		for _, pr := range probs {
			if done[pr.Unit] {
				continue
			}
			done[pr.Unit] = true
			switch {
			case o.For(pr.Unit) != nil:
				p.simplify(o, pr.Unit)
			case o.BatteryOrder(pr.Unit) != nil:
				o.Batteries = slices.DeleteFunc(o.Batteries, func(bo rules.BatteryOrders) bool { return bo.Battery == pr.Unit })
			default:
				o.AirStrikes = nil
				for i := range o.Units {
					if a := o.Units[i].Attack; a != nil {
						a.Air = 0
					}
				}
			}
		}
	}
	return rules.DefaultOrders(p.rs, p.st, p.side)
}

// simplify takes the next step down for a unit's orders.
func (p *planner) simplify(o *rules.Orders, id string) {
	uo := o.For(id)
	switch a := uo.Attack; {
	case a != nil && (len(a.LightArtillery) > 0 || len(a.Batteries) > 0 || a.Air > 0):
		a.LightArtillery, a.Batteries, a.Air = nil, nil, 0
	case a != nil:
		uo.Attack = nil
	case len(uo.Swaps) > 0 || len(uo.Moves) > 0 || !uo.HQPlacement.IsZero():
		uo.Swaps, uo.Moves, uo.HQPlacement = nil, nil, rules.Hex{}
	default:
		uo.Status = rules.DefaultOrders(p.rs, p.st, p.side).For(id).Status
	}
}
