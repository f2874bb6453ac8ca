package mapview

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"fieldpost/engine/hexdraw"
	"fieldpost/engine/stargeneral/rules"
)

func renderPNG(t *testing.T, rs *rules.Ruleset, st *rules.State, ev []rules.Event, opt Options) (image.Image, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := PNG(&buf, rs, st, ev, opt); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	return img, buf.Bytes()
}

// share is the fraction of pixels within rad of p that are exactly col.
func share(img image.Image, p pt, rad float64, col color.RGBA) float64 {
	n, hits := 0, 0
	for y := int(p.Y - rad); y <= int(p.Y+rad); y++ {
		for x := int(p.X - rad); x <= int(p.X+rad); x++ {
			if math.Hypot(float64(x)-p.X, float64(y)-p.Y) > rad {
				continue
			}
			n++
			if color.RGBAModel.Convert(img.At(x, y)).(color.RGBA) == col {
				hits++
			}
		}
	}
	return float64(hits) / float64(n)
}

func TestPNGSize(t *testing.T) {
	rs, st := parse(t, tutorial)
	for _, tc := range []struct {
		opt   Options
		width int
	}{
		// 11 column steps of 1.5 radii (rounded to 35 pixels), two half
		// hexes, two margins of half a radius (rounded to 12).
		{Options{}, 455},
		{Options{HexRadius: 20}, 390},
	} {
		img, _ := renderPNG(t, rs, st, tutorialEvents(), tc.opt)
		b := img.Bounds()
		if b.Dx() != tc.width {
			t.Errorf("radius %d: width %d, want %d", tc.opt.HexRadius, b.Dx(), tc.width)
		}
		rad := float64(tc.opt.HexRadius)
		if rad == 0 {
			rad = DefaultHexRadius
		}
		mapBottom := newRenderer(rs, st, nil, rad).mapBot
		if float64(b.Dy()) < mapBottom+3*rad {
			t.Errorf("radius %d: height %d leaves no room for the legend under the map (ends at %.0f)", tc.opt.HexRadius, b.Dy(), mapBottom)
		}
	}
	rs, st = parse(t, bigScenario())
	img, _ := renderPNG(t, rs, st, nil, Options{})
	if w := img.Bounds().Dx(); w < 1000 || w > 1200 {
		t.Errorf("a 30-column map is %d pixels wide, want about 1100", w)
	}
}

func TestSameInputSameBytes(t *testing.T) {
	rs, st := parse(t, tutorial)
	_, a := renderPNG(t, rs, st, tutorialEvents(), Options{})
	_, b := renderPNG(t, rs, st, tutorialEvents(), Options{})
	if !bytes.Equal(a, b) {
		t.Fatal("two drawings of the same position differ")
	}
}

func TestNoMap(t *testing.T) {
	rs, _ := parse(t, tutorial)
	if _, err := Render(rs, &rules.State{}, nil, Options{}); err == nil {
		t.Fatal("a state without a map drew without complaint")
	}
	short := &rules.State{Map: &rules.Map{Cols: 3, Rows: 2, Grid: []string{"...", ".."}}}
	if _, err := Render(rs, short, nil, Options{}); err == nil {
		t.Fatal("a map with a short grid line drew without complaint")
	}
	if got := ASCII(rs, short); got != "" {
		t.Fatalf("a map with a short grid line gave a text map:\n%s", got)
	}
}

func TestCountersShowSideColour(t *testing.T) {
	rs, st := parse(t, tutorial)
	img, _ := renderPNG(t, rs, st, nil, Options{})
	r := newRenderer(rs, st, nil, DefaultHexRadius)
	check := func(who string, h rules.Hex, side int) {
		if s := share(img, r.centre(h), 0.45*DefaultHexRadius, sideFill[side]); s < 0.2 {
			t.Errorf("%s at %s: only %.0f%% of its hex centre is its side's colour", who, h, 100*s)
		}
		if s := share(img, r.centre(h), 0.45*DefaultHexRadius, sideFill[1-side]); s > 0 {
			t.Errorf("%s at %s shows the other side's colour", who, h)
		}
	}
	for _, u := range st.Units {
		for _, s := range u.Stands {
			check(u.ID+" "+s.Name, s.Hex, r.sideOf[u.Side])
		}
	}
	for _, b := range st.Batteries {
		check("battery "+b.ID, b.Hex, r.sideOf[b.Side])
	}
}

// terrainRow has one hex of every 2SG terrain in its second row.
const terrainRow = `RULESET 2sg
MAP 10 3
..........
.WTRBFs~=L
..........
SIDE axis
UNIT A M
  HQ hq 0101
SIDE allies
UNIT B M
  HQ hq 1001
`

func TestTerrainColours(t *testing.T) {
	rs, st := parse(t, terrainRow)
	img, _ := renderPNG(t, rs, st, nil, Options{})
	r := newRenderer(rs, st, nil, DefaultHexRadius)
	for col := 1; col <= 10; col++ {
		h := rules.Hex{Col: col, Row: 2}
		tt := r.terrainAt(h)
		c := r.centre(h)
		if s := share(img, c, 0.6*DefaultHexRadius, terrainBase(tt)); s < 0.3 {
			t.Errorf("%s at %s: only %.0f%% of the hex is its colour", tt.ID, h, 100*s)
		}
		if tt.ID == "stream" {
			if s := share(img, c, 0.6*DefaultHexRadius, streamBlue); s < 0.05 {
				t.Errorf("stream at %s: no blue water line (%.1f%%)", h, 100*s)
			}
		}
	}
	// The kinds of ground must not look alike.
	seen := map[color.RGBA]string{}
	for i := range rs.Terrain {
		tt := &rs.Terrain[i]
		base := terrainBase(tt)
		if other, dup := seen[base]; dup && !(tt.ID == "stream" || tt.ID == "bridge") {
			t.Errorf("%s has the same colour as %s", tt.ID, other)
		}
		seen[base] = tt.ID
	}
}

// clearRoad has a straight column of open ground for arrows.
const clearRoad = `RULESET 2sg
MAP 6 8 open
SIDE axis
UNIT A M
  HQ hq 0101
  1 infantry 0307
SIDE allies
UNIT B M
  HQ hq 0601
`

func TestMoveArrowsFollowTheirPath(t *testing.T) {
	rs, st := parse(t, clearRoad)
	h := rules.MustHex
	path := []rules.Hex{h("0303"), h("0304"), h("0305"), h("0306"), h("0307")}
	for _, kind := range []rules.EventKind{rules.EvMove, rules.EvFallBack, rules.EvPursuit} {
		move := []rules.Event{{Kind: kind, Side: "axis", Unit: "A", Stand: "1", From: path[0], Path: path[1:]}}
		plain, _ := Render(rs, st, nil, Options{})
		moved, _ := Render(rs, st, move, Options{})
		r := newRenderer(rs, st, nil, DefaultHexRadius)
		for i := 0; i+1 < len(path); i++ {
			a, b := r.centre(path[i]), r.centre(path[i+1])
			if changed(plain, moved, hexdraw.Lerp(a, b, 0.5), 6) == 0 {
				t.Errorf("%s: nothing drawn between %s and %s", kind, path[i], path[i+1])
			}
		}
		// Off the path the map is untouched.
		if n := changed(plain, moved, r.centre(h("0603")), 10); n != 0 {
			t.Errorf("%s: %d pixels changed far from the path", kind, n)
		}
		// The arrow stops short of the counter it leads to.
		if n := changed(plain, moved, r.centre(path[len(path)-1]), 6); n != 0 {
			t.Errorf("%s: the arrow covers the middle of the counter (%d pixels)", kind, n)
		}
	}
}

// changed counts the pixels within a square of half-side d around p that differ.
func changed(a, b image.Image, p pt, d int) int {
	n := 0
	for y := int(p.Y) - d; y <= int(p.Y)+d; y++ {
		for x := int(p.X) - d; x <= int(p.X)+d; x++ {
			if a.At(x, y) != b.At(x, y) {
				n++
			}
		}
	}
	return n
}

func TestCombatMarkers(t *testing.T) {
	rs, st := parse(t, clearRoad)
	h := rules.MustHex
	events := []rules.Event{
		{Kind: rules.EvCombat, Side: "allies", Unit: "B", Combat: &rules.Combat{Number: 1, Target: h("0307")}},
		{Kind: rules.EvBarrage, Side: "allies", Unit: "B", Combat: &rules.Combat{Number: 2, Target: h("0404"), Barrage: true}},
		{Kind: rules.EvEliminated, Side: "axis", Unit: "A", Stand: "2", From: h("0205")},
	}
	img, _ := renderPNG(t, rs, st, events, Options{})
	r := newRenderer(rs, st, events, DefaultHexRadius)
	r.placeMarkers()
	slot := r.markers[0]
	if s := share(img, slot, markerRadius(r.r), combatFill); s < 0.3 {
		t.Errorf("combat marker at 0307: %.0f%% of its place is the combat colour", 100*s)
	}
	slot = r.markers[1]
	if s := share(img, slot, markerRadius(r.r), barrageBg); s < 0.3 {
		t.Errorf("barrage marker at 0404: %.0f%% of its place is the barrage colour", 100*s)
	}
	plain, _ := Render(rs, st, nil, Options{})
	marked, _ := Render(rs, st, events, Options{})
	if changed(plain, marked, r.centre(h("0205")).Add(pt{X: 0.25 * r.r, Y: 0.25 * r.r}), 3) == 0 {
		t.Error("no cross where a stand was destroyed")
	}
}
