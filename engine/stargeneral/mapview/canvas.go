package mapview

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// pt is a point in image pixels.
type pt struct{ x, y float64 }

func (p pt) add(q pt) pt           { return pt{p.x + q.x, p.y + q.y} }
func (p pt) sub(q pt) pt           { return pt{p.x - q.x, p.y - q.y} }
func (p pt) scale(k float64) pt    { return pt{p.x * k, p.y * k} }
func (p pt) length() float64       { return math.Hypot(p.x, p.y) }
func (p pt) unit() pt              { return p.scale(1 / p.length()) }
func (p pt) perp() pt              { return pt{-p.y, p.x} }
func lerpPt(a, b pt, t float64) pt { return pt{a.x + (b.x-a.x)*t, a.y + (b.y-a.y)*t} }

// canvas draws shapes and text either into a paletted picture (img) or
// as SVG elements (svg). The picture is drawn straight in its palette:
// shapes in flat colours, with their edges, where smooth (crisp unset),
// in a few steps of blending with what lies under them. Flat colours and
// few blends keep the PNG small and need no colour search when saving.
type canvas struct {
	img *image.Paletted
	pal *palette
	svg *svgWriter
	// crisp draws shapes without blended edges: the terrain's fills and
	// textures, whose edges the grid or a flat neighbour hides anyway.
	crisp bool
	ras   vector.Rasterizer
	mask  image.Alpha // the coverage of the shape being drawn
	faces map[faceKey]*textFace
}

// newCanvas returns a canvas whose faces can measure text before the
// picture's size is known; drawBase then gives it its picture.
func newCanvas() *canvas { return &canvas{faces: map[faceKey]*textFace{}} }

// blendSteps is how many steps an edge or a glyph is blended in: 2 gives
// blends of a half, enough for small text to read well; thirds made the
// division map's PNG 7% larger for edges hardly smoother.
const blendSteps = 2

// fillRect fills an axis-aligned rectangle with exact pixel edges.
func (c *canvas) fillRect(x0, y0, x1, y1 int, col color.RGBA) {
	if c.svg != nil {
		c.svg.rect(float64(x0), float64(y0), float64(x1), float64(y1), col)
		return
	}
	r := image.Rect(x0, y0, x1, y1).Intersect(c.img.Rect)
	k := c.pal.index(col)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := c.img.Pix[c.img.PixOffset(r.Min.X, y):c.img.PixOffset(r.Max.X, y)]
		for i := range row {
			row[i] = k
		}
	}
}

// fillRuns paints the runs of pixels of a hex centred at c, in col.
func (c *canvas) fillRuns(col color.RGBA, ctr pt, runs []run) {
	k := c.pal.index(col)
	cx, cy := int(ctr.x), int(ctr.y)
	b := c.img.Rect
	for _, r := range runs {
		y := cy + r.dy
		if y < b.Min.Y || y >= b.Max.Y {
			continue
		}
		x0, x1 := max(cx+r.dx0, b.Min.X), min(cx+r.dx1, b.Max.X)
		if x0 >= x1 {
			continue
		}
		row := c.img.Pix[c.img.PixOffset(x0, y):c.img.PixOffset(x1, y)]
		for i := range row {
			row[i] = k
		}
	}
}

// blendSpan blends col, at its opacity, over the pixels x0 to x1
// (exclusive) of row y.
func (c *canvas) blendSpan(col color.RGBA, x0, x1, y int) {
	if y < c.img.Rect.Min.Y || y >= c.img.Rect.Max.Y {
		return
	}
	x0, x1 = max(x0, c.img.Rect.Min.X), min(x1, c.img.Rect.Max.X)
	step := max(1, (int(col.A)*blendSteps+127)/255)
	var memo blendMemo
	for x := x0; x < x1; x++ {
		i := c.img.PixOffset(x, y)
		if step == blendSteps {
			c.img.Pix[i] = c.pal.index(col)
		} else {
			c.img.Pix[i] = memo.blend(c.pal, c.img.Pix[i], col, step)
		}
	}
}

// fill paints the union of the given polygons. Each polygon is turned to the
// same winding so that overlapping parts add up instead of cancelling.
func (c *canvas) fill(col color.RGBA, polys ...[]pt) {
	polys = orient(polys, 1)
	if c.svg != nil {
		c.svg.fill(col, polys, true)
		return
	}
	c.fillPaths(col, polys)
}

// fillRing paints outer minus inner (a band with a hole).
func (c *canvas) fillRing(col color.RGBA, outer, inner []pt) {
	polys := append(orient([][]pt{outer}, 1), orient([][]pt{inner}, -1)...)
	if c.svg != nil {
		c.svg.fill(col, polys, false)
		return
	}
	c.fillPaths(col, polys)
}

// stamp draws the same marks at o for every use of a name (and radius):
// the raster draws them each time, an SVG once, then places copies.
func (c *canvas) stamp(name string, o pt, draw func(o pt)) {
	if c.svg == nil {
		draw(o)
		return
	}
	c.svg.use(name, o, draw)
}

// fillCircle paints a disc.
func (c *canvas) fillCircle(col color.RGBA, p pt, r float64) {
	if c.svg != nil {
		c.svg.circle(col, p, r)
		return
	}
	c.fillPaths(col, [][]pt{circle(p, r)})
}

// fillPaths rasterises the polygons in their bounding box and paints the
// pixels they cover.
func (c *canvas) fillPaths(col color.RGBA, polys [][]pt) {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, p := range polys {
		for _, q := range p {
			minX, minY = math.Min(minX, q.x), math.Min(minY, q.y)
			maxX, maxY = math.Max(maxX, q.x), math.Max(maxY, q.y)
		}
	}
	r := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY))).Intersect(c.img.Rect)
	if r.Empty() {
		return
	}
	c.ras.Reset(r.Dx(), r.Dy())
	c.ras.DrawOp = draw.Src
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	for _, p := range polys {
		if len(p) < 3 {
			continue
		}
		c.ras.MoveTo(float32(p[0].x-ox), float32(p[0].y-oy))
		for _, q := range p[1:] {
			c.ras.LineTo(float32(q.x-ox), float32(q.y-oy))
		}
		c.ras.ClosePath()
	}
	n := r.Dx() * r.Dy()
	if cap(c.mask.Pix) < n {
		c.mask.Pix = make([]uint8, n)
	}
	c.mask.Pix, c.mask.Stride, c.mask.Rect = c.mask.Pix[:n], r.Dx(), image.Rect(0, 0, r.Dx(), r.Dy())
	c.ras.Draw(&c.mask, c.mask.Rect, image.Opaque, image.Point{})
	c.paintMask(col, &c.mask, r.Min, !c.crisp)
}

// paintMask paints col through an alpha mask whose top-left pixel lands at
// at. smooth blends partly covered pixels in steps; otherwise a pixel is
// painted when at least half covered.
func (c *canvas) paintMask(col color.RGBA, m *image.Alpha, at image.Point, smooth bool) {
	r := m.Rect.Add(at.Sub(m.Rect.Min)).Intersect(c.img.Rect)
	if r.Empty() {
		return
	}
	full := -1 // col's own entry, looked up when first needed
	var memo blendMemo
	for y := r.Min.Y; y < r.Max.Y; y++ {
		src := m.Pix[m.PixOffset(r.Min.X-at.X+m.Rect.Min.X, y-at.Y+m.Rect.Min.Y):]
		dst := c.img.Pix[c.img.PixOffset(r.Min.X, y):c.img.PixOffset(r.Max.X, y)]
		for i := range dst {
			cov := int(src[i])
			if !smooth {
				if cov < 128 {
					continue
				}
				cov = 255
			}
			step := (cov*int(col.A)/255*blendSteps + 127) / 255
			switch {
			case step == 0:
			case step == blendSteps:
				if full < 0 {
					full = int(c.pal.index(col))
				}
				dst[i] = uint8(full)
			default:
				dst[i] = memo.blend(c.pal, dst[i], col, step)
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

func (m *blendMemo) blend(p *palette, under uint8, col color.RGBA, step int) uint8 {
	if !m.ok || m.under != under || m.step != step {
		m.ok, m.under, m.step, m.out = true, under, step, p.blend(under, col, step)
	}
	return m.out
}

// orient returns the polygons all wound in the direction of sign.
func orient(polys [][]pt, sign float64) [][]pt {
	out := make([][]pt, 0, len(polys))
	for _, p := range polys {
		area := 0.0
		for i := range p {
			j := (i + 1) % len(p)
			area += p[i].x*p[j].y - p[j].x*p[i].y
		}
		if area*sign < 0 {
			rev := make([]pt, len(p))
			for i := range p {
				rev[i] = p[len(p)-1-i]
			}
			p = rev
		}
		out = append(out, p)
	}
	return out
}

// stroke paints a polyline of the given width with round joins and ends.
func (c *canvas) stroke(col color.RGBA, width float64, pts ...pt) {
	if c.svg != nil {
		c.svg.stroke(col, width, pts, false)
		return
	}
	c.fillPaths(col, orient(strokePolys(width, pts), 1))
}

// strokeClosed paints the outline of a closed polygon.
func (c *canvas) strokeClosed(col color.RGBA, width float64, pts []pt) {
	if c.svg != nil {
		c.svg.stroke(col, width, pts, true)
		return
	}
	c.stroke(col, width, append(append([]pt(nil), pts...), pts[0])...)
}

func strokePolys(width float64, pts []pt) [][]pt {
	hw := width / 2
	var polys [][]pt
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		d := b.sub(a)
		if d.length() == 0 {
			continue
		}
		n := d.unit().perp().scale(hw)
		polys = append(polys, []pt{a.add(n), b.add(n), b.sub(n), a.sub(n)})
	}
	if width >= 2 {
		for _, p := range pts {
			polys = append(polys, circle(p, hw))
		}
	}
	return polys
}

// dashes cuts a polyline into dashes of length on separated by gaps of off.
func dashes(pts []pt, on, off float64) [][]pt {
	var out [][]pt
	var cur []pt
	drawing, left := true, on
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		seg := b.sub(a).length()
		pos := 0.0
		if drawing && len(cur) == 0 {
			cur = append(cur, a)
		}
		for seg-pos > left {
			pos += left
			p := lerpPt(a, b, pos/seg)
			if drawing {
				out = append(out, append(cur, p))
				cur = nil
				left = off
			} else {
				cur = []pt{p}
				left = on
			}
			drawing = !drawing
		}
		left -= seg - pos
		if drawing {
			cur = append(cur, b)
		}
	}
	if drawing && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

// circle is a polygon close enough to a circle at map scales.
func circle(c pt, r float64) []pt {
	n := max(12, int(r*1.2))
	out := make([]pt, n)
	for i := range out {
		a := 2 * math.Pi * float64(i) / float64(n)
		out[i] = pt{c.x + r*math.Cos(a), c.y + r*math.Sin(a)}
	}
	return out
}

func rect(x0, y0, x1, y1 float64) []pt {
	return []pt{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
}

// roundRect is a rectangle with corners rounded by r.
func roundRect(x0, y0, x1, y1, r float64) []pt {
	var out []pt
	corners := []struct {
		c     pt
		start float64
	}{{pt{x1 - r, y0 + r}, -90}, {pt{x1 - r, y1 - r}, 0}, {pt{x0 + r, y1 - r}, 90}, {pt{x0 + r, y0 + r}, 180}}
	for _, k := range corners {
		for i := 0; i <= 2; i++ {
			a := (k.start + float64(i)*45) * math.Pi / 180
			out = append(out, pt{k.c.x + r*math.Cos(a), k.c.y + r*math.Sin(a)})
		}
	}
	return out
}

// star is a five-pointed star, point up.
func star(c pt, r float64) []pt {
	out := make([]pt, 10)
	for i := range out {
		rad := r
		if i%2 == 1 {
			rad = r * 0.42
		}
		a := (-90 + float64(i)*36) * math.Pi / 180
		out[i] = pt{c.x + rad*math.Cos(a), c.y + rad*math.Sin(a)}
	}
	return out
}

// burst is a jagged explosion shape with n points.
func burst(c pt, r float64, n int) []pt {
	out := make([]pt, 2*n)
	for i := range out {
		rad := r
		if i%2 == 1 {
			rad = r * 0.6
		}
		a := (-90 + float64(i)*180/float64(n)) * math.Pi / 180
		out[i] = pt{c.x + rad*math.Cos(a), c.y + rad*math.Sin(a)}
	}
	return out
}

// Fonts: the Go fonts are compiled in, so the picture needs no font files.
var (
	regularFont = mustParseFont(goregular.TTF)
	boldFont    = mustParseFont(gobold.TTF)
)

func mustParseFont(ttf []byte) *opentype.Font {
	f, err := opentype.Parse(ttf)
	if err != nil {
		panic("mapview: built-in font: " + err.Error())
	}
	return f
}

type faceKey struct {
	bold bool
	size int
}

// textFace caches rendered glyphs: a map draws the same few characters
// hundreds of times, always at whole-pixel positions.
type textFace struct {
	bold   bool
	size   int
	face   font.Face
	ascent int
	height int
	glyphs map[rune]glyph
}

type glyph struct {
	offset  image.Point // of the mask's top-left corner from the dot
	mask    *image.Alpha
	advance int
}

// face returns the regular or bold face at a pixel size.
func (c *canvas) face(bold bool, size int) *textFace {
	size = max(size, 6)
	k := faceKey{bold, size}
	if f, ok := c.faces[k]; ok {
		return f
	}
	src := regularFont
	if bold {
		src = boldFont
	}
	// A face of a built-in font at a positive size cannot fail.
	ff, _ := opentype.NewFace(src, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	m := ff.Metrics()
	f := &textFace{bold: bold, size: size, face: ff, ascent: m.Ascent.Ceil(), height: m.Ascent.Ceil() + m.Descent.Ceil(), glyphs: map[rune]glyph{}}
	c.faces[k] = f
	return f
}

func (f *textFace) glyph(r rune) glyph {
	if g, ok := f.glyphs[r]; ok {
		return g
	}
	dr, mask, mp, adv, ok := f.face.Glyph(fixed.Point26_6{}, r)
	if !ok {
		dr, mask, mp, adv, _ = f.face.Glyph(fixed.Point26_6{}, '?')
	}
	m := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
	if mask != nil {
		draw.Draw(m, m.Bounds(), mask, mp, draw.Src)
	}
	g := glyph{offset: dr.Min, mask: m, advance: adv.Round()}
	f.glyphs[r] = g
	return g
}

// width is the advance of s in pixels.
func (f *textFace) width(s string) int {
	w := 0
	for _, r := range s {
		w += f.glyph(r).advance
	}
	return w
}

// text draws s with its baseline at y, starting at x.
func (c *canvas) text(f *textFace, s string, x, y float64, col color.RGBA) {
	if c.svg != nil {
		c.svg.text(f, s, x, y, col, false)
		return
	}
	dot := image.Point{int(math.Round(x)), int(math.Round(y))}
	for _, r := range s {
		g := f.glyph(r)
		c.paintMask(col, g.mask, dot.Add(g.offset), true)
		dot.X += g.advance
	}
}

// textCentred draws s centred on x, with its capitals centred on y.
func (c *canvas) textCentred(f *textFace, s string, x, y float64, col color.RGBA) {
	if c.svg != nil {
		c.svg.text(f, s, x, y+capHalf(f), col, true)
		return
	}
	c.text(f, s, x-float64(f.width(s))/2, y+capHalf(f), col)
}

// digitRows are the digits 0 to 9 in a 3 by 5 pixel font, row by row from
// the top, a bit per pixel from the left: crisp and legible at the size of
// hex numbers, where a font's smoothed glyphs blur.
var digitRows = [10][5]uint8{
	{7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 3, 1, 7}, {5, 5, 7, 1, 1},
	{7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 2, 2}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
}

// pixelDigits writes a number of digits in digitRows, each pixel k by k,
// centred on x and y, in col at its opacity.
func (c *canvas) pixelDigits(s string, x, y float64, k int, col color.RGBA) {
	w := (4*len(s) - 1) * k
	x0, y0 := int(math.Round(x))-w/2, int(math.Round(y))-5*k/2
	for i, d := range s {
		if d < '0' || d > '9' {
			continue
		}
		for row, bits := range digitRows[d-'0'] {
			for b := range 3 {
				if bits&(4>>b) == 0 {
					continue
				}
				px := x0 + (4*i+b)*k
				for dy := range k {
					c.blendSpan(col, px, px+k, y0+row*k+dy)
				}
			}
		}
	}
}

// capHalf is half the height of a capital letter, to centre text vertically.
func capHalf(f *textFace) float64 { return float64(f.ascent) * 0.36 }

// fit returns the largest face from size down to smallest in which s fits width.
func (c *canvas) fit(bold bool, size, smallest int, s string, width float64) *textFace {
	for ; size > smallest; size-- {
		if f := c.face(bold, size); float64(f.width(s)) <= width {
			return f
		}
	}
	return c.face(bold, smallest)
}

// clip shortens s with an ellipsis until it fits width in f.
func clip(f *textFace, s string, width float64) string {
	if float64(f.width(s)) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && float64(f.width(string(r)+"…")) > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

func rgb(hex uint32) color.RGBA {
	return color.RGBA{uint8(hex >> 16), uint8(hex >> 8), uint8(hex), 0xff}
}

// withAlpha returns col at opacity a (0-255). Unlike color.RGBA's
// convention the colour is not premultiplied: the canvas blends it itself.
func withAlpha(col color.RGBA, a uint8) color.RGBA {
	col.A = a
	return col
}
