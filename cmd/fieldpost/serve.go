package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"fieldpost/engine/systems"
	"fieldpost/mail"
	"fieldpost/pbem"
	"fieldpost/pbem/config"
)

func init() {
	commands["serve"] = command{"serve [--config FILE [--database FILE]] [--data DIR] [--demo [--demo-pace 5s]]",
		"Run the mail judge: read orders and commands from an IMAP mailbox, mail answers and reports over SMTP.\n" +
			"With no --config it runs its own small club mail server on loopback, with a game ready to play.", cmdServe}
}

func cmdServe(e *env, args []string) error {
	fs := newFlags(e, "serve")
	configPath := fs.String("config", "", "configuration file for a real mail account (see deploy/fieldpost.conf.example)")
	database := fs.String("database", "", "database file, instead of the configuration's")
	lmtpListen := fs.String("lmtp-listen", "", "with --config: take mail from the mail server over LMTP on this address (host:port or a unix socket path), as lmtp_listen")
	var emb embeddedOptions
	fs.StringVar(&emb.dataDir, "data", defaultDataDir, "without --config: the folder for the games, accounts and log")
	fs.StringVar(&emb.imapAddr, "imap-listen", "127.0.0.1:1143", "without --config: the club mail server's IMAP address")
	fs.StringVar(&emb.smtpAddr, "smtp-listen", "127.0.0.1:1587", "without --config: the club mail server's SMTP address")
	fs.StringVar(&emb.httpAddr, "http-listen", "127.0.0.1:8080", `without --config: where the game pages are served ("" for none)`)
	fs.StringVar(&emb.hostname, "hostname", "", "without --config: the host name mail programs connect to (for a LAN)")
	fs.BoolVar(&emb.demo, "demo", false, "without --config: two bots play a tutorial game by mail while you watch")
	fs.DurationVar(&emb.pace, "demo-pace", time.Second, "with --demo: how long each bot thinks before it answers (5s to watch the game unfold)")
	fs.DurationVar(&emb.pace, "pace", time.Second, "the same as --demo-pace")
	fs.BoolVar(&emb.verbose, "verbose", false, "without --config: also print the log (always in DATA/fieldpost.log)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 || (*database != "" || *lmtpListen != "") && *configPath == "" {
		return errUsage
	}
	if *configPath == "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return serveEmbedded(ctx, e, emb)
	}
	cfg, err := config.Load(*configPath, os.Getenv)
	if err != nil {
		return err
	}
	if *database != "" {
		cfg.Database = *database
	}
	if *lmtpListen != "" {
		cfg.LMTPListen = *lmtpListen
	}
	lock, err := lockDatabase(cfg.Database, "the database "+cfg.Database)
	if err != nil {
		return err
	}
	defer lock.release()
	// SIGINT and SIGTERM end the judge gracefully: the mail in hand is
	// finished, the outbox flushed and the database closed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return pbem.Serve(ctx, cfg, pbem.Hooks{CheckCopy: checkCopyInChild, InHand: testInHand}, systems.New, newLogger(e.stderr, cfg))
}

// testInHand is nil but in the tests, whose judge dies with it while a
// mail is in hand (TestJudgeKilledByAMailSetsItAside).
var testInHand func(msg *mail.Inbound) error

// newLogger writes the judge's structured logs to w.
func newLogger(w io.Writer, cfg *config.Config) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
