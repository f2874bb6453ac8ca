package hexdraw

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// WritePNG's file reads back as the same pixels and palette, at 4 bits a
// pixel (16 colours, an odd width) and at 8 (more colours).
func TestWritePNGReadsBack(t *testing.T) {
	for _, colours := range []int{2, 16, 17, 200} {
		pal := make(color.Palette, colours)
		for i := range pal {
			pal[i] = color.RGBA{uint8(i), uint8(255 - i), uint8(i * 7), 0xff}
		}
		img := image.NewPaletted(image.Rect(0, 0, 37, 11), pal)
		for i := range img.Pix {
			img.Pix[i] = uint8(i * 13 % colours)
		}
		var b bytes.Buffer
		if err := WritePNG(&b, img, 5); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("%d colours: %v", colours, err)
		}
		back, ok := got.(*image.Paletted)
		if !ok || !bytes.Equal(back.Pix, img.Pix) || len(back.Palette) != colours {
			t.Errorf("%d colours: the picture read back differs", colours)
			continue
		}
		for i := range pal {
			r0, g0, b0, _ := back.Palette[i].RGBA()
			r1, g1, b1, _ := pal[i].RGBA()
			if r0 != r1 || g0 != g1 || b0 != b1 {
				t.Errorf("%d colours: palette entry %d is %v, want %v", colours, i, back.Palette[i], pal[i])
				break
			}
		}
	}
	if err := WritePNG(&bytes.Buffer{}, image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.Black}), 12); err == nil {
		t.Error("zlib level 12 is taken")
	}
}
