package hex

import (
	"slices"
	"testing"
)

func hexes(ss ...string) []Hex {
	out := make([]Hex, len(ss))
	for i, s := range ss {
		out[i] = MustParse(s)
	}
	return out
}

func TestParseHex(t *testing.T) {
	for _, bad := range []string{"", "707", "07077", "0a07", "0007", "0700"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	if h := MustParse("0712"); h != (Hex{Col: 7, Row: 12}) || h.String() != "0712" {
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
		if got := Distance(MustParse(c.a), MustParse(c.b)); got != c.want {
			t.Errorf("Distance(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(MustParse(c.b), MustParse(c.a)); got != c.want {
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
		got := MustParse(c.h).Neighbours()
		if !slices.Equal(got[:], hexes(c.want...)) {
			t.Errorf("%s: neighbours %v, want %v", c.h, got, c.want)
		}
		for _, n := range got {
			back := n.Neighbours()
			if !Adjacent(MustParse(c.h), n) || !slices.Contains(back[:], MustParse(c.h)) {
				t.Errorf("%s and %s: adjacency is not mutual", c.h, n)
			}
		}
	}
	// At the edges of a 6x5 map some neighbours fall off it.
	onMap := func(h string) []Hex {
		var out []Hex
		for _, n := range MustParse(h).Neighbours() {
			if n.Col >= 1 && n.Col <= 6 && n.Row >= 1 && n.Row <= 5 {
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
		l, r := Between(MustParse(c.a), MustParse(c.b))
		if !slices.Equal(l, hexes(c.left...)) || !slices.Equal(r, hexes(c.right...)) {
			t.Errorf("Between(%s, %s) = %v / %v, want %v / %v", c.a, c.b, l, r, c.left, c.right)
		}
	}
	// Along the map's top edge the line runs between 0201 and a hex off the map.
	l, r := Between(MustParse("0101"), MustParse("0301"))
	if !slices.Equal(l, []Hex{{Col: 2, Row: 0}}) || !slices.Equal(r, hexes("0201")) {
		t.Errorf("Between(0101, 0301) = %v / %v, want 0200 / 0201", l, r)
	}
}

func TestDirection(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"0505", "0504", "north"}, {"0505", "0506", "south"}, {"0505", "0605", "south-east"},
		{"0505", "0604", "north-east"}, {"0505", "0405", "south-west"}, {"0505", "0404", "north-west"},
		{"0505", "0905", "east"}, {"0505", "0105", "west"},
	} {
		if got := Direction(MustParse(c.a), MustParse(c.b)); got != c.want {
			t.Errorf("Direction(%s, %s) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}
