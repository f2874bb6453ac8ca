package frontline

import (
	"strconv"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/frontline/rules"
	kernel "fieldpost/engine/ordertext"
	"fieldpost/engine/ordertext/casetest"
)

// The Team Play Command cases under testdata/seats (README.md there): each
// seat's mail read by SeatRead, the side's orders joined by Merge and
// played.
func TestSeatCases(t *testing.T) {
	format := kernel.CaseFormat{MaxFace: 20, Blocks: []string{"SEATS", "ERRORS", "MERGED", "CLASH", "PLAYED"}}
	casetest.Run(t, "testdata/seats", "*.case", format, runSeatCase)
}

// texts are the texts of lines.
func texts(lines []kernel.Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// mailOf is a seat's mail: its ORDERS lines that hold words, so that a
// problem's line counts from the first of them.
func mailOf(lines []kernel.Line) string {
	var out []string
	for _, l := range lines {
		if len(l.Words) > 0 {
			out = append(out, l.Raw)
		}
	}
	return strings.Join(out, "\n")
}

// refuses reports whether a reading has the problem want: "line N: text"
// for a problem on line N saying text, or text alone anywhere.
func refuses(r engine.Reading, want string) bool {
	if n, text, ok := strings.Cut(strings.TrimPrefix(want, "line "), ": "); ok && strings.HasPrefix(want, "line ") {
		for _, p := range r.Problems {
			if strconv.Itoa(p.Line) == n && strings.Contains(p.Say(), text) {
				return true
			}
		}
		return false
	}
	return strings.Contains(r.Answer, want)
}

func runSeatCase(t *testing.T, c *kernel.Case) {
	var pre []string
	for _, l := range c.Position {
		if len(l.Words) > 0 {
			pre = append(pre, l.Raw)
		}
	}
	st, err := rules.ParseScenario(strings.Join(pre, "\n"))
	if err != nil {
		t.Fatalf("PRESTATE: %v", err)
	}
	var setups []engine.SeatSetup
	for _, line := range c.Blocks["SEATS"] {
		f := line.Words
		su := engine.SeatSetup{ID: f[0], Units: []string{}}
		if len(f) > 1 && f[1] == "empty" {
			su.Empty, f = true, f[1:]
		}
		su.Units = append(su.Units, f[1:]...)
		setups = append(setups, su)
	}
	seated, err := (&Position{st: st}).WithSeats(setups)
	if err != nil {
		t.Fatalf("SEATS: %v", err)
	}
	pos := seated.(*Position)
	side := st.Active
	accepted := map[string]engine.Orders{}
	for _, seat := range c.OrderSides {
		r := pos.SeatRead(seat, mailOf(c.Orders[seat]), 0)
		want := texts(c.Blocks["ERRORS "+seat])
		switch {
		case len(want) > 0:
			if r.Errors == 0 {
				t.Fatalf("%s's orders accepted, want refused:\n%s", seat, r.Answer)
			}
			for _, w := range want {
				if !refuses(r, w) {
					t.Errorf("%s's refusal lacks %q:\n%s", seat, w, r.Answer)
				}
			}
		case r.Errors > 0 || r.Orders == nil:
			t.Fatalf("%s's orders refused:\n%s", seat, r.Answer)
		default:
			accepted[seat] = r.Orders
		}
	}
	clash, mergedWant, played := texts(c.Blocks["CLASH"]), texts(c.Blocks["MERGED"]), c.Blocks["PLAYED"]
	if len(clash) > 0 {
		_, err := pos.Merge(side, accepted)
		if err == nil {
			t.Fatalf("the seats' orders merged, want a clash")
		}
		for _, w := range clash {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("the clash lacks %q: %v", w, err)
			}
		}
		return
	}
	if len(mergedWant) == 0 && len(played) == 0 {
		return
	}
	merged, err := pos.Merge(side, accepted)
	if err != nil {
		t.Fatalf("Merge: %v", err)
	}
	text, err := pos.WriteOrders(side, merged, "case")
	if err != nil {
		t.Fatal(err)
	}
	norm := strings.Join(strings.Fields(text), " ")
	for _, w := range mergedWant {
		if !strings.Contains(norm, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("merged orders lack %q:\n%s", w, text)
		}
	}
	next, _, err := pos.Play(map[string]engine.Orders{side: merged}, engine.NewSeededDice(1))
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	after := next.(*Position)
	for _, line := range played {
		f := line.Words
		if len(f) != 3 || f[0] != "owner" {
			t.Fatalf("PLAYED line %d: want owner unit seat, got %q", line.N, line.Text)
		}
		if got := after.teams[side].OwnerOf(side, f[1]); got != f[2] {
			t.Errorf("%s is owned by %s after the turn, want %s", f[1], got, f[2])
		}
	}
}

// Table IV.1: the side's standing orders (REACT) are the General's; a
// Commander who sends some while the enemy plays is refused.
func TestCommanderGivesNoStandingOrders(t *testing.T) {
	st, err := rules.ParseScenario("SIZE 10 10\nFILL .\nSIDES US GE\nTURN 2 GE US=1 GE=2\nTREASURY US 30\nTREASURY GE 30\n" +
		"UNIT US FHQ-1 1010\nUNIT GE FHQ-1 0101\nUNIT US RS-1 0505\n")
	if err != nil {
		t.Fatal(err)
	}
	pos, err := (&Position{st: st}).WithSeats([]engine.SeatSetup{{ID: "US.2", Units: []string{"RS-1"}}})
	if err != nil {
		t.Fatal(err)
	}
	next, r := pos.(*Position).Stand("US.2", "REACT\n  RETALIATE none\n", 0)
	if next != nil || r.Errors == 0 || !strings.Contains(r.Answer, "Frontline General's") || len(r.Problems) != 1 {
		t.Fatalf("a Commander's REACT: position changed %v, answer %q", next != nil, r.Answer)
	}
	if next, r := pos.(*Position).Stand("US", "REACT\n  RETALIATE none\n", 0); next == nil {
		t.Fatalf("the General's REACT refused: %s", r.Answer)
	}
}
