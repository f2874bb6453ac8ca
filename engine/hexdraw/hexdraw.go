// Package hexdraw is the drawing kernel of every family's map: where the
// hexes stand (Layout), a Canvas that paints shapes and text straight in
// a palette, smooth (edges blended) or crisp, or writes them as SVG
// (SVGWriter), and one PNG encoder (WritePNG). Each family draws its
// terrain, counters and marks on it.
//
// Star General draws on a Canvas itself. Frontline and Brigadier describe
// their picture once, as a Picture: a list of flat shapes and text in at
// most 16 colours, with a title band and a legend, painted crisp on a
// Canvas as a PNG of 4 bits a pixel (small files, quick to encode) or
// written as an SVG of the same drawing.
package hexdraw

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
)

// Pt is a point in picture pixels, or a step between two.
type Pt struct{ X, Y float64 }

// The steps of plane geometry: sum, difference, scaling, length, the
// step of length 1 the same way, a quarter turn, and the point t of the
// way from a to b.

func (p Pt) Add(q Pt) Pt         { return Pt{p.X + q.X, p.Y + q.Y} }
func (p Pt) Sub(q Pt) Pt         { return Pt{p.X - q.X, p.Y - q.Y} }
func (p Pt) Scale(k float64) Pt  { return Pt{p.X * k, p.Y * k} }
func (p Pt) Len() float64        { return math.Hypot(p.X, p.Y) }
func (p Pt) Unit() Pt            { return p.Scale(1 / p.Len()) }
func (p Pt) Perp() Pt            { return Pt{-p.Y, p.X} } // a quarter turn
func Lerp(a, b Pt, t float64) Pt { return Pt{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t} }

// Colour is an index into the picture's palette.
type Colour uint8

// The text face: every letter is TextAdvance pixels wide, a line
// TextHeight pixels high (basicfont's 7x13, whose capitals and digits sit
// in rows 2 to 10 of the 13).
const (
	TextAdvance = 7
	TextHeight  = 13
	textAscent  = 11
)

// TextWidth is the width of s in pixels.
func TextWidth(s string) int { return TextAdvance * len([]rune(s)) }

type kind uint8

const (
	fill kind = iota
	stroke
	text
	digits
)

type item struct {
	kind  kind
	col   Colour
	halo  int // halo colour + 1; 0: none
	width float64
	pts   []Pt   // fill: a polygon; stroke: a polyline
	text  string // text: drawn from pts[0], its box's top left
}

// Picture is a drawing: shapes painted in order over a background of
// palette colour 0.
type Picture struct {
	W, H    int
	Palette color.Palette // at most 16 colours keeps the PNG at 4 bits a pixel
	items   []item
	// The first baseLen items are the base, the same in every picture
	// with baseKey: painted once, its pixels kept (see Base).
	baseKey string
	baseLen int
}

// Base marks the shapes drawn so far as the picture's base (a map's
// terrain), the same in every picture drawn with key: the PNG paints it
// once and keeps its pixels for the next picture with that key. key must
// name everything the base shows.
func (p *Picture) Base(key string) {
	p.baseKey, p.baseLen = key, len(p.items)
}

// Write writes the picture as a PNG or an SVG (format "png", "svg").
func (p *Picture) Write(w io.Writer, format string) error {
	switch format {
	case "png":
		return p.PNG(w)
	case "svg":
		return p.SVG(w)
	}
	return fmt.Errorf("no %q picture of a map: the pictures are png and svg", format)
}

// New starts a picture of w x h pixels.
func New(w, h int, palette color.Palette) *Picture {
	return &Picture{W: w, H: h, Palette: palette}
}

// Fill paints a polygon.
func (p *Picture) Fill(c Colour, pts ...Pt) {
	p.items = append(p.items, item{kind: fill, col: c, pts: pts})
}

// Rect paints an axis-aligned rectangle.
func (p *Picture) Rect(c Colour, x0, y0, x1, y1 float64) {
	p.Fill(c, Pt{x0, y0}, Pt{x1, y0}, Pt{x1, y1}, Pt{x0, y1})
}

// Line strokes a polyline of the given width.
func (p *Picture) Line(c Colour, width float64, pts ...Pt) {
	p.items = append(p.items, item{kind: stroke, col: c, width: width, pts: pts})
}

// Outline strokes a closed polygon.
func (p *Picture) Outline(c Colour, width float64, pts ...Pt) {
	closed := append(append([]Pt{}, pts...), pts[0])
	p.Line(c, width, closed...)
}

// Arrow strokes a line from a to b with a head at b.
func (p *Picture) Arrow(c Colour, width float64, a, b Pt) {
	dx, dy := b.X-a.X, b.Y-a.Y
	n := math.Hypot(dx, dy)
	if n < 1 {
		return
	}
	ux, uy := dx/n, dy/n
	head := 3*width + 4
	base := Pt{b.X - ux*head, b.Y - uy*head}
	p.Line(c, width, a, base)
	w := head * 0.6
	p.Fill(c, b, Pt{base.X - uy*w, base.Y + ux*w}, Pt{base.X + uy*w, base.Y - ux*w})
}

// Text writes s with its box's top left at (x, y), in c, with a one-pixel
// halo of colour halo when halo >= 0 (readable over any ground).
func (p *Picture) Text(c Colour, halo int, x, y float64, s string) {
	if s == "" {
		return
	}
	p.items = append(p.items, item{kind: text, col: c, halo: halo + 1, pts: []Pt{{math.Round(x), math.Round(y)}}, text: s})
}

// NoHalo is Text's halo for plain text.
const NoHalo = -1

// Label writes s centred on x with its top at y, moved sideways as needed
// to stay whole inside the picture.
func (p *Picture) Label(c Colour, halo int, x, y float64, s string) {
	w := float64(TextWidth(s))
	left := math.Round(x - w/2)
	left = math.Max(2, math.Min(left, float64(p.W)-w-2))
	y = math.Max(1, math.Min(y, float64(p.H-TextHeight-1)))
	p.Text(c, halo, left, y, s)
}

// Digits writes a number in small 3 x 5 pixel digits (DigitAdvance
// apart), its box's top left at (x, y): hex numbers, which every hex
// shows and should not crowd it.
func (p *Picture) Digits(c Colour, x, y float64, s string) {
	p.items = append(p.items, item{kind: digits, col: c, pts: []Pt{{math.Round(x), math.Round(y)}}, text: s})
}

// DigitAdvance and DigitHeight are the size of a small digit with its
// space.
const (
	DigitAdvance = 4
	DigitHeight  = 5
)

// Toward is a moved d pixels toward b.
func Toward(a, b Pt, d float64) Pt {
	dx, dy := b.X-a.X, b.Y-a.Y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return a
	}
	return Pt{a.X + dx/n*d, a.Y + dy/n*d}
}

// OutOfBox is where the line from centre c toward p leaves the box of
// half-width hw and half-height hh around c, plus gap: the end of a line
// that must stop short of a counter.
func OutOfBox(c, p Pt, hw, hh, gap float64) Pt {
	dx, dy := p.X-c.X, p.Y-c.Y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return c
	}
	t := math.Inf(1)
	if dx != 0 {
		t = math.Min(t, hw/math.Abs(dx))
	}
	if dy != 0 {
		t = math.Min(t, hh/math.Abs(dy))
	}
	return Toward(c, p, t*n+gap)
}

// Box is a rectangle of the picture, such as a counter.
type Box struct{ X0, Y0, X1, Y1 float64 }

// Overlaps reports whether two boxes share pixels.
func (b Box) Overlaps(o Box) bool { return b.X0 < o.X1 && o.X0 < b.X1 && b.Y0 < o.Y1 && o.Y0 < b.Y1 }

// PlaceLabel finds where a label of s centred near x covers none of the
// boxes: with its top at each of tops in turn, slid sideways by up to
// 21 pixels; it returns the centre and top for Label (the first place
// tried when every place covers a box).
func (p *Picture) PlaceLabel(x float64, tops []float64, s string, avoid []Box) (float64, float64) {
	w := float64(TextWidth(s))
	for _, y := range tops {
		for _, dx := range []float64{0, -7, 7, -14, 14, -21, 21} {
			cx := math.Max(w/2+2, math.Min(x+dx, float64(p.W)-w/2-2)) // as Label keeps it whole
			// The letters' pixels: capitals from row 2 to row 10 of 13,
			// a halo of one around them.
			text := Box{cx - w/2 - 1, y + 1, cx + w/2 + 1, y + 12}
			if !slices.ContainsFunc(avoid, text.Overlaps) {
				return cx, y
			}
		}
	}
	return x, tops[0]
}
