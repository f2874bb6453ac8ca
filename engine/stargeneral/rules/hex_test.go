package rules

import (
	"slices"
	"testing"
)

func hexes(ss ...string) []Hex {
	out := make([]Hex, len(ss))
	for i, s := range ss {
		out[i] = MustHex(s)
	}
	return out
}

func TestParseHex(t *testing.T) {
	for _, bad := range []string{"", "707", "07077", "0a07", "0007", "0700"} {
		if _, err := ParseHex(bad); err == nil {
			t.Errorf("ParseHex(%q) accepted", bad)
		}
	}
	if h := MustHex("0712"); h != (Hex{Col: 7, Row: 12}) || h.String() != "0712" {
		t.Errorf("0712 reads as %+v, prints %s", h, h)
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"0505", "0505", 0},
		{"0505", "0504", 1}, // same column
		{"0505", "0604", 1}, // odd column: the neighbours to the right are rows r-1 and r
		{"0505", "0605", 1},
		{"0605", "0706", 1}, // even column: the neighbours to the right are rows r and r+1
		{"0605", "0704", 2},
		{"0505", "0606", 2},
		{"0505", "0509", 4},
		{"0101", "0501", 4}, // along the top row, zigzagging
		{"0101", "0503", 4}, // straight down-right diagonal
		{"0101", "0504", 5},
		{"0302", "0906", 7},
	} {
		if got := Distance(MustHex(c.a), MustHex(c.b)); got != c.want {
			t.Errorf("Distance(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(MustHex(c.b), MustHex(c.a)); got != c.want {
			t.Errorf("Distance(%s, %s) = %d, want %d (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestNeighbours(t *testing.T) {
	for _, c := range []struct {
		h    string
		want []string // north first, then clockwise
	}{
		{"0505", []string{"0504", "0604", "0605", "0506", "0405", "0404"}}, // odd column
		{"0605", []string{"0604", "0705", "0706", "0606", "0506", "0505"}}, // even column
	} {
		got := MustHex(c.h).Neighbours()
		if !slices.Equal(got[:], hexes(c.want...)) {
			t.Errorf("%s: neighbours %v, want %v", c.h, got, c.want)
		}
		for _, n := range got {
			back := n.Neighbours()
			if !Adjacent(MustHex(c.h), n) || !slices.Contains(back[:], MustHex(c.h)) {
				t.Errorf("%s and %s: adjacency is not mutual", c.h, n)
			}
		}
	}
	// At the edges of a 6x5 map some neighbours fall off it.
	m := &Map{Cols: 6, Rows: 5}
	onMap := func(h string) []Hex {
		var out []Hex
		for _, n := range MustHex(h).Neighbours() {
			if m.OnMap(n) {
				out = append(out, n)
			}
		}
		return out
	}
	for _, c := range []struct {
		h    string
		want []string
	}{
		{"0101", []string{"0201", "0102"}},                         // top-left corner, odd column
		{"0201", []string{"0301", "0302", "0202", "0102", "0101"}}, // top row, even column sits lower
		{"0601", []string{"0602", "0502", "0501"}},                 // top-right corner, even column
		{"0605", []string{"0604", "0505"}},                         // bottom-right corner, even column
		{"0105", []string{"0104", "0204", "0205"}},                 // bottom-left corner, odd column
		{"0305", []string{"0304", "0404", "0405", "0205", "0204"}}, // bottom row, odd column sits higher
	} {
		if got := onMap(c.h); !slices.Equal(got, hexes(c.want...)) {
			t.Errorf("%s on a 6x5 map: neighbours %v, want %v", c.h, got, c.want)
		}
	}
}

func TestBetween(t *testing.T) {
	for _, c := range []struct {
		a, b        string
		left, right []string
	}{
		{"0505", "0504", nil, nil}, // adjacent: nothing between
		{"0502", "0506", []string{"0503", "0504", "0505"}, []string{"0503", "0504", "0505"}}, // down a column
		{"0101", "0503", []string{"0201", "0302", "0402"}, []string{"0201", "0302", "0402"}}, // a diagonal
		{"0302", "0502", []string{"0401"}, []string{"0402"}},
	} {
		l, r := Between(MustHex(c.a), MustHex(c.b))
		if !slices.Equal(l, hexes(c.left...)) || !slices.Equal(r, hexes(c.right...)) {
			t.Errorf("Between(%s, %s) = %v / %v, want %v / %v", c.a, c.b, l, r, c.left, c.right)
		}
	}
	// Along the map's top edge the line runs between 0201 and a hex off the map.
	l, r := Between(MustHex("0101"), MustHex("0301"))
	if !slices.Equal(l, []Hex{{Col: 2, Row: 0}}) || !slices.Equal(r, hexes("0201")) {
		t.Errorf("Between(0101, 0301) = %v / %v, want 0200 / 0201", l, r)
	}
}

// Line of sight (3.3, 5.2): blocking terrain on the line blocks it; along a
// hex side it is clear while either side is; stands block distant fire only.
func TestLineOfSight(t *testing.T) {
	const scenario = `RULESET 2sg
MAP 8 8 open
TERRAIN woods 0504 0402
SIDE axis
UNIT I/77 H
  HQ hq 0101
  1A infantry 0502
  1B infantry 0705
SIDE allies
UNIT E/505 H
  HQ hq 0808
  1 infantry 0302
`
	sc, err := ParseScenario([]byte(scenario), loadRuleset)
	if err != nil {
		t.Fatal(err)
	}
	b := newBoard(sc.Ruleset, sc.NewGame())
	for _, c := range []struct {
		a, b       string
		unitsBlock bool
		want       bool
		why        string
	}{
		{"0502", "0506", false, false, "woods at 0504 on the column"},
		{"0602", "0606", true, true, "nothing on the next column"},
		{"0302", "0502", false, true, "woods at 0402 on one side of the hex side, 0401 clear on the other"},
		{"0303", "0503", false, true, "one side 0402 woods, the other 0403 clear"},
		{"0703", "0707", false, true, "spotting sees through 1B at 0705"},
		{"0703", "0707", true, false, "distant fire does not pass 1B at 0705"},
		{"0505", "0504", false, true, "adjacent hexes always see each other"},
	} {
		if got := b.lineOfSight(MustHex(c.a), MustHex(c.b), c.unitsBlock); got != c.want {
			t.Errorf("lineOfSight(%s, %s, units block %v) = %v, want %v: %s", c.a, c.b, c.unitsBlock, got, c.want, c.why)
		}
	}
}
