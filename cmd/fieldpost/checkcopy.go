package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"fieldpost/pbem/store"
)

func init() {
	commands[checkCopyCommand] = command{checkCopyCommand + " COPY",
		"", // internal: the judge runs it on the copy of its database it checks
		cmdCheckCopy}
}

// checkCopyCommand is the internal command the judge runs in a child
// process to check every page of a copy of its database: the copy, read
// through the store's memory map, then fills the child's memory, not the
// judge's (a 250 MB database would otherwise more than double it).
const checkCopyCommand = "check-copy"

// damagedExit is check-copy's exit status for a damaged copy; it writes
// the damage to stderr. Any other failure exits 1 or 2.
const damagedExit = 3

func cmdCheckCopy(e *env, args []string) error {
	fs := newFlags(e, checkCopyCommand)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errUsage
	}
	err := store.CheckDatabase(fs.Arg(0))
	if d, ok := errors.AsType[*store.DamagedError](err); ok {
		fmt.Fprintln(e.stderr, d.Damage)
		return exitCode(damagedExit)
	}
	return err
}

// checkCopyInChild is the judge's store.CopyChecker: this program, run as
// check-copy on the copy.
func checkCopyInChild(ctx context.Context, path string) (damage, err error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the fieldpost program: %w", err)
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, self, checkCopyCommand, "--", path)
	cmd.Stderr = &stderr
	err = cmd.Run()
	said := strings.TrimSpace(stderr.String())
	if exit, ok := errors.AsType[*exec.ExitError](err); ok && exit.ExitCode() == damagedExit {
		return errors.New(said), nil
	}
	if err != nil {
		return nil, fmt.Errorf("running %s %s: %w: %s", self, checkCopyCommand, err, said)
	}
	return nil, nil
}
