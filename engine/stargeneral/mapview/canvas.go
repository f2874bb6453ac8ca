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

// canvas draws anti-aliased shapes and text on an RGBA image. Every shape is
// rasterised in its own bounding box so that thousands of small shapes on a
// large map stay cheap.
type canvas struct {
	img   *image.RGBA
	ras   vector.Rasterizer
	faces map[faceKey]*textFace
}

// newCanvas returns a canvas whose faces can measure text before the
// picture's size is known; paper then gives it its picture.
func newCanvas() *canvas { return &canvas{faces: map[faceKey]*textFace{}} }

// fillRect fills an axis-aligned rectangle with exact pixel edges.
func (c *canvas) fillRect(x0, y0, x1, y1 int, col color.Color) {
	draw.Draw(c.img, image.Rect(x0, y0, x1, y1), image.NewUniform(col), image.Point{}, draw.Over)
}

// fill paints the union of the given polygons. Each polygon is turned to the
// same winding so that overlapping parts add up instead of cancelling.
func (c *canvas) fill(col color.Color, polys ...[]pt) {
	c.fillPaths(col, orient(polys, 1))
}

// fillRing paints outer minus inner (a band with a hole).
func (c *canvas) fillRing(col color.Color, outer, inner []pt) {
	c.fillPaths(col, append(orient([][]pt{outer}, 1), orient([][]pt{inner}, -1)...))
}

func (c *canvas) fillPaths(col color.Color, polys [][]pt) {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, p := range polys {
		for _, q := range p {
			minX, minY = math.Min(minX, q.x), math.Min(minY, q.y)
			maxX, maxY = math.Max(maxX, q.x), math.Max(maxY, q.y)
		}
	}
	r := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY))).Intersect(c.img.Bounds())
	if r.Empty() {
		return
	}
	c.ras.Reset(r.Dx(), r.Dy())
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
	c.ras.Draw(c.img, r, image.NewUniform(col), image.Point{})
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
func (c *canvas) stroke(col color.Color, width float64, pts ...pt) {
	c.fill(col, strokePolys(width, pts)...)
}

// strokeClosed paints the outline of a closed polygon.
func (c *canvas) strokeClosed(col color.Color, width float64, pts []pt) {
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
		for i := 0; i <= 4; i++ {
			a := (k.start + float64(i)*22.5) * math.Pi / 180
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
	f := &textFace{face: ff, ascent: m.Ascent.Ceil(), height: m.Ascent.Ceil() + m.Descent.Ceil(), glyphs: map[rune]glyph{}}
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
func (c *canvas) text(f *textFace, s string, x, y float64, col color.Color) {
	dot := image.Point{int(math.Round(x)), int(math.Round(y))}
	src := image.NewUniform(col)
	for _, r := range s {
		g := f.glyph(r)
		at := dot.Add(g.offset)
		draw.DrawMask(c.img, image.Rectangle{at, at.Add(g.mask.Rect.Max)}, src, image.Point{}, g.mask, image.Point{}, draw.Over)
		dot.X += g.advance
	}
}

// textCentred draws s centred on x, with its capitals centred on y.
func (c *canvas) textCentred(f *textFace, s string, x, y float64, col color.Color) {
	c.text(f, s, x-float64(f.width(s))/2, y+capHalf(f), col)
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

// withAlpha returns col at opacity a (0-255), premultiplied as color.RGBA wants.
func withAlpha(col color.RGBA, a uint8) color.RGBA {
	k := float64(a) / 255
	return color.RGBA{uint8(float64(col.R) * k), uint8(float64(col.G) * k), uint8(float64(col.B) * k), a}
}
