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
