package hexdraw

import (
	"fmt"
	"image/color"
	"io"
	"strconv"
)

// SVG writes the picture as an SVG file of the same drawing (SVGWriter:
// shapes of one style in a row share one path, texts one group). It holds
// no script and links to nothing.
func (p *Picture) SVG(w io.Writer) error {
	sw := NewSVGWriter(p.W, p.H, `font-family="monospace" shape-rendering="crispEdges"`)
	sw.rect(0, 0, float64(p.W), float64(p.H), p.rgba(0))
	type lineStyle struct {
		col   Colour
		width float64
	}
	lines := map[lineStyle]string{} // the attributes of each style of line
	for _, it := range p.items {
		switch it.kind {
		case fill:
			sw.fill(p.rgba(it.col), [][]Pt{it.pts}, true)
		case stroke:
			style := lineStyle{it.col, it.width}
			if lines[style] == "" {
				// As the PNG paints them: joints round, ends square to the line.
				lines[style] = `fill="none" stroke="` + hexColour(p.rgba(it.col)) + `" stroke-width="` + strconv.FormatFloat(it.width, 'f', -1, 64) + `" stroke-linejoin="round"`
			}
			sw.line(lines[style], it.pts, false)
		case text:
			attrs := sw.fillAttrs(p.rgba(it.col)) + ` font-size="11.7"`
			if it.halo > 0 {
				attrs += ` stroke="` + hexColour(p.rgba(Colour(it.halo-1))) + `" stroke-width="2.5" paint-order="stroke"`
			}
			sw.textIn(attrs, it.text, it.pts[0].X, it.pts[0].Y+textAscent, TextWidth(it.text))
		case digits:
			sw.textIn(sw.fillAttrs(p.rgba(it.col))+` font-size="6.7"`, it.text, it.pts[0].X, it.pts[0].Y+DigitHeight, DigitAdvance*len(it.text)-1)
		}
	}
	if _, err := w.Write(sw.Bytes()); err != nil {
		return fmt.Errorf("map picture: %w", err)
	}
	return nil
}

// rgba is palette entry c as an opaque colour.
func (p *Picture) rgba(c Colour) color.RGBA {
	col := color.RGBAModel.Convert(p.Palette[c]).(color.RGBA)
	col.A = 0xff
	return col
}
