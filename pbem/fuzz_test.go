package pbem

import (
	"strings"
	"testing"
	"time"

	"fieldpost/pbem/config"
)

// FuzzCommandReader reads mail texts as commands. The command found is a
// known one, on a line of the text with the words of that line; no number
// read is out of its range.
func FuzzCommandReader(f *testing.F) {
	f.Add("PASSWORD s3cret\nNEWGAME scenario=tutorial id=t-1 us=a@x german = b@y deadline 2d12h\nEND\n", "command")
	f.Add("GAME tutorial-1 SIDE us ROUND 2\nBN 743 M\n  A 0303 0403\nEND", "Re: [tutorial-1] Report of round 1")
	f.Add("", "Re: HELP")
	f.Add("DEADLINE tutorial-1 2026-03-01 18:00 UTC\n", "")
	f.Add("EXTEND tutorial-1 3650d2562047h\n", "")
	f.Add("GAME g ROUND -3\nCHECK\n", "")
	f.Add("PASSWORD gm\nNEWGAME scenario=tutorial id=a\n us=a@x german=b@y\nNEWGAME scenario=tutorial id=b deadline 2d\nPAUSE a\n", "")
	f.Fuzz(func(t *testing.T, text, subject string) {
		checkRequest(t, text, readRequest(text, subject))
		// A GM's mail of several commands: each is one of its lines.
		for _, r := range readGMCommands(text, subject) {
			checkRequest(t, text, r)
		}
	})
}

// checkRequest checks the invariants of a request read from text.
func checkRequest(t *testing.T, text string, r *request) {
	t.Helper()
	if r.Command != "" && commandWords[r.Command] != r.Command {
		t.Fatalf("unknown command %q", r.Command)
	}
	if r.Empty && r.Command != "" {
		t.Fatalf("an empty mail with command %q", r.Command)
	}
	if r.Header.Round < 0 {
		t.Fatalf("round %d", r.Header.Round)
	}
	if r.Line >= 0 {
		lines := strings.Split(text, "\n")
		if r.Line >= len(lines) {
			t.Fatalf("command line %d of %d", r.Line, len(lines))
		}
		// The command word is read as commandAt reads it: "status?",
		// "NEWGAME!" are STATUS and NEWGAME.
		words := lineWords(lines[r.Line])
		if cmd, _ := commandAt(words); cmd != r.Command || strings.Join(words[1:], " ") != strings.Join(r.Args, " ") {
			t.Fatalf("command %s %q is not line %d: %q", r.Command, r.Args, r.Line, lines[r.Line])
		}
	}
	for _, arg := range append(r.Args, r.Params...) {
		if d, err := config.ParseDuration(arg); err == nil && (d > config.MaxDuration || d < -config.MaxDuration) {
			t.Fatalf("ParseDuration(%q) = %v, beyond %v", arg, d, config.MaxDuration)
		}
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if at, err := parseDeadline(r.Args, now); err == nil && !at.IsZero() && !at.After(now) {
		t.Fatalf("deadline %v is not after now", at)
	}
	if pairs, err := keyValues(r.Params); err == nil {
		for _, kv := range pairs {
			if kv[1] == "" {
				t.Fatalf("key %q without value", kv[0])
			}
		}
	}
}
