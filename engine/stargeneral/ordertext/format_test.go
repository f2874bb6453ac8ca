package ordertext_test

import (
	"fieldpost/engine"

	"math/rand/v2"
	"reflect"
	"testing"

	"fieldpost/engine/stargeneral/ordertext"
	"fieldpost/engine/stargeneral/rules"
)

// Whatever valid orders a side gives, Format writes them so that Parse reads
// back the very same orders. Checked over many random valid orders, day and
// night, on positions of every bundled scenario: the start, positions after
// random rounds, and worn positions with damaged, lost and HQ-less units.
func TestFormatRoundTrips(t *testing.T) {
	checked := 0
	for _, name := range rules.BundledScenarioNames() {
		sc, err := rules.BundledScenario(name)
		if err != nil {
			t.Fatal(err)
		}
		rs := sc.Ruleset
		rnd := rand.New(rand.NewPCG(uint64(len(name)), 1944))
		for i, st := range samplePositions(t, rs, sc.NewGame(), rnd) {
			for _, sd := range st.Sides {
				for range 6 {
					o := randomOrders(rs, st, sd.Name, rnd)
					if probs := rules.Validate(rs, st, o); len(probs) > 0 {
						t.Fatalf("%s position %d: the generator made invalid orders: %v", name, i, probs)
					}
					text := ordertext.Format(rs, st, o, name+"-1")
					sub, errs := ordertext.Parse(rs, st, sd.Name, text)
					if errs != nil {
						t.Fatalf("%s position %d %s: Parse refuses Format's text:\n%v\n%s", name, i, sd.Name, errs, text)
					}
					if !reflect.DeepEqual(normalised(sub.Orders), normalised(o)) {
						t.Fatalf("%s position %d %s: round trip changed the orders\n got %+v\nwant %+v\n%s", name, i, sd.Name, sub.Orders, o, text)
					}
					if sub.Game != name+"-1" || sub.Side != sd.Name || sub.Round != st.Turn+1 {
						t.Fatalf("%s: header read as %q %q %d", name, sub.Game, sub.Side, sub.Round)
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d orders round-tripped", checked)
}

// samplePositions plays random rounds from the start and returns the
// positions met, each also worn down (losses, lost stands and HQs) and as a
// night round, so that every kind of order has something to apply to.
func samplePositions(t testing.TB, rs *rules.Ruleset, st *rules.State, rnd *rand.Rand) []*rules.State {
	var out []*rules.State
	for round := 0; round < 8 && !st.Ended; round++ {
		worn := wear(rs, st, rnd)
		night := worn.Clone()
		night.Night = true
		out = append(out, st, worn, night)
		var orders []*rules.Orders
		for _, sd := range st.Sides {
			orders = append(orders, randomOrders(rs, st, sd.Name, rnd))
		}
		next, _, err := rules.Resolve(rs, st, orders, engine.NewSeededDice(rnd.Uint64()))
		if err != nil {
			t.Fatal(err)
		}
		st = next
	}
	return out
}

// wear damages a copy of a position as a battle would: stands lose SP,
// platoons and whole stands are lost, and some units lose their HQ.
func wear(rs *rules.Ruleset, st *rules.State, rnd *rand.Rand) *rules.State {
	w := st.Clone()
	for _, u := range w.Units {
		if u.Removed {
			continue
		}
		for _, s := range u.Stands {
			if rnd.IntN(2) == 0 && s.SP > 1 {
				s.SP -= 1 + rnd.IntN(s.SP-1)
			}
			if s.Support != nil && rnd.IntN(3) == 0 {
				u.LostPlatoons = append(u.LostPlatoons, s.Support)
				s.Support = nil
			}
		}
		// Lose the last core stand, or the HQ, while one fighting stand remains.
		if len(u.Stands) > 2 && rnd.IntN(3) == 0 {
			i := len(u.Stands) - 1
			if rnd.IntN(2) == 0 {
				i = 0 // the scenarios list the HQ first
			}
			s := u.Stands[i]
			u.Stands = append(u.Stands[:i:i], u.Stands[i+1:]...)
			if rs.StandTypes[s.Type].Role == rules.RoleHQ {
				u.HQLostTurn = w.Turn - 1
			}
			for _, p := range []*rules.Platoon{s.Support, s.Transport} {
				if p != nil {
					u.LostPlatoons = append(u.LostPlatoons, p)
				}
			}
			s.Support, s.Transport, s.SP = nil, nil, 0
			u.Lost = append(u.Lost, s)
		}
	}
	return w
}

// randomOrders plots random valid orders: each part is drawn at random and
// kept only if the orders still validate with it.
func randomOrders(rs *rules.Ruleset, st *rules.State, side string, rnd *rand.Rand) *rules.Orders {
	o := &rules.Orders{Side: side}
	keep := func(undo func()) {
		if len(rules.Validate(rs, st, o)) > 0 {
			undo()
		}
	}
	if st.Night {
		randomNight(rs, st, o, rnd, keep)
	} else {
		randomDay(rs, st, o, rnd, keep)
	}
	o.Choices = rules.Choices{
		Losses:             []string{"", rules.LossesKeepStrength, rules.LossesPlatoonsFirst}[rnd.IntN(3)],
		NoHoldAtCost:       rnd.IntN(2) == 0,
		NoPursuit:          rnd.IntN(2) == 0,
		NoDefensiveSupport: rnd.IntN(2) == 0,
	}
	return o
}

func randomDay(rs *rules.Ruleset, st *rules.State, o *rules.Orders, rnd *rand.Rand, keep func(func())) {
	enemies := enemyHexes(st, o.Side)
	units := st.ActiveUnits(o.Side)
	for _, u := range units {
		if rnd.IntN(4) == 0 {
			continue
		}
		legal := rules.LegalStatuses(rs, st, u)
		o.Units = append(o.Units, rules.UnitOrders{Unit: u.ID, Status: legal[rnd.IntN(len(legal))]})
		i := len(o.Units) - 1
		uo := func() *rules.UnitOrders { return &o.Units[i] }
		if u.HQ(rs) == nil {
			if rnd.IntN(2) == 0 {
				uo().HQPlacement = u.Stands[0].Hex.Neighbours()[rnd.IntN(6)]
				keep(func() { uo().HQPlacement = rules.Hex{} })
			}
			continue
		}
		// Stands are plotted in any order, as a player may write them: the
		// order decides which stand gets a hex two of them contend for.
		for _, i := range rnd.Perm(len(u.Stands)) {
			s := u.Stands[i]
			if rnd.IntN(4) == 0 {
				continue
			}
			path := randomWalk(st, s.Hex, nearest(s.Hex, enemies), 1+rnd.IntN(5), rnd)
			uo().Moves = append(uo().Moves, rules.StandMove{Stand: s.Name, Path: path})
			keep(func() { uo().Moves = uo().Moves[:len(uo().Moves)-1] })
		}
		for _, s := range u.Stands {
			for _, p := range []*rules.Platoon{s.Support, s.Transport} {
				if p != nil && rnd.IntN(4) == 0 {
					to := u.Stands[rnd.IntN(len(u.Stands))]
					uo().Swaps = append(uo().Swaps, rules.Swap{Platoon: p.Name, To: to.Name})
					keep(func() { uo().Swaps = uo().Swaps[:len(uo().Swaps)-1] })
				}
			}
		}
		if len(enemies) > 0 {
			uo().Attack = randomAttack(rs, st, u, uo(), enemies, rnd)
			keep(func() { uo().Attack = nil })
		}
	}
	for _, i := range rnd.Perm(len(units)) {
		if rnd.IntN(3) > 0 {
			o.Priority = append(o.Priority, units[i].ID)
		}
	}
	for _, bt := range st.Batteries {
		if bt.Side != o.Side || bt.Removed || rnd.IntN(4) == 0 {
			continue
		}
		bo := rules.BatteryOrders{Battery: bt.ID, Keep: rnd.IntN(bt.ShotsPerRound + 1)}
		switch rnd.IntN(3) {
		case 0:
			if len(enemies) > 0 {
				bo.Fire = enemies[rnd.IntN(len(enemies))]
			}
		case 1:
			bo.Move = randomWalk(st, bt.Hex, nearest(bt.Hex, enemies), 1+rnd.IntN(3), rnd)
		}
		o.Batteries = append(o.Batteries, bo)
		keep(func() { o.Batteries = o.Batteries[:len(o.Batteries)-1] })
	}
	if rs.AirInArtilleryPhase && len(enemies) > 0 {
		for range rnd.IntN(st.Side(o.Side).Air + 1) {
			o.AirStrikes = append(o.AirStrikes, enemies[rnd.IntN(len(enemies))])
			keep(func() { o.AirStrikes = o.AirStrikes[:len(o.AirStrikes)-1] })
		}
	}
}

// randomAttack aims at the enemy hex nearest to a random stand, with that
// stand and maybe another, each fighting as its distance requires, and
// random support.
func randomAttack(rs *rules.Ruleset, st *rules.State, u *rules.Unit, uo *rules.UnitOrders, enemies []rules.Hex, rnd *rand.Rand) *rules.Attack {
	end := map[string]rules.Hex{}
	for _, s := range u.Stands {
		end[s.Name] = s.Hex
	}
	for _, m := range uo.Moves {
		end[m.Stand] = m.Path[len(m.Path)-1]
	}
	order := rnd.Perm(len(u.Stands))
	target := nearest(end[u.Stands[order[0]].Name], enemies)
	a := &rules.Attack{Target: target}
	for _, i := range order[:min(len(order), 1+rnd.IntN(2))] {
		s := u.Stands[i]
		a.Stands = append(a.Stands, rules.AttackStand{Stand: s.Name, Close: rules.Adjacent(end[s.Name], target)})
	}
	for _, s := range u.Stands {
		if s.Support != nil && rs.StandTypes[s.Support.Type].Role == rules.RoleLightArtillery && rnd.IntN(3) > 0 {
			a.LightArtillery = append(a.LightArtillery, s.Support.Name)
		}
	}
	if uo.Status != rules.Move {
		return a // 3.5.1: batteries and air support only attacks on Move
	}
	for _, bt := range st.Batteries {
		if bt.Side == u.Side && !bt.Removed && rules.Distance(bt.Hex, target) <= bt.Range && len(a.Batteries) < rs.MaxBatteries && rnd.IntN(3) > 0 {
			a.Batteries = append(a.Batteries, bt.ID)
		}
	}
	a.Air = rnd.IntN(st.Side(u.Side).Air + 1)
	return a
}

func randomNight(rs *rules.Ruleset, st *rules.State, o *rules.Orders, rnd *rand.Rand, keep func(func())) {
	o.Night = &rules.NightOrders{}
	n := o.Night
	for _, u := range st.ActiveUnits(o.Side) {
		held := make([]rules.Hex, 0, len(u.Stands))
		for _, s := range u.Stands {
			held = append(held, s.Hex)
		}
		for _, s := range u.Stands {
			if s.SP < s.MaxSP && rnd.IntN(2) == 0 {
				n.Strength = append(n.Strength, rules.Recovery{Unit: u.ID, Stand: s.Name, SP: 1 + rnd.IntN(s.MaxSP-s.SP)})
				keep(func() { n.Strength = n.Strength[:len(n.Strength)-1] })
			}
			if rnd.IntN(3) == 0 {
				n.Reshuffle = append(n.Reshuffle, rules.NightMove{Unit: u.ID, Stand: s.Name, To: held[rnd.IntN(len(held))]})
				keep(func() { n.Reshuffle = n.Reshuffle[:len(n.Reshuffle)-1] })
			}
		}
		for _, p := range u.LostPlatoons {
			// Where the ruleset allows (3SG 8), sometimes to another unit.
			unit, from := u, ""
			if all := st.ActiveUnits(o.Side); !rs.NightPlatoonsOwnUnit && rnd.IntN(2) == 0 {
				if other := all[rnd.IntN(len(all))]; other != u {
					unit, from = other, u.ID
				}
			}
			to := unit.Stands[rnd.IntN(len(unit.Stands))]
			n.Platoons = append(n.Platoons, rules.PlatoonRecovery{Unit: unit.ID, Platoon: p.Name, To: to.Name, From: from})
			keep(func() { n.Platoons = n.Platoons[:len(n.Platoons)-1] })
		}
		for _, s := range u.Lost {
			at := u.Stands[rnd.IntN(len(u.Stands))].Hex.Neighbours()[rnd.IntN(6)]
			n.Rebuild = append(n.Rebuild, rules.Rebuild{Unit: u.ID, Stand: s.Name, Hex: at, SP: 1 + rnd.IntN(s.MaxSP)})
			keep(func() { n.Rebuild = n.Rebuild[:len(n.Rebuild)-1] })
		}
	}
}

// randomWalk is a path of up to n adjacent hexes on the map from start,
// mostly towards goal (when there is one), so that the armies meet.
func randomWalk(st *rules.State, start, goal rules.Hex, n int, rnd *rand.Rand) []rules.Hex {
	var path []rules.Hex
	at := start
	for range n {
		next := at.Neighbours()[rnd.IntN(6)]
		for _, h := range at.Neighbours() {
			if !goal.IsZero() && st.Map.OnMap(h) && rules.Distance(h, goal) < rules.Distance(at, goal) && rnd.IntN(3) > 0 {
				next = h
			}
		}
		if !st.Map.OnMap(next) || next == goal {
			break
		}
		path = append(path, next)
		at = next
	}
	if len(path) == 0 {
		for _, h := range start.Neighbours() {
			if st.Map.OnMap(h) {
				return []rules.Hex{h}
			}
		}
	}
	return path
}

// nearest is the hex of hexes nearest to from, or no hex.
func nearest(from rules.Hex, hexes []rules.Hex) rules.Hex {
	var best rules.Hex
	for _, h := range hexes {
		if best.IsZero() || rules.Distance(from, h) < rules.Distance(from, best) {
			best = h
		}
	}
	return best
}

// enemyHexes lists the hexes the enemy of side holds, in roster order.
func enemyHexes(st *rules.State, side string) []rules.Hex {
	var out []rules.Hex
	for _, u := range st.Units {
		if u.Side != side && !u.Removed {
			for _, s := range u.Stands {
				out = append(out, s.Hex)
			}
		}
	}
	for _, bt := range st.Batteries {
		if bt.Side != side && !bt.Removed {
			out = append(out, bt.Hex)
		}
	}
	return out
}

// normalised maps the empty forms of orders to one: an empty list is no
// list, and night orders that order nothing are no night orders.
func normalised(o *rules.Orders) *rules.Orders {
	c := *o
	c.Units = nil
	for _, uo := range o.Units {
		if len(uo.Moves) == 0 {
			uo.Moves = nil
		}
		if len(uo.Swaps) == 0 {
			uo.Swaps = nil
		}
		if a := uo.Attack; a != nil {
			ca := *a
			if len(ca.LightArtillery) == 0 {
				ca.LightArtillery = nil
			}
			if len(ca.Batteries) == 0 {
				ca.Batteries = nil
			}
			uo.Attack = &ca
		}
		c.Units = append(c.Units, uo)
	}
	if len(c.Priority) == 0 {
		c.Priority = nil
	}
	if len(c.Batteries) == 0 {
		c.Batteries = nil
	}
	if len(c.AirStrikes) == 0 {
		c.AirStrikes = nil
	}
	if n := c.Night; n != nil {
		cn := rules.NightOrders{}
		if len(n.Strength) > 0 {
			cn.Strength = n.Strength
		}
		if len(n.Platoons) > 0 {
			cn.Platoons = n.Platoons
		}
		if len(n.Rebuild) > 0 {
			cn.Rebuild = n.Rebuild
		}
		if len(n.Reshuffle) > 0 {
			cn.Reshuffle = n.Reshuffle
		}
		c.Night = &cn
		if reflect.DeepEqual(cn, rules.NightOrders{}) {
			c.Night = nil
		}
	}
	return &c
}
