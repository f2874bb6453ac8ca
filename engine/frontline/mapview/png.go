package mapview

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"fieldpost/engine/frontline/rules"
)

const radius = 22.0 // hex corner radius in pixels

var (
	terrainColour = map[byte]color.RGBA{
		rules.Plains: {0xe8, 0xe4, 0xc0, 0xff}, rules.Coastal: {0xd8, 0xe0, 0xb0, 0xff}, rules.Sea: {0x9c, 0xc4, 0xe4, 0xff},
		rules.Mountain: {0xb8, 0x9c, 0x78, 0xff}, rules.Impassable: {0x70, 0x5c, 0x48, 0xff}, rules.Swamp: {0x9c, 0xb8, 0x8c, 0xff},
		rules.KeyCity: {0xd0, 0x80, 0x70, 0xff}, rules.RuinedCity: {0xb0, 0xa0, 0xa0, 0xff}, rules.PortCity: {0xa8, 0xa8, 0xc8, 0xff},
	}
	sideColour = []color.RGBA{{0x3c, 0x6e, 0x3c, 0xff}, {0x50, 0x5a, 0x6e, 0xff}}
	ink        = color.RGBA{0x20, 0x20, 0x20, 0xff}
	river      = color.RGBA{0x28, 0x64, 0xc8, 0xff}
	road       = color.RGBA{0x8c, 0x50, 0x28, 0xff}
)

func centre(h rules.Hex) (float64, float64) {
	x := 1.5*radius*float64(h.Col-1) + radius + 4
	y := math.Sqrt(3)*radius*(float64(h.Row-1)+0.5*float64((h.Col-1)&1)) + math.Sqrt(3)/2*radius + 4
	return x, y
}

func corners(h rules.Hex) [6][2]float64 {
	x, y := centre(h)
	var out [6][2]float64
	for i := range out {
		a := math.Pi / 3 * float64(i)
		out[i] = [2]float64{x + radius*math.Cos(a), y + radius*math.Sin(a)}
	}
	return out
}

// Image draws the position: terrain, roads, rivers, bridges, places and
// a counter per side in each hex with its number of units.
func Image(v *rules.State) *image.RGBA {
	m := v.Map
	w := int(1.5*radius*float64(m.Width)+radius) + 10
	hgt := int(math.Sqrt(3)*radius*(float64(m.Height)+0.5)) + 10
	img := image.NewRGBA(image.Rect(0, 0, w, hgt))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	for r := 1; r <= m.Height; r++ {
		for c := 1; c <= m.Width; c++ {
			h := rules.Hex{Col: c, Row: r}
			cs := corners(h)
			poly(img, terrainColour[m.Terrain(h)], cs[:])
			for i := range cs {
				line(img, color.RGBA{0x90, 0x90, 0x80, 0xff}, 1, cs[i], cs[(i+1)%6])
			}
		}
	}
	for hs := range m.Roads {
		ax, ay := centre(hs.A)
		bx, by := centre(hs.B)
		line(img, road, 2.5, [2]float64{ax, ay}, [2]float64{bx, by})
	}
	for hs := range m.Rivers {
		a, b := sharedEdge(hs)
		line(img, river, 4, a, b)
	}
	for hs, st := range v.Bridges {
		ax, ay := centre(hs.A)
		bx, by := centre(hs.B)
		mx, my := (ax+bx)/2, (ay+by)/2
		dx, dy := (bx-ax)/6, (by-ay)/6
		col := ink
		if st != "intact" {
			col = color.RGBA{0xc0, 0x20, 0x20, 0xff}
		}
		line(img, col, 5, [2]float64{mx - dx, my - dy}, [2]float64{mx + dx, my + dy})
	}
	drawWorks(img, v)
	for r := 1; r <= m.Height; r++ {
		for c := 1; c <= m.Width; c++ {
			h := rules.Hex{Col: c, Row: r}
			x, y := centre(h)
			text(img, color.RGBA{0x60, 0x60, 0x60, 0xff}, int(x)-13, int(y)-9, h.String())
			if n := m.Names[h]; n != "" {
				text(img, ink, int(x)-13, int(y)+18, n)
			}
		}
	}
	count := map[rules.Hex][2]int{}
	for _, u := range v.Units {
		if !u.OnMap() || u.In != "" {
			continue
		}
		k := count[u.Hex]
		if u.Side == v.Sides[0] {
			k[0]++
		} else {
			k[1]++
		}
		count[u.Hex] = k
	}
	for h, k := range count {
		x, y := centre(h)
		for i, n := range k {
			if n == 0 {
				continue
			}
			x0 := int(x) - 15 + 16*i
			y0 := int(y) - 4
			draw.Draw(img, image.Rect(x0, y0, x0+14, y0+13), image.NewUniform(sideColour[i]), image.Point{}, draw.Src)
			text(img, color.White, x0+4, y0+10, fmt.Sprint(min(n, 9)))
		}
	}
	return img
}

// PNG writes the position as a PNG picture.
func PNG(w io.Writer, v *rules.State) error {
	if err := png.Encode(w, Image(v)); err != nil {
		return fmt.Errorf("map picture: %w", err)
	}
	return nil
}

// sharedEdge returns the two corners on the hexside between two neighbours.
func sharedEdge(hs rules.Side2) ([2]float64, [2]float64) {
	ca, cb := corners(hs.A), corners(hs.B)
	var out [][2]float64
	for _, p := range ca {
		for _, q := range cb {
			if math.Abs(p[0]-q[0]) < 0.5 && math.Abs(p[1]-q[1]) < 0.5 {
				out = append(out, p)
			}
		}
	}
	if len(out) < 2 {
		ax, ay := centre(hs.A)
		return [2]float64{ax, ay}, [2]float64{ax, ay}
	}
	return out[0], out[1]
}

// poly fills a polygon, rasterised only within its bounding box so that a
// large map's thousands of shapes stay cheap.
func poly(img *image.RGBA, col color.Color, pts [][2]float64) {
	x0, y0, x1, y1 := pts[0][0], pts[0][1], pts[0][0], pts[0][1]
	for _, p := range pts {
		x0, y0 = math.Min(x0, p[0]), math.Min(y0, p[1])
		x1, y1 = math.Max(x1, p[0]), math.Max(y1, p[1])
	}
	r := image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1))+1, int(math.Ceil(y1))+1).Intersect(img.Bounds())
	if r.Empty() {
		return
	}
	var ras vector.Rasterizer
	ras.Reset(r.Dx(), r.Dy())
	ox, oy := float32(r.Min.X), float32(r.Min.Y)
	ras.MoveTo(float32(pts[0][0])-ox, float32(pts[0][1])-oy)
	for _, p := range pts[1:] {
		ras.LineTo(float32(p[0])-ox, float32(p[1])-oy)
	}
	ras.ClosePath()
	ras.Draw(img, r, image.NewUniform(col), image.Point{})
}

func line(img *image.RGBA, col color.Color, width float64, a, b [2]float64) {
	dx, dy := b[0]-a[0], b[1]-a[1]
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	nx, ny := -dy/l*width/2, dx/l*width/2
	poly(img, col, [][2]float64{{a[0] + nx, a[1] + ny}, {b[0] + nx, b[1] + ny}, {b[0] - nx, b[1] - ny}, {a[0] - nx, a[1] - ny}})
}

func text(img *image.RGBA, col color.Color, x, y int, s string) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(col), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}
