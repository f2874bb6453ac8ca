// Package fogtest checks, in the tests of the game families that hide
// information, that nothing a reader receives names or places a unit
// hidden from it, and that its pictures are drawn from its view only.
package fogtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/hexdraw/hexdrawtest"
)

// Secret is a unit a reader must not learn of.
type Secret struct {
	// Names name the unit alone wherever they stand: its side-qualified id
	// ("US:JEEP-1"), its id or name where no unit the reader knows shares
	// it.
	Names []string
	// Unit names the unit beside its hex: its id or name even when a unit
	// the reader knows shares it.
	Unit []string
	Hex  string // where it stands, as the texts write hexes
}

// Leak is where text names or places a secret: the line, and why; "" when
// nowhere. A line places a unit when it gives its hex with a word naming
// it.
func Leak(text string, secrets []Secret) string {
	var lines []string // split when a secret's word is in text at all
	for _, s := range secrets {
		for _, n := range s.Names {
			if !strings.Contains(text, n) {
				continue
			}
			if lines == nil {
				lines = strings.Split(text, "\n")
			}
			for i, line := range lines {
				if word(n).MatchString(line) {
					return fmt.Sprintf("line %d names %s: %s", i+1, n, line)
				}
			}
		}
		if s.Hex == "" || !strings.Contains(text, s.Hex) {
			continue
		}
		for _, n := range s.Unit {
			if !strings.Contains(text, n) {
				continue
			}
			if lines == nil {
				lines = strings.Split(text, "\n")
			}
			for i, line := range lines {
				if word(s.Hex).MatchString(line) && word(n).MatchString(line) {
					return fmt.Sprintf("line %d places %s at %s: %s", i+1, n, s.Hex, line)
				}
			}
		}
	}
	return ""
}

var words = map[string]*regexp.Regexp{}

// word matches w as a whole word: "RS-1" not in "RS-12".
func word(w string) *regexp.Regexp {
	re, ok := words[w]
	if !ok {
		re = regexp.MustCompile(`(^|[^A-Za-z0-9-])` + regexp.QuoteMeta(w) + `($|[^A-Za-z0-9-])`)
		words[w] = re
	}
	return re
}

// Reader is a side, or engine.Public, with the secrets kept from it.
type Reader struct {
	Side    string
	Secrets []Secret
}

// What a reader receives of a position: its situation (the text of its
// mails), its view (situation.json), its order form, its maps.
func CheckPosition(t testing.TB, where string, pos engine.Position, r Reader) {
	t.Helper()
	sit, err := pos.Situation(r.Side)
	if err != nil {
		t.Fatal(err)
	}
	check(t, where+": situation", sit, r)
	view, err := pos.View(r.Side)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(view) {
		t.Fatalf("%s: view of %q is not JSON", where, r.Side)
	}
	// A JSON's fields stand apart: only names count; the family's test
	// checks the units the view holds.
	check(t, where+": situation.json", string(view), r.namesOnly())
	if r.Side != engine.Public {
		check(t, where+": order form", pos.Form(r.Side, "g"), r)
	}
	CheckMaps(t, where+": map", pos.Map, r)
}

// CheckRound checks what a reader receives of a round: its report and the
// maps after it.
func CheckRound(t testing.TB, where string, round engine.Round, r Reader) {
	t.Helper()
	text, err := round.Report(r.Side, engine.RoundMeta{Game: "g", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	check(t, where+": report", text, r)
	CheckMaps(t, where+": round map", round.Map, r)
}

// CheckMaps checks a reader's text map and the text of its SVG picture.
func CheckMaps(t testing.TB, where string, draw func(w io.Writer, side string, f engine.MapFormat) error, r Reader) {
	t.Helper()
	var ascii, svg bytes.Buffer
	if err := draw(&ascii, r.Side, engine.ASCII); err != nil {
		t.Fatal(err)
	}
	check(t, where+" (text)", ascii.String(), r)
	if err := draw(&svg, r.Side, engine.SVG); err != nil {
		t.Fatal(err)
	}
	// The picture labels every hex with its number: only names count.
	check(t, where+" (SVG)", strings.Join(hexdrawtest.CheckSVG(t, svg.Bytes()), "\n"), r.namesOnly())
}

// namesOnly is the reader with its secrets' names, not their hexes.
func (r Reader) namesOnly() Reader {
	names := Reader{Side: r.Side}
	for _, s := range r.Secrets {
		names.Secrets = append(names.Secrets, Secret{Names: s.Names})
	}
	return names
}

func check(t testing.TB, where, text string, r Reader) {
	t.Helper()
	if leak := Leak(text, r.Secrets); leak != "" {
		t.Fatalf("%s for %q: %s\n%s", where, r.Side, leak, text)
	}
}

// SamePictures fails t unless the reader's pictures (SVG, text) of two
// positions are the same bytes: the second is the first with every unit
// hidden from the reader taken away, so a picture that differs shows
// something of them. (The PNG is the SVG's drawing, written otherwise.)
func SamePictures(t testing.TB, where, side string, a, b func(w io.Writer, side string, f engine.MapFormat) error) {
	t.Helper()
	for _, f := range []engine.MapFormat{engine.SVG, engine.ASCII} {
		var pa, pb bytes.Buffer
		if err := a(&pa, side, f); err != nil {
			t.Fatal(err)
		}
		if err := b(&pb, side, f); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(pa.Bytes(), pb.Bytes()) {
			t.Fatalf("%s: the %s picture for %q shows units hidden from it (it changes when they are taken away)", where, f, side)
		}
	}
}
