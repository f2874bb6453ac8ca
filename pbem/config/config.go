// Package config reads the judge's configuration file: its "key = value"
// lines, each key's value and default, the secrets the environment gives
// (the Env constants), and the checks that a configuration can run a judge.
// deploy/fieldpost.conf.example documents every key. A bad line is refused
// with its number and key, never with its value, which may be a password.
//
// Dependencies point one way: pbem imports config and turns a Config into
// its Service's Options (pbem/options.go); config imports only mail, for
// the TLS modes and mail.DefaultLimits. So what config reads is in types
// of its own or the standard library's:
//   - a rate limit (stranger_answers, refusal_notices, table_talk) is a
//     [Limit], N/DURATION, which pbem converts to its pbem.Limit of the
//     same fields;
//   - a duration is read by [ParseDuration], in the words the game
//     master's commands use too (48h, 2d, 1d12h): pbem's commands call it;
//   - the defaults of what one mail may cost (max_lines, max_errors,
//     max_answer_size) are written here as numbers, and a test of pbem
//     checks them against pbem.DefaultLimits.
//
// What a program hands a judge beside its file is not configuration: the
// embedded mode's open listener for the pages and its account makers, the
// database copy checker and a test's hook are sockets and functions that
// no file can hold, and in Config every reader of a file would carry
// fields it must leave nil. They are pbem.Hooks, passed beside the Config
// to pbem.Serve and pbem.CreateFirstGame; the zero Hooks are a judge as its
// file alone describes it.
package config

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"fieldpost/mail"
)

// Config is the daemon's whole configuration: the judge, its mailbox, its
// mail server and its games' defaults. Each field is the file's key of the
// same name (IMAPAddr is imap_addr, SendGiveUp send_give_up);
// deploy/fieldpost.conf.example documents them all. A program that runs a
// judge with values of its own starts from Default.
type Config struct {
	Address string // address: the judge's address
	Name    string // name: display name of its mails
	// Database is the bbolt file; KeyFile the server key's file (by default
	// the database's path plus ".key"). ServerKey, from the environment,
	// replaces the key file.
	Database, KeyFile, ServerKey string

	// IMAPAddr is the mailbox the judge reads its mail from; it may be
	// empty when LMTPListen is set and the mail server hands every mail
	// over itself.
	IMAPAddr             string
	IMAPTLS              mail.TLSMode
	IMAPUsername         string
	IMAPPassword         string
	IMAPMailbox          string
	IMAPProcessedMailbox string
	IMAPSetAsideMailbox  string
	// IMAPProcessedKeep is how long handled mails stay in the processed
	// mailbox; zero (imap_processed_keep = forever, the default) keeps them.
	IMAPProcessedKeep time.Duration
	IMAPPollInterval  time.Duration
	IMAPIdle          bool
	MaxMessageSize    int64
	// LMTPListen, when set, is where the judge takes its mail straight
	// from the mail server over LMTP (host:port, or a unix socket path).
	LMTPListen string
	// What one mail may cost (docs/limits.md): the header fields and MIME
	// parts read, the lines of text read, the errors reported and the size
	// of an answer's text.
	MaxHeaderFields, MaxMIMEParts, MaxLines, MaxErrors int
	MaxAnswerSize                                      int64

	SMTPAddr     string
	SMTPTLS      mail.TLSMode
	SMTPUsername string
	SMTPPassword string
	SMTPHelo     string
	// SMTPSessions is how many SMTP sessions the outbox sends over at once
	// (3 by default): the server's storing of one mail overlaps the sending
	// of the next; fewer for a provider that limits connections.
	SMTPSessions int

	GMSecret, GMAddress string

	Deadline  time.Duration
	Reminders []time.Duration
	Grace     time.Duration
	// Templates is a folder whose *.tmpl files replace the built-in ones.
	Templates string

	SendRetryMin, SendRetryMax, SendGiveUp time.Duration
	// StrangerAnswers, RefusalNotices: stranger_answers, refusal_notices,
	// as N/DURATION.
	StrangerAnswers, RefusalNotices Limit
	// TalkLimit, AbsenceDays: table_talk (N/DURATION), absence_days.
	TalkLimit   Limit
	AbsenceDays int

	// HTTPListen is where the game pages are served (host:port); "" for
	// none. BaseURL is how players reach them (behind a reverse proxy, its
	// address), for the links in mails; by default http:// and HTTPListen.
	HTTPListen, BaseURL string

	LogLevel  slog.Level
	LogFormat string // text or json
}

// The environment variables that carry secrets, so that the file needs
// none; each replaces the file's value.
const (
	EnvIMAPPassword = "FIELDPOST_IMAP_PASSWORD"
	EnvSMTPPassword = "FIELDPOST_SMTP_PASSWORD"
	EnvGMSecret     = "FIELDPOST_GM_SECRET"
	EnvServerKey    = "FIELDPOST_SERVER_KEY"
)

// Default returns the configuration a file starts from.
func Default() *Config {
	return &Config{
		Name:                 "Fieldpost",
		Database:             "fieldpost.db",
		IMAPTLS:              mail.TLSImplicit,
		IMAPMailbox:          "INBOX",
		IMAPProcessedMailbox: "Processed",
		IMAPSetAsideMailbox:  "Unreadable",
		IMAPPollInterval:     time.Minute,
		IMAPIdle:             true,
		MaxMessageSize:       10 << 20,
		MaxHeaderFields:      mail.DefaultLimits.MaxHeaderFields,
		MaxMIMEParts:         mail.DefaultLimits.MaxParts,
		MaxLines:             5000,    // pbem.DefaultLimits
		MaxErrors:            40,      // pbem.DefaultLimits
		MaxAnswerSize:        1 << 20, // pbem.DefaultLimits
		SMTPTLS:              mail.TLSImplicit,
		SMTPSessions:         3,
		Deadline:             72 * time.Hour,
		Reminders:            []time.Duration{24 * time.Hour, 2 * time.Hour},
		Grace:                time.Hour,
		SendRetryMin:         time.Minute,
		SendRetryMax:         time.Hour,
		SendGiveUp:           72 * time.Hour,
		StrangerAnswers:      Limit{N: 1, Per: 24 * time.Hour},
		RefusalNotices:       Limit{N: 3, Per: time.Hour},
		TalkLimit:            Limit{N: 20, Per: 24 * time.Hour},
		AbsenceDays:          14,
		LogLevel:             slog.LevelInfo,
		LogFormat:            "text",
	}
}

// Load reads a configuration file (see Parse).
func Load(path string, getenv func(string) string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	defer f.Close()
	cfg, err := Parse(f, getenv)
	if err != nil {
		return nil, fmt.Errorf("configuration %s: %w", path, err)
	}
	return cfg, nil
}

// Parse reads a configuration in the "key = value" format, one key
// a line; lines starting with # are comments, and a value is everything
// after the "=" (so a password may hold a #). Unknown and repeated keys
// are errors. The secrets' environment variables (getenv, e.g. os.Getenv)
// then replace the file's values, and the result is checked.
func Parse(r io.Reader, getenv func(string) string) (*Config, error) {
	cfg := Default()
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: want key = value", n)
		}
		key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
		if seen[key] {
			return nil, fmt.Errorf("line %d: %s is set twice", n, key)
		}
		seen[key] = true
		if err := cfg.set(key, val); err != nil {
			return nil, fmt.Errorf("line %d: %s: %w", n, key, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for env, field := range map[string]*string{
		EnvIMAPPassword: &cfg.IMAPPassword, EnvSMTPPassword: &cfg.SMTPPassword,
		EnvGMSecret: &cfg.GMSecret, EnvServerKey: &cfg.ServerKey,
	} {
		if v := getenv(env); v != "" {
			*field = v
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// set sets one key of the file. The error never quotes the value, which
// may be a password.
func (c *Config) set(key, val string) error {
	var err error
	switch key {
	case "address":
		c.Address = val
	case "name":
		c.Name = val
	case "database":
		c.Database = val
	case "key_file":
		c.KeyFile = val
	case "imap_addr":
		c.IMAPAddr = val
	case "imap_tls":
		c.IMAPTLS, err = mail.ParseTLSMode(val)
	case "imap_username":
		c.IMAPUsername = val
	case "imap_password":
		c.IMAPPassword = val
	case "imap_mailbox":
		c.IMAPMailbox = val
	case "imap_processed_mailbox":
		c.IMAPProcessedMailbox = val
	case "imap_set_aside_mailbox":
		c.IMAPSetAsideMailbox = val
	case "imap_processed_keep":
		c.IMAPProcessedKeep = 0
		if !strings.EqualFold(val, "forever") {
			c.IMAPProcessedKeep, err = positiveDuration(val)
		}
	case "imap_poll_interval":
		c.IMAPPollInterval, err = positiveDuration(val)
	case "imap_idle":
		c.IMAPIdle, err = parseBool(val)
	case "max_message_size":
		c.MaxMessageSize, err = parseSize(val)
	case "max_header_fields":
		c.MaxHeaderFields, err = parseCount(val)
	case "max_mime_parts":
		c.MaxMIMEParts, err = parseCount(val)
	case "max_lines":
		c.MaxLines, err = parseCount(val)
	case "max_errors":
		c.MaxErrors, err = parseCount(val)
	case "max_answer_size":
		c.MaxAnswerSize, err = parseSize(val)
	case "smtp_addr":
		c.SMTPAddr = val
	case "smtp_tls":
		c.SMTPTLS, err = mail.ParseTLSMode(val)
	case "smtp_username":
		c.SMTPUsername = val
	case "smtp_password":
		c.SMTPPassword = val
	case "smtp_helo":
		c.SMTPHelo = val
	case "smtp_sessions":
		c.SMTPSessions, err = parseCount(val)
		if err == nil && c.SMTPSessions > maxSMTPSessions {
			err = fmt.Errorf("%q: at most %d", val, maxSMTPSessions)
		}
	case "gm_secret":
		c.GMSecret = val
	case "gm_address":
		c.GMAddress = val
	case "deadline":
		c.Deadline = 0
		if !strings.EqualFold(val, "none") {
			c.Deadline, err = positiveDuration(val)
		}
	case "reminders":
		c.Reminders = nil
		for _, f := range strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == ' ' }) {
			d, err := positiveDuration(f)
			if err != nil {
				return err
			}
			c.Reminders = append(c.Reminders, d)
		}
	case "grace":
		c.Grace, err = ParseDuration(val)
		if err == nil && c.Grace < 0 {
			err = fmt.Errorf("%q: want a duration of zero or more", val)
		}
	case "templates":
		c.Templates = val
	case "send_retry_min":
		c.SendRetryMin, err = positiveDuration(val)
	case "send_retry_max":
		c.SendRetryMax, err = positiveDuration(val)
	case "send_give_up":
		c.SendGiveUp, err = positiveDuration(val)
	case "http_listen":
		c.HTTPListen = val
	case "lmtp_listen":
		c.LMTPListen = val
	case "base_url":
		c.BaseURL = strings.TrimRight(val, "/")
	case "stranger_answers":
		c.StrangerAnswers, err = ParseLimit(val)
	case "refusal_notices":
		c.RefusalNotices, err = ParseLimit(val)
	case "table_talk":
		c.TalkLimit, err = ParseLimit(val)
	case "absence_days":
		c.AbsenceDays, err = strconv.Atoi(val)
		if err != nil || c.AbsenceDays < 1 || c.AbsenceDays > 365 {
			err = errors.New("want a whole number of days from 1 to 365")
		}
	case "log_level":
		err = c.LogLevel.UnmarshalText([]byte(val))
	case "log_format":
		c.LogFormat = strings.ToLower(val)
	default:
		return errors.New("unknown key")
	}
	return err
}

// MissingSecrets says, one line each, which secrets neither the file nor
// the environment gave, where a judge will likely need them: a judge
// started so runs, but its logins fail or nobody can create games, which
// is better said at start than found in the first failures.
func (c *Config) MissingSecrets() []string {
	var missing []string
	if c.IMAPAddr != "" && c.IMAPPassword == "" {
		missing = append(missing, fmt.Sprintf("%s is unset and imap_password empty: the IMAP login will have no password", EnvIMAPPassword))
	}
	if c.SMTPUsername != "" && c.SMTPPassword == "" {
		missing = append(missing, fmt.Sprintf("%s is unset and smtp_password empty: the SMTP login as %s will have no password", EnvSMTPPassword, c.SMTPUsername))
	}
	if c.GMSecret == "" {
		missing = append(missing, fmt.Sprintf("%s is unset and gm_secret empty: nobody can create games by mail", EnvGMSecret))
	}
	return missing
}

// PagesURL is where players reach the game pages: base_url, or the pages'
// own address; "" without pages.
func (c *Config) PagesURL() string {
	switch {
	case c.BaseURL != "":
		return c.BaseURL
	case c.HTTPListen != "":
		return "http://" + c.HTTPListen
	}
	return ""
}

// Validate checks that the configuration can run a judge.
func (c *Config) Validate() error {
	var problems []string
	need := func(v, key string) {
		if v == "" {
			problems = append(problems, key+" is required")
		}
	}
	need(c.Address, "address")
	need(c.Database, "database")
	if c.LMTPListen == "" || c.IMAPAddr != "" {
		if c.IMAPAddr == "" {
			problems = append(problems, "imap_addr is required (unless lmtp_listen takes the judge's mail)")
		}
		need(c.IMAPUsername, "imap_username")
	}
	need(c.SMTPAddr, "smtp_addr")
	if local, domain, ok := strings.Cut(c.Address, "@"); c.Address != "" && (!ok || local == "" || domain == "" || strings.ContainsAny(c.Address, "+ <>")) {
		problems = append(problems, "address must be a plain address such as judge@club.example")
	}
	if c.GMSecret != "" {
		if len(c.GMSecret) < 12 || strings.ContainsAny(c.GMSecret, " \t@<>\"") {
			problems = append(problems, "the GM secret must be at least 12 characters, without spaces, @, < or >")
		}
		need(c.GMAddress, "gm_address (with a GM secret)")
	}
	if c.ServerKey != "" && len(c.ServerKey) < 32 {
		problems = append(problems, EnvServerKey+" must be at least 32 characters")
	}
	if c.BaseURL != "" {
		if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			problems = append(problems, "base_url must be an http:// or https:// address such as https://judge.club.example")
		}
	}
	if c.HTTPListen != "" {
		if _, _, err := net.SplitHostPort(c.HTTPListen); err != nil {
			problems = append(problems, "http_listen must be host:port, such as 127.0.0.1:8080")
		}
	}
	if c.LMTPListen != "" && !strings.HasPrefix(c.LMTPListen, "/") {
		if _, _, err := net.SplitHostPort(c.LMTPListen); err != nil {
			problems = append(problems, "lmtp_listen must be host:port, such as 127.0.0.1:2424, or the path of a unix socket")
		}
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		problems = append(problems, "log_format must be text or json")
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// maxSMTPSessions bounds smtp_sessions: more would only meet the
// providers' connection limits.
const maxSMTPSessions = 20
