package rules

import (
	"strings"
	"testing"

	"fieldpost/engine"
)

func TestHitRuleHits(t *testing.T) {
	for _, tc := range []struct {
		rule string
		dice []int
		want int
	}{
		{"6", nil, 0},
		{"6", []int{1, 2, 3, 4, 5}, 0},
		{"6", []int{6, 6, 6}, 3},
		{"6", []int{5, 5, 5, 5}, 0}, // no double in this rule
		{"5,6", []int{4, 5, 6, 6}, 3},
		{"5,6", []int{4, 4}, 0},
		{"6 or double 5", []int{5, 5}, 1},                  // a pair
		{"6 or double 5", []int{5, 5, 5}, 1},               // three of a kind is one pair
		{"6 or double 5", []int{5, 5, 5, 5}, 2},            // two pairs
		{"6 or double 5", []int{5, 1, 5, 6}, 2},            // the pair need not be side by side
		{"6 or double 5", []int{6, 6, 5, 5, 1}, 3},         // 2SG Example 2: two sixes and two fives
		{"6 or double 5", []int{5, 6}, 1},                  // a single 5 scores nothing
		{"5,6 or double 4", []int{1, 1, 3, 4, 4, 5, 5}, 3}, // 2SG Example 1, as printed
		{"5,6 or double 4", []int{4, 4, 4}, 1},
		{"5,6 or double 4", []int{4, 4, 4, 4, 4}, 2},
		{"5,6 or double 4", []int{4, 5, 6}, 2},
	} {
		hr, err := ParseHitRule(tc.rule)
		if err != nil {
			t.Fatal(err)
		}
		if got := hr.Hits(tc.dice); got != tc.want {
			t.Errorf("%q on %v: %d hits, want %d", tc.rule, tc.dice, got, tc.want)
		}
	}
}

// testResolver starts a round on a position written in the scenario format,
// as the case runner does, so that a test can set what movement records.
func testResolver(t *testing.T, text string, faces ...int) *resolver {
	t.Helper()
	sc, err := ParseScenario([]byte(text), BundledRuleset)
	if err != nil {
		t.Fatal(err)
	}
	st := sc.NewGame()
	orders := map[string]*Orders{}
	for _, sd := range st.Sides {
		o := &Orders{Side: sd.Name}
		for _, u := range st.ActiveUnits(sd.Name) {
			o.Units = append(o.Units, UnitOrders{Unit: u.ID, Status: u.Status})
		}
		orders[sd.Name] = o
	}
	r := newResolver(sc.Ruleset, st, orders, &engine.ScriptedDice{Faces: faces})
	r.startRound()
	return r
}

const barredPosition = `
RULESET 2sg
MAP 10 10 open
SIDE red
UNIT A M
  HQ hq 0502
  1A infantry 0503
  1B infantry 0603
SIDE blue
UNIT B H
  HQ hq 0507
  X infantry 0504
`

func cancelTexts(r *resolver) string {
	var out []string
	for _, e := range r.events {
		if e.Kind == EvAttackCancel {
			out = append(out, e.Text)
		}
	}
	return strings.Join(out, "\n")
}

// 2: a stand that moved strategically cannot initiate combat.
func TestStrategicMoverCannotAttack(t *testing.T) {
	r := testResolver(t, barredPosition)
	u := r.st.Unit("A")
	r.strategic[u.Stand("1A")] = true
	r.attack(u, &Attack{Target: MustHex("0504"), Stands: []AttackStand{{Stand: "1A", Close: true}}})
	got := cancelTexts(r)
	for _, want := range []string{"A 1A cannot attack 0504: it moved strategically this round (2)", "no stand is able to make it"} {
		if !strings.Contains(got, want) {
			t.Errorf("no cancel event containing %q; got:\n%s", want, got)
		}
	}
	if r.combats != 0 {
		t.Errorf("%d combats fought, want none", r.combats)
	}
}

// 2.4: a stand that started its move out of command range may attack only
// when it finished within it.
func TestOutOfCommandStart(t *testing.T) {
	r := testResolver(t, barredPosition, 1, 1, 1, 1, 1, 1, 1, 1, 1)
	u := r.st.Unit("A")
	// 1B finished its move within command range: it attacks.
	r.outOfCommandStart[u.Stand("1B")] = true
	r.attack(u, &Attack{Target: MustHex("0504"), Stands: []AttackStand{{Stand: "1B", Close: true}}})
	if r.combats != 1 {
		t.Fatalf("1B did not attack: %s", cancelTexts(r))
	}
	// 1A started and finished out of command range.
	r.b.moveStand(u, u.Stand("1A"), MustHex("0505"))
	r.b.moveStand(u, u.Stand("HQ"), MustHex("0201"))
	r.outOfCommandStart[u.Stand("1A")] = true
	r.attack(u, &Attack{Target: MustHex("0504"), Stands: []AttackStand{{Stand: "1A", Close: true}}})
	want := "A 1A cannot attack 0504: it started its move out of command range of its HQ and did not finish within it (2.4)"
	if got := cancelTexts(r); !strings.Contains(got, want) {
		t.Errorf("no cancel event containing %q; got:\n%s", want, got)
	}
}

// The tests below play attacks on a position without order validation:
// orders the validator would refuse at once can still meet the position at
// run time, once the enemy has acted, and the engine must cope.

func playAttack(t *testing.T, position, unit string, a *Attack, faces ...int) *resolver {
	t.Helper()
	r := testResolver(t, position, faces...)
	r.attack(r.st.Unit(unit), a)
	d := r.dice.(*engine.ScriptedDice)
	if d.Short > 0 || d.Used != len(d.Faces) {
		t.Errorf("%d dice given, %d used, %d missing\n%s", len(d.Faces), d.Used, d.Short, eventLog(r.events))
	}
	return r
}

// wantEvents checks that each text appears in the events' texts, in order.
func wantEvents(t *testing.T, r *resolver, want ...string) {
	t.Helper()
	pos := 0
	for _, w := range want {
		for pos < len(r.events) && !strings.Contains(r.events[pos].Text, w) {
			pos++
		}
		if pos == len(r.events) {
			t.Fatalf("no event containing %q (in order)\n%s", w, eventLog(r.events))
		}
		pos++
	}
}

func fire(stands ...string) []AttackStand {
	var out []AttackStand
	for _, s := range stands {
		out = append(out, AttackStand{Stand: s})
	}
	return out
}

func assault(stands ...string) []AttackStand {
	out := fire(stands...)
	for i := range out {
		out[i].Close = true
	}
	return out
}

const holdAttackPosition = `
RULESET 2sg
MAP 10 10 open
SIDE red air=1
UNIT A1 H
  HQ hq 0503 +light_artillery:mortar
  1A infantry 0504
  1B infantry 0604
BATTERY G artillery 0501
SIDE blue
UNIT B1 M
  HQ hq 0507
  X infantry 0505
  Y infantry 0407
`

// 3.4, 3.5.1: an H unit attacks with one core stand plus its light
// artillery, and calls no battery or air.
func TestHoldUnitAttackLimits(t *testing.T) {
	a := &Attack{Target: MustHex("0505"), Stands: assault("1A", "1B"), LightArtillery: []string{"mortar"}, Batteries: []string{"G"}, Air: 1}
	r := playAttack(t, holdAttackPosition, "A1", a, 1, 1, 1, 1, 1, 1, 1)
	wantEvents(t, r,
		"A1 1B cannot attack 0505: a unit on Hold (H) orders attacks with at most 1 core stands (3.4)",
		"battery G cannot support A1's attack on 0505: only a unit on Move orders calls batteries to its attack (3.5.1)",
		"air support cannot support A1's attack on 0505: only a unit on Move orders calls air support to its attack (3.5.1)",
		"Attack: A1 1A 3 = 3; A1 mortar (light artillery with HQ) 1 = 1; 4 dice hitting on 6 or double 5")
	if bt := r.st.Battery("G"); bt.Shots != 3 {
		t.Errorf("battery G has %d shots, want 3", bt.Shots)
	}
	if left := r.st.Side("red").AirLeft; left != 1 {
		t.Errorf("red has %d air points left, want 1", left)
	}
}

// 3.4, 6: in 2SG only infantry and tanks initiate combat, never an HQ.
func TestOnlyInfantryAndTanksInitiate2SG(t *testing.T) {
	const position = `
RULESET 2sg
MAP 10 10 open
SIDE red
UNIT A1 M
  HQ hq 0604
  G artillery 0504
  1B infantry 0603
SIDE blue
UNIT B1 H
  HQ hq 0507
  X infantry 0505
  Y infantry 0407
`
	r := playAttack(t, position, "A1", &Attack{Target: MustHex("0505"), Stands: assault("G", "HQ")})
	wantEvents(t, r,
		"A1 G cannot attack 0505: a field artillery stand cannot initiate combat (3.4)",
		"A1 HQ cannot attack 0505: an HQ cannot initiate combat (6)",
		"A1's attack on 0505 is cancelled: no stand is able to make it")
}

// 7: in 2SG one air point at most joins a combat; the rest stay unspent.
func TestOneAirPointPerCombat2SG(t *testing.T) {
	const position = `
RULESET 2sg
MAP 10 10 open
SIDE red air=2
UNIT A1 M
  HQ hq 0503
  1A infantry 0504
  1B infantry 0604
SIDE blue
UNIT B1 H
  HQ hq 0507
  X infantry 0505
  Y infantry 0407
`
	r := playAttack(t, position, "A1", &Attack{Target: MustHex("0505"), Stands: assault("1A"), Air: 2}, 1, 1, 1, 1, 1, 1, 1, 1)
	wantEvents(t, r,
		"air support cannot support A1's attack on 0505: 2 air points called, but at most 1 join one combat (7)",
		"Attack: A1 1A 3 = 3; red air point 2 = 2; 5 dice")
	if left := r.st.Side("red").AirLeft; left != 1 {
		t.Errorf("red has %d air points left, want 1", left)
	}
}

// 3.3, 3.4: each attacking stand must be in command range of its HQ and in
// reach now: adjacent for close combat; not adjacent, within range and in
// sight (neither blocking terrain nor any stand in between) for distant
// fire. Where some stands cannot, the others attack alone.
func TestAttackingStandsOutOfReach(t *testing.T) {
	const position = `
RULESET 2sg
MAP 12 12 open
TERRAIN woods 0606
SIDE red
UNIT A1 M
  HQ hq 0503
  1A infantry 0504
  1B infantry 0101
UNIT A2 M
  HQ hq 0706
  2A infantry 0707
  2B infantry 0605
UNIT A3 M
  HQ hq 0303
  3A infantry 0305
  3B infantry 0304
UNIT A4 M
  HQ hq 0502
  4A infantry 0402
  4B infantry 0603
SIDE blue
UNIT B1 H
  HQ hq 0507
  X infantry 0505
  Y infantry 0407
`
	target := MustHex("0505")
	r := playAttack(t, position, "A1", &Attack{Target: target, Stands: fire("1A", "1B")})
	wantEvents(t, r,
		"A1 1A cannot attack 0505: the target is adjacent, which makes it close combat, and distant fire was plotted (3.3)",
		"A1 1B cannot attack 0505: it is more than 2 hexes from its HQ (3.4)",
		"A1's attack on 0505 is cancelled: no stand is able to make it")
	// 2A looks through the woods at 0606; 2B assaults alone.
	r = playAttack(t, position, "A2", &Attack{Target: target, Stands: []AttackStand{{Stand: "2A"}, {Stand: "2B", Close: true}}}, 1, 1, 1, 1, 1, 1)
	wantEvents(t, r,
		"A2 2A cannot attack 0505: no line of sight: blocking terrain or stands in between (3.3)",
		"Combat 1: A2 attacks B1 X at 0505 with 2B (close combat)")
	r = playAttack(t, position, "A3", &Attack{Target: target, Stands: []AttackStand{{Stand: "3A", Close: true}, {Stand: "3B"}}}, 1, 1, 1, 1, 1, 1)
	wantEvents(t, r,
		"A3 3A cannot attack 0505: close combat needs the target adjacent, and it is 2 hexes away (3.3)",
		"Combat 1: A3 attacks B1 X at 0505 with 3B (distant fire)")
	// 4A and 4B look past the stands of A1 at 0503 and 0504; 1A blocks one
	// side of 4B's view along a hex side, and nothing the other.
	r = playAttack(t, position, "A4", &Attack{Target: target, Stands: fire("4A", "4B")}, 1, 1, 1, 1, 1, 1)
	wantEvents(t, r,
		"A4 4A cannot attack 0505: no line of sight: blocking terrain or stands in between (3.3)",
		"Combat 1: A4 attacks B1 X at 0505 with 4B (distant fire)")
}

// 9, 5.1: 3SG has no air strikes in the artillery phase.
func TestNoAirStrikesInArtilleryPhase3SG(t *testing.T) {
	const position = `
RULESET 3sg
MAP 12 10 open
SIDE red air=1
UNIT A1 H
  HQ hq 0502
  1A infantry 0503
SIDE blue
UNIT B1 H
  HQ hq 0508
  X infantry 0506
`
	r := testResolver(t, position)
	r.orders["red"].AirStrikes = []Hex{MustHex("0506")}
	r.artilleryPhase()
	if left := r.st.Side("red").AirLeft; left != 1 {
		t.Errorf("red has %d air points left, want 1", left)
	}
	if d := r.dice.(*engine.ScriptedDice); d.Short > 0 {
		t.Errorf("%d dice rolled, want none", d.Short)
	}
}

// 3SG: distant fire reaches 2 hexes (3.3). Fire support fires along the
// path from the company to the stand it supports and on to the target, at
// most 3 hexes (3.5.2): fs2, 2 hexes behind the assaulting 1A, supports it
// (2 + 1 = 3), as fs1 does. The cases under testdata/cases/combat test the
// path's limit in attack and defence.
func TestRangeLimits3SG(t *testing.T) {
	const position = `
RULESET 3sg
MAP 10 10 open
SIDE red
UNIT A1 M
  HQ hq 0503 +light_artillery:fs1
  1A infantry 0504
  1B infantry 0303
  1C infantry 0402 +light_artillery:fs2
SIDE blue
UNIT B1 H
  HQ hq 0507
  X infantry 0505
  Y infantry 0407
`
	a := &Attack{Target: MustHex("0505"), Stands: []AttackStand{{Stand: "1A", Close: true}, {Stand: "1B"}}, LightArtillery: []string{"fs1", "fs2"}}
	r := playAttack(t, position, "A1", a, 1, 1, 1, 1, 1, 1, 1, 1)
	wantEvents(t, r,
		"A1 1B cannot attack 0505: the target is 3 hexes away, beyond the distant fire range of 2 (3.3)",
		"Attack: A1 1A 3 = 3; A1 fs1 (fire support company with HQ) 1 = 1; A1 fs2 (fire support company with 1C) 1 = 1; 5 dice hitting on 6")
}
