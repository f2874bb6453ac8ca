// Package hex is the hex grid every game family plays on: CCRR numbering as
// printed maps have it, distance, neighbours and lines between hexes.
package hex

import (
	"fmt"
	"math"
	"strconv"
)

// Hex is a map position in the printed CCRR numbering: column then row, both
// counted from 1. Columns are vertical lines of flat-topped hexes and every
// even column sits half a hex lower than its odd neighbours, the layout of
// most printed wargame maps (0101 is the top-left hex).
type Hex struct {
	Col int `json:"c"`
	Row int `json:"r"`
}

// Parse reads a four-digit CCRR hex number such as "0707".
func Parse(s string) (Hex, error) {
	if len(s) != 4 {
		return Hex{}, fmt.Errorf("hex %q: want four digits CCRR (column then row)", s)
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return Hex{}, fmt.Errorf("hex %q: want four digits CCRR (column then row)", s)
		}
	}
	c, _ := strconv.Atoi(s[:2])
	r, _ := strconv.Atoi(s[2:])
	if c == 0 || r == 0 {
		return Hex{}, fmt.Errorf("hex %q: columns and rows are numbered from 01", s)
	}
	return Hex{Col: c, Row: r}, nil
}

// MustParse is Parse for constants in code and tests.
func MustParse(s string) Hex {
	h, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return h
}

func (h Hex) String() string { return fmt.Sprintf("%02d%02d", h.Col, h.Row) }

// MarshalText writes the CCRR form so that states and orders read like the map.
func (h Hex) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText reads the CCRR form, and "0000", which MarshalText writes
// for the zero Hex (no hex), back as the zero Hex.
func (h *Hex) UnmarshalText(b []byte) error {
	if string(b) == "0000" {
		*h = Hex{}
		return nil
	}
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// Compare orders hexes column first, then row: the stable order the engine
// uses wherever the rules leave a choice to chance-free convention.
func Compare(a, b Hex) int {
	if a.Col != b.Col {
		return a.Col - b.Col
	}
	return a.Row - b.Row
}

// IsZero reports whether h is the zero value (no hex).
func (h Hex) IsZero() bool { return h.Col == 0 && h.Row == 0 }

// cube coordinates make distance and line drawing simple arithmetic.
type cube struct{ x, y, z int }

func (h Hex) cube() cube {
	q := h.Col - 1
	r := h.Row - 1
	x := q
	z := r - (q-(q&1))/2
	return cube{x, -x - z, z}
}

func fromCube(c cube) Hex {
	q := c.x
	r := c.z + (q-(q&1))/2
	return Hex{Col: q + 1, Row: r + 1}
}

// Distance is the number of hex steps between a and b.
func Distance(a, b Hex) int {
	ca, cb := a.cube(), b.cube()
	return max(abs(ca.x-cb.x), abs(ca.y-cb.y), abs(ca.z-cb.z))
}

var cubeDirections = [6]cube{{0, 1, -1}, {1, 0, -1}, {1, -1, 0}, {0, -1, 1}, {-1, 0, 1}, {-1, 1, 0}}

// Neighbours returns the six adjacent hexes in a fixed order (north first,
// then clockwise); some may lie off the map.
func (h Hex) Neighbours() [6]Hex {
	c := h.cube()
	var out [6]Hex
	for i, d := range cubeDirections {
		out[i] = fromCube(cube{c.x + d.x, c.y + d.y, c.z + d.z})
	}
	return out
}

// Adjacent reports whether a and b share a side.
func Adjacent(a, b Hex) bool { return Distance(a, b) == 1 }

// Between returns the hexes strictly between a and b on the straight line
// joining their centres. Where the line runs exactly along a hex side, two
// lines are drawn, nudged to either side; the caller decides how to combine
// them (line of sight is blocked only when both are blocked).
func Between(a, b Hex) (left, right []Hex) {
	n := Distance(a, b)
	if n < 2 {
		return nil, nil
	}
	ca, cb := a.cube(), b.cube()
	const eps = 1e-6
	line := func(nudge float64) []Hex {
		out := make([]Hex, 0, n-1)
		for i := 1; i < n; i++ {
			t := float64(i) / float64(n)
			x := lerp(float64(ca.x)+nudge, float64(cb.x)+nudge, t)
			y := lerp(float64(ca.y)+nudge, float64(cb.y)+nudge, t)
			z := lerp(float64(ca.z)-2*nudge, float64(cb.z)-2*nudge, t)
			out = append(out, fromCube(cubeRound(x, y, z)))
		}
		return out
	}
	return line(eps), line(-eps)
}

func lerp(a, b, t float64) float64 { return a + (b-a)*t }

func cubeRound(x, y, z float64) cube {
	rx, ry, rz := math.Round(x), math.Round(y), math.Round(z)
	dx, dy, dz := math.Abs(rx-x), math.Abs(ry-y), math.Abs(rz-z)
	switch {
	case dx > dy && dx > dz:
		rx = -ry - rz
	case dy > dz:
		ry = -rx - rz
	default:
		rz = -rx - ry
	}
	return cube{int(rx), int(ry), int(rz)}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Direction is where b lies seen from a, as one of the eight winds
// ("north", "north-east", ...; north is row 01), for reports that tell a
// direction without a hex.
func Direction(a, b Hex) string {
	centre := func(h Hex) (x, y float64) {
		q := h.Col - 1
		return 1.5 * float64(q), math.Sqrt(3) * (float64(h.Row-1) + 0.5*float64(q&1))
	}
	ax, ay := centre(a)
	bx, by := centre(b)
	// Angle clockwise from north, in eighths of a turn.
	angle := math.Atan2(bx-ax, ay-by) / (2 * math.Pi) * 8
	winds := []string{"north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"}
	return winds[(int(math.Round(angle))+8)%8]
}
