package rules

import (
	"fmt"

	"fieldpost/engine/hex"
)

// Hex is a hex of the map, in the CCRR numbering of printed maps
// (engine/hex, shared by every game family).
type Hex = hex.Hex

// The hex grid's functions, as the rules name them.
var (
	ParseHex = hex.Parse
	Distance = hex.Distance
)

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
