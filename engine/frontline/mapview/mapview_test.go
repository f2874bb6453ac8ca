package mapview

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"fieldpost/engine/frontline/rules"
)

// The ASCII map of a side's view marks its stacks, and none the side
// cannot see.
func TestASCIIShowsOnlyTheView(t *testing.T) {
	s, err := rules.ParseScenario(`SIZE 6 4
FILL .
SIDES US GE
OPTIONS fog
UNIT US FHQ-1 0101
UNIT GE FHQ-1 0604
UNIT US RS-1 0302
UNIT GE RS-1 0503
UNIT GE PZ4-1 0503 crew TC-1
UNIT GE FO-1 0403`)
	if err != nil {
		t.Fatal(err)
	}
	out := ASCII(s.View("US"))
	if !strings.Contains(out, "0302: US:RS-1") || !strings.Contains(out, "0503: GE:PZ4-1\n") {
		t.Errorf("US view, fog shows the top of the German stack only:\n%s", out)
	}
	if strings.Contains(out, "FO-1") || strings.Contains(out, "GE:FHQ") || strings.Contains(out, "GE:RS-1") {
		t.Errorf("US view shows hidden or fogged German units:\n%s", out)
	}
}

// Both scenarios draw as a PNG of the map's size.
func TestPNG(t *testing.T) {
	for _, sc := range []string{"ofanto", "foggia"} {
		s, err := rules.NewGame(sc, 1)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, "png", s.View("US"), nil); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if img.Bounds().Dx() < 20*s.Map.Width || img.Bounds().Dy() < 20*s.Map.Height {
			t.Errorf("%s: picture %v too small", sc, img.Bounds())
		}
	}
}

// The text map marks aircraft in flight for both sides, and the side's
// own units out of supply or out of command, as the picture does.
func TestASCIIMarks(t *testing.T) {
	s, err := rules.ParseScenario(`SIZE 40 4
FILL .
SIDES US GE
UNIT US FHQ-1 0101
UNIT GE FHQ-1 0104
UNIT US P51FB-1 0302 aloft 2
UNIT US RS-1 0303 idle
UNIT US RS-2 3003
UNIT GE RS-1 0403 idle
UNIT GE RS-2 3004
UNIT GE FW190-1 0402 aloft 2`)
	if err != nil {
		t.Fatal(err)
	}
	out := ASCII(s.View("US"))
	for _, want := range []string{"0302: US:P51FB-1(aloft)\n", "0402: GE:FW190-1(aloft)\n", "0303: US:RS-1(idle)\n", "3003: US:RS-2(no command)\n", "0403: GE:RS-1\n", "3004: GE:RS-2\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}
