package config

import (
	"log/slog"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"fieldpost/mail"
)

// The example configuration is complete and valid: every key it documents
// is one Parse knows, and every key Parse knows is documented.
func TestExampleConfig(t *testing.T) {
	env := map[string]string{EnvIMAPPassword: "imap-pw", EnvSMTPPassword: "smtp-pw", EnvGMSecret: "gm-secret-123456"}
	cfg, err := Load("../../deploy/fieldpost.conf.example", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Address, want.Database, want.KeyFile = "judge@club.example", "/var/lib/fieldpost/fieldpost.db", "/var/lib/fieldpost/fieldpost.db.key"
	want.IMAPAddr, want.IMAPUsername, want.IMAPPassword = "imap.club.example:993", "judge", "imap-pw"
	want.SMTPAddr, want.SMTPUsername, want.SMTPPassword = "smtp.club.example:465", "judge", "smtp-pw"
	want.GMSecret, want.GMAddress = "gm-secret-123456", "gm@club.example"
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("the example is not the defaults:\n got %+v\nwant %+v", cfg, want)
	}

	raw, err := os.ReadFile("../../deploy/fieldpost.conf.example")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, line := range strings.Split(string(raw), "\n") {
		if key, _, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			documented[strings.TrimSpace(key)] = true
		}
	}
	probe := Default()
	for _, key := range []string{"address", "name", "database", "key_file", "imap_addr", "imap_tls", "imap_username",
		"imap_password", "imap_mailbox", "imap_processed_mailbox", "imap_set_aside_mailbox", "imap_processed_keep", "imap_poll_interval", "imap_idle",
		"max_message_size", "max_header_fields", "max_mime_parts", "max_lines", "max_errors", "max_answer_size",
		"smtp_addr", "smtp_tls", "smtp_username", "smtp_password", "smtp_helo", "smtp_sessions", "gm_secret", "gm_address", "deadline",
		"reminders", "grace", "templates", "send_retry_min", "send_retry_max", "send_give_up", "stranger_answers", "refusal_notices", "table_talk", "absence_days", "log_level", "log_format", "http_listen", "base_url", "lmtp_listen"} {
		if !documented[key] {
			t.Errorf("%s is not in the example", key)
		}
		delete(documented, key)
		if err := probe.set(key, "x"); err != nil && err.Error() == "unknown key" {
			t.Errorf("%s is not a key", key)
		}
	}
	for key := range documented {
		t.Errorf("the example has %s, which the test does not know", key)
	}
}

func TestParse(t *testing.T) {
	base := "address = judge@club.example\nimap_addr = 127.0.0.1:143\nimap_username = judge\nsmtp_addr = 127.0.0.1:25\n"
	cfg, err := Parse(strings.NewReader(base+
		"imap_tls = none\nimap_password = p#ss = word\nreminders = 2d,1h 30m\ndeadline = none\ngrace = 0s\n"+
		"max_message_size = 512K\nimap_idle = no\nlog_level = debug\nlog_format = json\nsmtp_sessions = 1\nimap_processed_keep = 30d\n"), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.IMAPTLS != mail.TLSNone || cfg.IMAPPassword != "p#ss = word" || cfg.Deadline != 0 || cfg.Grace != 0 ||
		!reflect.DeepEqual(cfg.Reminders, []time.Duration{48 * time.Hour, time.Hour, 30 * time.Minute}) ||
		cfg.MaxMessageSize != 512<<10 || cfg.IMAPIdle || cfg.LogLevel != slog.LevelDebug || cfg.LogFormat != "json" || cfg.SMTPSessions != 1 || cfg.IMAPProcessedKeep != 30*24*time.Hour {
		t.Errorf("%+v", cfg)
	}
	cfg, err = Parse(strings.NewReader(base+"imap_password = from-file\n"), func(k string) string {
		if k == EnvIMAPPassword {
			return "from-env"
		}
		return ""
	})
	if err != nil || cfg.IMAPPassword != "from-env" {
		t.Errorf("the environment does not replace the file: %q, %v", cfg.IMAPPassword, err)
	}

	for text, want := range map[string]string{
		"address = judge@club.example\n":                          "imap_addr is required",
		base + "frobnicate = 1\n":                                 "line 5: frobnicate: unknown key",
		base + "grace = 1h\ngrace = 2h\n":                         "grace is set twice",
		base + "just a line\n":                                    "want key = value",
		base + "imap_tls = ssl\n":                                 "unknown TLS mode",
		base + "gm_secret = short\n":                              "at least 12 characters",
		base + "gm_secret = long-enough-secret\n":                 "gm_address",
		base + "deadline = -3h\n":                                 "positive",
		base + "smtp_sessions = 0\n":                              "from 1 to",
		base + "smtp_sessions = 50\n":                             "at most 20",
		base + "smtp_password = hunter2\nmax_message_size = 1T\n": "want a size",
		strings.Replace(base, "judge@", "judge+x@", 1):            "plain address",
		base + "lmtp_listen = 2424\n":                             "lmtp_listen must be host:port",
	} {
		_, err := Parse(strings.NewReader(text), func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the error quotes a password: %v", err)
		}
	}
}

func TestPagesConfig(t *testing.T) {
	base := "address = judge@club.example\nimap_addr = 127.0.0.1:143\nimap_username = judge\nsmtp_addr = 127.0.0.1:25\n"
	cfg, err := Parse(strings.NewReader(base+"http_listen = 127.0.0.1:8080\nbase_url = https://judge.club.example/\n"), func(string) string { return "" })
	if err != nil || cfg.Validate() != nil || cfg.PagesURL() != "https://judge.club.example" {
		t.Fatalf("pages config: %+v %v", cfg, err)
	}
	cfg, _ = Parse(strings.NewReader(base+"http_listen = 127.0.0.1:8080\n"), func(string) string { return "" })
	if cfg.PagesURL() != "http://127.0.0.1:8080" {
		t.Errorf("the pages' address without base_url: %q", cfg.PagesURL())
	}
	for _, bad := range []string{"http_listen = 8080\n", "base_url = ftp://judge.club.example\n", "base_url = judge.club.example\n"} {
		cfg, err := Parse(strings.NewReader(base+bad), func(string) string { return "" })
		if err == nil {
			err = cfg.Validate()
		}
		if err == nil {
			t.Errorf("%q is taken", bad)
		}
	}
}

// MissingSecrets names each secret a judge likely needs that neither the
// file nor the environment gave (pbem's TestServeSaysWhichSecretsAreMissing
// sees them logged at start).
func TestMissingSecrets(t *testing.T) {
	cfg, err := Parse(strings.NewReader("address = judge@club.example\n"+
		"imap_addr = 127.0.0.1:1\nimap_tls = none\nimap_username = judge\n"+
		"smtp_addr = 127.0.0.1:1\nsmtp_tls = none\nsmtp_username = judge\n"), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	missing := strings.Join(cfg.MissingSecrets(), "\n")
	for _, env := range []string{EnvIMAPPassword, EnvSMTPPassword, EnvGMSecret} {
		if !strings.Contains(missing, env+" is unset") {
			t.Errorf("not named: %s", env)
		}
	}
	cfg.IMAPPassword, cfg.SMTPPassword, cfg.GMSecret = "imap-secret-1", "smtp-secret-1", "gm-secret-123456"
	if missing := cfg.MissingSecrets(); len(missing) != 0 {
		t.Errorf("with every secret: %q", missing)
	}
	cfg.SMTPUsername, cfg.SMTPPassword = "", ""
	if missing := cfg.MissingSecrets(); len(missing) != 0 {
		t.Errorf("an SMTP server without login needs no password: %q", missing)
	}
}

// Every number of the configuration file is bounded: no overflow, no
// negative grace, each error with its line (issue 15 item 11).
func TestConfigRefusesHugeAndNegativeValues(t *testing.T) {
	base := "address = judge@club.example\nimap_addr = 127.0.0.1:143\nimap_username = judge\nsmtp_addr = 127.0.0.1:25\n"
	for text, want := range map[string]string{
		base + "max_message_size = 8796093022208M\n":      "line 5: max_message_size: \"8796093022208M\": at most 1GiB",
		base + "max_message_size = 9223372036854775807\n": "line 5: max_message_size: \"9223372036854775807\": at most 1GiB",
		base + "max_message_size = 2048M\n":               "at most 1GiB",
		base + "grace = -1h\n":                            "line 5: grace: \"-1h\": want a duration of zero or more",
		base + "grace = 2562047h\n":                       "line 5: grace: \"2562047h\": at most 3650 days",
		base + "deadline = 3650d2562047h\n":               "at most 3650 days",
		base + "deadline = 99999999999999999999d\n":       "too many days",
		base + "reminders = 1h, -2h\n":                    "line 5: reminders",
		base + "max_lines = 0\n":                          "line 5: max_lines: \"0\": want a whole number from 1",
		base + "max_errors = 99999999999\n":               "line 5: max_errors",
		base + "max_answer_size = -5K\n":                  "line 5: max_answer_size",
	} {
		_, err := Parse(strings.NewReader(text), func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
	cfg, err := Parse(strings.NewReader(base+"max_message_size = 1024M\nmax_lines = 10\nmax_answer_size = 64K\n"), func(string) string { return "" })
	if err != nil || cfg.MaxMessageSize != 1<<30 || cfg.MaxLines != 10 || cfg.MaxAnswerSize != 64<<10 {
		t.Errorf("the largest size and some limits: %+v, %v", cfg, err)
	}
}

func TestParseLimit(t *testing.T) {
	if l, err := ParseLimit(" 3 / 1h "); err != nil || l != (Limit{N: 3, Per: time.Hour}) {
		t.Errorf("3/1h: %v %v", l, err)
	}
	for _, bad := range []string{"3", "0/1h", "-1/1h", "x/1h", "3/-1h", "3/x", "100000/1h"} {
		if _, err := ParseLimit(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	cfg, err := Parse(strings.NewReader("address = judge@club.example\nimap_addr = a:1\nimap_username = j\nsmtp_addr = a:2\n"+
		"stranger_answers = 2/12h\nrefusal_notices = 5/30m\n"), func(string) string { return "" })
	if err != nil || cfg.StrangerAnswers != (Limit{N: 2, Per: 12 * time.Hour}) || cfg.RefusalNotices != (Limit{N: 5, Per: 30 * time.Minute}) {
		t.Errorf("%+v %v", cfg, err)
	}
	if _, err := Parse(strings.NewReader("refusal_notices = lots\n"), func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "line 1: refusal_notices") {
		t.Errorf("a bad limit: %v", err)
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"48h": 48 * time.Hour, "2d": 48 * time.Hour, "1d12h": 36 * time.Hour, "90m": 90 * time.Minute, "1D": 24 * time.Hour} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("%s: %v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "soon", "2x", "d"} {
		if _, err := ParseDuration(bad); err == nil && bad != "" {
			t.Errorf("%q is accepted", bad)
		}
	}
}
