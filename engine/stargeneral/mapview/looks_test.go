package mapview

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/hexdraw"
	"fieldpost/engine/stargeneral/bot"
	"fieldpost/engine/stargeneral/rules"
)

// midGame plays the division scenario for rounds rounds with the bot on
// both sides and returns the ruleset, the position and the last round's
// events: a crowded map with every kind of mark.
func midGame(t testing.TB, rounds int) (*rules.Ruleset, *rules.State, []rules.Event) {
	t.Helper()
	sc, err := rules.BundledScenario("krinkelt")
	if err != nil {
		t.Fatal(err)
	}
	rs, st := sc.Ruleset, sc.NewGame()
	var events []rules.Event
	for range rounds {
		var orders []*rules.Orders
		for _, sd := range st.Sides {
			orders = append(orders, bot.Plan(rs, st, sd.Name, bot.Options{Seed: 3}))
		}
		next, ev, err := rules.Resolve(rs, st, orders, engine.NewSeededDice(engine.RoundSeed(5, st.Turn)))
		if err != nil {
			t.Fatal(err)
		}
		st, events = next, ev
	}
	return rs, st, events
}

// A counter lies a pixel inside its hex at every size, so it never covers
// a neighbour's.
func TestCountersInsideTheirHex(t *testing.T) {
	for r := 12; r <= 60; r++ {
		ctr := pt{X: 100, Y: 100}
		if !insideConvex(counterShape(ctr, float64(r)), hexdraw.Hexagon(ctr, float64(r)), 1) {
			t.Errorf("radius %d: the counter pokes out of its hex", r)
		}
	}
	// On a crowded map, the counters change no pixel outside their hexes.
	rs, st, _ := midGame(t, 2)
	// Names move out of the counters' way (placeNames): without them, only
	// the counters differ.
	st.Objectives = nil
	st.Map.Names = nil
	bare := *st
	bare.Units, bare.Batteries = nil, nil
	with, err := Render(rs, st, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	without, err := Render(rs, &bare, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := newRenderer(rs, st, nil, DefaultHexRadius)
	inCounterHex := map[image.Point]bool{}
	for h := range r.counters {
		c := r.centre(h)
		for _, k := range r.cell {
			for x := k.DX0; x < k.DX1; x++ {
				inCounterHex[image.Pt(int(c.X)+x, int(c.Y)+k.DY)] = true
			}
		}
	}
	outside := 0
	for y := int(r.layout.Top + r.layout.Margin); y < int(r.mapBot); y++ {
		for x := range r.width {
			if with.At(x, y) != without.At(x, y) && !inCounterHex[image.Pt(x, y)] {
				outside++
			}
		}
	}
	if outside > 0 {
		t.Errorf("the counters change %d pixels outside their own hexes", outside)
	}
}

// The round's arrows and markers leave every counter's writing as it is:
// on a crowded map, each counter's writing is the same with and without
// them.
func TestMarksHideNoCounterWriting(t *testing.T) {
	for rounds := 1; rounds <= 4; rounds++ {
		rs, st, events := midGame(t, rounds)
		plain, err := Render(rs, st, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		marked, err := Render(rs, st, events, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := newRenderer(rs, st, events, DefaultHexRadius)
		for h := range r.counters {
			a := labelArea(r.centre(h), r.r)
			x0, y0, x1, y1 := int(a[0].X), int(a[0].Y), int(a[2].X), int(a[2].Y)
			n := 0
			for y := y0; y < y1; y++ {
				for x := x0; x < x1; x++ {
					if plain.At(x, y) != marked.At(x, y) {
						n++
					}
				}
			}
			if n > 0 {
				t.Errorf("after round %d: the marks of the round cover %d pixels of the writing of the counter at %s", rounds, n, h)
			}
		}
	}
}

// Every objective's name is written whole, inside the picture, and off the
// other objectives' names, the counters, the objectives' stars and the
// bridges (the tutorial's mill is next to its bridge), on every bundled
// scenario and a crowded map.
func TestObjectiveNamesWhole(t *testing.T) {
	type game struct {
		name string
		rs   *rules.Ruleset
		st   *rules.State
	}
	var games []game
	for _, name := range rules.BundledScenarioNames() {
		sc, err := rules.BundledScenario(name)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, game{name, sc.Ruleset, sc.NewGame()})
	}
	rs, st, _ := midGame(t, 3)
	games = append(games, game{"krinkelt after 3 rounds", rs, st})
	for _, g := range games {
		r := newRenderer(g.rs, g.st, nil, DefaultHexRadius)
		want := map[rules.Hex]string{}
		for _, o := range g.st.Objectives {
			if o.Name != "" && o.Name != o.Hex.String() {
				want[o.Hex] = o.Name
			}
		}
		var boxes [][]pt
		for _, l := range r.placeNames() {
			if !l.objective {
				continue
			}
			if name, ok := want[l.hex]; ok && l.text != name {
				t.Errorf("%s: objective %s is written %q, not %q", g.name, l.hex, l.text, name)
			}
			b := l.box
			if b[0].X < 0 || b[0].Y < 0 || b[2].X > float64(r.width) || b[2].Y > r.mapBot+r.margin {
				t.Errorf("%s: the name of objective %s runs off the picture: %v", g.name, l.hex, b)
			}
			if strings.HasSuffix(l.text, "…") {
				t.Errorf("%s: the name of objective %s is cut: %q", g.name, l.hex, l.text)
			}
			for _, q := range boxes {
				if overlap(b, q) {
					t.Errorf("%s: the name of objective %s covers another's", g.name, l.hex)
				}
			}
			for _, f := range r.features() {
				if overlap(b, f) {
					t.Errorf("%s: the name of objective %s covers an objective's star or a bridge at %v", g.name, l.hex, f)
				}
			}
			if n := r.countersUnder(b); n > 0 {
				t.Errorf("%s: the name of objective %s covers %d counter(s)", g.name, l.hex, n)
			}
			boxes = append(boxes, b)
		}
	}
}

// A stand farther from its HQ than the command range has a red rim; one
// within it, a dark one.
func TestOutOfCommandMarked(t *testing.T) {
	rs, st := parse(t, clearRoad) // A's stand 1 is 6 hexes from its HQ
	img, _ := Render(rs, st, nil, Options{})
	r := newRenderer(rs, st, nil, DefaultHexRadius)
	rim := func(h string) string {
		x0, y0, x1, _ := counterBox(r.centre(rules.MustHex(h)), r.r)
		return fmt.Sprint(img.At(int(x0+x1)/2, int(y0)))
	}
	if got, want := rim("0307"), fmt.Sprint(unheld); got != want {
		t.Errorf("the stand out of command has a rim of %s, want red %s", got, want)
	}
	if got, want := rim("0101"), fmt.Sprint(counterRim); got != want {
		t.Errorf("the HQ has a rim of %s, want %s", got, want)
	}
}

// A combat shows a line from each attacker to its marker, from where the
// attacker stood when it fought.
func TestCombatLinesFromTheAttackers(t *testing.T) {
	rs, st := parse(t, clearRoad)
	h := rules.MustHex
	// B's HQ fought from 0603, then moved back to 0601.
	events := []rules.Event{
		{Kind: rules.EvCombat, Side: "allies", Unit: "B", Combat: &rules.Combat{Number: 1, Target: h("0303"),
			Attacker: rules.Force{Sources: []rules.DiceSource{{Who: "B HQ"}}}}},
		{Kind: rules.EvMove, Side: "allies", Unit: "B", Stand: "HQ", From: h("0603"), Path: []rules.Hex{h("0602"), h("0601")}},
	}
	plain, _ := Render(rs, st, nil, Options{})
	marked, _ := Render(rs, st, events, Options{})
	r := newRenderer(rs, st, events, DefaultHexRadius)
	r.placeMarkers()
	from, to := r.centre(h("0603")), r.markers[0]
	for _, k := range []float64{0.35, 0.5, 0.65} {
		if changed(plain, marked, hexdraw.Lerp(from, to, k), 2) == 0 {
			t.Errorf("no line %.0f%% of the way from the attacker at 0603 to its combat", 100*k)
		}
	}
	// Nothing runs from where the attacker is now.
	if n := changed(plain, marked, hexdraw.Lerp(r.centre(h("0601")), to, 0.5), 2); n != 0 {
		t.Errorf("a line runs from the attacker's hex after the round (%d pixels)", n)
	}
}

// The SVG is the same drawing: a well-formed document of the PNG's size,
// every hex numbered, no script, and small enough for a phone.
func TestSVGDrawsTheSameMap(t *testing.T) {
	rs, st, events := midGame(t, 4)
	var svg bytes.Buffer
	if err := SVG(&svg, rs, st, events, Options{}); err != nil {
		t.Fatal(err)
	}
	img, err := Render(rs, st, events, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name
		Width   int    `xml:"width,attr"`
		Height  int    `xml:"height,attr"`
		ViewBox string `xml:"viewBox,attr"`
	}
	if err := xml.Unmarshal(svg.Bytes(), &doc); err != nil {
		t.Fatalf("the SVG does not parse: %v", err)
	}
	b := img.Bounds()
	if doc.XMLName.Local != "svg" || doc.Width != b.Dx() || doc.Height != b.Dy() || doc.ViewBox != fmt.Sprintf("0 0 %d %d", b.Dx(), b.Dy()) {
		t.Errorf("the SVG is <%s> %dx%d (%s), the PNG %dx%d", doc.XMLName.Local, doc.Width, doc.Height, doc.ViewBox, b.Dx(), b.Dy())
	}
	text := svg.String()
	for col := 1; col <= st.Map.Cols; col++ {
		for row := 1; row <= st.Map.Rows; row++ {
			if h := (rules.Hex{Col: col, Row: row}); !strings.Contains(text, ">"+h.String()+"</text>") {
				t.Fatalf("hex %s has no number in the SVG", h)
			}
		}
	}
	for _, u := range st.Units {
		if !u.Removed && !strings.Contains(text, ">"+u.ID+"</text>") {
			t.Errorf("unit %s is not on the SVG map", u.ID)
		}
	}
	if strings.Contains(text, "<script") || strings.Contains(text, "<style") {
		t.Error("the SVG holds a script or a style sheet")
	}
	if svg.Len() > 256<<10 {
		t.Errorf("the division map's SVG is %d KB", svg.Len()>>10)
	}
}
