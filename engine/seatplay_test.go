package engine

import (
	"slices"
	"strings"
	"testing"
)

// testTeam is a side "us" of units A to F: us.2 owns D and E, us.3 (empty)
// owns F, the commander-in-chief the rest.
func testTeam(t *testing.T) (*Team, func(string) bool) {
	t.Helper()
	deal := map[string][]string{"us": {"A", "B", "C", "D", "E", "F"}}
	known := func(u string) bool { return slices.Contains(deal["us"], u) }
	teams, err := NewTeams([]SeatSetup{{ID: "us.2"}, {ID: "us.3", Empty: true, Units: []string{"F"}}}, 5, deal,
		func(_, u string) bool { return known(u) }, testRules.SeatName)
	if err != nil {
		t.Fatal(err)
	}
	return teams["us"], known
}

var testRules = &TeamRules{MaxSeats: 5, Chief: "Chief", Subordinate: "Sub",
	ChiefRole: "# chief\n", SubordinateRole: "# sub\n", ChiefWords: map[string]string{"PRIORITY": "PRIORITY", "ORDER": "PRIORITY"},
	ChiefTitle: "chief", SubordinateTitle: "sub", Units: "units", Effect: "the next round"}

// seatOrders are the units a seat's text orders: each line "unit H".
type seatOrders struct{ Units []string }

// readTest reads a seat's text as a family would: every line but a header
// orders a unit, which the seat must command; PRIORITY is the chief's.
func readTest(team *Team, seat string) SeatReader[seatOrders] {
	return SeatReader[seatOrders]{
		Rules: testRules, Team: team,
		Known: func(u string) bool { return strings.Contains("ABCDEF", u) && len(u) == 1 },
		Read: func(text string) Parsed[seatOrders] {
			var o seatOrders
			c := testRules.Check(team, seat)
			c.ChiefLines(text)
			for i, line := range strings.Split(text, "\n") {
				f := strings.Fields(line)
				if len(f) != 2 || f[1] != "H" {
					continue
				}
				o.Units = append(o.Units, f[0])
				c.Unit(i+1, f[0])
			}
			return Parsed[seatOrders]{Orders: o, Found: len(o.Units) > 0 || HasHeader(text), Problems: c.Problems, Round: 3}
		},
		Echo: func(o seatOrders) string { return "holding " + strings.Join(o.Units, " ") + "\n" },
	}
}

// A seat's mail: its units' orders and ASSIGN lines accepted and echoed;
// another seat's unit, the chief's orders, a SEAT line of another seat and
// an ASSIGN of a unit not its own refused, each on its line.
func TestReadSeat(t *testing.T) {
	team, _ := testTeam(t)
	r := ReadSeat("us.2", "GAME g SIDE us SEAT 2\nD H\nASSIGN E TO 1\n", 0, readTest(team, "us.2"))
	o, ok := r.Orders.(*JSONOrders[seatOrders])
	if r.Errors != 0 || !ok || !slices.Equal(o.Orders.Units, []string{"D"}) || len(o.Assign) != 1 || o.Assign[0].Seat != "us" || r.Round != 3 {
		t.Fatalf("reading %+v", r)
	}
	if !strings.Contains(r.Answer, "holding D") || !strings.Contains(r.Answer, "E pass to seat us from the next round") {
		t.Errorf("the echo:\n%s", r.Answer)
	}
	r = ReadSeat("us.2", "GAME g SIDE us SEAT 3\nA H\nPRIORITY x\nASSIGN B TO 3\n", 0, readTest(team, "us.2"))
	lines := map[int]bool{}
	for _, p := range r.Problems {
		lines[p.Line] = true
	}
	if r.Orders != nil || r.Errors != 4 || !lines[0] || !lines[2] || !lines[3] || !lines[4] {
		t.Fatalf("problems %+v", r.Problems)
	}
	if !strings.Contains(r.Answer, "PRIORITY is the chief's to order (us), not a sub's") || !strings.Contains(r.Answer, "A is commanded by seat us") {
		t.Errorf("the refusal:\n%s", r.Answer)
	}
	if r := ReadSeat("us.4", "D H\n", 0, readTest(team, "us.4")); r.Errors != 1 || !strings.Contains(r.Answer, "there is no seat us.4") {
		t.Errorf("a seat not in the game: %+v", r)
	}
	// The chief orders an empty seat's unit and sends its form unchanged.
	if r := ReadSeat("us", "GAME g SIDE us\nF H\n", 0, readTest(team, "us")); r.Errors != 0 || r.Orders == nil {
		t.Errorf("the chief ordering an empty seat's unit: %+v", r)
	}
}

// Seats' orders are merged in seat order, the chief's ASSIGN lines last;
// orders of another game are refused.
func TestMergeSeats(t *testing.T) {
	seats := map[string]Orders{
		"us.3": &JSONOrders[seatOrders]{Orders: seatOrders{[]string{"F"}}, Assign: []Assignment{{Units: []string{"F"}, Seat: "us.2"}}},
		"us":   &JSONOrders[seatOrders]{Orders: seatOrders{[]string{"A"}}, Assign: []Assignment{{Units: []string{"D"}, Seat: "us"}}},
		"us.2": &JSONOrders[seatOrders]{Orders: seatOrders{[]string{"D"}}},
	}
	var order []string
	assigns, err := MergeSeats("Test", seats, func(chief bool, o seatOrders) {
		if chief != (o.Units[0] == "A") {
			t.Errorf("%v handed as chief's: %v", o.Units, chief)
		}
		order = append(order, o.Units...)
	})
	if err != nil || !slices.Equal(order, []string{"A", "D", "F"}) || len(assigns) != 2 || assigns[1].Seat != "us" {
		t.Fatalf("merged %v, assignments %+v, %v", order, assigns, err)
	}
	if MergeBroken(nil) != nil {
		t.Error("orders breaking no rule refused")
	}
	if err := MergeBroken([]Problem{{Line: 2, Text: "A moves twice", Rule: "11.2"}}); err == nil || !strings.Contains(err.Error(), "line 2: A moves twice [§11.2]") {
		t.Errorf("the merge refused: %v", err)
	}
	seats["us.2"] = &JSONOrders[string]{Orders: "other"}
	if _, err := MergeSeats("Test", seats, func(bool, seatOrders) {}); err == nil || !strings.Contains(err.Error(), "not Test orders") {
		t.Errorf("another game's orders: %v", err)
	}
}

// After a play each side's ASSIGN lines are carried out on a copy, units
// gone passed over; a game without teams stays without.
func TestAfterPlay(t *testing.T) {
	team, _ := testTeam(t)
	teams := map[string]*Team{"us": team}
	orders := map[string]Orders{"us": &JSONOrders[seatOrders]{Assign: []Assignment{{Units: []string{"A", "B"}, Seat: "us.2"}}}}
	after := AfterPlay(teams, orders, func(_, u string) bool { return u != "B" })
	if after["us"].OwnerOf("us", "A") != "us.2" || after["us"].OwnerOf("us", "B") != "us" || team.OwnerOf("us", "A") != "us" {
		t.Errorf("after: A %s, B %s; before: A %s", after["us"].OwnerOf("us", "A"), after["us"].OwnerOf("us", "B"), team.OwnerOf("us", "A"))
	}
	if AfterPlay(nil, orders, func(string, string) bool { return true }) != nil {
		t.Error("a game of one player a side gained teams")
	}
}

// ASSIGN lines are written before END; seat forms name the seats and what
// the seat orders.
func TestSeatTexts(t *testing.T) {
	got := WriteAssigns("GAME g\nA H\nEND\n", []Assignment{{Units: []string{"A", "B"}, Seat: "us.2"}, {Units: []string{"C"}, Seat: "us"}})
	if got != "GAME g\nA H\nASSIGN A B TO us.2\nASSIGN C TO us\nEND\n" {
		t.Errorf("written:\n%s", got)
	}
	team, _ := testTeam(t)
	var b strings.Builder
	testRules.WriteSeats(&b, team.List("us", testRules.SeatName(1), []string{"A", "B", "C", "D", "E", "F"}), "us.2")
	if want := "#    us Chief: A B C\n# -> us.2 Sub 1: D E\n#    us.3 Sub 2 (empty: the commander-in-chief orders its units): F\n# sub\n"; b.String() != want {
		t.Errorf("seats:\n%s\nwant:\n%s", b.String(), want)
	}
	if got := testRules.WithoutChiefLines("PRIORITY 1\nA H\norder 2\n"); got != "A H\n" {
		t.Errorf("without the chief's lines: %q", got)
	}
}
