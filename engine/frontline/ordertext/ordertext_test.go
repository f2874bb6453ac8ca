package ordertext

import (
	"fmt"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/frontline/rules"
)

// Both sides' forms are valid unchanged, in every scenario.
func TestFormValidUnchanged(t *testing.T) {
	for _, sc := range []string{"ofanto", "foggia"} {
		s, err := rules.NewGame(sc, 5)
		if err != nil {
			t.Fatal(err)
		}
		for _, side := range s.Sides {
			form := Form(s, "g1", side)
			sub, probs := Parse(s, side, form)
			o := sub.Orders
			if len(probs) > 0 {
				t.Errorf("%s %s: form refused: %v\n%s", sc, side, probs, form)
			}
			if side == s.Active {
				if _, _, err := s.Play(o, engine.NewSeededDice(1)); err != nil {
					t.Errorf("%s: form does not play: %v", sc, err)
				}
			}
		}
	}
}

// The waiting side's form shows its hand but never the active side's.
func TestFormHidesEnemyHand(t *testing.T) {
	s, err := rules.ParseScenario(`SIZE 4 4
FILL .
SIDES US GE
OPTIONS cards
HAND US Withdraw
HAND GE Inspire
UNIT US FHQ-1 0101
UNIT GE FHQ-1 0404`)
	if err != nil {
		t.Fatal(err)
	}
	us, ge := Form(s, "g", "US"), Form(s, "g", "GE")
	if !strings.Contains(us, "Hand: Withdraw.") || strings.Contains(us, "Inspire") {
		t.Errorf("US form:\n%s", us)
	}
	if !strings.Contains(ge, "Hand: Inspire.") || strings.Contains(ge, "Withdraw") {
		t.Errorf("GE form:\n%s", ge)
	}
}

// Every error is reported with its line, all at once.
func TestParseEveryErrorWithLine(t *testing.T) {
	s, err := rules.NewGame("ofanto", 1)
	if err != nil {
		t.Fatal(err)
	}
	_, probs := Parse(s, "US", `MOVE
  RS-1 1210 9999
  FOO-1 1210
COMBAT
  RS-1 AT GE:RS-1
  ENGAGE 1110 WITH RS-1 WITHDRAW IF SOMETIMES
REACT
  RETREAT always
  RETALIATE all
`)
	want := map[int]string{2: "9999", 5: "ENGAGE first", 6: "condition \"SOMETIMES\" unknown", 8: "not a standing order"}
	got := map[int]string{}
	for _, p := range probs {
		got[p.Line] += p.Text + "|"
	}
	for line, w := range want {
		if !strings.Contains(got[line], w) {
			t.Errorf("line %d: want %q, got %q (all: %v)", line, w, got[line], probs)
		}
	}
}

// The echo gives the odds of a planned shot, pierce included (design 3.7).
func TestEchoOdds(t *testing.T) {
	s, err := rules.ParseScenario(`SIZE 4 4
FILL .
SIDES US GE
UNIT US FHQ-1 0101
UNIT GE FHQ-1 0404
UNIT US SHER-1 0202 crew TC-1
UNIT GE PZ4-1 0202 crew TC-1`)
	if err != nil {
		t.Fatal(err)
	}
	sub, probs := Parse(s, "US", "COMBAT\n ENGAGE 0202 WITH SHER-1\n  SHER-1 AT GE:PZ4-1 AP\n")
	o := sub.Orders
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	e := Echo(s, o)
	// 75mm AP3 vs Defense 4: weapon check 30% x armour check failed 60% = 18%.
	if !strings.Contains(e, "SHER-1 75mm M3 at GE:PZ4-1 (Def 4): hit 12+ = 45%; pierce 18%") {
		t.Errorf("echo:\n%s", e)
	}
	// And the engagement's first round at its target, exactly.
	sher, pz := s.Unit("US", "SHER-1"), s.Unit("GE", "PZ4-1")
	od := s.ExactRoundOdds(s.RoundShots(sher, pz.Hex, pz, false), pz)
	want := fmt.Sprintf("round 1 at GE:PZ4-1 (endurance %d, breakpoint %d): %.1f hits, %.1f net damage expected;\n      destroyed %.0f%%, damaged %.0f%%, holds %.0f%%",
		s.Card(pz).Endurance, s.Card(pz).Breakpoint, od.Hits, od.NetDamage, od.Destroyed*100, od.Damaged*100, od.Holds*100)
	if !strings.Contains(e, want) || od.Destroyed < 0.05 || od.Damaged <= 0 {
		t.Errorf("echo lacks the round's odds %q:\n%s", want, e)
	}
}

// Every line of every form fits in formWidth, so that no mail program
// wraps a tail onto a line of its own, over whole games of both scenarios.
func TestFormLinesFitAMail(t *testing.T) {
	for _, sc := range []string{"ofanto", "foggia"} {
		s, err := rules.NewGame(sc, 9)
		if err != nil {
			t.Fatal(err)
		}
		for turn := 0; !s.Over && turn < 40; turn++ {
			for _, side := range s.Sides {
				for i, line := range strings.Split(Form(s, "g1", side), "\n") {
					if len(line) > formWidth {
						t.Fatalf("%s turn %d, %s's form line %d has %d characters:\n%s", sc, turn, side, i+1, len(line), line)
					}
				}
			}
			sub, _ := Parse(s, s.Active, Form(s, "g1", s.Active))
			o := sub.Orders
			if s, _, err = s.Play(o, engine.NewSeededDice(uint64(turn))); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// On a Deployment turn the form offers a DEPLOY line for a staged unit
// but none for a staged command post or work, which it lists as set up
// where it was staged.
func TestFormDeploysNoStagedPost(t *testing.T) {
	s, err := rules.ParseScenario(`BOARD ofanto
SIDES US GE
TURN 2 US US=5 GE=4
UNIT US FHQ-1 1812
UNIT GE FHQ-1 0405
CONTROL US 1812
UNIT US RS-1 1403
UNIT US CP-1 1403 staged 1
UNIT US SHER-3 0000 staged 1 crew TC-3`)
	if err != nil {
		t.Fatal(err)
	}
	form := Form(s, "g", "US")
	if !strings.Contains(form, "  SHER-3 AT 1812\n") || strings.Contains(form, "  CP-1 AT") {
		t.Errorf("DEPLOY lines:\n%s", form)
	}
	if !strings.Contains(form, "CP-1 (bought turn 1, set up at 1403, not deployed)") {
		t.Errorf("staged list:\n%s", form)
	}
	if _, probs := Parse(s, "US", form); len(probs) > 0 {
		t.Errorf("form refused: %v", probs)
	}
}

// The active side's form shows a worked line of each section's orders,
// with its own units: the move shown is one the unit may make, the
// engagement names an enemy unit its unit can hurt.
func TestFormShowsWorkedOrders(t *testing.T) {
	for _, sc := range []string{"ofanto", "foggia"} {
		s, err := rules.NewGame(sc, 5)
		if err != nil {
			t.Fatal(err)
		}
		form := Form(s, "g1", s.Active)
		var worked []string
		for _, line := range strings.Split(form, "\n") {
			if rest, ok := strings.CutPrefix(line, "# e.g.  "); ok {
				order, _, _ := strings.Cut(rest, "#")
				worked = append(worked, strings.TrimSpace(order))
			}
		}
		if len(worked) != 4 || !strings.HasPrefix(worked[0], "BUY ") || !strings.HasPrefix(worked[2], "ENGAGE ") || !strings.HasPrefix(worked[3], "WITHDRAW ") {
			t.Fatalf("%s: the worked lines are %q:\n%s", sc, worked, form)
		}
		if _, probs := Parse(s, s.Active, "PRODUCE\n"+worked[0]+"\nMOVE\n"+worked[1]+"\n"); len(probs) > 0 {
			t.Errorf("%s: the worked purchase and move %q are refused: %v", sc, worked[:2], probs)
		}
	}
}

// The GAME line is read as every family reads its header: a team's SEAT is
// a header word, another side's orders or a round that is no number are
// errors on the line (issue 21).
func TestHeaderLine(t *testing.T) {
	s, err := rules.NewGame("ofanto", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, probs := Parse(s, s.Active, "GAME g1 SIDE "+s.Active+" SEAT 2 ROUND 1\nMOVE\n"); len(probs) > 0 {
		t.Errorf("a header with a seat refused: %v", probs)
	}
	for text, want := range map[string]string{
		"GAME g1 SIDE XX ROUND 1\n":                 "these orders are for XX",
		"GAME g1 SIDE " + s.Active + " ROUND one\n": `ROUND "ONE": want the round number`,
		"> quoted\nGAME g1 SIDE XX\n":               "these orders are for XX",
	} {
		_, probs := Parse(s, s.Active, text)
		if len(probs) != 1 || !strings.Contains(probs[0].Text, want) || probs[0].Line != strings.Count(text, "\n") {
			t.Errorf("%q: problems %v, want one on its last line with %q", text, probs, want)
		}
	}
}

// The greeting above the orders and the sign-off below the last one are
// the player's own words, as in every family; the sign-off is listed. A
// mistyped order word or a unit's line stays an error wherever it stands.
func TestGreetingAndSignOff(t *testing.T) {
	s, err := rules.NewGame("ofanto", 1)
	if err != nil {
		t.Fatal(err)
	}
	sub, probs := Parse(s, "US", "Hello judge,\nhere we go again.\n\nMOVE\n  JEEP-1 1211 1311\n\nCheers,\nAlice\n")
	if len(probs) != 0 || len(sub.Orders.Moves) != 1 {
		t.Fatalf("problems %v, moves %+v: want the move read, the greeting and sign-off passed over", probs, sub.Orders.Moves)
	}
	if len(sub.Ignored) != 2 || sub.Ignored[0].Line != 7 || sub.Ignored[1].Text != "Alice" || sub.Ignored[0].Why != "after the last order" {
		t.Errorf("ignored %+v, want the sign-off's two lines", sub.Ignored)
	}
	for _, c := range []struct{ text, want string }{
		{"MOVE\n  JEEP-1 1211 1311\nREACT\n  RETALIAT all\n", `"RETALIAT" is not a standing order`},
		{"Hello judge,\nJEEP-1 1211 1311\nMOVE\n", `"JEEP-1" before any section`},
		{"MOVE\n  JEEP-1 1211 1311\nthen on to 1411\n", "line 3: "}, // names a hex: an order, mistyped
	} {
		_, probs := Parse(s, "US", c.text)
		got := ""
		for _, p := range probs {
			got += p.String() + "\n"
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%q: problems %q, want %q", c.text, got, c.want)
		}
	}
}
