package ordertext

import (
	"reflect"
	"strings"
	"testing"
)

func TestBlockReadsFromTheFirstOrderToEnd(t *testing.T) {
	body := "Hi Bob,\r\n> GAME old SIDE us\r\nGAME g SIDE us   # the header\r\n\r\nA MOVE 0101\r\nEND\r\nCheers\r\n"
	start := func(words []string) bool { return IsHeader(words) }
	lines, ended := Block{Start: start}.Read(body)
	if !ended || len(lines) != 2 {
		t.Fatalf("ended %v, lines %+v", ended, lines)
	}
	if lines[0].N != 3 || lines[0].Raw != "GAME g SIDE us   # the header" || !reflect.DeepEqual(lines[0].Words, []string{"GAME", "g", "SIDE", "us"}) {
		t.Errorf("first line %+v", lines[0])
	}
	if lines[1].N != 5 || lines[1].Text != "A MOVE 0101" {
		t.Errorf("second line %+v", lines[1])
	}
}

func TestBlockEndsAtSignatureAndReply(t *testing.T) {
	for _, tail := range []string{"-- \nAlice\nB HOLD", "On Monday Bob wrote:\nB HOLD", "Sent from my phone\nB HOLD"} {
		lines, ended := Block{}.Read("A HOLD\n" + tail)
		if ended || len(lines) != 1 || lines[0].Text != "A HOLD" {
			t.Errorf("%q: ended %v, lines %+v", tail, ended, lines)
		}
	}
}

func TestSignOffIsOnlyAfterTheLastOrder(t *testing.T) {
	lines := Lines("chat\nA HOLD\nchat\nB HOLD\nCheers\nAlice")
	notOrder := func(l Line) bool { return !strings.HasSuffix(l.Text, "HOLD") }
	if got := SignOff(lines, notOrder); got != 4 {
		t.Errorf("sign-off from %d, want 4", got)
	}
	if got := SignOff(Lines("Cheers\nAlice"), notOrder); got != 2 {
		t.Errorf("no order at all: sign-off from %d, want none (2)", got)
	}
}

func TestHeaderReadsSeatAndRound(t *testing.T) {
	var h Header
	if err := h.ReadHeader(strings.Fields("GAME g SIDE us SEAT 2 ROUND 3")); err != nil {
		t.Fatal(err)
	}
	if err := h.ReadHeader(strings.Fields("PASSWORD s3cret")); err != nil {
		t.Fatal(err)
	}
	want := Header{Game: "g", Side: "us", Seat: 2, Round: 3, Password: "s3cret"}
	if h != want {
		t.Errorf("header %+v, want %+v", h, want)
	}
	for line, msg := range map[string]string{
		"GAME g SIDE":          `"SIDE" is out of place in the header`,
		"SEAT two":             `SEAT "two": want the seat number from the order form`,
		"TURN 0":               `TURN "0": want the round number from the order form`,
		"ROUND 99999999999999": "ROUND 99999999999999 is too large: numbers in orders are at most 9999",
		"GAME g BN 743":        `"BN" is out of place in the header`,
	} {
		var h Header
		if err := h.ReadHeader(strings.Fields(line)); err == nil || err.Error() != msg {
			t.Errorf("%q: error %v, want %s", line, err, msg)
		}
	}
	if IsHeader(strings.Fields("Game on, see you")) || !IsHeader(strings.Fields("GAME g TURN 2")) {
		t.Error("IsHeader is wrong about a greeting or a header")
	}
}

func TestQuotedWords(t *testing.T) {
	got, err := QuotedWords(`PLACE 0101 "Hill 112"  x`)
	if err != nil || !reflect.DeepEqual(got, []string{"PLACE", "0101", "Hill 112", "x"}) {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := QuotedWords(`PLACE "Hill`); err == nil {
		t.Error("an open quote is no error")
	}
}
