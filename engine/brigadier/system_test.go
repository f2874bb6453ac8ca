package brigadier

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/brigadier/rules"
	"fieldpost/engine/hexdraw/hexdrawtest"
)

func newSystem(t testing.TB) *System {
	t.Helper()
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestScenarios(t *testing.T) {
	sys := newSystem(t)
	for _, name := range rules.BundledScenarioNames() {
		if _, err := sys.scenario(name); err != nil {
			t.Errorf("bundled scenario %s: %v", name, err)
		}
	}
	infos := sys.Scenarios()
	if len(infos) != 2 || infos[0].Name != "river-crest" || infos[1].Name != "wood-edge" {
		t.Fatalf("scenarios: %+v", infos)
	}
	for _, in := range infos {
		if in.Map != "24x16" || len(in.Sides) != 2 || in.Ruleset != "bgc" {
			t.Errorf("scenario %s: %+v", in.Name, in)
		}
	}
	if _, err := newSystem(t).NewGame("stalingrad", 1); err == nil || !strings.Contains(err.Error(), "stalingrad") {
		t.Errorf("NewGame(stalingrad): %v", err)
	}
}

// planAll has the bot plan each waiting side from its own view and reads
// the plans back as orders.
func planAll(t testing.TB, sys *System, pos engine.Position, seed uint64) map[string]engine.Orders {
	t.Helper()
	orders := map[string]engine.Orders{}
	for i, side := range pos.Step().Waiting {
		view, err := pos.View(side)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := sys.Plan(view, side, "g1", seed+uint64(i))
		if err != nil || plan.Turn != pos.Turn() || plan.Orders == "" {
			t.Fatalf("plan of %s: %+v %v", side, plan, err)
		}
		if strings.Contains(plan.Summary, "did not read back") {
			t.Fatalf("turn %d, %s: %s\n%s", pos.Turn()+1, side, plan.Summary, plan.Orders)
		}
		r := pos.Read(side, plan.Orders, 0)
		if r.Orders == nil {
			t.Fatalf("the bot's orders for %s are refused:\n%s\n%s", side, plan.Orders, r.Answer)
		}
		orders[side] = r.Orders
	}
	return orders
}

// A turn through the seam: both sides are waited for, a stored position
// reads back the same, the form reads back valid unchanged, and hidden
// platoons are in no view of the enemy (what every system must, the
// conformance test of engine/systems checks).
func TestTurnThroughTheSeam(t *testing.T) {
	sys := newSystem(t)
	pos, err := sys.NewGame("wood-edge", 1)
	if err != nil {
		t.Fatal(err)
	}
	if step := pos.Step(); !slices.Equal(step.Waiting, []string{"german", "us"}) || step.Over || !pos.HidesInformation() {
		t.Errorf("step: %+v", step)
	}
	raw, _ := pos.Marshal()
	loaded, err := sys.Load(raw)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := loaded.Marshal(); !bytes.Equal(raw, again) {
		t.Error("a stored position does not read back the same")
	}
	for _, side := range []string{"german", "us"} {
		form := pos.Form(side, "g1")
		r := pos.Read(side, form, 0)
		if r.Orders == nil || r.Errors != 0 {
			t.Errorf("the %s form unchanged is refused:\n%s\n%s", side, form, r.Answer)
		}
	}
	if r := pos.Read("us", "Thanks, see you\nGame on!\nCompany A will hold.\n", 0); r.Found || r.Errors != 0 || r.Orders != nil {
		t.Errorf("prose read as orders: %+v", r)
	}
	if r := pos.Read("us", "1Plt DOUBLE 1304\n2Plt AIM FIRE 0404\n", 0); r.Errors != 2 || !strings.Contains(r.Answer, "line 1") || !strings.Contains(r.Answer, "[§11.2]") || !strings.Contains(r.Answer, "line 2") {
		t.Errorf("a raise without a commander and fire at an unseen hex: %+v", r)
	}
	view, _ := pos.View("german")
	for _, hidden := range []string{"1Plt", "2Plt", "3Plt", "CoHQ", "HMG", "60mm", "Tks"} {
		if bytes.Contains(view, []byte(`"`+hidden+`"`)) {
			t.Errorf("the German view shows %s", hidden)
		}
	}
	orders := planAll(t, sys, pos, 1)
	next, round, err := loaded.Play(orders, engine.NewSeededDice(99))
	if err != nil {
		t.Fatal(err)
	}
	text, err := round.Report("us", engine.RoundMeta{Game: "g1", Seed: 99, Orders: orders})
	if err != nil || !strings.Contains(text, "Dice seed for this turn: 99") || !strings.Contains(text, "Radio A") || strings.Contains(text, "Radio I/77") {
		t.Errorf("report: %v\n%s", err, text)
	}
	var png, svg bytes.Buffer
	if err := round.Map(&png, "us", engine.PNG); err != nil || !bytes.HasPrefix(png.Bytes(), []byte("\x89PNG")) {
		t.Errorf("round map: %v", err)
	}
	if err := next.Map(&svg, "us", engine.SVG); err != nil {
		t.Errorf("SVG map: %v", err)
	}
	hexdrawtest.CheckSVG(t, svg.Bytes())
	if next.Turn() != 1 || next.Forces("us").Pieces == 0 {
		t.Errorf("after the turn: turn %d, forces %+v", next.Turn(), next.Forces("us"))
	}
}

// A whole game of each scenario, bot against bot, through the seam to its end.
func TestWholeGameBotAgainstBot(t *testing.T) {
	sys := newSystem(t)
	for _, name := range rules.BundledScenarioNames() {
		t.Run(name, func(t *testing.T) { wholeGame(t, sys, name) })
	}
}

func wholeGame(t *testing.T, sys *System, name string) {
	pos, err := sys.NewGame(name, 1)
	if err != nil {
		t.Fatal(err)
	}
	for turn := 0; !pos.Step().Over; turn++ {
		if turn > 40 {
			t.Fatal("the game does not end")
		}
		orders := planAll(t, sys, pos, 7)
		next, round, err := pos.Play(orders, engine.NewSeededDice(engine.RoundSeed(42, turn)))
		if err != nil {
			t.Fatal(err)
		}
		for _, side := range []string{"german", "us", ""} {
			if _, err := round.Report(side, engine.RoundMeta{Game: "g1", Seed: 1}); err != nil {
				t.Fatal(err)
			}
		}
		pos = next
	}
	step := pos.Step()
	if step.Winner == "" || step.Result == "" {
		t.Errorf("the end: %+v", step)
	}
	t.Logf("%s after %d turns: %s wins (%s)", pos.Title(), pos.Turn(), step.Winner, step.Result)
}

// Orders written out read back the same: the judge publishes them so that
// a round can be replayed.
func TestWrittenOrdersReadBack(t *testing.T) {
	sys := newSystem(t)
	pos, err := sys.NewGame(sys.Scenarios()[0].Name, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range pos.Step().Waiting {
		view, err := pos.View(side)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := sys.Plan(view, side, "g1", 3)
		if err != nil {
			t.Fatal(err)
		}
		first := pos.Read(side, plan.Orders, 0)
		if first.Orders == nil {
			t.Fatalf("%s: the bot's orders are refused:\n%s", side, first.Answer)
		}
		text, err := pos.WriteOrders(side, first.Orders, "g1")
		if err != nil {
			t.Fatal(err)
		}
		again := pos.Read(side, text, 0)
		if again.Orders == nil {
			t.Fatalf("%s: the written orders are refused:\n%s\n%s", side, text, again.Answer)
		}
		a, _ := first.Orders.Marshal()
		b, _ := again.Orders.Marshal()
		if string(a) != string(b) {
			t.Errorf("%s: written orders read back otherwise:\n%s\n%s", side, a, b)
		}
	}
}

// Every line of every order form fits in 72 characters, so that no mail
// program wraps a tail onto a line of its own, over a whole bot game.
func TestFormLinesFitAMail(t *testing.T) {
	sys := newSystem(t)
	pos, err := sys.NewGame("wood-edge", 1)
	if err != nil {
		t.Fatal(err)
	}
	for turn := 0; !pos.Step().Over && turn < 30; turn++ {
		orders := map[string]engine.Orders{}
		for _, side := range pos.Step().Waiting {
			for i, line := range strings.Split(pos.Form(side, "g1"), "\n") {
				if len(line) > 72 {
					t.Fatalf("turn %d, %s's form line %d has %d characters:\n%s", turn, side, i+1, len(line), line)
				}
			}
			view, _ := pos.View(side)
			plan, err := sys.Plan(view, side, "g1", uint64(turn))
			if err != nil {
				t.Fatal(err)
			}
			orders[side] = pos.Read(side, plan.Orders, 0).Orders
		}
		if pos, _, err = pos.Play(orders, engine.NewSeededDice(uint64(turn))); err != nil {
			t.Fatal(err)
		}
	}
}
