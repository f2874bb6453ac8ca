package rules

import (
	"fmt"
	"strconv"
)

// Hex is a map hex in the CCRR numbering the scenarios use: column then row,
// both from 01; even columns sit half a hex lower than odd ones (design 1.1).
type Hex struct {
	Col int `json:"c"`
	Row int `json:"r"`
}

// ParseHex reads four digits CCRR.
func ParseHex(s string) (Hex, error) {
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

func (h Hex) String() string { return fmt.Sprintf("%02d%02d", h.Col, h.Row) }

// MarshalText writes CCRR so that JSON stays readable.
func (h Hex) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText reads CCRR; "0000" is the zero hex (off map).
func (h *Hex) UnmarshalText(b []byte) error {
	if string(b) == "0000" {
		*h = Hex{}
		return nil
	}
	v, err := ParseHex(string(b))
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// IsZero reports the off-map hex of staged and carried units.
func (h Hex) IsZero() bool { return h.Col == 0 && h.Row == 0 }

type cube struct{ x, y, z int }

// cube converts the "odd-q" offset layout (0-based odd q = even column
// numbers shifted down) to cube coordinates.
func (h Hex) cube() cube {
	q, r := h.Col-1, h.Row-1
	z := r - (q-(q&1))/2
	return cube{q, -q - z, z}
}

func fromCube(c cube) Hex {
	q := c.x
	r := c.z + (q-(q&1))/2
	return Hex{Col: q + 1, Row: r + 1}
}

// Distance is the number of hex steps between a and b; range 0 is the same
// hex and range 1 the neighbours (reading 8).
func Distance(a, b Hex) int {
	ca, cb := a.cube(), b.cube()
	return max(abs(ca.x-cb.x), abs(ca.y-cb.y), abs(ca.z-cb.z))
}

var cubeDirections = [6]cube{{0, 1, -1}, {1, 0, -1}, {1, -1, 0}, {0, -1, 1}, {-1, 0, 1}, {-1, 1, 0}}

// Neighbours are the six hexes around h, some possibly off the map.
func (h Hex) Neighbours() [6]Hex {
	c := h.cube()
	var out [6]Hex
	for i, d := range cubeDirections {
		out[i] = fromCube(cube{c.x + d.x, c.y + d.y, c.z + d.z})
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Side2 is the hexside between two adjacent hexes, written low hex first so
// that a river or bridge has one spelling whichever way it is crossed.
type Side2 struct{ A, B Hex }

func hexside(a, b Hex) Side2 {
	if a.Col > b.Col || (a.Col == b.Col && a.Row > b.Row) {
		a, b = b, a
	}
	return Side2{a, b}
}

func (s Side2) String() string { return s.A.String() + "-" + s.B.String() }

// ParseHexside reads "CCRR-CCRR" naming two adjacent hexes.
func ParseHexside(s string) (Side2, error) {
	if len(s) != 9 || s[4] != '-' {
		return Side2{}, fmt.Errorf("hexside %q: want CCRR-CCRR", s)
	}
	a, err := ParseHex(s[:4])
	if err != nil {
		return Side2{}, err
	}
	b, err := ParseHex(s[5:])
	if err != nil {
		return Side2{}, err
	}
	if Distance(a, b) != 1 {
		return Side2{}, fmt.Errorf("hexside %q: %s and %s are not neighbours", s, a, b)
	}
	return hexside(a, b), nil
}

// MarshalText writes CCRR-CCRR.
func (s Side2) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads CCRR-CCRR.
func (s *Side2) UnmarshalText(b []byte) error {
	v, err := ParseHexside(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}
