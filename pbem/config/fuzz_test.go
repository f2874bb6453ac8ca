package config

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

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
		cfg, err := Parse(strings.NewReader(text), func(string) string { return "" })
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
			if d <= 0 || d > MaxDuration {
				t.Fatalf("duration %v out of bounds", d)
			}
		}
		if cfg.Grace < 0 || cfg.Grace > MaxDuration || cfg.Deadline < 0 || cfg.Deadline > MaxDuration {
			t.Fatalf("grace %v, deadline %v out of bounds", cfg.Grace, cfg.Deadline)
		}
	})
}
