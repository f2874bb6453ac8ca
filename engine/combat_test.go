package engine

import (
	"strings"
	"testing"
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
	sc, err := ParseScenario([]byte(text), loadRuleset)
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
	r := &resolver{rs: sc.Ruleset, st: st, orders: orders, dice: &ScriptedDice{Faces: faces}, strategic: map[*Stand]bool{},
		acted: map[*Unit]bool{}, outOfCommandStart: map[*Stand]bool{}, initiated: map[*Stand]bool{}}
	r.b = newBoard(r.rs, r.st)
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
