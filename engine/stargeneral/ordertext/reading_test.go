package ordertext

import (
	"strings"
	"testing"
)

// The habits of players' mails around their orders: greetings, sign-offs,
// signatures and wrapped comments.
func TestOrderBlockBoundaries(t *testing.T) {
	rs, st := testState(t)
	tests := []struct {
		name    string
		body    string
		errors  []string // substrings of the errors, in order
		ignored []int    // the lines read as no order
		moves   int      // stand moves read
	}{
		{name: "greeting starting with a keyword",
			body:  "Turn 1 orders below, thanks\nOrder of battle follows.\nBN I/77 M\n  1A 0304 0303\n",
			moves: 1},
		{name: "sign-off after the orders",
			body:    "BN I/77 M\n  1A 0304 0303\n\nCheers,\nAlice\n[cid:image001.png@01D9B0C0.12345670]\nSent from my iPhone\n",
			ignored: []int{4, 5, 6}, moves: 1},
		{name: "prose between orders stays an error",
			body:   "BN I/77 M\n  1A 0304 0303\nplease be careful\nBN II/77 H\n",
			errors: []string{`"please" is not`}, moves: 1},
		{name: "a typo after the orders stays an error",
			body:   "BN I/77 M\n  1A 0304 0303\nI/77x\n",
			errors: []string{"did you mean I/77?"}, moves: 1},
		{name: "a hex after the orders stays an error",
			body:   "BN I/77 M\n  1A 0304\n0404\n",
			errors: []string{`"0404" is not`}},
		{name: "inline PGP signature",
			body: "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nBN I/77 M\n  1A 0304 0303\n" +
				"-----BEGIN PGP SIGNATURE-----\n\niQEzBAEBCAAdFiEE\nART0zZQ/2pEc=\n=AbCd\n-----END PGP SIGNATURE-----\n",
			moves: 1},
		{name: "wrapped comment tail",
			body: "BN I/77 M\n  1A 0304 0303          # the first stand walks east to the woods at\nthe edge of the map\n" +
				"  # a long comment on a line of its own, which the mail program wrapped\nat 72\n  1B 0305 0405\n",
			ignored: []int{3, 5}, moves: 2},
		{name: "dashes and bullets",
			body:  "- BN I/77 M\n  • 1A 0304 - 0303\n  * 1B -\n",
			moves: 1},
		{name: "a wrapped order's tail is an error",
			body:   "BN I/77 M\n  1A 0304 0303\n  ATTACK 0505 WITH 1A SUPPORT mortar ART\n2/26\nBN II/77 H\n",
			errors: []string{"ART needs a battery id", `"2/26" is not`}, moves: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub, errs := Parse(rs, st, "axis", tt.body)
			if len(errs) != len(tt.errors) {
				t.Fatalf("errors %v, want %d: %q", errs, len(tt.errors), tt.errors)
			}
			for i, e := range errs {
				if !strings.Contains(e.String(), tt.errors[i]) {
					t.Errorf("error %d = %q, want it to say %q", i, e.String(), tt.errors[i])
				}
			}
			var ignored []int
			for _, e := range sub.Ignored {
				ignored = append(ignored, e.Line)
			}
			if !equalInts(ignored, tt.ignored) {
				t.Errorf("ignored lines %v, want %v", ignored, tt.ignored)
			}
			moves := 0
			for _, uo := range sub.Orders.Units {
				moves += len(uo.Moves)
			}
			if moves != tt.moves {
				t.Errorf("%d moves read, want %d", moves, tt.moves)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Every error of a mail is in its first answer, and one error does not
// cause another.
func TestEveryErrorAtOnce(t *testing.T) {
	rs, st := testState(t)
	body := "BN I/77 X\n  1A 0304 0303\n  1B 0305 0306 0307 0308 0309 0311\nBN II/77 H\n  2A 0308 1308\n  2B 0309 0409 0509 0609 0709\n"
	_, errs := Parse(rs, st, "axis", body)
	var got []string
	for _, e := range errs {
		got = append(got, e.String())
	}
	text := strings.Join(got, "\n")
	for _, want := range []string{`line 1: "X" is not a status`, "line 3: 0311 is off the map", "line 6: II/77 2B"} {
		if !strings.Contains(text, want) {
			t.Errorf("errors lack %q:\n%s", want, text)
		}
	}
	for _, unwanted := range []string{"did you mean BN", "line 2:"} {
		if strings.Contains(text, unwanted) {
			t.Errorf("errors say %q, caused by another error:\n%s", unwanted, text)
		}
	}
}

// Valid orders that leave a stand out of command are accepted with a
// warning.
func TestWarnings(t *testing.T) {
	rs, st := testState(t)
	sub, errs := Parse(rs, st, "axis", "BN II/77 M\n  2B 0309 0310\n")
	if errs != nil {
		t.Fatal(errs)
	}
	warnings := Warnings(rs, st, sub.Orders)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "II/77 2B ends at 0310") || !strings.Contains(warnings[0], "out of command") {
		t.Fatalf("warnings %q, want 2B out of command", warnings)
	}
	if echo := Echo(rs, st, sub.Orders); !strings.Contains(echo, "1 WARNING") {
		t.Errorf("the echo does not show the warning:\n%s", echo)
	}
	sub, errs = Parse(rs, st, "axis", "BN I/77 M\n  ATTACK 0504 WITH 1C\n")
	if errs != nil {
		t.Fatal(errs)
	}
	if warnings := Warnings(rs, st, sub.Orders); len(warnings) != 1 || !strings.Contains(warnings[0], "attack on 0504 cannot be made") {
		t.Fatalf("warnings %q, want the attack on an empty hex", warnings)
	}
}
