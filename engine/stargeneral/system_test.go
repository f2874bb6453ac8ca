package stargeneral

import (
	"bytes"
	"encoding/xml"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral/rules"
	"fieldpost/templates"
)

func newSystem(t *testing.T) *System {
	t.Helper()
	s, err := New(templates.FS)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestScenariosAreTheBundledOnes(t *testing.T) {
	var names []string
	for _, sc := range newSystem(t).Scenarios() {
		names = append(names, sc.Name)
		if sc.Title == "" || len(sc.Sides) != 2 || sc.Map == "" || !strings.Contains(sc.Length, "rounds") {
			t.Errorf("scenario %s: %+v", sc.Name, sc)
		}
	}
	if !slices.Equal(names, rules.BundledScenarioNames()) {
		t.Errorf("scenarios %v, bundled %v", names, rules.BundledScenarioNames())
	}
	if info := newSystem(t).Scenarios()[slices.Index(names, "tutorial")]; info.Map != "13x10" || info.Ruleset != "2sg" {
		t.Errorf("tutorial: %+v", info)
	}
}

func TestNewGameNeedsABundledScenario(t *testing.T) {
	if _, err := newSystem(t).NewGame("stalingrad", 1); err == nil || !strings.Contains(err.Error(), "stalingrad") {
		t.Errorf("NewGame(stalingrad): %v", err)
	}
}

func TestTemplatesAreCheckedAtStart(t *testing.T) {
	if _, err := New(fstest.MapFS{}); err == nil || !strings.Contains(err.Error(), "report.txt") {
		t.Errorf("New without templates: %v", err)
	}
}

// A round of the tutorial played through the seam: both sides are waited
// for, the bot's orders read back as valid orders, the report and the maps
// say what Star General's must (what every system must, the conformance
// test of engine/systems checks).
func TestRoundThroughTheSeam(t *testing.T) {
	sys := newSystem(t)
	pos, err := sys.NewGame("tutorial", 1)
	if err != nil {
		t.Fatal(err)
	}
	if step := pos.Step(); !slices.Equal(step.Waiting, []string{"us", "german"}) || step.Over || step.Name != "day 1 of 1, round 1 of 5" {
		t.Errorf("step: %+v", step)
	}
	raw, err := pos.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := sys.Load(raw)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := loaded.Marshal()
	if !bytes.Equal(raw, again) {
		t.Error("a stored position does not read back the same")
	}
	if r := pos.Read("us", "Thanks, see you\n", 0); r.Found || r.Errors != 0 || r.Orders != nil {
		t.Errorf("prose read as orders: %+v", r)
	}
	if r := pos.Read("us", "BN 743 X\n", 0); r.Errors == 0 || !strings.Contains(r.Answer, "line 1") {
		t.Errorf("a wrong status: %+v", r)
	}
	view, err := pos.View("german")
	if err != nil {
		t.Fatal(err)
	}
	orders := map[string]engine.Orders{}
	for i, side := range pos.Step().Waiting {
		plan, err := sys.Plan(view, side, "g1", uint64(i+1))
		if err != nil || plan.Turn != 0 || plan.Over || plan.Orders == "" {
			t.Fatalf("plan of %s: %+v %v", side, plan, err)
		}
		r := pos.Read(side, plan.Orders, 0)
		if r.Orders == nil {
			t.Fatalf("the bot's orders for %s are refused:\n%s", side, r.Answer)
		}
		orders[side] = r.Orders
	}
	next, round, err := loaded.Play(orders, engine.NewSeededDice(99))
	if err != nil {
		t.Fatal(err)
	}
	text, err := round.Report("us", engine.RoundMeta{Game: "g1", Seed: 99, Orders: orders})
	if err != nil || !strings.Contains(text, "Dice seed for this round: 99") || !strings.Contains(text, "ORDERS PLAYED: german") {
		t.Errorf("report: %v\n%s", err, text)
	}
	var png bytes.Buffer
	if err := round.Map(&png, "us", engine.PNG); err != nil || !bytes.HasPrefix(png.Bytes(), []byte("\x89PNG")) {
		t.Errorf("round map: %v", err)
	}
	for what, draw := range map[string]func(io.Writer, string, engine.MapFormat) error{"round": round.Map, "position": next.Map} {
		var svg bytes.Buffer
		if err := draw(&svg, "us", engine.SVG); err != nil {
			t.Fatalf("%s SVG map: %v", what, err)
		}
		checkSVG(t, what, svg.Bytes())
	}
	if next.Turn() != 1 || next.Forces("us").Units == 0 {
		t.Errorf("after the round: turn %d, forces %+v", next.Turn(), next.Forces("us"))
	}
}

// checkSVG checks that an SVG map is a well-formed XML document whose root
// is an svg element, without a script or anything taken from elsewhere.
func checkSVG(t *testing.T, what string, doc []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	elements := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s SVG map is not well-formed XML: %v", what, err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if elements == 0 && (el.Name.Local != "svg" || el.Name.Space != "http://www.w3.org/2000/svg") {
			t.Fatalf("%s SVG map starts with <%s %s>, not an svg element", what, el.Name.Local, el.Name.Space)
		}
		elements++
		if el.Name.Local == "script" || el.Name.Local == "foreignObject" || el.Name.Local == "image" {
			t.Errorf("%s SVG map holds a <%s>", what, el.Name.Local)
		}
		for _, a := range el.Attr {
			if a.Name.Local == "href" && !strings.HasPrefix(a.Value, "#") || strings.HasPrefix(a.Name.Local, "on") {
				t.Errorf("%s SVG map: <%s %s=%q>", what, el.Name.Local, a.Name.Local, a.Value)
			}
		}
	}
	if elements < 100 {
		t.Errorf("%s SVG map has only %d elements", what, elements)
	}
}

// Star General hides nothing: every side, the public and the umpire read
// one report, one situation and one view, and see one map.
func TestEveryReaderSharesOneReport(t *testing.T) {
	sys := newSystem(t)
	pos, err := sys.NewGame("tutorial", 1)
	if err != nil {
		t.Fatal(err)
	}
	if pos.HidesInformation() {
		t.Fatal("Star General hides information")
	}
	orders := map[string]engine.Orders{}
	for _, sd := range pos.Sides() {
		orders[sd.Name] = pos.Default(sd.Name)
	}
	next, round, err := pos.Play(orders, engine.NewSeededDice(5))
	if err != nil {
		t.Fatal(err)
	}
	readers := []string{engine.Public, engine.Umpire}
	for _, sd := range pos.Sides() {
		readers = append(readers, sd.Name)
	}
	texts := func(side string) []string {
		report, err := round.Report(side, engine.RoundMeta{Game: "g", Seed: 5, Orders: orders})
		if err != nil {
			t.Fatal(err)
		}
		situation, _ := next.Situation(side)
		view, _ := next.View(side)
		var svg, ascii bytes.Buffer
		if err := round.Map(&svg, side, engine.SVG); err != nil {
			t.Fatal(err)
		}
		if err := next.Map(&ascii, side, engine.ASCII); err != nil {
			t.Fatal(err)
		}
		return []string{report, situation, string(view), svg.String(), ascii.String()}
	}
	want := texts(engine.Public)
	for _, side := range readers[1:] {
		if got := texts(side); !slices.Equal(got, want) {
			t.Errorf("%q reads otherwise than the public", side)
		}
	}
}
