package ordertext

import (
	"os"
	"strings"
	"testing"

	"fieldpost/engine/brigadier/rules"
)

func woodEdge(t *testing.T) (*rules.Ruleset, *rules.State) {
	t.Helper()
	rs, err := rules.BundledRuleset()
	if err != nil {
		t.Fatal(err)
	}
	text, _ := rules.BundledScenarioText("wood-edge")
	sc, err := rules.ParseScenario(rs, text)
	if err != nil {
		t.Fatal(err)
	}
	return rs, sc.State
}

// Every problem of a mail is reported at once, each with its line.
func TestEveryErrorByLine(t *testing.T) {
	rs, st := woodEdge(t)
	mail := strings.Join([]string{
		"Hello umpire,",
		"GAME g1 SIDE german TURN 1",
		"1Zug CHARGE",
		"2Zug MOVE 0606 0706 FIRE",
		"Tiger MOVE",
		"3Zug MOVE 0609 RESERVE AT 3",
		"CALL 10.5 ON 1305",
		"END",
		"9Zug MOVE",
	}, "\n")
	sub, errs := Parse(rs, st, "german", mail)
	want := []string{"line 3: 1Zug: \"CHARGE\" is not an order", "line 4: 2Zug: FIRE needs a hex", "line 5: Tiger: no platoon",
		"line 6: 3Zug: RESERVE is for Aim or Defend [FP-7]", "line 7: CALL: say BY which platoon calls [§11.4.1]"}
	got := ""
	for _, e := range errs {
		got += e.String() + "\n"
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("errors lack %q:\n%s", w, got)
		}
	}
	if len(errs) != len(want) || sub.Lines != 5 {
		t.Errorf("%d errors, %d order lines (want %d, 5):\n%s", len(errs), sub.Lines, len(want), got)
	}
}

func TestStandingOrdersRead(t *testing.T) {
	rs, st := woodEdge(t)
	sub, errs := Parse(rs, st, "german", "MG AIM RESERVE AT 4 MIN 2 VEHICLES BUGOUT 12\nBUGOUT-DEFAULT 9\nPURSUE no\n")
	if errs != nil {
		t.Fatal(errs)
	}
	po := sub.Orders.Platoons[0]
	if po.Reserve == nil || po.Reserve.At != 4 || po.Reserve.Min != 2 || po.Reserve.Only != "vehicles" || po.Bugout != 12 {
		t.Errorf("MG: %+v %+v", po, po.Reserve)
	}
	if *sub.Orders.BugoutDefault != 9 || *sub.Orders.Pursue {
		t.Errorf("side choices: %+v", sub.Orders)
	}
	if line := PlatoonLine(rs, po); line != "MG AIM RESERVE AT 4 MIN 2 VEHICLES BUGOUT 12" {
		t.Errorf("written back: %s", line)
	}
}

// The full example of docs/rules-brigadier.md reads in the grammar.
func TestTheDocumentedExampleReads(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/rules-brigadier.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "A full example")
	if !ok {
		t.Fatal("no example in the docs")
	}
	_, block, _ = strings.Cut(block, "```\n")
	block, _, _ = strings.Cut(block, "```")
	rs, _ := woodEdge(t)
	n := 0
	for _, line := range strings.Split(block, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "GAME", "INITIATIVE", "PURSUE", "BUGOUT-DEFAULT", "BATTALION", "COMPANY":
		case "CALL":
			if _, prob := parseCall(f[1:]); prob != nil {
				t.Errorf("%s: %v", line, prob)
			}
		default:
			if _, err := parsePlatoon(rs, f); err != nil {
				t.Errorf("%s: %v", line, err)
			}
		}
		n++
	}
	if n < 10 {
		t.Errorf("the example has %d lines", n)
	}
}

// The form shows one worked line of each kind of order, with the side's
// own names; the form stays valid unchanged, and the worked move (with
// its raise where the platoon needs one) is a move the platoon can make.
func TestFormShowsHowToWriteEachOrder(t *testing.T) {
	rs, st := woodEdge(t)
	for _, side := range []string{"german", "us"} {
		form := Form(rs, st, side, "g1")
		if _, errs := Parse(rs, st, side, form); errs != nil {
			t.Fatalf("%s: the unchanged form is refused: %v", side, errs)
		}
		var worked []string
		for _, line := range strings.Split(form, "\n") {
			if strings.HasPrefix(line, "#   ") && line[4] != ' ' {
				worked = append(worked, strings.Fields(line)...)
			}
		}
		text := strings.Join(worked, " ")
		for _, kind := range []string{" MOVE ", " FIRE ", " FOLLOW ", " RESERVE ", "CALL "} {
			if !strings.Contains(text, kind) {
				t.Errorf("%s: the form shows no worked %q line:\n%s", side, kind, form)
			}
		}
		if !strings.Contains(form, "docs/rules-brigadier.md") {
			t.Errorf("%s: the form does not say where the whole language is", side)
		}
		for _, line := range strings.Split(form, "\n") {
			if !strings.HasPrefix(line, "#   ") || !strings.Contains(line, " MOVE ") {
				continue
			}
			order := strings.TrimSpace(strings.TrimPrefix(line, "#"))
			order = order[:strings.Index(order, "  ")]
			if _, errs := Parse(rs, st, side, "GAME g1 SIDE "+side+" TURN 1\n"+order+"\nEND\n"); errs != nil {
				t.Errorf("%s: the worked line %q is refused: %v", side, order, errs)
			}
		}
	}
}

// The optional rules' lines, CANCEL and AIR ... BY, written out read back
// the same; the form names a side's planned barrages and not the enemy's.
func TestOptionalRuleLinesReadBack(t *testing.T) {
	rs, err := rules.BundledRuleset()
	if err != nil {
		t.Fatal(err)
	}
	text, _ := rules.BundledScenarioText("river-crest")
	sc, err := rules.ParseScenario(rs, text)
	if err != nil {
		t.Fatal(err)
	}
	st := sc.State
	o := &rules.Orders{Side: "us", Cancels: []rules.Cancel{{Target: rules.MustHex("1308"), By: "FO"}},
		Strikes: []rules.Strike{{Flight: "P47", Target: rules.MustHex("1306"), By: "FO"}}}
	sub, errs := Parse(rs, st, "us", Format(rs, st, o, "g1"))
	for _, e := range errs {
		if strings.Contains(e.Text, "write ") {
			t.Errorf("a written line does not read: %v", e)
		}
	}
	got := sub.Orders
	if len(got.Cancels) != 1 || got.Cancels[0].Target != o.Cancels[0].Target || got.Cancels[0].By != "FO" ||
		len(got.Strikes) != 1 || got.Strikes[0].By != "FO" || got.Strikes[0].Target != o.Strikes[0].Target {
		t.Errorf("read back %+v %+v", got.Cancels, got.Strikes)
	}
	if form := Form(rs, st, "us", "g1"); !strings.Contains(form, "CANCEL 1308 BY platoon") {
		t.Errorf("the US form does not name its planned barrage:\n%s", form)
	}
	if form := Form(rs, rules.View(rs, st, "german"), "german", "g1"); strings.Contains(form, "1308 for") {
		t.Errorf("the German form names the US plan:\n%s", form)
	}
}

// A line between orders that no order reads is an error on its line, never
// skipped; the greeting above the orders and the sign-off below the last
// one are the player's own words (issue 21).
func TestLineNoOrderReadsIsAnError(t *testing.T) {
	rs, st := woodEdge(t)
	mail := strings.Join([]string{
		"Hello umpire, game on!",
		"GAME g1 SIDE german SEAT 2 TURN 1",
		"BUGOUT-DEFAULT 9",
		"and the others hold fast",
		"PURSUE no",
		"Cheers,",
		"Hans",
	}, "\n")
	sub, errs := Parse(rs, st, "german", mail)
	if len(errs) != 1 || errs[0].Line != 4 || !strings.Contains(errs[0].Text, `"and" is not an order word or a platoon of german`) {
		t.Errorf("errors %v, want one on line 4", errs)
	}
	if len(sub.Ignored) != 2 || sub.Ignored[0].Line != 6 || sub.Ignored[1].Text != "Hans" {
		t.Errorf("ignored %+v, want the sign-off (lines 6 and 7)", sub.Ignored)
	}
	if sub.Lines != 2 {
		t.Errorf("%d order lines, want 2", sub.Lines)
	}
}

// Below the last order, a line is a sign-off only when it is neither a
// near-miss of an order word or platoon nor names a hex: a mistyped order
// there is an error, never passed over.
func TestMistypedLastOrderIsAnError(t *testing.T) {
	rs, st := woodEdge(t)
	for _, c := range []struct{ last, want string }{
		{"2Zugg MOVE", "2Zugg"}, // reads as orders already: its second word is an order
		{"PURSUEE no", `did you mean PURSUE?`},
		{"then on to 0706", `"then" is not an order word`},
	} {
		sub, errs := Parse(rs, st, "german", "1Zug AIM\n"+c.last+"\n")
		got := ""
		for _, e := range errs {
			got += e.String() + "\n"
		}
		if !strings.Contains(got, "line 2: ") || !strings.Contains(got, c.want) || len(sub.Ignored) != 0 {
			t.Errorf("%q: errors %q, ignored %+v: want an error on line 2 saying %q", c.last, got, sub.Ignored, c.want)
		}
	}
	sub, errs := Parse(rs, st, "german", "1Zug AIM\nCheers,\nHans 2024\n")
	if len(errs) != 0 || len(sub.Ignored) != 2 {
		t.Errorf("errors %v, ignored %+v: want the sign-off passed over", errs, sub.Ignored)
	}
}
