package mapview

import (
	"bytes"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fieldpost/engine/frontline/rules"
	"fieldpost/engine/hexdraw"
	"fieldpost/engine/hexdraw/hexdrawtest"
)

const fogScenario = `SIZE 6 4
FILL .
SIDES US GE
OPTIONS fog
UNIT US FHQ-1 0101
UNIT GE FHQ-1 0604
UNIT US RS-1 0302
UNIT GE PZ4-1 0503 crew TC-1
`

// pictures draws the US view of a scenario as a PNG and an SVG.
func pictures(t *testing.T, scenario string) (png, svg []byte) {
	t.Helper()
	s, err := rules.ParseScenario(scenario)
	if err != nil {
		t.Fatal(err)
	}
	v := s.View("US")
	turn := &Turn{Before: v}
	var a, b bytes.Buffer
	if err := Write(&a, "png", v, turn); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, "svg", v, turn); err != nil {
		t.Fatal(err)
	}
	return a.Bytes(), b.Bytes()
}

// A German unit the US side may not see (a hidden observer, a unit under
// the top of a fogged stack) changes nothing in the US pictures, byte for
// byte; one it may see does.
func TestPicturesShowOnlyTheView(t *testing.T) {
	png0, svg0 := pictures(t, fogScenario)
	for _, hidden := range []string{"UNIT GE FO-1 0403", "UNIT GE RS-1 0503"} {
		png1, svg1 := pictures(t, fogScenario+hidden+"\n")
		if !bytes.Equal(png0, png1) || !bytes.Equal(svg0, svg1) {
			t.Errorf("%q shows in the US pictures", hidden)
		}
	}
	png2, svg2 := pictures(t, fogScenario+"UNIT GE RS-1 0403\n")
	if bytes.Equal(png0, png2) || bytes.Equal(svg0, svg2) {
		t.Error("a German unit the US side sees is not drawn")
	}
	if texts := hexdrawtest.CheckSVG(t, svg2); !strings.Contains(strings.Join(texts, " "), "RS") {
		t.Errorf("the SVG does not name the German RS: %q", texts)
	}
}

// Both scenarios, in mid-game with the last turn drawn, make a
// well-formed SVG without script and a PNG of the map's size, for each
// side and an observer.
func TestPicturesOfBothScenarios(t *testing.T) {
	for _, sc := range []string{"ofanto", "foggia"} {
		g := playBots(t, sc, 6)
		for _, side := range []string{"US", "GE", ""} {
			v, turn := g.turn(side)
			var svg bytes.Buffer
			if err := Write(&svg, "svg", v, turn); err != nil {
				t.Fatal(err)
			}
			hexdrawtest.CheckSVG(t, svg.Bytes())
			if dir := os.Getenv("MAPVIEW_PREVIEW"); dir != "" && side != "" {
				var b bytes.Buffer
				if err := Write(&b, "png", v, turn); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "frontline-"+sc+"-"+side+".png"), b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			img := Draw(v, turn).Image()
			if img.Bounds().Dx() < 48*v.Map.Width || img.Bounds().Dy() < 55*v.Map.Height {
				t.Errorf("%s: picture %v too small", sc, img.Bounds())
			}
		}
	}
}

// A turn's moves and engagements are drawn under the counters: every
// counter's pixels are the same with the turn drawn as without; and the
// turn adds red (the lines of its engagements).
func TestTurnLeavesCountersClear(t *testing.T) {
	// The first bot turn from the eighth on that fights (the bots' play
	// follows the rules, so the turn moves when they change).
	var g played
	engaged := false
	for plays := 8; plays <= 20 && !engaged; plays++ {
		g = playBots(t, "ofanto", plays)
		for _, e := range g.events {
			engaged = engaged || e.Kind == "engage"
		}
	}
	if !engaged {
		t.Fatal("no bot turn from the 8th to the 20th has an engagement")
	}
	for _, side := range []string{"US", "GE"} {
		v, turn := g.turn(side)
		with, without := Draw(v, turn).Image(), Draw(v, nil).Image()
		for _, ss := range stacksOf(v) {
			ce := layout.Centre(ss[0].hex)
			r := image.Rect(int(ce.X)-counterHalfW, int(ce.Y)-counterHalfH, int(ce.X)+counterHalfW, int(ce.Y)+counterHalfH)
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					if with.ColorIndexAt(x, y) != without.ColorIndexAt(x, y) {
						t.Fatalf("%s: the turn draws over the counter in %s at %d,%d", side, ss[0].hex, x, y)
					}
				}
			}
		}
		if count(with, uint8(red)) <= count(without, uint8(red)) {
			t.Errorf("%s: the turn's engagement is not drawn", side)
		}
	}
}

func count(img *image.Paletted, c uint8) int {
	n := 0
	for _, p := range img.Pix {
		if p == c {
			n++
		}
	}
	return n
}

// A counter, one row or two, lies inside its hex, clear of the hex
// number above it.
func TestCounterFitsItsHex(t *testing.T) {
	halfWidthAt := func(dy float64) float64 { return layout.R - math.Abs(dy)/math.Sqrt(3) }
	if halfWidthAt(counterHalfH) < counterHalfW {
		t.Errorf("a counter of %dx%d leaves a hex of radius %v", 2*counterHalfW, 2*counterHalfH, layout.R)
	}
	// The hex number's digits end 5 rows below their top, at -24.
	if -24+5 >= -counterHalfH {
		t.Error("a counter covers its hex number")
	}
}

// An engineered bridge is drawn across its river and a port hit gets a red
// cross over its anchor: the picture changes where each stands, and
// nowhere far from them.
func TestWorksAreDrawn(t *testing.T) {
	const position = "BOARD ofanto\nSIDES US GE\nUNIT US FHQ-1 1812\nUNIT GE FHQ-1 0405\n"
	plain, err := rules.ParseScenario(position)
	if err != nil {
		t.Fatal(err)
	}
	worked, err := rules.ParseScenario(position + "UNIT US EBR-1 0911 across 0910\nPORT 1812 destroyed\n")
	if err != nil {
		t.Fatal(err)
	}
	before, after := Draw(plain, nil).Image(), Draw(worked, nil).Image()
	near := func(x, y int, hexes ...rules.Hex) bool {
		for _, h := range hexes {
			c := layout.Centre(h)
			if math.Abs(float64(x)-c.X) < 60 && math.Abs(float64(y)-c.Y) < 60 {
				return true
			}
		}
		return false
	}
	changedAt := map[string]bool{}
	b := before.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if before.ColorIndexAt(x, y) == after.ColorIndexAt(x, y) {
				continue
			}
			switch {
			case near(x, y, rules.Hex{Col: 9, Row: 11}, rules.Hex{Col: 9, Row: 10}):
				changedAt["bridge"] = true
			case near(x, y, rules.Hex{Col: 18, Row: 12}):
				changedAt["port"] = true
			default:
				t.Fatalf("the works changed a pixel far from them, at %d,%d", x, y)
			}
		}
	}
	if !changedAt["bridge"] || !changedAt["port"] {
		t.Errorf("drawn: %v, want the bridge and the port", changedAt)
	}
	if dir := os.Getenv("MAPVIEW_PREVIEW"); dir != "" {
		var b bytes.Buffer
		if err := Draw(worked, nil).PNG(&b); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "frontline-works.png"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A counter with an aircraft in flight is framed in blue for both
// sides; the side's own counters out of supply (idle) or outside the
// command network get a gold or a white corner; the enemy's do not.
func TestCounterMarks(t *testing.T) {
	// Both FHQs far from the stacks in 0303 (US) and 0903 (GE), unless
	// near is set.
	scenario := func(near bool, units string) string {
		head := "SIZE 40 6\nFILL .\nSIDES US GE\nUNIT US FHQ-1 4001\nUNIT GE FHQ-1 4006\n"
		if near {
			head = "SIZE 40 6\nFILL .\nSIDES US GE\nUNIT US FHQ-1 0101\nUNIT GE FHQ-1 1206\n"
		}
		return head + units
	}
	draw := func(name, position string) *image.Paletted {
		s, err := rules.ParseScenario(position)
		if err != nil {
			t.Fatal(err)
		}
		p := Draw(s.View("US"), nil)
		if dir := os.Getenv("MAPVIEW_PREVIEW"); dir != "" {
			var b bytes.Buffer
			if err := p.PNG(&b); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "frontline-marks-"+name+".png"), b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return p.Image()
	}
	colourIn := func(img *image.Paletted, h rules.Hex, c hexdraw.Colour, pad int) int {
		ce := layout.Centre(h)
		n := 0
		for y := int(ce.Y) - counterHalfH - pad; y <= int(ce.Y)+counterHalfH+pad; y++ {
			for x := int(ce.X) - counterHalfW - pad; x <= int(ce.X)+counterHalfW+pad; x++ {
				if img.ColorIndexAt(x, y) == uint8(c) {
					n++
				}
			}
		}
		return n
	}
	plain := draw("plain", scenario(true, "UNIT US RS-1 0303\nUNIT GE RS-1 0903\n"))
	us, ge := rules.Hex{Col: 3, Row: 3}, rules.Hex{Col: 9, Row: 3}
	for _, c := range []struct {
		name, position string
		colour         hexdraw.Colour
		pad            int
		own, foe       bool
	}{
		{"aloft", scenario(true, "UNIT US P51FB-1 0303 aloft 2\nUNIT GE FW190-1 0903 aloft 2\n"), river, 3, true, true},
		{"supply", scenario(true, "UNIT US RS-1 0303 idle\nUNIT GE RS-1 0903 idle\n"), gold, 0, true, false},
		{"command", scenario(false, "UNIT US RS-1 0303\nUNIT GE RS-1 0903\n"), white, 0, true, false},
	} {
		img := draw(c.name, c.position)
		if got := colourIn(img, us, c.colour, c.pad) > colourIn(plain, us, c.colour, c.pad); got != c.own {
			t.Errorf("%s: the US counter marked %v, want %v", c.name, got, c.own)
		}
		if got := colourIn(img, ge, c.colour, c.pad) > colourIn(plain, ge, c.colour, c.pad); got != c.foe {
			t.Errorf("%s: the German counter marked %v, want %v", c.name, got, c.foe)
		}
	}
}
