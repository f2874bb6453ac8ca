package bot_test

import (
	"fieldpost/engine"

	"reflect"
	"slices"
	"testing"

	"fieldpost/engine/stargeneral/bot"
	"fieldpost/engine/stargeneral/ordertext"
	"fieldpost/engine/stargeneral/rules"
)

// player plots a side's orders for a round.
type player func(rs *rules.Ruleset, st *rules.State, side string) *rules.Orders

func botPlayer(seed uint64) player {
	return func(rs *rules.Ruleset, st *rules.State, side string) *rules.Orders {
		return bot.Plan(rs, st, side, bot.Options{Seed: seed})
	}
}

// doNothing sends the default orders: everything holds, nobody attacks.
func doNothing(rs *rules.Ruleset, st *rules.State, side string) *rules.Orders {
	return rules.DefaultOrders(rs, st, side)
}

// result is how a game went.
type result struct {
	final   *rules.State
	rounds  int
	combats int // combats and barrages
}

// play plays a scenario to its end with one player per side (in the
// scenario's side order) and seeded dice, failing the test on any plan
// rules.Validate refuses.
func play(t *testing.T, name string, players [2]player, seed uint64) result {
	t.Helper()
	sc, err := rules.BundledScenario(name)
	if err != nil {
		t.Fatal(err)
	}
	rs, st := sc.Ruleset, sc.NewGame()
	var res result
	for !st.Ended {
		var orders []*rules.Orders
		for i, sd := range st.Sides {
			o := players[i](rs, st, sd.Name)
			if probs := rules.Validate(rs, st, o); len(probs) > 0 {
				t.Fatalf("%s seed %d turn %d: %s's plan is refused:\n%v", name, seed, st.Turn, sd.Name, probs)
			}
			orders = append(orders, o)
		}
		next, events, err := rules.Resolve(rs, st, orders, engine.NewSeededDice(engine.RoundSeed(seed, st.Turn)))
		if err != nil {
			t.Fatalf("%s seed %d turn %d: %v", name, seed, st.Turn, err)
		}
		for _, e := range events {
			if e.Kind == rules.EvCombat || e.Kind == rules.EvBarrage {
				res.combats++
			}
		}
		res.rounds++
		if res.rounds > 100 {
			t.Fatalf("%s seed %d: no end after 100 rounds", name, seed)
		}
		st = next
	}
	res.final = st
	return res
}

// For every bundled scenario, whole games of the bot against itself: every
// plan of both sides validates at every round, day and night, and reads
// back through the order language unchanged; the games reach their end and
// the armies fight.
func TestBotGamesEveryScenario(t *testing.T) {
	for _, name := range rules.BundledScenarioNames() {
		combats := 0
		for seed := uint64(1); seed <= 2; seed++ {
			r := play(t, name, [2]player{checkedBot(t, seed), checkedBot(t, seed+100)}, seed)
			combats += r.combats
			t.Logf("%s seed %d: %d rounds, %d combats and barrages; %s", name, seed, r.rounds, r.combats, r.final.Result)
		}
		if combats == 0 {
			t.Errorf("%s: the bots never fought", name)
		}
	}
}

// checkedBot is the bot, whose orders must also survive being written in
// the order language and read back: what the mail bot sends.
func checkedBot(t *testing.T, seed uint64) player {
	return func(rs *rules.Ruleset, st *rules.State, side string) *rules.Orders {
		o := bot.Plan(rs, st, side, bot.Options{Seed: seed})
		if _, errs := ordertext.Parse(rs, st, side, ordertext.Format(rs, st, o, "g")); errs != nil {
			t.Fatalf("turn %d %s: the bot's orders do not read back:\n%v", st.Turn, side, errs)
		}
		return o
	}
}

// On the tutorial the bot beats a side that does nothing, from either side,
// in nearly every seed (measured: every one of the 20).
func TestBotBeatsDoNothing(t *testing.T) {
	const seeds = 20
	for i, side := range []string{"us", "german"} {
		won, drawn := 0, 0
		for seed := uint64(1); seed <= seeds; seed++ {
			players := [2]player{botPlayer(seed), doNothing}
			if i == 1 {
				players = [2]player{doNothing, botPlayer(seed)}
			}
			switch r := play(t, "tutorial", players, seed); r.final.Winner {
			case side:
				won++
			case "":
				drawn++
			}
		}
		t.Logf("bot as %s against a side that does nothing: %d won, %d drawn, %d lost of %d", side, won, drawn, seeds-won-drawn, seeds)
		if won+drawn < seeds*7/10 {
			t.Errorf("bot as %s: only %d wins and %d draws in %d games", side, won, drawn, seeds)
		}
	}
}

func TestPlanIsDeterministic(t *testing.T) {
	sc, err := rules.BundledScenario("krinkelt")
	if err != nil {
		t.Fatal(err)
	}
	st := sc.NewGame()
	for _, sd := range st.Sides {
		a := bot.Plan(sc.Ruleset, st, sd.Name, bot.Options{Seed: 9})
		b := bot.Plan(sc.Ruleset, st, sd.Name, bot.Options{Seed: 9})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two plans from one position and seed differ", sd.Name)
		}
	}
}

// drill is a small open battlefield for the behaviour tests; each adds its
// own units.
const drill = `
SCENARIO drill
RULESET 2sg
MAP 14 10 open
TERRAIN town 0605
OBJECTIVE 0605 value=2 owner=blue Village
OBJECTIVE 1205 value=1 owner=red Farm
`

func drillState(t *testing.T, units string) (*rules.Ruleset, *rules.State) {
	t.Helper()
	sc, err := rules.ParseScenario([]byte(drill+units), rules.BundledRuleset)
	if err != nil {
		t.Fatal(err)
	}
	return sc.Ruleset, sc.NewGame()
}

func planFor(t *testing.T, rs *rules.Ruleset, st *rules.State, side string) *rules.Orders {
	t.Helper()
	o := bot.Plan(rs, st, side, bot.Options{})
	if probs := rules.Validate(rs, st, o); len(probs) > 0 {
		t.Fatalf("the plan is refused: %v", probs)
	}
	return o
}

// Tanks next to a weak stand in the open attack it, calling in the battery
// and the air point, and the battery keeps a shot back.
func TestBotAttacksWithSupport(t *testing.T) {
	rs, st := drillState(t, `
SIDE blue air=1
UNIT Tanks M
  HQ armoured_hq 0303
  A  medium_armour 0405
  B  medium_armour 0404
BATTERY Guns artillery 0103
SIDE red
UNIT Rifles H
  HQ hq 0807
  X  infantry 0505 sp=1
  Y  infantry 0906
`)
	o := planFor(t, rs, st, "blue")
	uo := o.For("Tanks")
	if uo == nil || uo.Status != rules.Move || uo.Attack == nil || uo.Attack.Target != rules.MustHex("0505") {
		t.Fatalf("want Tanks to attack 0505, got %+v", uo)
	}
	if a := uo.Attack; len(a.Batteries) != 1 || a.Air != 1 {
		t.Errorf("want the battery and the air point called, got %+v", a)
	}
	if bo := o.BatteryOrder("Guns"); bo == nil || bo.Keep != 1 {
		t.Errorf("want the battery to keep a shot back, got %+v", bo)
	}
	if len(o.Priority) == 0 || o.Priority[0] != "Tanks" {
		t.Errorf("want the attack first, got priority %v", o.Priority)
	}
}

// A unit holding its objective with the enemy near, and no good attack,
// digs in; its battery fires at an enemy stand its stands can spot.
func TestBotHoldsAndDigsIn(t *testing.T) {
	rs, st := drillState(t, `
SIDE blue
UNIT Guard H
  HQ hq 0604
  A  infantry 0605
  B  infantry 0704
BATTERY Guns artillery 0203
SIDE red
UNIT Rifles H
  HQ hq 1105
  X  infantry 0905
  Y  infantry 1004
`)
	o := planFor(t, rs, st, "blue")
	if uo := o.For("Guard"); uo == nil || uo.Status != rules.DigIn || len(uo.Moves) > 0 || uo.Attack != nil {
		t.Errorf("want Guard dug in where it is, got %+v", uo)
	}
	if bo := o.BatteryOrder("Guns"); bo == nil || bo.Fire.IsZero() {
		t.Errorf("want the battery to fire in the artillery phase, got %+v", bo)
	}
}

// A badly damaged unit with the enemy next to it retreats, every stand
// getting farther from the enemy, and none out of command of the HQ.
func TestBotRetreatsWhenBeaten(t *testing.T) {
	rs, st := drillState(t, `
SIDE blue
UNIT Weak M
  HQ hq 0303
  A  infantry 0404 sp=1
  B  infantry 0304 sp=1
SIDE red
UNIT Strong M
  HQ armoured_hq 0706
  C  medium_armour 0504
  D  medium_armour 0505
`)
	o := planFor(t, rs, st, "blue")
	uo := o.For("Weak")
	if uo == nil || uo.Status != rules.Retreat || len(uo.Moves) == 0 {
		t.Fatalf("want Weak to retreat, got %+v", uo)
	}
	u := st.Unit("Weak")
	ends := map[string]rules.Hex{}
	for _, s := range u.Stands {
		ends[s.Name] = s.Hex
	}
	for _, m := range uo.Moves {
		ends[m.Stand] = m.Path[len(m.Path)-1]
		from, to := u.Stand(m.Stand).Hex, ends[m.Stand]
		if near(st, to, "red") <= near(st, from, "red") {
			t.Errorf("%s retreats from %s to %s, no farther from the enemy", m.Stand, from, to)
		}
	}
	for name, h := range ends {
		if d := rules.Distance(h, ends["HQ"]); d > rs.CommandRange {
			t.Errorf("%s ends %d hexes from its HQ", name, d)
		}
	}
}

func near(st *rules.State, h rules.Hex, side string) int {
	best := 99
	for _, u := range st.ActiveUnits(side) {
		for _, s := range u.Stands {
			best = min(best, rules.Distance(h, s.Hex))
		}
	}
	return best
}

// An M unit far from the enemy advances on the objective it lacks, its
// stands ending in command of its HQ, which moves with them.
func TestBotAdvancesInCommand(t *testing.T) {
	rs, st := drillState(t, `
SIDE blue
UNIT Column M
  HQ hq 0203 move=foot
  A  infantry 0304
  B  infantry 0204
  C  infantry 0303
SIDE red
UNIT Rifles H
  HQ hq 1306
  X  infantry 1305
`)
	st.Objectives[0].Owner = "red" // the village is the enemy's now
	o := planFor(t, rs, st, "blue")
	uo := o.For("Column")
	if uo == nil || uo.Status != rules.Move || len(uo.Moves) == 0 {
		t.Fatalf("want Column to advance, got %+v", uo)
	}
	u := st.Unit("Column")
	village := rules.MustHex("0605")
	ends := map[string]rules.Hex{}
	for _, s := range u.Stands {
		ends[s.Name] = s.Hex
	}
	moved := map[string]bool{}
	for _, m := range uo.Moves {
		ends[m.Stand] = m.Path[len(m.Path)-1]
		moved[m.Stand] = true
	}
	if !moved["HQ"] {
		t.Error("the HQ stays behind")
	}
	before, after := 0, 0
	for _, s := range u.Stands {
		before += rules.Distance(s.Hex, village)
		after += rules.Distance(ends[s.Name], village)
		if d := rules.Distance(ends[s.Name], ends["HQ"]); d > rs.CommandRange {
			t.Errorf("%s ends %d hexes from its HQ", s.Name, d)
		}
	}
	if after >= before {
		t.Errorf("the unit gets no nearer the village: %d hexes in all, was %d", after, before)
	}
}

// At night the bot recovers damaged stands, rebuilds a lost one next to its
// unit and brings a lost platoon back.
func TestBotNight(t *testing.T) {
	sc, err := rules.BundledScenario("tutorial")
	if err != nil {
		t.Fatal(err)
	}
	rs, st := sc.Ruleset, sc.NewGame()
	st.Night = true
	u := st.Unit("1/120")
	a, c := u.Stand("A"), u.Stand("C")
	a.SP = 2
	u.LostPlatoons = append(u.LostPlatoons, a.Support)
	a.Support = nil
	u.Stands = slices.DeleteFunc(u.Stands, func(s *rules.Stand) bool { return s == c })
	c.SP = 0
	u.Lost = append(u.Lost, c)

	o := planFor(t, rs, st, "us")
	n := o.Night
	if n == nil || len(n.Strength) == 0 || len(n.Rebuild) != 1 || len(n.Platoons) != 1 {
		t.Fatalf("want recovery, a rebuild and a platoon back, got %+v", n)
	}
	if r := n.Rebuild[0]; r.Stand != "C" || rules.Distance(r.Hex, u.HQ(rs).Hex) > rs.CommandRange {
		t.Errorf("want C rebuilt in command of the HQ, got %+v", r)
	}
	if n.Strength[0].Stand != "A" {
		t.Errorf("want A, the most damaged, recovered first, got %+v", n.Strength)
	}
}

// In the battle's last round a stand walks into an empty objective the
// side lacks even out of command of its HQ, as only the objectives held at
// the end count (11); in an earlier round it does not go on out of
// command (1.1).
func TestBotTakesEmptyObjectivesInTheLastRound(t *testing.T) {
	units := `
SIDE blue
UNIT Tanks M
  HQ hq 0205
  A  medium_armour 1005
SIDE red
UNIT Rifles H
  HQ hq 0110
  X  infantry 0210
`
	end := func(st *rules.State, o *rules.Orders, unit, stand string) rules.Hex {
		s := st.Unit(unit).Stand(stand)
		for _, m := range o.For(unit).Moves {
			if m.Stand == stand {
				return m.Path[len(m.Path)-1]
			}
		}
		return s.Hex
	}
	farm := rules.MustHex("1205")
	rs, st := drillState(t, units)
	o := planFor(t, rs, st, "blue")
	if a := end(st, o, "Tanks", "A"); a == farm {
		t.Errorf("round 1: want A to stay out of the Farm, out of command of its HQ, got it there")
	}
	st.Day, st.Round = st.Days, rs.RoundsPerDay
	o = planFor(t, rs, st, "blue")
	if a := end(st, o, "Tanks", "A"); a != farm {
		t.Errorf("last round: want A in the empty Farm %s, got it at %s (orders %+v)", farm, a, o.For("Tanks"))
	}
}
