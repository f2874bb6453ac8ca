package mapview

import (
	"bytes"
	"strings"
	"testing"

	"fieldpost/engine/hexdraw"
	"fieldpost/engine/hexdraw/hexdrawtest"
)

// A picture has a title band (the scenario, the turn, whose view) and a
// legend of its colours and marks under the map; no place's name covers
// a counter or a mark of a hex (who holds it, a port, a bridge).
func TestPictureTitleLegendAndNames(t *testing.T) {
	for _, sc := range []string{"ofanto", "foggia"} {
		g := playBots(t, sc, 6)
		for _, side := range g.after.Sides {
			v, turn := g.turn(side)
			var b bytes.Buffer
			if err := Write(&b, "svg", v, turn); err != nil {
				t.Fatal(err)
			}
			texts := hexdrawtest.SVGTexts(b.Bytes())
			want := []string{v.Title, "Key:", "victory hex", "out of supply"}
			for _, sd := range v.Sides {
				want = append(want, sd+" units")
			}
			for _, w := range want {
				if texts[w] == nil {
					t.Errorf("%s %s: the picture lacks %q", sc, side, w)
				}
			}
			sub := false
			for s := range texts {
				sub = sub || strings.HasPrefix(s, "Frontline General, ") && strings.HasSuffix(s, "what "+side+" sees")
			}
			if !sub {
				t.Errorf("%s %s: the title band does not say whose view it is", sc, side)
			}
			scratch := hexdraw.New(1, 1, palette)
			avoid := features(v)
			for _, s := range stacksOf(v) {
				avoid = append(avoid, drawStacks(scratch, v, s)...)
			}
			named := 0
			for _, name := range v.Map.Names {
				named += len(texts[name])
				for _, box := range texts[name] {
					for _, a := range avoid {
						if box.Overlaps(a) {
							t.Errorf("%s %s: the name %q at %v covers %v", sc, side, name, box, a)
						}
					}
				}
			}
			if named < len(v.Map.Names) {
				t.Errorf("%s %s: %d of the %d place names found in the picture", sc, side, named, len(v.Map.Names))
			}
		}
	}
}
