package hexdraw

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Fonts: the Go fonts are compiled in, so the picture needs no font files.
var (
	regularFont = mustParseFont(goregular.TTF)
	boldFont    = mustParseFont(gobold.TTF)
)

func mustParseFont(ttf []byte) *opentype.Font {
	f, err := opentype.Parse(ttf)
	if err != nil {
		panic("hexdraw: built-in font: " + err.Error())
	}
	return f
}

type faceKey struct {
	bold  bool
	size  int
	pixel bool // basicfont's 7x13 letters (PixelFace)
}

// TextFace caches rendered glyphs: a map draws the same few characters
// hundreds of times, always at whole-pixel positions.
type TextFace struct {
	Bold   bool
	Size   int // pixels
	Ascent int // pixels above the baseline
	Height int // ascent and descent
	face   font.Face
	glyphs map[rune]glyph
}

type glyph struct {
	offset  image.Point // of the mask's top-left corner from the dot
	mask    *image.Alpha
	advance int
}

// Face returns the regular or bold face at a pixel size.
func (c *Canvas) Face(bold bool, size int) *TextFace {
	size = max(size, 6)
	k := faceKey{bold: bold, size: size}
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
	f := &TextFace{Bold: bold, Size: size, face: ff, Ascent: m.Ascent.Ceil(), Height: m.Ascent.Ceil() + m.Descent.Ceil(), glyphs: map[rune]glyph{}}
	c.faces[k] = f
	return f
}

// PixelFace is basicfont's face of 7x13 letters, drawn whole pixels:
// TextAdvance wide, textAscent above the baseline.
func (c *Canvas) PixelFace() *TextFace {
	k := faceKey{pixel: true}
	if f, ok := c.faces[k]; ok {
		return f
	}
	f := &TextFace{Size: TextHeight, face: basicfont.Face7x13, Ascent: textAscent, Height: TextHeight, glyphs: map[rune]glyph{}}
	c.faces[k] = f
	return f
}

func (f *TextFace) glyph(r rune) glyph {
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

// Width is the advance of s in pixels.
func (f *TextFace) Width(s string) int {
	w := 0
	for _, r := range s {
		w += f.glyph(r).advance
	}
	return w
}

// Text draws s with its baseline at y, starting at x.
func (c *Canvas) Text(f *TextFace, s string, x, y float64, col color.RGBA) {
	if c.SVG != nil {
		c.SVG.text(f, s, x, y, col, false)
		return
	}
	dot := image.Point{int(math.Round(x)), int(math.Round(y))}
	for _, r := range s {
		g := f.glyph(r)
		c.paintMask(col, g.mask, dot.Add(g.offset), true)
		dot.X += g.advance
	}
}

// TextCentred draws s centred on x, with its capitals centred on y.
func (c *Canvas) TextCentred(f *TextFace, s string, x, y float64, col color.RGBA) {
	if c.SVG != nil {
		c.SVG.text(f, s, x, y+CapHalf(f), col, true)
		return
	}
	c.Text(f, s, x-float64(f.Width(s))/2, y+CapHalf(f), col)
}

// digitRows are the digits 0 to 9 in a 3 by 5 pixel font, row by row from
// the top, a bit per pixel from the left: crisp and legible at the size of
// hex numbers, where a font's smoothed glyphs blur.
var digitRows = [10][5]uint8{
	{7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
	{7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 2, 2, 2}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
}

// PixelDigits writes a number of digits in digitRows, each pixel k by k,
// centred on x and y, in col at its opacity.
func (c *Canvas) PixelDigits(s string, x, y float64, k int, col color.RGBA) {
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
					c.BlendSpan(col, px, px+k, y0+row*k+dy)
				}
			}
		}
	}
}

// CapHalf is half the height of a capital letter, to centre text vertically.
func CapHalf(f *TextFace) float64 { return float64(f.Ascent) * 0.36 }

// Fit returns the largest face from size down to smallest in which s fits width.
func (c *Canvas) Fit(bold bool, size, smallest int, s string, width float64) *TextFace {
	for ; size > smallest; size-- {
		if f := c.Face(bold, size); float64(f.Width(s)) <= width {
			return f
		}
	}
	return c.Face(bold, smallest)
}

// Clip shortens s with an ellipsis until it fits width in f.
func Clip(f *TextFace, s string, width float64) string {
	if float64(f.Width(s)) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && float64(f.Width(string(r)+"…")) > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}
