package report

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"fieldpost/engine/brigadier/rules"
)

const hexSize = 18.0 // centre to corner, pixels

var terrainColours = map[byte]color.RGBA{
	'.': {222, 214, 170, 255}, 'W': {84, 140, 72, 255}, 'T': {170, 150, 140, 255}, 'H': {170, 190, 110, 255},
	's': {120, 170, 220, 255}, '=': {150, 120, 90, 255}, 'L': {80, 130, 200, 255}, '^': {190, 150, 100, 255}, '/': {210, 180, 130, 255},
}

var sideColours = []color.RGBA{{40, 70, 160, 255}, {150, 40, 40, 255}}

// PNG draws the map as side sees it (view is rules.View for the side),
// with the moves and fire of events the side may read.
func PNG(w io.Writer, rs *rules.Ruleset, view *rules.State, events []rules.Event, side string) error {
	m := view.Map
	width := int(hexSize*1.5*float64(m.Cols) + hexSize*0.5 + 4)
	height := int(hexSize*math.Sqrt(3)*(float64(m.Rows)+0.5) + 4)
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{255, 255, 255, 255}}, image.Point{}, draw.Src)
	for r := 1; r <= m.Rows; r++ {
		for c := 1; c <= m.Cols; c++ {
			h := rules.Hex{Col: c, Row: r}
			cx, cy := centre(h)
			fillHex(img, cx, cy, hexSize-1, terrainColours[m.Letter(h)])
		}
	}
	for _, road := range m.Roads {
		for i := 1; i < len(road.Hexes); i++ {
			ax, ay := centre(road.Hexes[i-1])
			bx, by := centre(road.Hexes[i])
			line(img, ax, ay, bx, by, color.RGBA{90, 70, 50, 255})
		}
	}
	for _, o := range view.Objectives {
		cx, cy := centre(o.Hex)
		ring(img, cx, cy, hexSize*0.8, color.RGBA{230, 200, 0, 255})
	}
	for _, e := range events {
		if _, ok := Visible(e, side); !ok || e.From.IsZero() || e.To.IsZero() || e.From == e.To {
			continue
		}
		if side != "" && e.Side != side && e.Other != "" {
			continue // the side reads only the short version: no path, no caller
		}
		ax, ay := centre(e.From)
		bx, by := centre(e.To)
		col := color.RGBA{0, 0, 0, 255}
		if len(e.Dice) > 0 {
			col = color.RGBA{220, 0, 0, 255}
		}
		line(img, ax, ay, bx, by, col)
	}
	face := basicfont.Face7x13
	for _, p := range view.Platoons {
		if p.Removed {
			continue
		}
		col := sideColours[0]
		if len(view.Sides) > 1 && p.Side == view.Sides[1].Name {
			col = sideColours[1]
		}
		cx, cy := centre(p.Hex)
		s := 12 // half the counter width
		draw.Draw(img, image.Rect(int(cx)-s, int(cy)-s/2-2, int(cx)+s, int(cy)+s/2+2), &image.Uniform{col}, image.Point{}, draw.Src)
		label := p.Name
		if len(label) > 4 {
			label = label[:4]
		}
		d := font.Drawer{Dst: img, Src: image.NewUniform(color.White), Face: face,
			Dot: fixed.P(int(cx)-len(label)*7/2, int(cy)+4)}
		d.DrawString(label)
		// the order's first letter under the counter
		d = font.Drawer{Dst: img, Src: image.NewUniform(color.Black), Face: face, Dot: fixed.P(int(cx)-3, int(cy)+s+4)}
		d.DrawString(strings.ToUpper(rs.OrderName(p.Order)[:1]))
	}
	return png.Encode(w, img)
}

func centre(h rules.Hex) (float64, float64) {
	x := hexSize + 2 + float64(h.Col-1)*hexSize*1.5
	y := hexSize*math.Sqrt(3)/2 + 2 + float64(h.Row-1)*hexSize*math.Sqrt(3)
	if h.Col%2 == 0 {
		y += hexSize * math.Sqrt(3) / 2
	}
	return x, y
}

// fillHex fills a flat-topped hexagon by testing each pixel of its box.
func fillHex(img *image.RGBA, cx, cy, size float64, col color.RGBA) {
	hh := size * math.Sqrt(3) / 2
	for y := int(cy - hh); y <= int(cy+hh); y++ {
		for x := int(cx - size); x <= int(cx+size); x++ {
			dx, dy := math.Abs(float64(x)-cx), math.Abs(float64(y)-cy)
			if dy <= hh && dx <= size-dy/math.Sqrt(3) {
				img.SetRGBA(x, y, col)
			}
		}
	}
}

func ring(img *image.RGBA, cx, cy, r float64, col color.RGBA) {
	for a := 0.0; a < 2*math.Pi; a += 0.02 {
		img.SetRGBA(int(cx+r*math.Cos(a)), int(cy+r*math.Sin(a)), col)
	}
}

func line(img *image.RGBA, ax, ay, bx, by float64, col color.RGBA) {
	n := int(math.Max(math.Abs(bx-ax), math.Abs(by-ay))) + 1
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		x, y := ax+(bx-ax)*t, ay+(by-ay)*t
		img.SetRGBA(int(x), int(y), col)
		img.SetRGBA(int(x)+1, int(y), col)
	}
}
