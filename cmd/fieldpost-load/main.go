// Command fieldpost-load measures the Fieldpost judge under load
// (docs/performance.md): it builds a database of many games, runs the real
// judge (a fieldpost binary) on a club mail server on loopback, mails it
// orders, and times its answers against a raw fetch-and-reply baseline.
// It is a tool of its own, as the judge's binary holds no measuring
// machinery.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = "fieldpost-load [--games N] [--played N] [--mails N] [--latency-mails N] [--long-game SCENARIO] [--judge PATH] [--dir DIR]"

// errUsage marks a mistake in the command line, answered with the usage.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	err := cmdLoad(args, stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "usage: %s\n", usage)
		return 2
	default:
		fmt.Fprintf(stderr, "fieldpost-load: %v\n", err)
		return 1
	}
}
