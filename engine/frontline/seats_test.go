package frontline

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/frontline/rules"
)

// The Team Play Command cases under testdata/seats (README.md there): each
// seat's mail read by SeatRead, the side's orders joined by Merge and
// played.
func TestSeatCases(t *testing.T) {
	files, err := filepath.Glob("testdata/seats/*.case")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".case"), func(t *testing.T) { runSeatCase(t, f) })
	}
}

type seatCase struct {
	section, pre, seats []string
	orders              map[string][]string
	seatOrder           []string
	errors              map[string][]string
	merged, played      []string
	clash               []string
}

func readSeatCase(t *testing.T, path string) seatCase {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := seatCase{orders: map[string][]string{}, errors: map[string][]string{}}
	block, seat := "", ""
	for i, line := range strings.Split(string(raw), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "SECTION":
			c.section = append(c.section, f[1:]...)
			continue
		case "PRESTATE", "SEATS", "MERGED", "PLAYED", "CLASH":
			block = f[0]
			continue
		case "ORDERS", "ERRORS":
			if len(f) != 2 {
				t.Fatalf("%s:%d: %s takes a seat", path, i+1, f[0])
			}
			block, seat = f[0], f[1]
			if block == "ORDERS" {
				c.seatOrder = append(c.seatOrder, seat)
			}
			continue
		}
		switch block {
		case "PRESTATE":
			c.pre = append(c.pre, line)
		case "SEATS":
			c.seats = append(c.seats, line)
		case "ORDERS":
			c.orders[seat] = append(c.orders[seat], line)
		case "ERRORS":
			c.errors[seat] = append(c.errors[seat], strings.TrimSpace(line))
		case "MERGED":
			c.merged = append(c.merged, strings.TrimSpace(line))
		case "PLAYED":
			c.played = append(c.played, line)
		case "CLASH":
			c.clash = append(c.clash, strings.TrimSpace(line))
		default:
			t.Fatalf("%s:%d: %q outside any block", path, i+1, line)
		}
	}
	if len(c.section) == 0 {
		t.Fatalf("%s: no SECTION: every case cites the rule it checks", path)
	}
	return c
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

func runSeatCase(t *testing.T, path string) {
	c := readSeatCase(t, path)
	st, err := rules.ParseScenario(strings.Join(c.pre, "\n"))
	if err != nil {
		t.Fatalf("PRESTATE: %v", err)
	}
	var setups []engine.SeatSetup
	for _, line := range c.seats {
		f := strings.Fields(line)
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
	for _, seat := range c.seatOrder {
		r := pos.SeatRead(seat, strings.Join(c.orders[seat], "\n"), 0)
		want := c.errors[seat]
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
	if len(c.clash) > 0 {
		_, err := pos.Merge(side, accepted)
		if err == nil {
			t.Fatalf("the seats' orders merged, want a clash")
		}
		for _, w := range c.clash {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("the clash lacks %q: %v", w, err)
			}
		}
		return
	}
	if len(c.merged) == 0 && len(c.played) == 0 {
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
	for _, w := range c.merged {
		if !strings.Contains(norm, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("merged orders lack %q:\n%s", w, text)
		}
	}
	next, _, err := pos.Play(map[string]engine.Orders{side: merged}, engine.NewSeededDice(1))
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	after := next.(*Position)
	for _, line := range c.played {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "owner" {
			t.Fatalf("PLAYED: want owner unit seat, got %q", line)
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
