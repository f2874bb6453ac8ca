package engine

import (
	"slices"
	"strings"
	"testing"
)

// A team's ASSIGN lines are kept beside the rules' orders; without any the
// stored bytes are the rules' orders alone, as before team play.
func TestJSONOrdersKeepAssignLines(t *testing.T) {
	plain, err := (&JSONOrders[*testOrders]{Orders: &testOrders{Moves: []string{"A"}}}).Marshal()
	if err != nil || string(plain) != `{"moves":["A"]}` {
		t.Fatalf("without ASSIGN: %s, %v", plain, err)
	}
	o := &JSONOrders[*testOrders]{Orders: &testOrders{Moves: []string{"A"}}, Assign: []Assignment{{Line: 3, Units: []string{"A", "B"}, Seat: "us.2"}}}
	stored, err := o.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := LoadJSONOrders[*testOrders]("us", stored)
	if err != nil || len(back.Assign) != 1 || back.Assign[0].Seat != "us.2" || !slices.Equal(back.Assign[0].Units, []string{"A", "B"}) || back.Orders.Moves[0] != "A" {
		t.Fatalf("read back %+v, %v from %s", back, err, stored)
	}
}

func TestSeatIDs(t *testing.T) {
	for seat, want := range map[string]struct {
		side string
		n    int
	}{"us": {"us", 1}, "us.2": {"us", 2}, "US.5": {"US", 5}, "us.1": {"us", 0}, "us.x": {"us", 0}} {
		if side, n := SplitSeat(seat); side != want.side || n != want.n {
			t.Errorf("SplitSeat(%q) = %q, %d", seat, side, n)
		}
	}
	if SeatID("us", 1) != "us" || SeatID("us", 3) != "us.3" {
		t.Errorf("SeatID: %q %q", SeatID("us", 1), SeatID("us", 3))
	}
}

// ASSIGN lines are cut out of a mail, blanked so that the others keep
// their numbers, with every badly written one refused by line.
func TestCutAssign(t *testing.T) {
	text := "GAME g SIDE us SEAT 2 ROUND 1\nASSIGN A B TO 3\nA 0303\nASSIGN C TO us\nASSIGN D us.4\nASSIGN E TO german.2\nEND\nASSIGN F TO 2\n"
	rest, said := CutSeat(text)
	if said != 2 || !strings.HasPrefix(rest, "GAME g SIDE us ROUND 1\n") {
		t.Fatalf("CutSeat: %d\n%s", said, rest)
	}
	rest, assigns, probs := CutAssign(rest, "us")
	want := []Assignment{{Line: 2, Units: []string{"A", "B"}, Seat: "us.3"}, {Line: 4, Units: []string{"C"}, Seat: "us"}}
	if !slices.EqualFunc(assigns, want, func(a, b Assignment) bool {
		return a.Line == b.Line && a.Seat == b.Seat && slices.Equal(a.Units, b.Units)
	}) {
		t.Errorf("assignments %+v", assigns)
	}
	if len(probs) != 2 || probs[0].Line != 5 || !strings.HasPrefix(probs[0].Text, "want ASSIGN") || probs[1].Line != 6 {
		t.Errorf("problems %+v", probs)
	}
	if lines := strings.Split(rest, "\n"); lines[1] != "" || lines[2] != "A 0303" || lines[7] != "ASSIGN F TO 2" {
		t.Errorf("the text left:\n%s", rest)
	}
}

// Units are dealt in runs among the commander-in-chief and the seats the
// game master gave none; an empty seat's units are the
// commander-in-chief's to order; a subordinate gives only its own.
func TestTeams(t *testing.T) {
	deal := map[string][]string{"us": {"A", "B", "C", "D", "E", "F"}, "german": {"X"}}
	known := func(side, u string) bool { return slices.Contains(deal[side], u) }
	teams, err := NewTeams([]SeatSetup{{ID: "us.2"}, {ID: "us.3", Empty: true, Units: []string{"F"}}}, 5, deal, known,
		func(n int) string { return "seat " + string(rune('0'+n)) })
	if err != nil {
		t.Fatal(err)
	}
	us := teams["us"]
	list := us.List("us", "chief", deal["us"])
	if len(list) != 3 || !slices.Equal(list[0].Units, []string{"A", "B", "C"}) || !slices.Equal(list[1].Units, []string{"D", "E"}) ||
		!slices.Equal(list[2].Units, []string{"F"}) || !list[2].Empty || list[1].Name != "seat 2" {
		t.Fatalf("seats %+v", list)
	}
	if !us.Commands("us", "us", "F") || us.Commands("us", "us.2", "A") || !us.Commands("us", "us.2", "D") {
		t.Errorf("who commands what is wrong")
	}
	if probs := us.CheckAssign("us", "us.2", Assignment{Line: 1, Units: []string{"A"}, Seat: "us.2"}, func(u string) bool { return known("us", u) }); len(probs) != 1 || !strings.Contains(probs[0].Text, "not yours to give") {
		t.Errorf("a subordinate giving another's unit: %+v", probs)
	}
	for _, bad := range [][]SeatSetup{{{ID: "us.6"}}, {{ID: "us.2", Units: []string{"X"}}}, {{ID: "us.2"}, {ID: "us.2"}}, {{ID: "soviet.2"}}} {
		if _, err := NewTeams(bad, 5, deal, known, func(int) string { return "" }); err == nil {
			t.Errorf("NewTeams(%+v) accepted", bad)
		}
	}
}
