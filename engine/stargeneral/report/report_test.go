package report_test

import (
	"fieldpost/engine"

	"strings"
	"testing"
	"testing/fstest"

	"fieldpost/data"
	"fieldpost/engine/stargeneral/report"
	"fieldpost/engine/stargeneral/rules"
	"fieldpost/templates"
)

func playRound(t *testing.T) report.Round {
	sc, err := data.Scenario("tutorial")
	if err != nil {
		t.Fatal(err)
	}
	st := sc.NewGame()
	next, events, err := rules.Resolve(sc.Ruleset, st, nil, engine.NewSeededDice(5))
	if err != nil {
		t.Fatal(err)
	}
	return report.Round{Ruleset: sc.Ruleset, Before: st, After: next, Events: events, Seed: 5, Game: "t1", Side: "us",
		Defaulted: []string{"us", "german"}}
}

func TestBundledTemplate(t *testing.T) {
	text, err := report.Text(templates.FS, playRound(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"day 1 of 1, round 1 of 5 - game t1",
		"us sent no orders",
		"Activation 1: ",
		"Initiative: us rolls",
		"SITUATION",
		"Dice seed for this round: 5",
		"YOUR ORDERS (us)",
		"GAME t1  SIDE us  ROUND 2",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

// A club restyles its reports by giving templates of its own.
func TestClubTemplates(t *testing.T) {
	fsys := fstest.MapFS{"report.txt.tmpl": {Data: []byte(`{{.Title}} | {{.RoundName}} | {{len .Blocks}} blocks | seed {{.Seed}}`)}}
	text, err := report.Text(fsys, playRound(t))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, "Saint-Aubin") || !strings.Contains(text, "| seed 5") {
		t.Fatalf("custom template output: %q", text)
	}
	if _, err := report.Text(fstest.MapFS{}, playRound(t)); err == nil {
		t.Fatal("a missing template is not an error")
	}
}
