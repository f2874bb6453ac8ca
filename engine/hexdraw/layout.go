package hexdraw

import (
	"math"

	"fieldpost/engine/hex"
)

// Layout places flat-topped hexes as printed maps number them: columns
// left to right, rows top to bottom, even columns half a hex lower.
type Layout struct {
	R      float64 // centre to corner, pixels
	Margin float64 // white border around the map, pixels
	Top    float64 // room above the map, for a title band (TitleHeight)
	// Snap puts every hex centre on a whole pixel (R whole, the column
	// step and the hex height rounded, the height even), so that every
	// hex has the same pixels (Cell): a picture of many alike hexes
	// compresses well.
	Snap bool
}

// ColStep is the distance from one column's centres to the next.
func (l Layout) ColStep() float64 {
	if l.Snap {
		return math.Round(1.5 * l.R)
	}
	return 1.5 * l.R
}

// HexHeight is a hex's height, flat side to flat side.
func (l Layout) HexHeight() float64 {
	if l.Snap {
		return 2 * math.Round(math.Sqrt(3)*l.R/2)
	}
	return math.Sqrt(3) * l.R
}

// Centre is the middle of h.
func (l Layout) Centre(h hex.Hex) Pt {
	x := l.Margin + l.R + l.ColStep()*float64(h.Col-1)
	y := l.Top + l.Margin + l.HexHeight()*(float64(h.Row-1)+0.5+0.5*float64((h.Col-1)&1))
	return Pt{x, y}
}

// Corners are h's six corners at radius r from its centre (r = Layout.R
// for the hex itself; less to inset a shape), clockwise from the right.
func (l Layout) Corners(h hex.Hex, r float64) []Pt {
	return l.CornersAt(l.Centre(h), r)
}

// CornersAt are the corners of a hex centred at c, as Corners: on a
// snapped layout, where the hexes of a column and the next interlock.
func (l Layout) CornersAt(c Pt, r float64) []Pt {
	if !l.Snap {
		return Hexagon(c, r)
	}
	k := r / l.R
	w, h := (l.ColStep()-l.R)*k, l.HexHeight()/2*k // half the flat top, half the height
	return []Pt{{c.X + r, c.Y}, {c.X + w, c.Y + h}, {c.X - w, c.Y + h}, {c.X - r, c.Y}, {c.X - w, c.Y - h}, {c.X + w, c.Y - h}}
}

// Hexagon is a regular flat-topped hexagon of radius r around c,
// clockwise from the right.
func Hexagon(c Pt, r float64) []Pt {
	out := make([]Pt, 6)
	for i := range out {
		a := math.Pi / 3 * float64(i)
		out[i] = Pt{c.X + r*math.Cos(a), c.Y + r*math.Sin(a)}
	}
	return out
}

// Side is the hexside between neighbours a and b, as its two corners.
func (l Layout) Side(a, b hex.Hex) (Pt, Pt) {
	ca, cb := l.Centre(a), l.Centre(b)
	mid := Pt{(ca.X + cb.X) / 2, (ca.Y + cb.Y) / 2}
	// The side is perpendicular to the line of centres, R long.
	dx, dy := cb.X-ca.X, cb.Y-ca.Y
	n := math.Hypot(dx, dy)
	ux, uy := -dy/n*l.R/2, dx/n*l.R/2
	return Pt{mid.X + ux, mid.Y + uy}, Pt{mid.X - ux, mid.Y - uy}
}

// Bottom is the foot of a map of cols x rows hexes: the lowest hex's
// lowest point (a single column has no lower half-hex).
func (l Layout) Bottom(cols, rows int) float64 {
	h := l.HexHeight() * float64(rows)
	if cols > 1 {
		h += l.HexHeight() / 2
	}
	return l.Top + l.Margin + h
}

// Size is the picture's size for a map of cols x rows hexes.
func (l Layout) Size(cols, rows int) (w, h int) {
	w = int(math.Ceil(2*l.Margin + l.ColStep()*float64(cols-1) + 2*l.R))
	h = int(math.Ceil(l.Bottom(cols, rows) + l.Margin))
	return w, h
}

// Run is a row of pixels of a hex, DY below its centre, from DX0 to DX1
// (exclusive), as offsets from the centre's pixel.
type Run struct{ DY, DX0, DX1 int }

// Cell lists the pixels of a hex of a snapped layout: those nearer its
// centre than any other, a tie going to the hex north or east of the
// other. The hexes of the picture tile it with the same pixels each.
func (l Layout) Cell() []Run {
	cs, hh := l.ColStep(), l.HexHeight()
	next := [6]Pt{{0, -hh}, {cs, -hh / 2}, {cs, hh / 2}, {0, hh}, {-cs, hh / 2}, {-cs, -hh / 2}}
	mine := func(x, y int) bool {
		p := Pt{float64(x) + 0.5, float64(y) + 0.5}
		own := p.X*p.X + p.Y*p.Y
		for d, n := range next {
			q := p.Sub(n)
			other := q.X*q.X + q.Y*q.Y
			if other < own || (other == own && d < 3) {
				return false
			}
		}
		return true
	}
	var out []Run
	reach := int(l.R) + 2
	for dy := -reach; dy <= reach; dy++ {
		x0 := -reach
		for x0 <= reach && !mine(x0, dy) {
			x0++
		}
		x1 := x0
		for x1 <= reach && mine(x1, dy) {
			x1++
		}
		if x1 > x0 {
			out = append(out, Run{dy, x0, x1})
		}
	}
	return out
}
