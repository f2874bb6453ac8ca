// Package mapview draws a Brigadier General Commands map for one side as
// a PNG or SVG picture (one drawing, engine/hexdraw): the terrain, roads,
// the objectives with their names and holders, each platoon the side may
// see as a counter, and the turn's moves and fire. Give it the side's
// rules.View so that it shows only what that side may see.
package mapview

import (
	"image/color"
	"io"
	"math"

	"fieldpost/engine/brigadier/report"
	"fieldpost/engine/brigadier/rules"
	"fieldpost/engine/hexdraw"
)

// The picture's 16 colours (4 bits a pixel in the PNG).
const (
	white hexdraw.Colour = iota
	ink
	grey
	open
	woods
	tree // tree tops and hedges
	town
	water
	lake
	hill
	slope
	road
	blue // the first side
	maroon
	red
	gold
)

var palette = color.Palette{
	white:  color.RGBA{0xff, 0xff, 0xff, 0xff},
	ink:    color.RGBA{0x1e, 0x1e, 0x1e, 0xff},
	grey:   color.RGBA{0x98, 0x94, 0x84, 0xff},
	open:   color.RGBA{0xe6, 0xe0, 0xb4, 0xff},
	woods:  color.RGBA{0x8c, 0xb4, 0x74, 0xff},
	tree:   color.RGBA{0x4a, 0x7a, 0x3c, 0xff},
	town:   color.RGBA{0xcc, 0xb4, 0xac, 0xff},
	water:  color.RGBA{0x2a, 0x6a, 0xc4, 0xff},
	lake:   color.RGBA{0x90, 0xbc, 0xe4, 0xff},
	hill:   color.RGBA{0xc0, 0x9a, 0x6c, 0xff},
	slope:  color.RGBA{0xd8, 0xc0, 0x90, 0xff},
	road:   color.RGBA{0x8c, 0x50, 0x28, 0xff},
	blue:   color.RGBA{0x2c, 0x4c, 0x9c, 0xff},
	maroon: color.RGBA{0x96, 0x2c, 0x2c, 0xff},
	red:    color.RGBA{0xdc, 0x14, 0x14, 0xff},
	gold:   color.RGBA{0xe6, 0xb2, 0x14, 0xff},
}

var terrainFill = map[byte]hexdraw.Colour{
	'.': open, 'W': woods, 'T': town, 'H': open, 's': open, '=': open, 'L': lake, '^': hill, '/': slope, 'F': open,
}

// The geometry: hexes of 30 pixels from centre to corner, a counter of
// 44 x 24 in the middle of its hex, the hex number above it and an
// objective's name below.
var layout = hexdraw.Layout{R: 30, Margin: 4, Top: hexdraw.TitleHeight}

const (
	counterHalfW = 22
	counterHalfH = 12
)

// Write draws the side's view v with the turn's events (none for a
// position) as a PNG or an SVG picture ("png", "svg").
func Write(w io.Writer, format string, rs *rules.Ruleset, v *rules.State, events []rules.Event, side string) error {
	return Draw(rs, v, events, side).Write(w, format)
}

// Draw is the picture of v (rules.View for side) with the events of the
// turn that led to it that side may read: each platoon a counter in its
// side's colour with its name and order, a red pip under it for each
// man lost (dead or wounded), a black bar under it when dug in, edged in
// gold while hidden (own platoons only: the enemy's are not drawn); moves as black arrows and fire as red ones, under the
// counters so that no arrow hides one.
func Draw(rs *rules.Ruleset, v *rules.State, events []rules.Event, side string) *hexdraw.Picture {
	m := v.Map
	w, h := layout.Size(m.Cols, m.Rows)
	keys := legendKeys(v)
	p := hexdraw.New(w, h+int(math.Ceil(hexdraw.LegendHeight(w, legendHeading, keys))), palette)
	drawTerrain(p, m)
	for _, o := range v.Objectives {
		p.Outline(gold, 2.5, layout.Corners(o.Hex, layout.R-2)...)
	}
	p.Base(baseKey(v))
	drawFrame(p, v, events, side, float64(h), keys)
	for _, o := range v.Objectives {
		if o.Holder == "" {
			continue
		}
		ce := layout.Centre(o.Hex)
		p.Rect(ink, ce.X+14, ce.Y-23, ce.X+23, ce.Y-14)
		p.Rect(sideColour(v, o.Holder), ce.X+15, ce.Y-22, ce.X+22, ce.Y-15)
	}
	for _, e := range events {
		if _, ok := report.Visible(e, side); !ok || e.From.IsZero() || e.To.IsZero() || e.From == e.To {
			continue
		}
		if side != "" && e.Side != side && e.Other != "" {
			continue // the side reads only the short version: no path, no firer
		}
		a, b := layout.Centre(e.From), layout.Centre(e.To)
		if len(e.Dice) > 0 {
			p.Arrow(red, 2, hexdraw.OutOfBox(a, b, counterHalfW, counterHalfH, 1), hexdraw.OutOfBox(b, a, counterHalfW, counterHalfH, 1))
		} else {
			p.Arrow(ink, 2, a, hexdraw.OutOfBox(b, a, counterHalfW, counterHalfH, 1))
		}
	}
	// A name covers no counter and no mark of a hex (features).
	counters := features(v)
	for _, pl := range v.Platoons {
		if !pl.Removed {
			counters = append(counters, drawPlatoon(p, rs, v, pl))
		}
	}
	for _, o := range v.Objectives {
		// Below the hex's counter (and its marks), else above it (over
		// the hex number).
		ce := layout.Centre(o.Hex)
		x, y := p.PlaceLabel(ce.X, []float64{ce.Y + 13, ce.Y + 17, ce.Y - 26}, o.Name, counters)
		p.Label(ink, int(white), x, y, o.Name)
	}
	return p
}

func drawTerrain(p *hexdraw.Picture, m *rules.Map) {
	for r := 1; r <= m.Rows; r++ {
		for c := 1; c <= m.Cols; c++ {
			hx := rules.Hex{Col: c, Row: r}
			p.Fill(terrainFill[m.Letter(hx)], layout.Corners(hx, layout.R-0.8)...)
		}
	}
	for r := 1; r <= m.Rows; r++ {
		for c := 1; c <= m.Cols; c++ {
			hx := rules.Hex{Col: c, Row: r}
			ce := layout.Centre(hx)
			at := func(dx, dy float64) hexdraw.Pt { return hexdraw.Pt{X: ce.X + dx, Y: ce.Y + dy} }
			switch m.Letter(hx) {
			case 'W':
				for _, dx := range []float64{-13, 13} {
					p.Fill(tree, hexdraw.Circle(at(dx, 19), 3.5)...)
				}
			case 'T':
				for _, dx := range []float64{-15, 11} {
					p.Rect(ink, ce.X+dx, ce.Y+15, ce.X+dx+5, ce.Y+20)
				}
			case 'H':
				p.Line(tree, 2, at(-20, 18), at(-14, 14), at(-8, 18), at(8, 18), at(14, 14), at(20, 18))
			case 'F': // a fortification: a bunker's low wall
				p.Rect(ink, ce.X-12, ce.Y+14, ce.X+12, ce.Y+19)
			case '^':
				for _, dx := range []float64{-13, 13} {
					p.Line(road, 1.5, at(dx-5, 21), at(dx, 15), at(dx+5, 21))
				}
			case 's', '=':
				drawStream(p, m, hx)
			}
		}
	}
	for _, rd := range m.Roads {
		pts := make([]hexdraw.Pt, len(rd.Hexes))
		for i, hx := range rd.Hexes {
			pts[i] = layout.Centre(hx)
		}
		width := 2.0
		if rd.Paved {
			width = 3.5
		}
		p.Line(road, width, pts...)
	}
	for r := 1; r <= m.Rows; r++ {
		for c := 1; c <= m.Cols; c++ {
			hx := rules.Hex{Col: c, Row: r}
			if m.Letter(hx) == '=' {
				drawBridge(p, m, hx)
			}
		}
	}
	for r := 1; r <= m.Rows; r++ {
		for c := 1; c <= m.Cols; c++ {
			hx := rules.Hex{Col: c, Row: r}
			ce := layout.Centre(hx)
			p.Digits(ink, ce.X-7, ce.Y-22, hx.String())
		}
	}
}

// watery reports a stream or bridge hex: a stream runs through both.
func watery(m *rules.Map, h rules.Hex) bool {
	return m.On(h) && (m.Letter(h) == 's' || m.Letter(h) == '=')
}

// drawStream runs the stream from the hex's centre to each stream
// neighbour, and off the map where it reaches the edge.
func drawStream(p *hexdraw.Picture, m *rules.Map, h rules.Hex) {
	ce := layout.Centre(h)
	links := 0
	for _, n := range h.Neighbours() {
		if watery(m, n) {
			p.Line(water, 4, ce, layout.Centre(n))
			links++
		}
	}
	if links < 2 && (h.Row == 1 || h.Row == m.Rows) {
		dy := layout.R
		if h.Row == 1 {
			dy = -dy
		}
		p.Line(water, 4, ce, hexdraw.Pt{X: ce.X, Y: ce.Y + dy})
	}
}

// drawBridge draws a bridge's two parapets along the stream's crossing:
// across the line of the stream through the hex.
func drawBridge(p *hexdraw.Picture, m *rules.Map, h rules.Hex) {
	ce := layout.Centre(h)
	dir := hexdraw.Pt{X: 0, Y: 1}
	for _, n := range h.Neighbours() {
		if watery(m, n) {
			c := layout.Centre(n)
			d := hexdraw.Toward(ce, c, 1)
			dir = hexdraw.Pt{X: d.X - ce.X, Y: d.Y - ce.Y}
			break
		}
	}
	across := hexdraw.Pt{X: -dir.Y, Y: dir.X}
	for _, s := range []float64{-6, 6} {
		mid := hexdraw.Pt{X: ce.X + dir.X*s, Y: ce.Y + dir.Y*s}
		p.Line(ink, 2, hexdraw.Pt{X: mid.X - across.X*9, Y: mid.Y - across.Y*9}, hexdraw.Pt{X: mid.X + across.X*9, Y: mid.Y + across.Y*9})
	}
}

// baseKey names the map and its objectives: what the base shows.
func baseKey(v *rules.State) string {
	hexes := make([]rules.Hex, len(v.Objectives))
	for i, o := range v.Objectives {
		hexes[i] = o.Hex
	}
	return hexdraw.BaseKey("brigadier", struct {
		Map        *rules.Map
		Objectives []rules.Hex
	}{v.Map, hexes})
}

func sideColour(v *rules.State, side string) hexdraw.Colour {
	if len(v.Sides) > 1 && side == v.Sides[1].Name {
		return maroon
	}
	return blue
}

// drawPlatoon draws a platoon's counter and returns where it and its
// marks are.
func drawPlatoon(p *hexdraw.Picture, rs *rules.Ruleset, v *rules.State, pl *rules.Platoon) hexdraw.Box {
	ce := layout.Centre(pl.Hex)
	b := hexdraw.Box{X0: ce.X - counterHalfW, Y0: ce.Y - counterHalfH, X1: ce.X + counterHalfW, Y1: ce.Y + counterHalfH}
	edge, inset := ink, 1.0
	if pl.Hidden {
		edge, inset = gold, 2
	}
	p.Rect(edge, b.X0, b.Y0, b.X1, b.Y1)
	p.Rect(sideColour(v, pl.Side), b.X0+inset, b.Y0+inset, b.X1-inset, b.Y1-inset)
	// Under the counter: a black bar when dug in, a red pip a man lost.
	if pl.DugIn {
		p.Rect(ink, b.X0+2, b.Y1+1, b.X1-2, b.Y1+4)
	}
	lost := min(pl.Dead+pl.Wounded, rs.Count.I())
	for i := range lost {
		x := ce.X - 5*float64(lost)/2 + 5*float64(i) + 1
		p.Rect(red, x, b.Y1+1, x+3, b.Y1+4)
	}
	if pl.DugIn || lost > 0 {
		b.Y1 += 4
	}
	p.Text(white, hexdraw.NoHalo, ce.X-float64(hexdraw.TextWidth(pl.Name))/2, b.Y0, pl.Name)
	order := rs.OrderName(pl.Order)
	p.Text(white, hexdraw.NoHalo, ce.X-float64(hexdraw.TextWidth(order))/2, b.Y0+11, order)
	return b
}
