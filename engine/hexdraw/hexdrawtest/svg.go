// Package hexdrawtest checks the pictures of hexdraw in the tests of the
// packages that draw with it.
package hexdrawtest

import (
	"bytes"
	"encoding/xml"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"fieldpost/engine/hexdraw"
)

// CheckSVG fails t unless svg is well-formed XML whose root is an svg
// element, with no script, event handler or link; it returns the texts.
func CheckSVG(t testing.TB, svg []byte) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	var texts []string
	depth, inText := 0, false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 && tok.Name.Local != "svg" {
				t.Fatalf("root element %q", tok.Name.Local)
			}
			depth++
			if tok.Name.Local == "script" || tok.Name.Local == "a" || tok.Name.Local == "foreignObject" {
				t.Errorf("SVG holds a <%s>", tok.Name.Local)
			}
			for _, a := range tok.Attr {
				if strings.HasPrefix(a.Name.Local, "on") || a.Name.Local == "href" {
					t.Errorf("SVG <%s> has attribute %s", tok.Name.Local, a.Name.Local)
				}
			}
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			depth--
			inText = false
		case xml.CharData:
			if inText {
				texts = append(texts, string(tok))
			}
		}
	}
	if depth != 0 {
		t.Fatal("SVG ends inside an element")
	}
	return texts
}

// SVGTexts are the texts of a hexdraw.Picture's SVG with their boxes, as
// the picture's letters take them (7 x 13, the baseline 11 below the top).
func SVGTexts(svg []byte) map[string][]hexdraw.Box {
	out := map[string][]hexdraw.Box{}
	for _, m := range svgText.FindAllSubmatch(svg, -1) {
		x, _ := strconv.Atoi(string(m[1]))
		y, _ := strconv.Atoi(string(m[2]))
		s := string(m[3])
		out[s] = append(out[s], hexdraw.Box{X0: float64(x), Y0: float64(y - 11 + 1), X1: float64(x + hexdraw.TextWidth(s)), Y1: float64(y - 11 + 12)})
	}
	return out
}

var svgText = regexp.MustCompile(`<text[^>]*? x="(-?\d+)" y="(-?\d+)"[^>]*>([^<]*)</text>`)
