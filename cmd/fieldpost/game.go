package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fieldpost/engine/systems"
	"fieldpost/pbem"
	"fieldpost/pbem/config"
	"fieldpost/pbem/store"
)

func init() {
	commands["game"] = command{"game SUBCOMMAND [--config FILE | --database FILE] ...",
		"Administer the mail judge's games from the command line, with the judge running or not.", cmdGame}
	commands["backup"] = command{"backup [--config FILE | --database FILE] BACKUP-FILE",
		"Copy the mail judge's database, consistent even while the judge runs.", cmdBackup}
	commands["check-db"] = command{"check-db [--config FILE | --database FILE]",
		"Read every page of the mail judge's database and report any damage, while the judge runs or not.", cmdCheckDB}
}

// adminTimeout bounds one administration command: a judge that takes
// longer to answer is stuck.
const adminTimeout = 5 * time.Minute

// gameCommand is a subcommand of "fieldpost game".
type gameCommand struct {
	name    string
	usage   string // after "fieldpost game NAME "
	summary string
	// command is the GM command run (docs/commands.md), "" for the views;
	// nargs its arguments after the game id, -1 for any number.
	command string
	nargs   int
}

// gameCommands in the order the help lists them; new, list and show are
// run by their own functions, the others are GM commands on one game.
var gameCommands = []gameCommand{
	{"list", "[--json]", "List the games: round, status, deadline.", "", 0},
	{"show", "GAMEID [--json]", "Show a game: status, round, deadline, players, who has sent orders, forces, outbox.", "", 0},
	{"new", "--scenario NAME --id GAMEID --player SIDE=ADDRESS ... [--player SIDE.2=ADDRESS|empty ...] [--deadline 48h|none]",
		"Create a game; each player is mailed the welcome with its secret and first order form (the GM's NEWGAME).", "NEWGAME", 0},
	{"pause", "GAMEID", "Pause a game: no round is played and the deadline stops (PAUSE).", "PAUSE", 0},
	{"resume", "GAMEID", "Resume a paused game with the time its round had left (RESUME).", "RESUME", 0},
	{"extend", "GAMEID DURATION", "Move the open round's deadline later, e.g. by 24h or 2d (EXTEND).", "EXTEND", 1},
	{"deadline", "GAMEID DURATION|TIME|none", "Set the open round's deadline: from now, a UTC time (2026-03-01 18:00), or none (DEADLINE).", "DEADLINE", -1},
	{"advance", "GAMEID", "Play the open round now; sides without orders play the default orders (FORCE).", "FORCE", 0},
	{"rollback", "GAMEID", "Undo the last round played; the players are asked for new orders (ROLLBACK).", "ROLLBACK", 0},
	{"end", "GAMEID", "End a game now; everyone is mailed the final situation (END).", "END", 0},
	{"remail", "GAMEID", "Mail every player its situation and order form again, for players who lost their mail (REMAIL).", "REMAIL", 0},
	{"replace", "GAMEID SEAT ADDRESS", "Give a seat (SIDE or SIDE.N) to another address, with a new secret; the old one stops working (REPLACE).", "REPLACE", 2},
	{"open", "GAMEID SEAT", "Open a seat: the caretaker plays it until someone JOINs (OPEN).", "OPEN", 1},
	{"approve", "GAMEID SEAT", "Give an open seat to the address that asked to JOIN it (APPROVE).", "APPROVE", 1},
	{"policy", "GAMEID KEY=VALUE ...", "Set the caretaker, abandonment, absences, joining and rating of a game (POLICY).", "POLICY", -1},
	{"broadcast", "GAMEID TEXT ...", "Mail every player and observer of a game a message from the GM (BROADCAST).", "BROADCAST", -1},
}

func cmdGame(e *env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w := e.stderr
		fmt.Fprintf(w, "usage: fieldpost %s\n\n%s\n\n", commands["game"].usage, commands["game"].summary)
		fmt.Fprintln(w, "Subcommands (fieldpost game SUBCOMMAND --help for its options):")
		for _, c := range gameCommands {
			fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
		}
		if len(args) == 0 {
			return errUsage
		}
		return flag.ErrHelp
	}
	for _, c := range gameCommands {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	return fmt.Errorf("unknown subcommand %q; fieldpost game --help lists them", args[0])
}

// adminFlags are the options every administration command takes.
type adminFlags struct {
	fs               *flag.FlagSet
	config, database *string
}

func newAdminFlags(e *env, usage, summary string) *adminFlags {
	fs := flag.NewFlagSet(usage, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: fieldpost %s\n\n%s\n\n", usage, summary)
		fs.PrintDefaults()
	}
	return &adminFlags{fs: fs,
		config: fs.String("config", "", "the judge's configuration file: its database, and what changing a game needs when the judge is not running"),
		database: fs.String("database", "", "the judge's database, instead of the configuration's (default "+embeddedDatabase(defaultDataDir)+
			", the one fieldpost serve keeps without --config)"),
	}
}

// parse reads the options and returns the other arguments; options may
// come after them too (game show ID --json).
func (f *adminFlags) parse(args []string) ([]string, error) {
	var rest []string
	for {
		if err := f.fs.Parse(args); err != nil {
			return nil, err
		}
		if f.fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, f.fs.Arg(0))
		args = f.fs.Args()[1:]
	}
}

// open connects to the judge, or opens its database when it is not
// running; write for the commands that change games.
func (f *adminFlags) open(write bool) (*pbem.AdminConn, error) {
	opts := pbem.AdminOptions{Database: *f.database, Write: write, Games: systems.New}
	switch {
	case *f.config != "":
		cfg, err := config.Load(*f.config, os.Getenv)
		if err != nil {
			return nil, err
		}
		opts.Config = cfg
	case opts.Database == "":
		// The embedded judge's, with the configuration it wrote.
		opts.Database = embeddedDatabase(defaultDataDir)
		if cfg, err := config.Load(filepath.Join(defaultDataDir, judgeConfigName), os.Getenv); err == nil {
			opts.Config = cfg
		}
	}
	a, err := pbem.OpenAdmin(opts)
	if errors.Is(err, pbem.ErrNeedConfig) {
		return nil, fmt.Errorf("%w: give it with --config FILE, or start the judge", err)
	}
	return a, err
}

func (c gameCommand) run(e *env, args []string) error {
	fl := newAdminFlags(e, "game "+c.name+" "+c.usage, c.summary)
	var asJSON *bool
	if c.command == "" {
		asJSON = fl.fs.Bool("json", false, "write JSON instead of text")
	}
	var newGame newGameFlags
	if c.name == "new" {
		newGame.define(fl.fs)
	}
	rest, err := fl.parse(args)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
	defer cancel()

	var words []string // the GM command's arguments
	switch {
	case c.name == "list" && len(rest) == 0:
	case c.name == "new" && len(rest) == 0:
		if words, err = newGame.words(); err != nil {
			return err
		}
	case c.name != "list" && c.name != "new" && len(rest) >= 1 && (c.nargs < 0 && len(rest) > 1 || len(rest) == 1+c.nargs):
		words = rest
	default:
		fmt.Fprintf(e.stderr, "usage: fieldpost game %s %s\n", c.name, c.usage)
		return exitCode(2)
	}

	a, err := fl.open(c.command != "")
	if err != nil {
		return err
	}
	defer a.Close()
	switch c.name {
	case "list":
		games, err := a.Games(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, games)
		}
		return pbem.WriteGameList(e.stdout, games, time.Now())
	case "show":
		g, err := a.Game(ctx, rest[0])
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, g)
		}
		return pbem.WriteGame(e.stdout, g, time.Now())
	}
	answer, err := a.Command(ctx, c.command, words...)
	if err != nil {
		return err
	}
	if answer.Refused {
		return fmt.Errorf("%s: %s", answer.Subject, answer.Text)
	}
	fmt.Fprintln(e.stdout, strings.TrimRight(answer.Text, "\n"))
	writeMailsQueued(e.stdout, answer.Mails, a.Live())
	return nil
}

// writeMailsQueued says which mails a command queued, and when they go.
func writeMailsQueued(w io.Writer, mails []pbem.QueuedMail, live bool) {
	if len(mails) == 0 {
		return
	}
	fmt.Fprintf(w, "\nMails queued (%d):\n", len(mails))
	for _, m := range mails {
		fmt.Fprintf(w, "  %-10s to %s\n", m.Kind, m.To)
	}
	if live {
		fmt.Fprintln(w, "The judge is running: it sends them at once.")
	} else {
		fmt.Fprintln(w, "The judge is not running: they wait in its outbox and are sent when it next starts.")
	}
}

// newGameFlags are the options of "game new".
type newGameFlags struct {
	scenario, id, deadline *string
	players                multiFlag
}

func (n *newGameFlags) define(fs *flag.FlagSet) {
	n.scenario = fs.String("scenario", "", "the scenario (fieldpost scenarios lists them)")
	n.id = fs.String("id", "", "the game's id: 1 to 40 lower-case letters, digits and hyphens, never reused")
	n.deadline = fs.String("deadline", "", "how long each round is open, e.g. 48h or 2d, or none (default: the judge's)")
	fs.Var(&n.players, "player", "SIDE=ADDRESS: a side's player (once per side); SIDE=bot gives the embedded judge's bot an account; SIDE.2=ADDRESS|bot|empty a team seat (docs/team-play.md)")
}

// words are the arguments of the NEWGAME command.
func (n *newGameFlags) words() ([]string, error) {
	if *n.scenario == "" || *n.id == "" || len(n.players) == 0 {
		return nil, errors.New("--scenario, --id and a --player for each side are required")
	}
	words := []string{"scenario=" + *n.scenario, "id=" + *n.id}
	for _, p := range n.players {
		side, addr, ok := strings.Cut(p, "=")
		switch strings.ToLower(side) {
		case "scenario", "id", "game", "deadline":
			ok = false
		}
		if !ok || side == "" || addr == "" || strings.ContainsAny(p, " \t") {
			return nil, fmt.Errorf("--player %q: want SIDE=ADDRESS, e.g. us=alice@example.org", p)
		}
		words = append(words, p)
	}
	if *n.deadline != "" {
		words = append(words, "deadline="+*n.deadline)
	}
	return words, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// openReading reads the options and arguments of a command that reads the
// database (backup, check-db), wanting n arguments, and reaches the judge
// or its database.
func openReading(e *env, name string, args []string, n int) (*pbem.AdminConn, []string, error) {
	fl := newAdminFlags(e, commands[name].usage, commands[name].summary)
	rest, err := fl.parse(args)
	if err != nil {
		return nil, nil, err
	}
	if len(rest) != n {
		return nil, nil, errUsage
	}
	a, err := fl.open(false)
	return a, rest, err
}

func cmdBackup(e *env, args []string) error {
	a, rest, err := openReading(e, "backup", args, 1)
	if err != nil {
		return err
	}
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
	defer cancel()
	info, err := a.Backup(ctx, rest[0])
	if err != nil {
		return err
	}
	how := "the judge is not running"
	if a.Live() {
		how = "through the running judge"
	}
	fmt.Fprintf(e.stdout, "Backed up %s (%s, %d KiB) to %s; %s.\n", a.Database(), plural(info.Games, "game"), (info.Size+1023)/1024, info.Path, how)
	fmt.Fprintln(e.stdout, "The server key is not in the backup: keep a copy of its file too (see key_file), or no player's secret will work.")
	return nil
}

// cmdCheckDB checks a consistent copy of the database, so that a running
// judge is not held up.
func cmdCheckDB(e *env, args []string) error {
	a, _, err := openReading(e, "check-db", args, 0)
	if err != nil {
		return err
	}
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "fieldpost-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	info, err := a.Backup(ctx, filepath.Join(dir, "copy.db"))
	if err != nil {
		return err
	}
	if err := store.CheckDatabase(info.Path); err != nil {
		return fmt.Errorf("%s: %w", a.Database(), err)
	}
	fmt.Fprintf(e.stdout, "%s: every page reads (%s, %d KiB).\n", a.Database(), plural(info.Games, "game"), (info.Size+1023)/1024)
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
