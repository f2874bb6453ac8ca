package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"fieldpost/mail"
	"fieldpost/pbem/config"
)

func init() {
	commands["deliver"] = command{"deliver [--config FILE | --database FILE]",
		"Take one mail on standard input, from the mail server (a Postfix pipe transport, .forward, procmail),\n" +
			"through the running judge or, when none runs, into its database: exit status 0 once the mail's effects\n" +
			"are committed, 75 (EX_TEMPFAIL: the mail server keeps the mail and tries again) when the judge cannot take it now.", cmdDeliver}
	commands["unreadable"] = command{"unreadable [--config FILE | --database FILE] [ID]",
		"List the mails the mail server handed over (LMTP, deliver) that the judge could not read and set aside;\n" +
			"with an ID, write that mail as it came.", cmdUnreadable}
}

// exitTempFail is sysexits.h's EX_TEMPFAIL: the mail server keeps the mail
// and delivers it again later.
const exitTempFail = exitCode(75)

// deliverTimeout bounds the taking of one mail: the mail server waits for
// the command.
const deliverTimeout = 2 * time.Minute

func cmdDeliver(e *env, args []string) error {
	fl := newAdminFlags(e, commands["deliver"].usage, commands["deliver"].summary)
	// Every failure, a mistake in the command line included, keeps the
	// mail at the mail server: exit 75, never a status it would bounce.
	fail := func(err error) error {
		fmt.Fprintf(e.stderr, "fieldpost deliver: %v; the mail server keeps the mail and tries again\n", err)
		return exitTempFail
	}
	rest, err := fl.parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	if err != nil {
		return fail(err)
	}
	if len(rest) > 0 {
		return fail(fmt.Errorf("unexpected arguments %q", rest))
	}
	limit := config.Default().MaxMessageSize
	switch {
	case *fl.config != "":
		cfg, err := config.Load(*fl.config, os.Getenv)
		if err != nil {
			return fail(err)
		}
		limit = cfg.MaxMessageSize
	case *fl.database == "":
		// The embedded judge's, as fl.open takes it.
		if cfg, err := config.Load(filepath.Join(defaultDataDir, judgeConfigName), os.Getenv); err == nil {
			limit = cfg.MaxMessageSize
		}
	}
	raw, size, err := mail.ReadMessage(e.stdin, limit)
	if err != nil {
		return fail(err)
	}
	a, err := fl.open(true)
	if err != nil {
		return fail(err)
	}
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), deliverTimeout)
	defer cancel()
	if err := a.Deliver(ctx, raw, size); err != nil {
		return fail(err)
	}
	return nil
}

func cmdUnreadable(e *env, args []string) error {
	fl := newAdminFlags(e, commands["unreadable"].usage, commands["unreadable"].summary)
	rest, err := fl.parse(args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return errUsage
	}
	a, err := fl.open(false)
	if err != nil {
		return err
	}
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
	defer cancel()
	if len(rest) == 1 {
		raw, err := a.SetAsideRaw(ctx, rest[0])
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(raw)
		return err
	}
	mails, err := a.SetAside(ctx)
	if err != nil {
		return err
	}
	if len(mails) == 0 {
		fmt.Fprintln(e.stdout, "No delivered mail is set aside.")
		return nil
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tRECEIVED\tFROM\tSIZE\tSUBJECT\tWHY")
	for _, m := range mails {
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\n", m.ID, m.Received.UTC().Format("2006-01-02 15:04"), m.From, m.Size, m.Subject, firstLine(m.Reason))
	}
	return w.Flush()
}
