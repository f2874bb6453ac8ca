package pbem

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestReadRequest(t *testing.T) {
	for _, c := range []struct {
		name, text, subject string
		want                request
	}{
		{"orders after a greeting", "Hi judge,\n\nBN 743 M\n  A 0303\n", "",
			request{Command: cmdOrders, Line: -1}},
		{"header lines, then orders", "GAME tut-1 SIDE us ROUND 3\nPASSWORD s3cret\nBN 743 H\n", "",
			request{Command: cmdOrders, Line: -1, Header: header{Game: "tut-1", Side: "us", Round: 3, Passwords: []string{"s3cret"}}}},
		{"a command after a PASSWORD line", "PASSWORD: s3cret\n\nstatus Tut-1  # please\n", "",
			request{Command: cmdStatus, Args: []string{"Tut-1"}, Line: 2, Header: header{Passwords: []string{"s3cret"}}}},
		{"CHECK then orders", "CHECK\nGAME tut-1\nBN 743 M\n", "",
			request{Command: cmdCheck, Args: []string{}, Line: 0, Header: header{Game: "tut-1"}}},
		{"a greeting before a command makes orders", "Hello\nSTATUS\n", "",
			request{Command: cmdOrders, Line: -1}},
		{"END alone is the end of orders", "GAME x\nEND\n", "",
			request{Command: cmdOrders, Line: -1, Header: header{Game: "x"}}},
		{"END with a game is the command", "END x\n", "",
			request{Command: cmdEnd, Args: []string{"x"}, Line: 0}},
		{"NEWGAME over lines", "NEWGAME scenario=tutorial\n id = t1\n us=a@b.c, german=d@e.f\nEND\nthanks\n", "",
			request{Command: cmdNewGame, Args: []string{"scenario=tutorial"}, Line: 0, Params: []string{"id", "=", "t1", "us=a@b.c", "german=d@e.f"}}},
		{"HISTORY with a round", "history 3\n", "",
			request{Command: cmdHistory, Args: []string{"3"}, Line: 0}},
		{"the subject of an empty mail", "\n", "Re: [tut-1] HELP",
			request{Command: cmdHelp, Args: []string{}, Line: -1}},
		{"the subject of a mail with only a password", "PASSWORD x\n", "Fwd: Re: map tut-1",
			request{Command: cmdMap, Args: []string{"tut-1"}, Line: -1, Header: header{Passwords: []string{"x"}}}},
		{"a command with a question mark", "Status?\n", "",
			request{Command: cmdStatus, Args: []string{}, Line: 0}},
		{"a greeting starting with a keyword", "Turn 1 orders below, thanks\nBN 743 M\n", "",
			request{Command: cmdOrders, Line: -1}},
		{"a command in the subject over orders", "BN 743 M\n", "status?",
			request{Command: cmdOrders, Line: -1, SubjectCommand: cmdStatus}},
		{"CHECK in the subject over orders", "BN 743 M\n", "CHECK",
			request{Command: cmdCheck, Line: -1}},
		{"a reply's subject over orders", "BN 743 M\n", "Re: [tut-1] CHECK of orders for round 2: valid",
			request{Command: cmdOrders, Line: -1}},
		{"nothing", "  \n\n", "Re: your report",
			request{Command: cmdOrders, Line: -1, Empty: true}},
	} {
		got := readRequest(c.text, c.subject)
		c.want.Text = c.text
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, *got, c.want)
		}
	}
}

func TestKeyValues(t *testing.T) {
	got, err := keyValues([]string{"Scenario=tutorial", "id", "=", "t1", "us", "a@b.c", "german=", "d@e.f"})
	want := [][2]string{{"scenario", "tutorial"}, {"id", "t1"}, {"us", "a@b.c"}, {"german", "d@e.f"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, %v", got, err)
	}
	if _, err := keyValues([]string{"id=t1", "us"}); err == nil {
		t.Error("a key without a value is accepted")
	}
}

func TestDurationsAndDeadlines(t *testing.T) {
	now := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		args []string
		want time.Time
	}{
		{[]string{"48h"}, now.Add(48 * time.Hour)},
		{[]string{"2026-03-10", "12:00"}, time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)},
		{[]string{"2026-03-10", "12:00", "UTC"}, time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)},
		{[]string{"2026-03-10T12:00"}, time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)},
		{[]string{"2026-03-10T12:00:00+01:00"}, time.Date(2026, 3, 10, 11, 0, 0, 0, time.UTC)},
		{[]string{"none"}, time.Time{}},
	} {
		got, err := parseDeadline(c.args, now)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("%v: %v, %v", c.args, got, err)
		}
	}
	for _, bad := range [][]string{nil, {"2026-03-01", "12:00"}, {"tomorrow"}, {"-2h"}} {
		if _, err := parseDeadline(bad, now); err == nil {
			t.Errorf("%v is accepted", bad)
		}
	}
	if got := formatDuration(26*time.Hour + 30*time.Minute); got != "1 day 2 hours 30 minutes" {
		t.Errorf("formatDuration: %q", got)
	}
}

func TestGameIDs(t *testing.T) {
	for id, ok := range map[string]bool{"tutorial-1": true, "a": true, "Tut": false, "-x": false, "a_b": false, "": false,
		"a234567890123456789012345678901234567890": true, "a2345678901234567890123456789012345678901": false} {
		if validGameID(id) != ok {
			t.Errorf("%q: valid %v", id, !ok)
		}
	}
}

func TestSubjectText(t *testing.T) {
	for in, want := range map[string]string{
		"Re: [tut-1] STATUS": "STATUS", "AW: Fwd: RE: help": "help", "[x] [y] map": "map", "orders": "orders",
	} {
		if got := subjectText(in); got != want {
			t.Errorf("%q: %q", in, got)
		}
	}
}

// Every command word is documented, in docs/commands.md and in the HELP
// mail.
func TestCommandsAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	help, err := os.ReadFile("../templates/help.txt.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	for word, cmd := range commandWords {
		if !strings.Contains(string(doc), "`"+word) {
			t.Errorf("docs/commands.md does not mention %s", word)
		}
		if !strings.Contains(string(help), cmd) {
			t.Errorf("the HELP mail does not mention %s", cmd)
		}
	}
}
