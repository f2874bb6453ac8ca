package mapview

import (
	"strings"
	"testing"

	"fieldpost/engine/brigadier/rules"
	"fieldpost/engine/hexdraw"
	"fieldpost/engine/hexdraw/hexdrawtest"
)

// A picture has a title band (the scenario, the turn, whose view) and a
// legend of its colours and marks under the map; no objective's name
// covers a counter or a mark of a hex (who holds it, a bridge).
func TestPictureTitleLegendAndNames(t *testing.T) {
	rs := ruleset(t)
	for _, turns := range []int{0, 4} {
		st, events := playBots(t, rs, turns)
		for _, sd := range st.Sides {
			texts := hexdrawtest.SVGTexts(write(t, rs, st, events, sd.Name, "svg"))
			want := []string{st.Title, "Key:", "woods", "dug in", "german platoons", "us platoons"}
			for _, w := range want {
				if texts[w] == nil {
					t.Errorf("turn %d, %s: the picture lacks %q", turns, sd.Name, w)
				}
			}
			sub := false
			for s := range texts {
				sub = sub || strings.HasPrefix(s, "Brigadier General Commands, ") && strings.HasSuffix(s, "what "+sd.Name+" sees")
			}
			if !sub {
				t.Errorf("turn %d, %s: the title band does not say whose view it is", turns, sd.Name)
			}
			v := rules.View(rs, st, sd.Name)
			scratch := hexdraw.New(1, 1, palette)
			avoid := features(v)
			for _, pl := range v.Platoons {
				if !pl.Removed {
					avoid = append(avoid, drawPlatoon(scratch, rs, v, pl))
				}
			}
			for _, o := range v.Objectives {
				if texts[o.Name] == nil {
					t.Errorf("turn %d, %s: objective %q is not named", turns, sd.Name, o.Name)
				}
				for _, box := range texts[o.Name] {
					for _, a := range avoid {
						if box.Overlaps(a) {
							t.Errorf("turn %d, %s: the name %q at %v covers %v", turns, sd.Name, o.Name, box, a)
						}
					}
				}
			}
		}
	}
}
