package rules

import (
	"strings"
	"testing"

	"fieldpost/engine"
)

// newTestResolver sets up a round from a scenario text, as runCase does,
// so that a test can call one step of the round and look inside.
func newTestResolver(t *testing.T, scenario string, orders ...*Orders) *resolver {
	t.Helper()
	sc, err := ParseScenario([]byte(scenario), BundledRuleset)
	if err != nil {
		t.Fatal(err)
	}
	st := sc.NewGame()
	bySide := map[string]*Orders{}
	for _, o := range orders {
		bySide[o.Side] = o
	}
	for _, sd := range st.Sides {
		if bySide[sd.Name] == nil {
			bySide[sd.Name] = DefaultOrders(sc.Ruleset, st, sd.Name)
		}
	}
	r := newResolver(sc.Ruleset, st, bySide, &engine.ScriptedDice{})
	r.startRound()
	return r
}

// 2.4: a stand that starts out of command and finishes out of command is
// recorded for the combat rules (no attack, no light artillery); a stand
// that comes back into command is not. 2: a strategic mover is recorded too.
func TestMoveRecordsOutOfCommandAndStrategic(t *testing.T) {
	const scenario = `RULESET 2sg
MAP 12 12 open
SIDE axis
UNIT I/77 M
  HQ hq 0302
  1A infantry 0303
  1B infantry 0306
  1C infantry 0307
  1D infantry 0102
SIDE allies
UNIT E/505 H
  HQ hq 1212
  1 infantry 1211
`
	o := &Orders{Side: "axis", Units: []UnitOrders{{Unit: "I/77", Status: Move, Moves: []StandMove{
		{Stand: "1B", Path: []Hex{MustHex("0305"), MustHex("0304")}},
		{Stand: "1C", Path: []Hex{MustHex("0308")}},
		{Stand: "1D", Path: []Hex{MustHex("0103"), MustHex("0104"), MustHex("0105")}},
	}}}}
	r := newTestResolver(t, scenario, o)
	if ps := Validate(r.rs, r.st, o); len(ps) > 0 {
		t.Fatalf("orders refused: %v", ps)
	}
	u := r.st.Unit("I/77")
	r.activate(u)
	want := map[string][2]bool{ // out of command from start to finish, strategic
		"HQ": {false, false}, "1A": {false, false}, "1B": {false, false},
		"1C": {true, false}, "1D": {false, true},
	}
	for name, w := range want {
		s := u.Stand(name)
		if got := r.outOfCommandStart[s]; got != w[0] {
			t.Errorf("%s: outOfCommandStart = %v, want %v", name, got, w[0])
		}
		if got := r.strategic[s]; got != w[1] {
			t.Errorf("%s: strategic = %v, want %v", name, got, w[1])
		}
	}
}

// 2.2 (2SG): a shuffled stand must finish in command of the HQ where the HQ
// finishes. The engine enforces it itself, not only the order check: here
// the orders skip the check and 1A, which would end three hexes from the
// moved HQ, stays where it is; the stands that follow it settle around it.
func TestShuffleMustFinishInCommandAtRuntime(t *testing.T) {
	const scenario = `RULESET 2sg
MAP 12 12 open
SIDE axis
UNIT I/77 H
  HQ hq 0502
  1A infantry 0503
  1B infantry 0504
  1C infantry 0501
SIDE allies
UNIT E/505 H
  HQ hq 1212
  1 infantry 1211
`
	path := func(hs ...string) []Hex {
		var out []Hex
		for _, h := range hs {
			out = append(out, MustHex(h))
		}
		return out
	}
	o := &Orders{Side: "axis", Units: []UnitOrders{{Unit: "I/77", Status: Hold, Moves: []StandMove{
		{Stand: "HQ", Path: path("0503", "0504")},
		{Stand: "1B", Path: path("0503", "0502")},
		{Stand: "1C", Path: path("0502", "0503")},
		{Stand: "1A", Path: path("0502", "0501")},
	}}}}
	r := newTestResolver(t, scenario, o)
	if ps := Validate(r.rs, r.st, o); len(ps) == 0 || !strings.Contains(ps.Error(), "1A: would finish 3 hexes from its HQ") {
		t.Fatalf("the order check should refuse 1A's shuffle, got %v", ps)
	}
	u := r.st.Unit("I/77")
	r.activate(u)
	for name, want := range map[string]string{"HQ": "0504", "1B": "0502", "1A": "0503", "1C": "0501"} {
		if got := u.Stand(name).Hex.String(); got != want {
			t.Errorf("%s at %s, want %s\n%s", name, got, want, eventLog(r.events))
		}
	}
	if !strings.Contains(eventLog(r.events), "0501 is out of command of the HQ at 0504") {
		t.Errorf("no event says why 1A stayed\n%s", eventLog(r.events))
	}
	seen := map[Hex]bool{}
	for _, s := range u.Stands {
		if seen[s.Hex] || r.b.at(s.Hex).stand != s {
			t.Errorf("%s at %s: the board does not hold it alone", s.Name, s.Hex)
		}
		seen[s.Hex] = true
	}
}

// DefaultOrders (email-play.md) must always pass Validate: M and R become H,
// H and D stay, a unit without its HQ included, on any day and at night.
func TestDefaultOrdersPassValidate(t *testing.T) {
	for _, start := range []string{"START 1 1", "START 1 3", "START 2 1", "START 1 5 night"} {
		for _, ruleset := range []string{"2sg", "3sg"} {
			if ruleset == "3sg" && strings.HasPrefix(start, "START 1 5") {
				start = "START 1 4 night"
			}
			scenario := "RULESET " + ruleset + `
MAP 12 12 open
DAYS 2
` + start + `
SIDE axis air=1
UNIT A1 M
  HQ hq 0402
  1A infantry 0403
UNIT A2 R
  HQ hq 0602
  2A infantry 0603
UNIT A3 D
  HQ hq 0802
  3A infantry 0803
UNIT A4 M hqlost=0
  HQ hq 1002 lost
  4A infantry 1003
BATTERY 2/26 artillery 0101
SIDE allies
UNIT E1 H
  HQ hq 1212
  1 infantry 1211
`
			sc, err := ParseScenario([]byte(scenario), BundledRuleset)
			if err != nil {
				t.Fatal(err)
			}
			st := sc.NewGame()
			for _, side := range []string{"axis", "allies"} {
				o := DefaultOrders(sc.Ruleset, st, side)
				if ps := Validate(sc.Ruleset, st, o); len(ps) > 0 {
					t.Errorf("%s %s %s: default orders refused: %v", ruleset, start, side, ps)
				}
				if st.Night {
					if len(o.Units) > 0 {
						t.Errorf("%s %s: default night orders give unit orders", ruleset, start)
					}
					continue
				}
				for _, uo := range o.Units {
					want := st.Unit(uo.Unit).Status
					if want == Move || want == Retreat {
						want = Hold
					}
					if uo.Status != want || len(uo.Moves) > 0 || uo.Attack != nil {
						t.Errorf("%s %s: %s gets %+v, want %s and nothing else", ruleset, start, uo.Unit, uo, want)
					}
				}
			}
		}
	}
}
