package report_test

import (
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral/report"
	"fieldpost/engine/stargeneral/rules"
	"fieldpost/templates"
)

func playRound(t *testing.T) report.Round {
	sc, err := rules.BundledScenario("tutorial")
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

// A report cites the sections of the book being played: a Three Star General
// round cites 3SG's retreat (2.5), air power (9) and armour factor (3.7.1),
// never Two Star General's numbers for them, and every number it cites is a
// section of the book.
func TestReportCitesTheBookPlayed(t *testing.T) {
	const position = `
RULESET 3sg
MAP 10 10 open
SIDE red air=1
UNIT A1 M
  HQ hq 0503
  1A infantry 0504
UNIT A2 R
  HQ hq 0208
  2A infantry 0307
SIDE blue
UNIT B1 H
  HQ hq 0507
  X infantry 0505
  Y infantry 0506 +aa
  T medium_armour 0406
`
	sc, err := rules.ParseScenario([]byte(position), rules.BundledRuleset)
	if err != nil {
		t.Fatal(err)
	}
	rs, st := sc.Ruleset, sc.NewGame()
	red := rules.DefaultOrders(rs, st, "red")
	red.Units = []rules.UnitOrders{
		{Unit: "A1", Status: rules.Move, Attack: &rules.Attack{Target: rules.MustHex("0505"), Stands: []rules.AttackStand{{Stand: "1A", Close: true}}, Air: 1}},
		{Unit: "A2", Status: rules.Retreat, Moves: []rules.StandMove{{Stand: "2A", Path: []rules.Hex{rules.MustHex("0306"), rules.MustHex("0305"), rules.MustHex("0304")}}}},
	}
	next, events, err := rules.Resolve(rs, st, []*rules.Orders{red}, engine.NewSeededDice(11))
	if err != nil {
		t.Fatal(err)
	}
	d := report.Build(report.Round{Ruleset: rs, Before: st, After: next, Events: events, Seed: 11, Game: "t3"})
	var lines []string
	for _, b := range d.Blocks {
		lines = append(lines, b.Lines...)
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"in the ZOC of B1 T: 1 SP lost [§2.5]",
		"fires at red's air point: rolls",
		"[§9]",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	for _, m := range regexp.MustCompile(`[(§](\d+(?:\.\d+)*)[)\]]`).FindAllStringSubmatch(text, -1) {
		if !rs.InBook(m[1]) {
			t.Errorf("report cites (%s), which Three Star General does not have:\n%s", m[1], text)
		}
	}
	for _, old := range []string{"2.6", "7", "9.1", "3.7.3"} {
		if strings.Contains(text, "("+old+")") || strings.Contains(text, "[§"+old+"]") {
			t.Errorf("report cites Two Star General's %s:\n%s", old, text)
		}
	}
}
