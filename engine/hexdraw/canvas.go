package hexdraw

import (
	"cmp"
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"

	"golang.org/x/image/vector"
)

// Canvas draws shapes and text either into a paletted picture (Img) or
// as SVG elements (SVG). The picture is drawn straight in its palette:
// shapes in flat colours, with their edges, where smooth (Crisp unset),
// in a few steps of blending with what lies under them. Flat colours and
// few blends keep the PNG small and need no colour search when saving.
type Canvas struct {
	Img *image.Paletted
	Pal *Palette
	SVG *SVGWriter
	// Crisp draws shapes without blended edges: a map's terrain fills and
	// textures, whose edges the grid or a flat neighbour hides anyway.
	Crisp bool
	ras   vector.Rasterizer
	mask  image.Alpha // the coverage of the shape being drawn
	xs    []crossing  // a crisp fill's crossings of the row being drawn
	faces map[faceKey]*TextFace
}

// NewCanvas returns a Canvas whose faces can measure text before the
// picture's size is known; the caller then gives it its picture (Img or
// SVG).
func NewCanvas() *Canvas { return &Canvas{faces: map[faceKey]*TextFace{}} }

// BlendSteps is how many steps an edge or a glyph is blended in: 2 gives
// blends of a half, enough for small text to read well; thirds made the
// division map's PNG 7% larger for edges hardly smoother.
const BlendSteps = 2

// FillRect fills an axis-aligned rectangle with exact pixel edges.
func (c *Canvas) FillRect(x0, y0, x1, y1 int, col color.RGBA) {
	if c.SVG != nil {
		c.SVG.rect(float64(x0), float64(y0), float64(x1), float64(y1), col)
		return
	}
	r := image.Rect(x0, y0, x1, y1).Intersect(c.Img.Rect)
	k := c.Pal.Index(col)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := c.Img.Pix[c.Img.PixOffset(r.Min.X, y):c.Img.PixOffset(r.Max.X, y)]
		for i := range row {
			row[i] = k
		}
	}
}

// FillRuns paints the runs of pixels of a hex centred at c, in col.
func (c *Canvas) FillRuns(col color.RGBA, ctr Pt, runs []Run) {
	k := c.Pal.Index(col)
	cx, cy := int(ctr.X), int(ctr.Y)
	b := c.Img.Rect
	for _, r := range runs {
		y := cy + r.DY
		if y < b.Min.Y || y >= b.Max.Y {
			continue
		}
		x0, x1 := max(cx+r.DX0, b.Min.X), min(cx+r.DX1, b.Max.X)
		if x0 >= x1 {
			continue
		}
		row := c.Img.Pix[c.Img.PixOffset(x0, y):c.Img.PixOffset(x1, y)]
		for i := range row {
			row[i] = k
		}
	}
}

// BlendSpan blends col, at its opacity, over the pixels x0 to x1
// (exclusive) of row y.
func (c *Canvas) BlendSpan(col color.RGBA, x0, x1, y int) {
	if y < c.Img.Rect.Min.Y || y >= c.Img.Rect.Max.Y {
		return
	}
	x0, x1 = max(x0, c.Img.Rect.Min.X), min(x1, c.Img.Rect.Max.X)
	step := max(1, (int(col.A)*BlendSteps+127)/255)
	var memo blendMemo
	for x := x0; x < x1; x++ {
		i := c.Img.PixOffset(x, y)
		if step == BlendSteps {
			c.Img.Pix[i] = c.Pal.Index(col)
		} else {
			c.Img.Pix[i] = memo.blend(c.Pal, c.Img.Pix[i], col, step)
		}
	}
}

// Fill paints the union of the given polygons. Each polygon is turned to the
// same winding so that overlapping parts add up instead of cancelling.
func (c *Canvas) Fill(col color.RGBA, polys ...[]Pt) {
	polys = orient(polys, 1)
	if c.SVG != nil {
		c.SVG.fill(col, polys, true)
		return
	}
	c.fillPaths(col, polys)
}

// FillRing paints outer minus inner (a band with a hole).
func (c *Canvas) FillRing(col color.RGBA, outer, inner []Pt) {
	polys := append(orient([][]Pt{outer}, 1), orient([][]Pt{inner}, -1)...)
	if c.SVG != nil {
		c.SVG.fill(col, polys, false)
		return
	}
	c.fillPaths(col, polys)
}

// Stamp draws the same marks at o for every use of a name (and radius):
// the raster draws them each time, an SVG once, then places copies.
func (c *Canvas) Stamp(name string, o Pt, draw func(o Pt)) {
	if c.SVG == nil {
		draw(o)
		return
	}
	c.SVG.use(name, o, draw)
}

// FillCircle paints a disc.
func (c *Canvas) FillCircle(col color.RGBA, p Pt, r float64) {
	if c.SVG != nil {
		c.SVG.circle(col, p, r)
		return
	}
	c.fillPaths(col, [][]Pt{Circle(p, r)})
}

// fillPaths rasterises the polygons in their bounding box and paints the
// pixels they cover.
func (c *Canvas) fillPaths(col color.RGBA, polys [][]Pt) {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, p := range polys {
		for _, q := range p {
			minX, minY = math.Min(minX, q.X), math.Min(minY, q.Y)
			maxX, maxY = math.Max(maxX, q.X), math.Max(maxY, q.Y)
		}
	}
	r := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY))).Intersect(c.Img.Rect)
	if r.Empty() {
		return
	}
	n := r.Dx() * r.Dy()
	if cap(c.mask.Pix) < n {
		c.mask.Pix = make([]uint8, n)
	}
	c.mask.Pix, c.mask.Stride, c.mask.Rect = c.mask.Pix[:n], r.Dx(), image.Rect(0, 0, r.Dx(), r.Dy())
	if c.Crisp {
		c.centresInside(polys, r)
	} else {
		c.ras.Reset(r.Dx(), r.Dy())
		c.ras.DrawOp = draw.Src
		ox, oy := float64(r.Min.X), float64(r.Min.Y)
		for _, p := range polys {
			if len(p) < 3 {
				continue
			}
			c.ras.MoveTo(float32(p[0].X-ox), float32(p[0].Y-oy))
			for _, q := range p[1:] {
				c.ras.LineTo(float32(q.X-ox), float32(q.Y-oy))
			}
			c.ras.ClosePath()
		}
		c.ras.Draw(&c.mask, c.mask.Rect, image.Opaque, image.Point{})
	}
	c.paintMask(col, &c.mask, r.Min, !c.Crisp)
}

// centresInside sets the mask (over r) to whole coverage at each pixel
// whose centre lies inside the polygons (nonzero winding), none elsewhere:
// crisp edges, the same for every hex of a snapped layout.
func (c *Canvas) centresInside(polys [][]Pt, r image.Rectangle) {
	clear(c.mask.Pix)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		yc := float64(y) + 0.5
		c.xs = c.xs[:0]
		for _, p := range polys {
			if len(p) < 3 {
				continue
			}
			for i := range p {
				a, e := p[i], p[(i+1)%len(p)]
				if (a.Y <= yc) != (e.Y <= yc) {
					wind := 1
					if e.Y < a.Y {
						wind = -1
					}
					c.xs = append(c.xs, crossing{a.X + (yc-a.Y)/(e.Y-a.Y)*(e.X-a.X), wind})
				}
			}
		}
		slices.SortFunc(c.xs, func(a, b crossing) int { return cmp.Compare(a.x, b.x) })
		row := c.mask.Pix[(y-r.Min.Y)*c.mask.Stride:][:c.mask.Stride]
		wind := 0
		for i, k := range c.xs {
			wind += k.wind
			if wind == 0 || i+1 == len(c.xs) {
				continue
			}
			x0 := max(int(math.Ceil(k.x-0.5)), r.Min.X)
			x1 := min(int(math.Ceil(c.xs[i+1].x-0.5)), r.Max.X)
			for x := x0; x < x1; x++ {
				row[x-r.Min.X] = 0xff
			}
		}
	}
}

// crossing is where an edge crosses a row of pixel centres, and which
// way (1 down, -1 up).
type crossing struct {
	x    float64
	wind int
}

// paintMask paints col through an alpha mask whose top-left pixel lands at
// at. smooth blends partly covered pixels in steps; otherwise a pixel is
// painted when at least half covered.
func (c *Canvas) paintMask(col color.RGBA, m *image.Alpha, at image.Point, smooth bool) {
	r := m.Rect.Add(at.Sub(m.Rect.Min)).Intersect(c.Img.Rect)
	if r.Empty() {
		return
	}
	full := -1 // col's own entry, looked up when first needed
	var memo blendMemo
	for y := r.Min.Y; y < r.Max.Y; y++ {
		src := m.Pix[m.PixOffset(r.Min.X-at.X+m.Rect.Min.X, y-at.Y+m.Rect.Min.Y):]
		dst := c.Img.Pix[c.Img.PixOffset(r.Min.X, y):c.Img.PixOffset(r.Max.X, y)]
		for i := range dst {
			cov := int(src[i])
			if !smooth {
				if cov < 128 {
					continue
				}
				cov = 255
			}
			step := (cov*int(col.A)/255*BlendSteps + 127) / 255
			switch {
			case step == 0:
			case step == BlendSteps:
				if full < 0 {
					full = int(c.Pal.Index(col))
				}
				dst[i] = uint8(full)
			default:
				dst[i] = memo.blend(c.Pal, dst[i], col, step)
			}
		}
	}
}

// blendMemo remembers the last blend asked for: neighbouring pixels of an
// edge mostly blend the same two colours.
type blendMemo struct {
	ok         bool
	under, out uint8
	step       int
}

func (m *blendMemo) blend(p *Palette, under uint8, col color.RGBA, step int) uint8 {
	if !m.ok || m.under != under || m.step != step {
		m.ok, m.under, m.step, m.out = true, under, step, p.blend(under, col, step)
	}
	return m.out
}

// orient returns the polygons all wound in the direction of sign.
func orient(polys [][]Pt, sign float64) [][]Pt {
	out := make([][]Pt, 0, len(polys))
	for _, p := range polys {
		area := 0.0
		for i := range p {
			j := (i + 1) % len(p)
			area += p[i].X*p[j].Y - p[j].X*p[i].Y
		}
		if area*sign < 0 {
			rev := make([]Pt, len(p))
			for i := range p {
				rev[i] = p[len(p)-1-i]
			}
			p = rev
		}
		out = append(out, p)
	}
	return out
}

// Stroke paints a polyline of the given width with round joins and ends;
// Crisp, with square ends (strokeShapes).
func (c *Canvas) Stroke(col color.RGBA, width float64, pts ...Pt) {
	if c.SVG != nil {
		c.SVG.stroke(col, width, pts, false)
		return
	}
	c.fillPaths(col, orient(strokeShapes(width, pts, !c.Crisp), 1))
}

// StrokeClosed paints the outline of a closed polygon.
func (c *Canvas) StrokeClosed(col color.RGBA, width float64, pts []Pt) {
	if c.SVG != nil {
		c.SVG.stroke(col, width, pts, true)
		return
	}
	c.Stroke(col, width, append(append([]Pt(nil), pts...), pts[0])...)
}

// StrokeShapes are the shapes of a polyline of the given width with
// round joins and ends: a band a segment and, from 2 pixels wide, a disc
// at each point.
func StrokeShapes(width float64, pts []Pt) [][]Pt { return strokeShapes(width, pts, true) }

// strokeShapes are StrokeShapes, or unless round those of a crisp line:
// at least a pixel wide, its ends square, its joints filled from 3 pixels
// wide so that bends have no notch.
func strokeShapes(width float64, pts []Pt, round bool) [][]Pt {
	if !round {
		width = math.Max(width, 1)
	}
	hw := width / 2
	var polys [][]Pt
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		d := b.Sub(a)
		if d.Len() == 0 {
			continue
		}
		n := d.Unit().Perp().Scale(hw)
		polys = append(polys, []Pt{a.Add(n), b.Add(n), b.Sub(n), a.Sub(n)})
		if !round && i > 0 && width > 2 {
			polys = append(polys, Circle(a, hw))
		}
	}
	if round && width >= 2 {
		for _, p := range pts {
			polys = append(polys, Circle(p, hw))
		}
	}
	return polys
}

// RGB is the opaque colour 0xRRGGBB.
func RGB(hex uint32) color.RGBA {
	return color.RGBA{uint8(hex >> 16), uint8(hex >> 8), uint8(hex), 0xff}
}

// WithAlpha returns col at opacity a (0-255). Unlike color.RGBA's
// convention the colour is not premultiplied: the canvas blends it itself.
func WithAlpha(col color.RGBA, a uint8) color.RGBA {
	col.A = a
	return col
}
