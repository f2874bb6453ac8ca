package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"fieldpost/pbem"
)

func init() {
	commands["club"] = command{"club (add NAME | ladder [--json]) [--config FILE | --database FILE]",
		"The club: add a mail account on the embedded club server (printing its settings), or print the ladder.", cmdClub}
}

func cmdClub(e *env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintf(e.stderr, "usage: fieldpost %s\n\n%s\n\n", commands["club"].usage, commands["club"].summary)
		fmt.Fprintln(e.stderr, "  add NAME   make a mail account on the running embedded judge's club server, print its settings")
		fmt.Fprintln(e.stderr, "  ladder     print the club ladder: ratings from rated games, every player's reliability")
		if len(args) == 0 {
			return errUsage
		}
		return flag.ErrHelp
	}
	sub, args := args[0], args[1:]
	fl := newAdminFlags(e, "club "+sub, commands["club"].summary)
	var asJSON *bool
	if sub == "ladder" {
		asJSON = fl.fs.Bool("json", false, "write JSON instead of text")
	}
	rest, err := fl.parse(args)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
	defer cancel()
	switch {
	case sub == "ladder" && len(rest) == 0:
		a, err := fl.open(false)
		if err != nil {
			return err
		}
		defer a.Close()
		rows, err := a.Ladder(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, rows)
		}
		return pbem.WriteLadder(e.stdout, rows)
	case sub == "add" && len(rest) == 1:
		a, err := fl.open(false)
		if err != nil {
			return err
		}
		defer a.Close()
		settings, err := a.ClubAccount(ctx, rest[0])
		if err != nil {
			return err
		}
		fmt.Fprint(e.stdout, settings)
		return nil
	}
	fmt.Fprintf(e.stderr, "usage: fieldpost %s\n", commands["club"].usage)
	return exitCode(2)
}

// clubAccount makes sure the embedded club server has an account (a
// player's, named by the local part of its address), creating it and
// keeping it in club.json when missing; it returns the new account's
// settings, "" when it existed.
func (b *clubBots) clubAccount(name string) (string, error) {
	name = strings.ToLower(name)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cf.password(name) != "" {
		return "", nil
	}
	a, err := b.srv.AddAccount(name, "")
	if err != nil {
		return "", err
	}
	b.cf.Accounts = append(b.cf.Accounts, a)
	if err := saveClubFile(b.path, b.cf); err != nil {
		return "", fmt.Errorf("saving the account: %w", err)
	}
	return b.srv.ConnectionInstructions(name)
}
