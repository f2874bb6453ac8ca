package mapview

import (
	"bytes"
	"image"
	"math"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/brigadier/bot"
	"fieldpost/engine/brigadier/rules"
	"fieldpost/engine/hexdraw/hexdrawtest"
)

func ruleset(tb testing.TB) *rules.Ruleset {
	tb.Helper()
	rs, err := rules.BundledRuleset()
	if err != nil {
		tb.Fatal(err)
	}
	return rs
}

func woodEdge(tb testing.TB, rs *rules.Ruleset) *rules.State {
	tb.Helper()
	text, err := rules.BundledScenarioText("wood-edge")
	if err != nil {
		tb.Fatal(err)
	}
	sc, err := rules.ParseScenario(rs, text)
	if err != nil {
		tb.Fatal(err)
	}
	return sc.State
}

// played is a game of two bots after some turns: the position after the
// last turn and its events.
func playBots(tb testing.TB, rs *rules.Ruleset, turns int) (*rules.State, []rules.Event) {
	tb.Helper()
	st := woodEdge(tb, rs)
	var events []rules.Event
	for turn := 0; turn < turns && !st.Ended; turn++ {
		var orders []*rules.Orders
		for _, sd := range st.Sides {
			orders = append(orders, bot.Plan(rs, rules.View(rs, st, sd.Name), sd.Name, uint64(turn)))
		}
		next, evs, err := rules.Resolve(rs, st, orders, engine.NewSeededDice(uint64(turn)))
		if err != nil {
			tb.Fatal(err)
		}
		st, events = next, evs
	}
	return st, events
}

func write(t *testing.T, rs *rules.Ruleset, st *rules.State, events []rules.Event, side, format string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, format, rs, rules.View(rs, st, side), events, side); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The US platoons start hidden: the German pictures are the same, byte
// for byte, with them as without them, and name none of them; the US
// pictures show them.
func TestHiddenPlatoonsAreNotDrawn(t *testing.T) {
	rs := ruleset(t)
	st := woodEdge(t, rs)
	bare := st.Clone()
	var hidden []string
	bare.Platoons = nil
	for _, p := range st.Platoons {
		if p.Hidden {
			hidden = append(hidden, p.Name)
			continue
		}
		bare.Platoons = append(bare.Platoons, p)
	}
	if len(hidden) == 0 {
		t.Fatal("the scenario starts with no hidden platoon")
	}
	for _, format := range []string{"png", "svg"} {
		if !bytes.Equal(write(t, rs, st, nil, "german", format), write(t, rs, bare, nil, "german", format)) {
			t.Errorf("%s: the German picture shows hidden US platoons", format)
		}
		if bytes.Equal(write(t, rs, st, nil, "us", format), write(t, rs, bare, nil, "us", format)) {
			t.Errorf("%s: the US picture does not show its own hidden platoons", format)
		}
	}
	texts := strings.Join(hexdrawtest.CheckSVG(t, write(t, rs, st, nil, "german", "svg")), " ")
	for _, name := range hidden {
		if strings.Contains(" "+texts+" ", " "+name+" ") {
			t.Errorf("the German SVG names hidden %s", name)
		}
	}
}

// In mid-game every side's pictures are well-formed, every platoon it
// sees is named, and the turn's arrows are under the counters.
func TestMidGamePictures(t *testing.T) {
	rs := ruleset(t)
	st, events := playBots(t, rs, 3)
	for _, side := range []string{"german", "us", ""} {
		v := rules.View(rs, st, side)
		texts := " " + strings.Join(hexdrawtest.CheckSVG(t, write(t, rs, st, events, side, "svg")), " ") + " "
		for _, p := range v.Platoons {
			if !p.Removed && !strings.Contains(texts, " "+p.Name+" ") {
				t.Errorf("%q: platoon %s is not named", side, p.Name)
			}
		}
		for _, o := range v.Objectives {
			if !strings.Contains(texts, o.Name) {
				t.Errorf("%q: objective %s is not named", side, o.Name)
			}
		}
		with, without := Draw(rs, v, events, side).Image(), Draw(rs, v, nil, side).Image()
		for _, p := range v.Platoons {
			if p.Removed {
				continue
			}
			ce := layout.Centre(p.Hex)
			// the pixels the counter covers whole (its edges may fall mid-pixel)
			r := image.Rect(int(math.Ceil(ce.X-counterHalfW)), int(math.Ceil(ce.Y-counterHalfH)), int(ce.X+counterHalfW), int(ce.Y+counterHalfH))
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					if with.ColorIndexAt(x, y) != without.ColorIndexAt(x, y) {
						t.Fatalf("%q: the turn draws over %s's counter at %d,%d", side, p.Name, x, y)
					}
				}
			}
		}
		if bytes.Equal(with.Pix, without.Pix) && side == "" {
			t.Error("the umpire's picture shows nothing of the turn")
		}
	}
}

// A counter lies inside its hex, clear of the hex number above it.
func TestCounterFitsItsHex(t *testing.T) {
	if layout.R-counterHalfH/math.Sqrt(3) < counterHalfW {
		t.Errorf("a counter of %dx%d leaves a hex of radius %v", 2*counterHalfW, 2*counterHalfH, layout.R)
	}
	if -22+5 >= -counterHalfH {
		t.Error("a counter covers its hex number")
	}
}
