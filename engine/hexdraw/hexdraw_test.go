package hexdraw

import (
	"bytes"
	"image/color"
	"image/png"
	"testing"

	"fieldpost/engine/hex"
)

var testPalette = color.Palette{
	color.RGBA{0xff, 0xff, 0xff, 0xff}, color.RGBA{0, 0, 0, 0xff}, color.RGBA{0xcc, 0x20, 0x20, 0xff},
}

// The PNG reads back as the picture painted: same size, same pixels,
// in 4 bits a pixel and in 8.
func TestPNGReadsBack(t *testing.T) {
	for _, pal := range []color.Palette{testPalette, append(append(color.Palette{}, testPalette...), make(color.Palette, 20)...)} {
		for i := range pal {
			if pal[i] == nil {
				pal[i] = color.RGBA{uint8(i), uint8(i), uint8(i), 0xff}
			}
		}
		p := New(37, 21, pal)
		p.Fill(1, Pt{2, 2}, Pt{30, 4}, Pt{12, 19})
		p.Line(2, 3, Pt{0, 20}, Pt{36, 0})
		p.Text(1, 0, 3, 5, "0405")
		var buf bytes.Buffer
		if err := p.PNG(&buf); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		want := p.Image()
		if got.Bounds() != want.Bounds() {
			t.Fatalf("%d colours: bounds %v, want %v", len(pal), got.Bounds(), want.Bounds())
		}
		for y := range 21 {
			for x := range 37 {
				r1, g1, b1, _ := got.At(x, y).RGBA()
				r2, g2, b2, _ := want.At(x, y).RGBA()
				if r1 != r2 || g1 != g2 || b1 != b2 {
					t.Fatalf("%d colours: pixel %d,%d is %v, want %v", len(pal), x, y, got.At(x, y), want.At(x, y))
				}
			}
		}
	}
}

// A filled shape covers the pixels whose centres it holds, and no more.
func TestFillIsFlat(t *testing.T) {
	p := New(10, 10, testPalette)
	p.Rect(2, 2, 3, 6, 5)
	img := p.Image()
	for y := range 10 {
		for x := range 10 {
			want := uint8(0)
			if x >= 2 && x < 6 && y >= 3 && y < 5 {
				want = 2
			}
			if got := img.ColorIndexAt(x, y); got != want {
				t.Errorf("pixel %d,%d: colour %d, want %d", x, y, got, want)
			}
		}
	}
}

// A label stays whole inside the picture, however near the edge its
// place.
func TestLabelIsNeverCut(t *testing.T) {
	p := New(100, 40, testPalette)
	p.Label(1, 0, 98, 39, "Manfredonia")
	p.Label(1, 0, 0, -5, "Barletta")
	for _, it := range p.items {
		x, y := it.pts[0].X, it.pts[0].Y
		if x < 1 || y < 0 || x+float64(TextWidth(it.text)) > 99 || y+TextHeight > 40 {
			t.Errorf("%q at %v,%v leaves the 100x40 picture", it.text, x, y)
		}
	}
}

// Hexes meet: a hexside's two corners are corners of both hexes.
func TestLayoutSide(t *testing.T) {
	l := Layout{R: 20, Margin: 3}
	for _, pair := range [][2]string{{"0202", "0302"}, {"0303", "0302"}, {"0202", "0203"}, {"0202", "0102"}} {
		a, b := hex.MustParse(pair[0]), hex.MustParse(pair[1])
		s1, s2 := l.Side(a, b)
		for _, c := range []Pt{s1, s2} {
			if !near(c, l.Corners(a, l.R)) || !near(c, l.Corners(b, l.R)) {
				t.Errorf("%s-%s: %v is not a corner of both", pair[0], pair[1], c)
			}
		}
	}
}

func near(p Pt, cs []Pt) bool {
	for _, c := range cs {
		if (p.X-c.X)*(p.X-c.X)+(p.Y-c.Y)*(p.Y-c.Y) < 0.01 {
			return true
		}
	}
	return false
}

// A picture whose base was painted before is the same, pixel for pixel,
// as when its base is painted afresh; another key paints its own base.
func TestBaseIsKept(t *testing.T) {
	draw := func(key string, baseColour Colour) []byte {
		p := New(20, 10, testPalette)
		p.Rect(baseColour, 0, 0, 20, 10)
		p.Base(key)
		p.Rect(1, 5, 2, 9, 6)
		return p.Image().Pix
	}
	first := draw("test red", 2)
	if again := draw("test red", 2); !bytes.Equal(first, again) {
		t.Error("the kept base differs from the base painted afresh")
	}
	other := draw("test black", 1)
	if bytes.Equal(first, other) || other[0] != 1 {
		t.Error("a base of another key is taken from the cache")
	}
}
