package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"fieldpost/pbem"
)

func init() {
	commands["serve"] = command{"serve --config FILE [--database FILE]",
		"Run the mail judge: read orders and commands from an IMAP mailbox, mail answers and reports over SMTP.", cmdServe}
}

func cmdServe(e *env, args []string) error {
	fs := newFlags(e, "serve")
	configPath := fs.String("config", "", "configuration file (see deploy/fieldpost.conf.example)")
	database := fs.String("database", "", "database file, instead of the configuration's")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *configPath == "" || fs.NArg() > 0 {
		return errUsage
	}
	cfg, err := pbem.LoadConfig(*configPath, os.Getenv)
	if err != nil {
		return err
	}
	if *database != "" {
		cfg.Database = *database
	}
	// SIGINT and SIGTERM end the judge gracefully: the mail in hand is
	// finished, the outbox flushed and the database closed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return pbem.Serve(ctx, cfg, newLogger(e.stderr, cfg))
}

// newLogger writes the judge's structured logs to w.
func newLogger(w io.Writer, cfg *pbem.Config) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
