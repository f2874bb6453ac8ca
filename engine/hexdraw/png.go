package hexdraw

import (
	"fmt"
	"image"
	"io"
	"math"
	"slices"
	"sync"

	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Image paints the picture: each pixel takes the colour of the last shape
// covering its centre (no anti-aliasing, so the picture keeps its palette).
func (p *Picture) Image() *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, p.W, p.H), p.Palette)
	r := raster{img: img}
	items := p.items
	if p.baseKey != "" {
		key := fmt.Sprintf("%s %dx%d %v", p.baseKey, p.W, p.H, p.Palette)
		if base, ok := bases.get(key); ok {
			copy(img.Pix, base)
		} else {
			r.paint(p.items[:p.baseLen])
			bases.put(key, slices.Clone(img.Pix))
		}
		items = p.items[p.baseLen:]
	}
	r.paint(items)
	return img
}

func (r *raster) paint(items []item) {
	for _, it := range items {
		switch it.kind {
		case fill:
			r.fill(it.col, it.pts)
		case stroke:
			r.stroke(it.col, it.width, it.pts)
		case text:
			r.text(it.col, it.halo-1, int(it.pts[0].X), int(it.pts[0].Y), it.text)
		case digits:
			r.digits(it.col, int(it.pts[0].X), int(it.pts[0].Y), it.text)
		}
	}
}

// bases keeps the pixels of the pictures' bases by key: a few maps, each
// about a megabyte, so it forgets them all when it holds too many.
var bases = baseCache{pix: map[string][]byte{}}

type baseCache struct {
	mu  sync.Mutex
	pix map[string][]byte
}

const maxBases = 8

func (c *baseCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.pix[key]
	return b, ok
}

func (c *baseCache) put(key string, pix []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pix) >= maxBases {
		clear(c.pix)
	}
	c.pix[key] = pix
}

// PNG writes the picture as a PNG file (WritePNG, at zlib level 3: a
// Foggia Plain map is 70 KB in about 10 ms; level 1 makes it 91 KB and is
// hardly quicker, level 6 52 KB in nearly twice the time).
func (p *Picture) PNG(w io.Writer) error {
	if err := WritePNG(w, p.Image(), 3); err != nil {
		return fmt.Errorf("map picture: %w", err)
	}
	return nil
}

type raster struct {
	img *image.Paletted
	xs  []float64 // crossings of the scanline being filled
}

// fill paints the pixels whose centres lie inside the polygon (even-odd).
func (r *raster) fill(c Colour, pts []Pt) {
	if len(pts) < 3 {
		return
	}
	minY, maxY := pts[0].Y, pts[0].Y
	for _, q := range pts {
		minY, maxY = math.Min(minY, q.Y), math.Max(maxY, q.Y)
	}
	b := r.img.Rect
	y0 := max(int(math.Ceil(minY-0.5)), b.Min.Y)
	y1 := min(int(math.Floor(maxY-0.5)), b.Max.Y-1)
	for y := y0; y <= y1; y++ {
		yc := float64(y) + 0.5
		r.xs = r.xs[:0]
		for i := range pts {
			a, e := pts[i], pts[(i+1)%len(pts)]
			if (a.Y <= yc) != (e.Y <= yc) {
				r.xs = append(r.xs, a.X+(yc-a.Y)/(e.Y-a.Y)*(e.X-a.X))
			}
		}
		slices.Sort(r.xs)
		row := r.img.Pix[(y-b.Min.Y)*r.img.Stride:]
		for i := 0; i+1 < len(r.xs); i += 2 {
			x0 := max(int(math.Ceil(r.xs[i]-0.5)), b.Min.X)
			x1 := min(int(math.Ceil(r.xs[i+1]-0.5)), b.Max.X)
			for x := x0; x < x1; x++ {
				row[x-b.Min.X] = uint8(c)
			}
		}
	}
}

// stroke paints each segment as a band of the width, with the joints
// filled so that bends have no notch.
func (r *raster) stroke(c Colour, width float64, pts []Pt) {
	h := math.Max(width, 1) / 2
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		dx, dy := b.X-a.X, b.Y-a.Y
		n := math.Hypot(dx, dy)
		if n == 0 {
			continue
		}
		nx, ny := -dy/n*h, dx/n*h
		r.fill(c, []Pt{{a.X + nx, a.Y + ny}, {b.X + nx, b.Y + ny}, {b.X - nx, b.Y - ny}, {a.X - nx, a.Y - ny}})
		if i > 1 && width > 2 {
			r.fill(c, Circle(a, h))
		}
	}
}

// text paints s with basicfont's 7x13 letters, its box's top left at x, y.
func (r *raster) text(c Colour, halo, x, y int, s string) {
	face := basicfont.Face7x13
	mask := face.Mask.(*image.Alpha)
	var ink []image.Point
	dot := fixed.P(x, y+textAscent)
	for _, ch := range s {
		dr, _, mp, adv, _ := face.Glyph(dot, ch)
		for gy := dr.Min.Y; gy < dr.Max.Y; gy++ {
			for gx := dr.Min.X; gx < dr.Max.X; gx++ {
				if mask.AlphaAt(mp.X+gx-dr.Min.X, mp.Y+gy-dr.Min.Y).A >= 0x80 {
					ink = append(ink, image.Point{gx, gy})
				}
			}
		}
		dot.X += adv
	}
	if halo >= 0 {
		for _, q := range ink {
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					r.set(q.X+dx, q.Y+dy, Colour(halo))
				}
			}
		}
	}
	for _, q := range ink {
		r.set(q.X, q.Y, c)
	}
}

// smallDigits are 3 x 5 pixel digits, a row of three bits a line.
var smallDigits = [10][5]uint8{
	{7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
	{7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 2, 2, 2}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
}

// digits paints s in small digits, its box's top left at x, y; other
// characters leave a gap.
func (r *raster) digits(c Colour, x, y int, s string) {
	for i, ch := range s {
		if ch < '0' || ch > '9' {
			continue
		}
		for row, bits := range smallDigits[ch-'0'] {
			for col := range 3 {
				if bits&(4>>col) != 0 {
					r.set(x+DigitAdvance*i+col, y+row, c)
				}
			}
		}
	}
}

func (r *raster) set(x, y int, c Colour) {
	if (image.Point{x, y}).In(r.img.Rect) {
		r.img.Pix[(y-r.img.Rect.Min.Y)*r.img.Stride+x-r.img.Rect.Min.X] = uint8(c)
	}
}
