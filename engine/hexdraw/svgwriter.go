package hexdraw

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
)

// SVGWriter writes the drawing as SVG: plain shapes and text with their
// colours as attributes (no style sheet, no script), a run of shapes of
// one look in one group, and the fills of a group in one path.
type SVGWriter struct {
	defined map[string]bool // the stamps drawn once, by id
	fills   map[color.RGBA]string
	scratch bytes.Buffer // an element being written
	b       bytes.Buffer
	group   string       // the attributes of the open group, "" for none
	path    bytes.Buffer // the open group's outlines, as one path
	items   []string     // the open group's other elements
}

// GoFonts sets the text in the families of a Canvas: the Go fonts the
// PNG is drawn with come first, and every text gives its width, so that a
// stand-in font keeps the layout.
const GoFonts = `font-family="Go, 'DejaVu Sans', Arial, Helvetica, sans-serif"`

// NewSVGWriter starts an SVG document of width x height pixels; attrs
// are its root's further attributes (GoFonts, say).
func NewSVGWriter(width, height int, attrs string) *SVGWriter {
	w := &SVGWriter{defined: map[string]bool{}, fills: map[color.RGBA]string{}}
	fmt.Fprintf(&w.b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" %s>`+"\n",
		width, height, width, height, attrs)
	return w
}

// Bytes ends the document and returns it.
func (w *SVGWriter) Bytes() []byte {
	w.endGroup()
	w.b.WriteString("</svg>\n")
	return w.b.Bytes()
}

// setGroup starts a group of elements with attrs, ending the one before
// unless it has the same.
func (w *SVGWriter) setGroup(attrs string) {
	if attrs == w.group {
		return
	}
	w.endGroup()
	w.group = attrs
}

// endGroup writes the open group: a lone element carries the attributes
// itself.
func (w *SVGWriter) endGroup() {
	if w.path.Len() > 0 {
		w.items = append(w.items, `<path d="`+w.path.String()+`"/>`)
		w.path.Reset()
	}
	switch {
	case len(w.items) == 0:
	case w.group == "":
		for _, it := range w.items {
			w.b.WriteString(it)
		}
	case len(w.items) == 1:
		it := w.items[0]
		name := strings.IndexAny(it, " >")
		w.b.WriteString(it[:name] + " " + w.group + it[name:])
	default:
		w.b.WriteString("<g " + w.group + ">")
		for _, it := range w.items {
			w.b.WriteString(it)
		}
		w.b.WriteString("</g>")
	}
	if len(w.items) > 0 {
		w.b.WriteByte('\n')
	}
	w.items = w.items[:0]
}

// fillAttrs are the attributes of a fill in col, made once a colour.
func (w *SVGWriter) fillAttrs(col color.RGBA) string {
	if a, ok := w.fills[col]; ok {
		return a
	}
	a := fillAttrsOf(col)
	w.fills[col] = a
	return a
}

func fillAttrsOf(col color.RGBA) string {
	s := `fill="` + hexColour(col) + `"`
	if col.A != 0xff {
		s += ` fill-opacity="` + num(float64(col.A)/255) + `"`
	}
	return s
}

func hexColour(col color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", col.R, col.G, col.B) }

// num writes a coordinate to a tenth of a pixel, as short as it goes.
func num(v float64) string { return string(appendNum(nil, v)) }

// appendNum appends num(v) to b: written from whole tenths or
// hundredths, which is what strconv's shortest form of them gives, in a
// fraction of its time.
func appendNum(b []byte, v float64) []byte {
	k, places := math.Round(v*100), 2
	if math.Abs(k) >= 100 {
		k, places = math.Round(k/100*10), 1
	}
	if math.Signbit(k) {
		b = append(b, '-')
	}
	n := int64(math.Abs(k))
	unit := int64(10)
	if places == 2 {
		unit = 100
	}
	b = strconv.AppendInt(b, n/unit, 10)
	frac := n % unit
	if frac == 0 {
		return b
	}
	b = append(b, '.')
	if places == 2 {
		b = append(b, byte('0'+frac/10))
		frac %= 10
		if frac == 0 {
			return b
		}
	}
	return append(b, byte('0'+frac))
}

// pathData writes a polygon in relative moves.
func pathData(b *bytes.Buffer, p []Pt) {
	r := func(v float64) float64 { return math.Round(v*10) / 10 }
	var digits [32]byte
	x, y := r(p[0].X), r(p[0].Y)
	b.WriteByte('M')
	b.Write(appendNum(digits[:0], x))
	b.WriteByte(' ')
	b.Write(appendNum(digits[:0], y))
	b.WriteByte('l')
	// Numbers are parted by a space, or by the sign of a negative one.
	for i, q := range p[1:] {
		nx, ny := r(q.X), r(q.Y)
		for j, v := range [2]float64{nx - x, ny - y} {
			if (i > 0 || j > 0) && v >= 0 {
				b.WriteByte(' ')
			}
			b.Write(appendNum(digits[:0], v))
		}
		x, y = nx, ny
	}
	b.WriteByte('z')
}

// Fill adds polygons to the group's path; unless merge, in a path of
// their own (a ring's hole must not cut the shapes around it).
func (w *SVGWriter) fill(col color.RGBA, polys [][]Pt, merge bool) {
	w.setGroup(w.fillAttrs(col))
	d := &w.path
	var own bytes.Buffer
	if !merge {
		d = &own
	}
	for _, p := range polys {
		if len(p) >= 3 {
			pathData(d, p)
		}
	}
	if !merge {
		w.items = append(w.items, `<path d="`+own.String()+`"/>`)
	}
}

// use places a copy of the stamp name at o, drawing it (around 0,0) the
// first time.
func (w *SVGWriter) use(name string, o Pt, draw func(o Pt)) {
	w.setGroup("")
	if !w.defined[name] {
		w.defined[name] = true
		w.endGroup()
		w.b.WriteString(`<defs><g id="` + name + `">`)
		draw(Pt{})
		w.setGroup("")
		w.endGroup()
		w.b.WriteString("</g></defs>\n")
	}
	w.items = append(w.items, fmt.Sprintf(`<use href="#%s" x="%s" y="%s"/>`, name, num(o.X), num(o.Y)))
}

func (w *SVGWriter) circle(col color.RGBA, c Pt, r float64) {
	w.setGroup(w.fillAttrs(col))
	w.items = append(w.items, fmt.Sprintf(`<circle cx="%s" cy="%s" r="%s"/>`, num(c.X), num(c.Y), num(r)))
}

func (w *SVGWriter) rect(x0, y0, x1, y1 float64, col color.RGBA) {
	w.setGroup(w.fillAttrs(col))
	w.items = append(w.items, fmt.Sprintf(`<rect x="%s" y="%s" width="%s" height="%s"/>`, num(x0), num(y0), num(x1-x0), num(y1-y0)))
}

func (w *SVGWriter) stroke(col color.RGBA, width float64, pts []Pt, closed bool) {
	attrs := `fill="none" stroke="` + hexColour(col) + `" stroke-width="` + num(width) + `"`
	if col.A != 0xff {
		attrs += ` stroke-opacity="` + num(float64(col.A)/255) + `"`
	}
	if width >= 2 {
		attrs += ` stroke-linecap="round" stroke-linejoin="round"`
	}
	w.line(attrs, pts, closed)
}

// line adds a polyline to the group of attrs.
func (w *SVGWriter) line(attrs string, pts []Pt, closed bool) {
	w.setGroup(attrs)
	pathData(&w.path, pts)
	if !closed {
		w.path.Truncate(w.path.Len() - 1) // an open line has no z
	}
}

// text writes s in f with its baseline at y, from x or centred on x.
func (w *SVGWriter) text(f *TextFace, s string, x, y float64, col color.RGBA, centred bool) {
	if s == "" {
		return
	}
	attrs := w.fillAttrs(col) + ` font-size="` + strconv.Itoa(f.Size) + `"`
	if f.Bold {
		attrs += ` font-weight="bold"`
	}
	if centred {
		attrs += ` text-anchor="middle"`
	}
	w.textIn(attrs, s, x, y, f.Width(s))
}

// textIn writes s with its baseline at y from x, in the group of attrs:
// width is its width in the picture's font, given for more than a few
// letters, which a browser without that font keeps by squeezing or
// spreading its own.
func (w *SVGWriter) textIn(attrs, s string, x, y float64, width int) {
	w.setGroup(attrs)
	b := &w.scratch
	b.Reset()
	b.WriteString(`<text x="`)
	b.Write(appendNum(b.AvailableBuffer(), x))
	b.WriteString(`" y="`)
	b.Write(appendNum(b.AvailableBuffer(), y))
	b.WriteByte('"')
	if len([]rune(s)) > 4 {
		b.WriteString(` textLength="`)
		b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(width), 10))
		b.WriteString(`" lengthAdjust="spacingAndGlyphs"`)
	}
	b.WriteByte('>')
	xml.EscapeText(b, []byte(s))
	b.WriteString("</text>")
	w.items = append(w.items, b.String())
}
