package mapview

import (
	"bytes"
	"image/color"
	"image/png"
	"testing"

	"fieldpost/engine/hexdraw"
	"fieldpost/engine/stargeneral/rules"
)

// A map drawn over a kept base is the picture drawn afresh, pixel for
// pixel, for every bundled scenario, before and after its first round.
func TestKeptBaseDrawsTheSamePicture(t *testing.T) {
	for _, name := range rules.BundledScenarioNames() {
		sc, err := rules.BundledScenario(name)
		if err != nil {
			t.Fatal(err)
		}
		st := sc.NewGame()
		hexdraw.ForgetBases()
		fresh, err := Render(sc.Ruleset, st, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		kept, err := Render(sc.Ruleset, st, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fresh.Pix, kept.Pix) {
			t.Errorf("%s: the map drawn over the kept base differs", name)
		}
		var a, b bytes.Buffer
		if err := PNG(&a, sc.Ruleset, st, nil, Options{}); err != nil {
			t.Fatal(err)
		}
		hexdraw.ForgetBases()
		if err := PNG(&b, sc.Ruleset, st, nil, Options{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: the PNG over the kept base differs from the PNG drawn afresh", name)
		}
		// The PNG, drawn in a buffer used before, is the picture.
		saved, err := png.Decode(bytes.NewReader(a.Bytes()))
		if err != nil {
			t.Fatalf("%s: the PNG does not decode: %v", name, err)
		}
		if saved.Bounds() != fresh.Bounds() {
			t.Fatalf("%s: the PNG is %v, the picture %v", name, saved.Bounds(), fresh.Bounds())
		}
		for y := range fresh.Bounds().Dy() {
			for x := range fresh.Bounds().Dx() {
				if r1, g1, b1, _ := saved.At(x, y).RGBA(); color.RGBA64Model.Convert(fresh.At(x, y)) != (color.RGBA64{uint16(r1), uint16(g1), uint16(b1), 0xffff}) {
					t.Fatalf("%s: the PNG's pixel %d,%d differs from the picture's", name, x, y)
				}
			}
		}
	}
}
