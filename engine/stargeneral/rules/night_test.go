package rules

import (
	"strings"
	"testing"

	"fieldpost/engine"
)

func parseTestScenario(t *testing.T, text string) (*Ruleset, *State) {
	t.Helper()
	sc, err := ParseScenario([]byte(text), BundledRuleset)
	if err != nil {
		t.Fatal(err)
	}
	return sc.Ruleset, sc.NewGame()
}

// 9.1: the pool counts every unit the side began with, destroyed ones too,
// and no reinforcement.
func TestNightPoolCountsInitialUnits(t *testing.T) {
	rs, st := parseTestScenario(t, `
RULESET 2sg
DAYS 2
START 1 5 night
MAP 10 10 open
SIDE axis nightsupport=2
UNIT A1 H
  HQ hq 0202
  1A infantry 0203 sp=1
UNIT A2 H
  HQ hq 0606
  2A infantry 0607
UNIT A3 H reinforcement
  HQ hq 0808
  3A infantry 0807
SIDE allies
UNIT B1 H
  HQ hq 0404
  1A infantry 0405
`)
	st.Unit("A2").Removed = true
	r := newResolver(rs, st, map[string]*Orders{}, nil)
	pool := r.nightPool("axis")
	if pool.sp != 4 || pool.support != 4 {
		t.Errorf("axis pool is %d SP and %d support, want 4 and 4 (A1 and the removed A2; not the reinforcement A3)", pool.sp, pool.support)
	}
}

// 9.1: an order that would have been legal cannot be given twice, and
// rebuilding a stand asks for 1 SP to its maximum.
func TestValidateNightRebuildStrength(t *testing.T) {
	rs, st := parseTestScenario(t, `
RULESET 2sg
DAYS 2
START 1 5 night
MAP 10 10 open
SIDE axis nightsp=9
UNIT A1 H
  HQ hq 0303
  1A infantry 0403
  1B infantry 0606 lost
SIDE allies
UNIT B1 H
  HQ hq 0909
  1A infantry 0910
`)
	o := &Orders{Side: "axis", Night: &NightOrders{Rebuild: []Rebuild{
		{Unit: "A1", Stand: "1B", Hex: MustHex("0304"), SP: 6},
		{Unit: "A1", Stand: "1B", Hex: MustHex("0304"), SP: 2},
		{Unit: "A1", Stand: "1B", Hex: MustHex("0302"), SP: 2},
	}}}
	probs := validateNight(rs, st, o)
	want := []string{"rebuilt with 6 SP: give it from 1 to its maximum of 5", "rebuilt twice"}
	if len(probs) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(probs), len(want), probs)
	}
	for i, w := range want {
		if !strings.Contains(probs[i].Msg, w) {
			t.Errorf("problem %d is %q, want %q", i, probs[i].Msg, w)
		}
	}
}

// 6, 11: a side whose units have all left the battle loses at once; both
// sides gone is a draw.
func TestCollapse(t *testing.T) {
	rs, st := parseTestScenario(t, `
RULESET 2sg
DAYS 2
MAP 10 10 open
SIDE axis
UNIT A1 H
  HQ hq 0202
  1A infantry 0203
SIDE allies
UNIT B1 H
  HQ hq 0909
  1A infantry 0910
`)
	play := func(gone ...string) *resolver {
		c := st.Clone()
		for _, id := range gone {
			c.Unit(id).Removed = true
		}
		r := newResolver(rs, c, nil, nil)
		r.checkCollapse()
		return r
	}
	if r := play(); r.st.Ended {
		t.Errorf("game ended with both sides in the battle: %s", r.st.Result)
	}
	r := play("B1")
	if !r.st.Ended || r.st.Winner != "axis" {
		t.Errorf("allies gone: ended=%v winner=%q, want axis", r.st.Ended, r.st.Winner)
	}
	if len(r.events) != 1 || r.events[0].Kind != EvGameEnd {
		t.Errorf("want one game-end event, got %v", r.events)
	}
	r = play("A1", "B1")
	if !r.st.Ended || r.st.Winner != "" || !strings.Contains(r.st.Result, "draw") {
		t.Errorf("both gone: ended=%v winner=%q result=%q, want a draw", r.st.Ended, r.st.Winner, r.st.Result)
	}
}

// A whole small battle with seeded dice and default orders: the calendar runs
// day rounds, a night after each day but the last, and the game ends after
// the last round of the last day.
func TestFullGameCalendar(t *testing.T) {
	for _, tc := range []struct {
		ruleset string
		rounds  int
	}{{"2sg", 5}, {"3sg", 4}} {
		t.Run(tc.ruleset, func(t *testing.T) {
			rs, st := parseTestScenario(t, `
RULESET `+tc.ruleset+`
DAYS 3
MAP 10 10 open
OBJECTIVE 0505 owner=allies Town
SIDE axis air=1
UNIT A1 H
  HQ hq 0202
  1A infantry 0203
  1B infantry 0302
UNIT A2 H
  HQ hq 0206
  2A infantry 0207
SIDE allies
UNIT B1 D
  HQ hq 0909
  1A infantry 0505
`)
			type when struct {
				day, round int
				night      bool
			}
			var want []when
			for d := 1; d <= 3; d++ {
				for rd := 1; rd <= tc.rounds; rd++ {
					want = append(want, when{d, rd, false})
				}
				if d < 3 {
					want = append(want, when{d, tc.rounds, true})
				}
			}
			for i, w := range want {
				if st.Ended {
					t.Fatalf("game ended before %+v: %s", w, st.Result)
				}
				if got := (when{st.Day, st.Round, st.Night}); got != w {
					t.Fatalf("round %d: calendar %+v, want %+v", i, got, w)
				}
				if st.Turn != i {
					t.Fatalf("round %d: turn %d", i, st.Turn)
				}
				next, events, err := Resolve(rs, st, nil, engine.NewSeededDice(uint64(1000+i)))
				if err != nil {
					t.Fatalf("round %d: %v", i, err)
				}
				if len(events) == 0 {
					t.Fatalf("round %d: no events", i)
				}
				st = next
			}
			if !st.Ended {
				t.Fatalf("game did not end after day 3 round %d", tc.rounds)
			}
			if st.Winner != "allies" || !strings.Contains(st.Result, "allies 1") {
				t.Errorf("winner %q, result %q: want allies holding the town", st.Winner, st.Result)
			}
			if _, _, err := Resolve(rs, st, nil, engine.NewSeededDice(1)); err == nil {
				t.Error("a finished game played another round")
			}
		})
	}
}

// 6: a position that marks the HQ lost without listing the stand gets a
// standard HQ back overnight.
func TestHQReturnsWithoutLostStand(t *testing.T) {
	rs, st := parseTestScenario(t, `
RULESET 3sg
DAYS 2
START 1 4 night
MAP 10 10 open
SIDE axis
UNIT R1 H hqlost=3
  1 infantry 0505
SIDE allies
UNIT S1 H
  HQ hq 0909
  1 infantry 0910
`)
	next, _, err := Resolve(rs, st, nil, &engine.ScriptedDice{})
	if err != nil {
		t.Fatal(err)
	}
	hq := next.Unit("R1").HQ(rs)
	if hq == nil || hq.Name != "HQ" || hq.Type != "hq" || hq.SP != 6 || hq.Hex != MustHex("0504") {
		t.Fatalf("R1 HQ is %+v, want a 6 SP hq at 0504", hq)
	}
}
