package pbem

import (
	"context"
	"log/slog"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"fieldpost/engine/systems"
	"fieldpost/mail"
)

// The example configuration is complete and valid: every key it documents
// is one ParseConfig knows, and every key ParseConfig knows is documented.
func TestExampleConfig(t *testing.T) {
	env := map[string]string{EnvIMAPPassword: "imap-pw", EnvSMTPPassword: "smtp-pw", EnvGMSecret: "gm-secret-123456"}
	cfg, err := LoadConfig("../deploy/fieldpost.conf.example", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	want.Address, want.Database, want.KeyFile = "judge@club.example", "/var/lib/fieldpost/fieldpost.db", "/var/lib/fieldpost/fieldpost.db.key"
	want.IMAPAddr, want.IMAPUsername, want.IMAPPassword = "imap.club.example:993", "judge", "imap-pw"
	want.SMTPAddr, want.SMTPUsername, want.SMTPPassword = "smtp.club.example:465", "judge", "smtp-pw"
	want.GMSecret, want.GMAddress = "gm-secret-123456", "gm@club.example"
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("the example is not the defaults:\n got %+v\nwant %+v", cfg, want)
	}

	raw, err := os.ReadFile("../deploy/fieldpost.conf.example")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, line := range strings.Split(string(raw), "\n") {
		if key, _, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			documented[strings.TrimSpace(key)] = true
		}
	}
	probe := DefaultConfig()
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

func TestParseConfig(t *testing.T) {
	base := "address = judge@club.example\nimap_addr = 127.0.0.1:143\nimap_username = judge\nsmtp_addr = 127.0.0.1:25\n"
	cfg, err := ParseConfig(strings.NewReader(base+
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
	cfg, err = ParseConfig(strings.NewReader(base+"imap_password = from-file\n"), func(k string) string {
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
		_, err := ParseConfig(strings.NewReader(text), func(string) string { return "" })
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
	cfg, err := ParseConfig(strings.NewReader(base+"http_listen = 127.0.0.1:8080\nbase_url = https://judge.club.example/\n"), func(string) string { return "" })
	if err != nil || cfg.Validate() != nil || cfg.pagesURL() != "https://judge.club.example" {
		t.Fatalf("pages config: %+v %v", cfg, err)
	}
	cfg, _ = ParseConfig(strings.NewReader(base+"http_listen = 127.0.0.1:8080\n"), func(string) string { return "" })
	if cfg.pagesURL() != "http://127.0.0.1:8080" {
		t.Errorf("the pages' address without base_url: %q", cfg.pagesURL())
	}
	for _, bad := range []string{"http_listen = 8080\n", "base_url = ftp://judge.club.example\n", "base_url = judge.club.example\n"} {
		cfg, err := ParseConfig(strings.NewReader(base+bad), func(string) string { return "" })
		if err == nil {
			err = cfg.Validate()
		}
		if err == nil {
			t.Errorf("%q is taken", bad)
		}
	}
}

// A judge started without the secrets' environment variables says so at
// start, naming each variable.
func TestServeSaysWhichSecretsAreMissing(t *testing.T) {
	cfg, err := ParseConfig(strings.NewReader("address = judge@club.example\ndatabase = "+t.TempDir()+"/judge.db\n"+
		"imap_addr = 127.0.0.1:1\nimap_tls = none\nimap_username = judge\n"+
		"smtp_addr = 127.0.0.1:1\nsmtp_tls = none\nsmtp_username = judge\n"), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Serve(ctx, cfg, systems.New, testLogger(t, &logs)); err != nil {
		t.Fatal(err)
	}
	for _, env := range []string{EnvIMAPPassword, EnvSMTPPassword, EnvGMSecret} {
		if !strings.Contains(logs.String(), env+" is unset") {
			t.Errorf("not said at start: %s", env)
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
