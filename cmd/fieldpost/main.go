// Command fieldpost is the Fieldpost play-by-email judge: the mail daemon,
// and the offline tools a game master or two players can run a whole game
// with by hand.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	// Time zones for the players' deadlines, on machines without a zone
	// database.
	_ "time/tzdata"
)

// command is one subcommand: its usage line, summary and body.
type command struct {
	usage   string
	summary string
	run     func(env *env, args []string) error
}

var commands = map[string]command{}

// env is what a command reads and writes, so tests can run commands in-process.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// errUsage marks a mistake in the command line, answered with the usage.
var errUsage = errors.New("usage")

// exitCode lets a command end with a status other than 0/1 without an error
// message (check: 1 when the orders are refused).
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func main() {
	os.Exit(run(&env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:]))
}

func run(e *env, args []string) int {
	if len(args) == 0 {
		// A command line without a command is a mistake, answered as one.
		usage(e.stderr)
		return 2
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(e.stdout)
		return 0
	}
	name := args[0]
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(e.stderr, "fieldpost: unknown command %q\n\n", name)
		usage(e.stderr)
		return 2
	}
	err := cmd.run(e, args[1:])
	var code exitCode
	switch {
	case err == nil:
		return 0
	case errors.As(err, &code):
		return int(code)
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(e.stderr, "usage: fieldpost %s\n", cmd.usage)
		return 2
	default:
		fmt.Fprintf(e.stderr, "fieldpost %s: %v\n", name, err)
		return 1
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Fieldpost: a play-by-email judge for Two Star General, Three Star General, Brigadier General Commands and Frontline General.")
	fmt.Fprintln(w, "\nUsage: fieldpost COMMAND [options]   (fieldpost COMMAND --help for its options)")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(commands))
	for n, c := range commands {
		if c.summary != "" { // an internal command, run by the judge itself
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}

// newFlags makes a command's flag set, writing its help to the env.
func newFlags(e *env, name string) *flag.FlagSet {
	cmd := commands[name]
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: fieldpost %s\n\n%s\n\n", cmd.usage, cmd.summary)
		fs.PrintDefaults()
	}
	return fs
}

// multiFlag collects a repeated flag such as --orders SIDE=FILE.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
