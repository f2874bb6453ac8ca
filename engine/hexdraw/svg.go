package hexdraw

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"strconv"
)

// SVG writes the picture as an SVG file of the same drawing: shapes of
// one style in a row share one path, texts one group. It holds no script
// and links to nothing.
func (p *Picture) SVG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" shape-rendering="crispEdges">`+"\n", p.W, p.H, p.W, p.H)
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="%s"/>`+"\n", p.W, p.H, p.hex(0))
	var num []byte
	for i := 0; i < len(p.items); {
		it := p.items[i]
		j := i + 1
		for j < len(p.items) && sameStyle(it, p.items[j]) {
			j++
		}
		switch it.kind {
		case fill:
			fmt.Fprintf(bw, `<path fill="%s" d="`, p.hex(it.col))
		case stroke:
			fmt.Fprintf(bw, `<path fill="none" stroke="%s" stroke-width="%s" stroke-linejoin="round" d="`, p.hex(it.col), strconv.FormatFloat(it.width, 'f', -1, 64))
		case text:
			fmt.Fprintf(bw, `<g font-family="monospace" font-size="11.7" fill="%s"`, p.hex(it.col))
			if it.halo > 0 {
				fmt.Fprintf(bw, ` stroke="%s" stroke-width="2.5" paint-order="stroke"`, p.hex(Colour(it.halo-1)))
			}
			bw.WriteString(">")
		case digits:
			fmt.Fprintf(bw, `<g font-family="monospace" font-size="6.7" fill="%s">`, p.hex(it.col))
		}
		for _, s := range p.items[i:j] {
			switch s.kind {
			case fill, stroke:
				for k, q := range s.pts {
					if k == 0 {
						bw.WriteByte('M')
					} else {
						bw.WriteByte('L')
					}
					num = coord(num[:0], q.X)
					num = append(num, ' ')
					num = coord(num, q.Y)
					bw.Write(num)
				}
				if s.kind == fill {
					bw.WriteByte('Z')
				}
			case text, digits:
				baseline := textAscent
				if s.kind == digits {
					baseline = DigitHeight
				}
				fmt.Fprintf(bw, `<text x="%d" y="%d">`, int(s.pts[0].X), int(s.pts[0].Y)+baseline)
				if err := xml.EscapeText(bw, []byte(s.text)); err != nil {
					return fmt.Errorf("map picture: %w", err)
				}
				bw.WriteString("</text>")
			}
		}
		if it.kind == text || it.kind == digits {
			bw.WriteString("</g>\n")
		} else {
			bw.WriteString(`"/>` + "\n")
		}
		i = j
	}
	bw.WriteString("</svg>\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("map picture: %w", err)
	}
	return nil
}

func sameStyle(a, b item) bool {
	return a.kind == b.kind && a.col == b.col && a.width == b.width && a.halo == b.halo
}

// coord writes a coordinate to a tenth of a pixel.
func coord(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, float64(int(v*10+0.5*sign(v)))/10, 'f', -1, 64)
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

func (p *Picture) hex(c Colour) string {
	r, g, b, _ := color.NRGBAModel.Convert(p.Palette[c]).RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}
