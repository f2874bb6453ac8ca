package pbem

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
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
		if d, err := parseDuration(arg); err == nil && (d > maxDuration || d < -maxDuration) {
			t.Fatalf("parseDuration(%q) = %v, beyond %v", arg, d, maxDuration)
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

// secretKeys are the configuration keys whose values errors must never
// quote.
var secretKeys = regexp.MustCompile(`(?m)^\s*(?i:imap_password|smtp_password|gm_secret)\s*=(.*)$`)

// FuzzConfig reads configuration files. An error names its line, or is one
// of the whole file's checks, and never quotes a secret; a configuration
// read has every size, count and duration within its bounds.
func FuzzConfig(f *testing.F) {
	base := "address = judge@club.example\nimap_addr = 127.0.0.1:143\nimap_username = judge\nsmtp_addr = 127.0.0.1:25\n"
	f.Add(base)
	f.Add(base + "max_message_size = 8796093022208M\n")
	f.Add(base + "grace = -1h\nreminders = 2d, 1h\n")
	f.Add(base + "smtp_password = hunter2hunter2\nmax_lines = x\n")
	f.Add(base + "gm_secret = 0123456789abc\ngm_address = gm@club.example\nmax_answer_size = 64KiB\ndeadline = 3d\n")
	f.Fuzz(func(t *testing.T, text string) {
		cfg, err := ParseConfig(strings.NewReader(text), func(string) string { return "" })
		if err != nil {
			msg := err.Error()
			var n int
			if _, scanErr := fmt.Sscanf(msg, "line %d:", &n); scanErr == nil && (n < 1 || n > strings.Count(text, "\n")+1) {
				t.Fatalf("error on line %d of a text of fewer lines: %v", n, err)
			}
			others := secretKeys.ReplaceAllString(text, "")
			for _, m := range secretKeys.FindAllStringSubmatch(text, -1) {
				if v := strings.TrimSpace(m[1]); len(v) >= 6 && strings.Contains(msg, v) && !strings.Contains(others, v) {
					t.Fatalf("the error quotes a secret: %v", err)
				}
			}
			return
		}
		sizes := []int64{cfg.MaxMessageSize, cfg.MaxAnswerSize}
		counts := []int{cfg.MaxHeaderFields, cfg.MaxMIMEParts, cfg.MaxLines, cfg.MaxErrors}
		positive := append([]time.Duration{cfg.IMAPPollInterval, cfg.SendRetryMin, cfg.SendRetryMax, cfg.SendGiveUp}, cfg.Reminders...)
		for _, s := range sizes {
			if s < 1 || s > maxSize {
				t.Fatalf("size %d out of bounds", s)
			}
		}
		for _, c := range counts {
			if c < 1 || c > maxCount {
				t.Fatalf("count %d out of bounds", c)
			}
		}
		for _, d := range positive {
			if d <= 0 || d > maxDuration {
				t.Fatalf("duration %v out of bounds", d)
			}
		}
		if cfg.Grace < 0 || cfg.Grace > maxDuration || cfg.Deadline < 0 || cfg.Deadline > maxDuration {
			t.Fatalf("grace %v, deadline %v out of bounds", cfg.Grace, cfg.Deadline)
		}
	})
}
