package engine

import (
	"strings"
	"testing"
)

// The player's text comes back with each problem in comment lines under
// its line, no line longer than a mail program wraps, those about the
// orders as a whole on top, blank lines around the text left out.
func TestAnnotate(t *testing.T) {
	text := "\n\nBN 743 M\n  A 0303 0909\n  B 0304\n\n"
	problems := []Problem{
		{Line: 4, Text: "0909 is not adjacent to 0303: a path lists every hex in turn, from where the stand stands", Rule: "2", Hint: "did you mean 0403?"},
		{Line: 0, Text: "no PRIORITY line"},
	}
	got := Annotate(text, problems)
	want := "#!! ERROR: no PRIORITY line\n" +
		"BN 743 M\n" +
		"  A 0303 0909\n" +
		"  #!! ERROR above: 0909 is not adjacent to 0303: a path lists every\n" +
		"  #!!   hex in turn, from where the stand stands [§2]; did you mean\n" +
		"  #!!   0403?\n" +
		"  B 0304\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > annotationWidth {
			t.Errorf("line longer than %d: %q", annotationWidth, l)
		}
	}
}

// One wording for every system: the count, each problem under its line
// quoted, and past max only a count.
func TestRefusal(t *testing.T) {
	text := "BN 743 M\n  A 0303 0909\n  Q 0101\n"
	problems := []Problem{{Line: 2, Text: "0909 is not adjacent to 0303", Rule: "§V.4"}, {Line: 3, Text: "no stand Q"}}
	got := Refusal(text, problems, 1)
	for _, want := range []string{"These orders were NOT accepted: 2 errors. Nothing has changed.", "line 2: A 0303 0909\n  0909 is not adjacent to 0303 [§V.4]", "... and 1 more error, not listed"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "no stand Q") {
		t.Errorf("lists past max:\n%s", got)
	}
}
