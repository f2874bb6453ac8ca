package hexdraw_test

import (
	"bytes"
	"image/color"
	"strings"
	"testing"

	"fieldpost/engine/hexdraw"
	"fieldpost/engine/hexdraw/hexdrawtest"
)

// The SVG is well-formed XML with no script, its text escaped.
func TestSVGIsWellFormed(t *testing.T) {
	p := hexdraw.New(60, 40, color.Palette{color.White, color.Black, color.RGBA{0xcc, 0x20, 0x20, 0xff}})
	p.Fill(1, hexdraw.Pt{1, 1}, hexdraw.Pt{20, 1}, hexdraw.Pt{10, 15})
	p.Fill(1, hexdraw.Pt{30, 1}, hexdraw.Pt{50, 1}, hexdraw.Pt{40, 15})
	p.Line(2, 2.5, hexdraw.Pt{0, 30}, hexdraw.Pt{59, 30})
	p.Text(1, 0, 2, 20, `<b>&"x"`)
	var buf bytes.Buffer
	if err := p.SVG(&buf); err != nil {
		t.Fatal(err)
	}
	texts := hexdrawtest.CheckSVG(t, buf.Bytes())
	if len(texts) != 1 || texts[0] != `<b>&"x"` {
		t.Errorf("text read back %q", texts)
	}
	if n := strings.Count(buf.String(), "<path"); n != 2 {
		t.Errorf("%d paths, want the two triangles in one and the line:\n%s", n, buf.String())
	}
}

// The SVG's texts stand where the PNG's letters do, halo or not.
func TestSVGTextsStandAsPainted(t *testing.T) {
	p := hexdraw.New(200, 60, color.Palette{color.White, color.Black})
	p.Text(1, 0, 12, 20, "Foggia")
	p.Text(1, hexdraw.NoHalo, 40, 3, "Lucera")
	var buf bytes.Buffer
	if err := p.SVG(&buf); err != nil {
		t.Fatal(err)
	}
	got := hexdrawtest.SVGTexts(buf.Bytes())
	for s, want := range map[string]hexdraw.Box{"Foggia": {X0: 12, Y0: 21, X1: 54, Y1: 32}, "Lucera": {X0: 40, Y0: 4, X1: 82, Y1: 15}} {
		if len(got[s]) != 1 || got[s][0] != want {
			t.Errorf("%s: boxes %v, want %v", s, got[s], want)
		}
	}
}
