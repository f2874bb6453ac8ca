package frontline

import (
	"bytes"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/hexdraw/hexdrawtest"
)

// A player turn through the seam: only the active side is waited for, the
// form reads back valid, the bot's orders (planned from the side's view)
// play, the turn counter moves on, a side's view hides the enemy's hand,
// and the decks follow the setup seed.
func TestPlayerTurnThroughTheSeam(t *testing.T) {
	sys, err := New()
	if err != nil {
		t.Fatal(err)
	}
	infos := sys.Scenarios()
	if len(infos) != 2 || infos[0].Map == "" || len(infos[0].Sides) != 2 {
		t.Fatalf("scenarios: %+v", infos)
	}
	pos, err := sys.NewGame(infos[0].Name, 7)
	if err != nil {
		t.Fatal(err)
	}
	step := pos.Step()
	if len(step.Waiting) != 1 || pos.Turn() != 0 {
		t.Fatalf("step %+v, turn %d", step, pos.Turn())
	}
	active := step.Waiting[0]
	other := pos.Sides()[0].Name
	if other == active {
		other = pos.Sides()[1].Name
	}
	if r := pos.Read(active, pos.Form(active, "g1"), 0); r.Errors != 0 {
		t.Fatalf("the form is refused:\n%s", r.Answer)
	}
	view, err := pos.View(active)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := sys.Plan(view, active, "g1", 1)
	if err != nil || plan.Orders == "" {
		t.Fatalf("plan: %+v %v", plan, err)
	}
	if waiting, _ := sys.Plan(view, other, "g1", 1); waiting.Orders != "" {
		t.Errorf("the waiting side was planned orders:\n%s", waiting.Orders)
	}
	r := pos.Read(active, plan.Orders, 0)
	if r.Orders == nil {
		t.Fatalf("the bot's orders are refused:\n%s", r.Answer)
	}
	text, err := pos.WriteOrders(active, r.Orders, "g1")
	if err != nil || pos.Read(active, text, 0).Orders == nil {
		t.Fatalf("written orders do not read back: %v\n%s", err, text)
	}
	next, round, err := pos.Play(map[string]engine.Orders{active: r.Orders}, engine.NewSeededDice(3))
	if err != nil {
		t.Fatal(err)
	}
	if next.Turn() != 1 || next.Step().Waiting[0] != other {
		t.Errorf("after the turn: turn %d, waiting %v", next.Turn(), next.Step().Waiting)
	}
	mine, _ := round.Report(active, engine.RoundMeta{Seed: 3})
	if !strings.Contains(mine, "Dice seed for this turn: 3") {
		t.Errorf("report:\n%s", mine)
	}
	var png, svg, posSVG bytes.Buffer
	if err := round.Map(&png, other, engine.PNG); err != nil || !bytes.HasPrefix(png.Bytes(), []byte("\x89PNG")) {
		t.Errorf("map: %v", err)
	}
	if err := round.Map(&svg, other, engine.SVG); err != nil {
		t.Errorf("SVG map of the turn: %v", err)
	}
	hexdrawtest.CheckSVG(t, svg.Bytes())
	if err := next.Map(&posSVG, active, engine.SVG); err != nil {
		t.Errorf("SVG map of the position: %v", err)
	}
	hexdrawtest.CheckSVG(t, posSVG.Bytes())
	seen, _ := next.View(other)
	if bytes.Contains(seen, []byte(`"command_deck"`)) || !bytes.Contains(seen, []byte(`"standing_hidden":true`)) {
		t.Errorf("%s's view shows the decks or the enemy's hand:\n%.400s", other, seen)
	}
	a, _ := pos.Marshal()
	again, _ := sys.NewGame(infos[0].Name, 7)
	b, _ := again.Marshal()
	other7, _ := sys.NewGame(infos[0].Name, 8)
	c, _ := other7.Marshal()
	if !bytes.Equal(a, b) || bytes.Equal(a, c) {
		t.Error("the decks do not follow the setup seed")
	}
}

// The supply the form announces is the supply the report then charges,
// written the same way (issue 25: they disagreed, "7 less 5 for 1 port"
// against "7 less 1 port").
func TestFormAndReportAgreeOnSupply(t *testing.T) {
	sys, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range sys.Scenarios() {
		pos, err := sys.NewGame(sc.Name, 7)
		if err != nil {
			t.Fatal(err)
		}
		active := pos.Step().Waiting[0]
		form := pos.Form(active, "g1")
		_, announced, ok := strings.Cut(form, "Supply due ")
		if !ok {
			t.Fatalf("%s: the form announces no supply:\n%s", sc.Name, form)
		}
		announced, _, _ = strings.Cut(announced, ").")
		_, round, err := pos.Play(map[string]engine.Orders{active: pos.Default(active)}, engine.NewSeededDice(3))
		if err != nil {
			t.Fatal(err)
		}
		report, err := round.Report(active, engine.RoundMeta{Game: "g1"})
		if err != nil {
			t.Fatal(err)
		}
		due, why, _ := strings.Cut(announced, " ")
		if want := "supply: " + due + " due " + why + ")"; !strings.Contains(report, want) {
			t.Errorf("%s: the form announces %q, the report lacks %q:\n%s", sc.Name, announced, want, report)
		}
	}
}
