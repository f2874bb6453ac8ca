package main

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"fieldpost/data"
	"fieldpost/engine/stargeneral/mapview"
	"fieldpost/engine/stargeneral/ordertext"
	"fieldpost/engine/stargeneral/report"
	"fieldpost/engine/stargeneral/rules"
	"fieldpost/mail"
	"fieldpost/pbem"
	"fieldpost/templates"
)

func init() {
	commands["scenarios"] = command{"scenarios [--json]", "List the bundled scenarios.", cmdScenarios}
	commands["new"] = command{"new --scenario NAME --out STATE.json [--seed N]", "Start a game of a scenario in a state file.", cmdNew}
	commands["form"] = command{"form --state STATE.json --side SIDE", "Print a side's order form for the next round.", cmdForm}
	commands["check"] = command{"check --state STATE.json --side SIDE [--game ID] (ORDERS.txt | --mail MAIL.eml)",
		"Check a side's orders as the judge reads a mail: the echo and odds, or every error (exit 1); with --mail a raw mail, showing what was read.", cmdCheck}
	commands["resolve"] = command{"resolve --state STATE.json --orders SIDE=FILE [--orders SIDE=FILE] --out NEXT.json [--report REPORT.txt] [--map MAP.png] [--seed N]",
		"Play the next round; a side without orders gets the default orders.", cmdResolve}
	commands["map"] = command{"map --state STATE.json (--png FILE | --ascii)", "Draw the map of a game.", cmdMap}
}

// gameFile is a game on disk for the offline commands: the position and the
// game's secret dice seed, from which every round's seed is derived. The
// situation.json attached to the judge's mails reads as one too, without a
// seed (Format 0, with its Ruleset): a round is replayed from it with the
// seed its report reveals.
type gameFile struct {
	Format  int          `json:"format,omitempty"`
	Ruleset string       `json:"ruleset,omitempty"`
	Seed    uint64       `json:"seed,omitempty"`
	State   *rules.State `json:"state"`
}

// situation reports whether the file is a judge's situation.json.
func (gf *gameFile) situation() bool { return gf.Format == 0 }

func readGame(path string) (*gameFile, *rules.Ruleset, error) {
	if path == "" {
		return nil, nil, fmt.Errorf("--state is required")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var gf gameFile
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&gf); err != nil {
		return nil, nil, fmt.Errorf("%s is not a Fieldpost state file: %w", path, err)
	}
	situation := gf.Format == 0 && gf.Ruleset != ""
	if gf.Format != 1 && !situation || gf.State == nil || gf.State.Map == nil {
		return nil, nil, fmt.Errorf("%s is not a Fieldpost state file (format 1) or a judge's situation.json", path)
	}
	rs, err := data.Ruleset(gf.State.Ruleset)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return &gf, rs, nil
}

func writeGame(path string, gf *gameFile) error {
	raw, err := json.MarshalIndent(gf, "", " ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(raw, '\n'), 0o644)
}

// writeFileAtomic never leaves a half-written file behind.
func writeFileAtomic(path string, content []byte, mode os.FileMode) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, content, mode); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func cmdScenarios(e *env, args []string) error {
	fs := newFlags(e, "scenarios")
	asJSON := fs.Bool("json", false, "print a JSON array")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errUsage
	}
	list, err := data.Scenarios()
	if err != nil {
		return err
	}
	type entry struct {
		Name         string   `json:"name"`
		Title        string   `json:"title"`
		Ruleset      string   `json:"ruleset"`
		Sides        []string `json:"sides"`
		Cols         int      `json:"cols"`
		Rows         int      `json:"rows"`
		Days         int      `json:"days"`
		RoundsPerDay int      `json:"rounds_per_day"`
	}
	out := []entry{}
	for _, sc := range list {
		out = append(out, entry{Name: sc.Name, Title: sc.Title, Ruleset: sc.Ruleset, Sides: sc.Sides,
			Cols: sc.Cols, Rows: sc.Rows, Days: sc.Days, RoundsPerDay: sc.RoundsPerDay})
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for _, en := range out {
		fmt.Fprintf(e.stdout, "%-10s %-4s %2dx%-2d  %d day(s) of %d rounds  %-16s %s\n",
			en.Name, en.Ruleset, en.Cols, en.Rows, en.Days, en.RoundsPerDay, strings.Join(en.Sides, " v "), en.Title)
	}
	return nil
}

func cmdNew(e *env, args []string) error {
	fs := newFlags(e, "new")
	name := fs.String("scenario", "", "scenario name (see fieldpost scenarios)")
	out := fs.String("out", "", "state file to write")
	seed := fs.Uint64("seed", 0, "the game's dice seed (default: random)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *name == "" || *out == "" || fs.NArg() > 0 {
		return errUsage
	}
	sc, err := data.Scenario(*name)
	if err != nil {
		return err
	}
	gf := &gameFile{Format: 1, Seed: *seed, State: sc.NewGame()}
	if !flagSet(fs, "seed") {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		gf.Seed = binary.BigEndian.Uint64(b[:])
	}
	if err := writeGame(*out, gf); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %s, %s v %s, %s\n", *out, sc.Title, gf.State.Sides[0].Name, gf.State.Sides[1].Name,
		ordertext.RoundName(sc.Ruleset, gf.State))
	return nil
}

// flagSet reports whether a flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			found = true
		}
	})
	return found
}

func sideArg(st *rules.State, side string) error {
	if side == "" {
		return fmt.Errorf("--side is required (%s)", sideNames(st))
	}
	if st.Side(side) == nil {
		return fmt.Errorf("no side %q in this game (%s)", side, sideNames(st))
	}
	return nil
}

func sideNames(st *rules.State) string {
	return st.Sides[0].Name + " or " + st.Sides[1].Name
}

func cmdForm(e *env, args []string) error {
	fs := newFlags(e, "form")
	state := fs.String("state", "", "state file")
	side := fs.String("side", "", "the side whose form to print")
	game := fs.String("game", "", "game id to write in the form's header")
	if err := fs.Parse(args); err != nil {
		return err
	}
	gf, rs, err := readGame(*state)
	if err != nil {
		return err
	}
	if err := sideArg(gf.State, *side); err != nil {
		return err
	}
	if gf.State.Ended {
		return fmt.Errorf("the game is over: %s", gf.State.Result)
	}
	fmt.Fprint(e.stdout, ordertext.Form(rs, gf.State, *side, *game))
	return nil
}

func cmdCheck(e *env, args []string) error {
	fs := newFlags(e, "check")
	state := fs.String("state", "", "state file")
	side := fs.String("side", "", "the side the orders are for")
	mailFile := fs.String("mail", "", "a raw mail (.eml) to read as the judge would")
	game := fs.String("game", "", "the game's id, as the judge's mails name it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 && *mailFile == "" || fs.NArg() != 0 && *mailFile != "" {
		return errUsage
	}
	gf, rs, err := readGame(*state)
	if err != nil {
		return err
	}
	if err := sideArg(gf.State, *side); err != nil {
		return err
	}
	var msg *mail.Inbound
	if *mailFile != "" {
		f, err := os.Open(*mailFile)
		if err != nil {
			return err
		}
		defer f.Close()
		if msg, err = mail.Parse(f, maxMailSize); err != nil {
			return fmt.Errorf("%s: %w", *mailFile, err)
		}
	} else if msg, err = orderFileMail(fs.Arg(0)); err != nil {
		return err
	}
	report, orders := pbem.CheckMail(rs, gf.State, *side, *game, msg, maxMailSize, *mailFile != "")
	fmt.Fprint(e.stdout, report)
	if orders == nil {
		return exitCode(1)
	}
	return nil
}

// maxMailSize is the size above which the judge reads no mail, as its
// intake is configured by default.
const maxMailSize = 10 << 20

// orderFileMail reads a file of orders as the body of a mail, so that the
// offline tools read it as the judge reads a mail.
func orderFileMail(path string) (*mail.Inbound, error) {
	body, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return pbem.TextMail(body)
}

func cmdResolve(e *env, args []string) error {
	fs := newFlags(e, "resolve")
	state := fs.String("state", "", "state file of the position to play from")
	var orderFiles multiFlag
	fs.Var(&orderFiles, "orders", "SIDE=FILE: a side's orders (repeat for the other side)")
	out := fs.String("out", "", "state file to write after the round")
	reportPath := fs.String("report", "", "write the round report here")
	mapPath := fs.String("map", "", "write the map after the round here (PNG)")
	seed := fs.Uint64("seed", 0, "the round's dice seed (default: derived from the game's seed)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		return errUsage
	}
	gf, rs, err := readGame(*state)
	if err != nil {
		return err
	}
	st := gf.State
	var orders []*rules.Orders
	var defaulted []string
	given := map[string]bool{}
	for _, spec := range orderFiles {
		side, file, ok := strings.Cut(spec, "=")
		if !ok {
			return fmt.Errorf("--orders %q: want SIDE=FILE", spec)
		}
		if err := sideArg(st, side); err != nil {
			return err
		}
		if given[side] {
			return fmt.Errorf("--orders: two files for %s", side)
		}
		given[side] = true
		msg, err := orderFileMail(file)
		if err != nil {
			return err
		}
		report, sideOrders := pbem.CheckMail(rs, st, side, "", msg, maxMailSize, false)
		if sideOrders == nil {
			fmt.Fprintf(e.stderr, "%s's orders (%s) are refused:\n%s", side, file, report)
			return exitCode(1)
		}
		orders = append(orders, sideOrders)
	}
	for _, sd := range st.Sides {
		if !given[sd.Name] {
			defaulted = append(defaulted, sd.Name)
		}
	}
	roundSeed := rules.RoundSeed(gf.Seed, st.Turn)
	switch {
	case flagSet(fs, "seed"):
		roundSeed = *seed
	case gf.situation():
		return fmt.Errorf("%s is a situation from the judge, without the game's seed: give the round's --seed from its report", *state)
	}
	next, events, err := rules.Resolve(rs, st, orders, rules.NewSeededDice(roundSeed))
	if err != nil {
		return err
	}
	nextFile := &gameFile{Format: gf.Format, Ruleset: gf.Ruleset, Seed: gf.Seed, State: next}
	if err := writeGame(*out, nextFile); err != nil {
		return err
	}
	if *reportPath != "" {
		text, err := report.Text(templates.FS, report.Round{Ruleset: rs, Before: st, After: next, Events: events, Seed: roundSeed, Defaulted: defaulted, Orders: orders})
		if err != nil {
			return err
		}
		if err := writeFileAtomic(*reportPath, []byte(text), 0o644); err != nil {
			return err
		}
	}
	if *mapPath != "" {
		var b bytes.Buffer
		if err := mapview.PNG(&b, rs, next, events, mapview.Options{}); err != nil {
			return err
		}
		if err := writeFileAtomic(*mapPath, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	for _, side := range defaulted {
		fmt.Fprintf(e.stdout, "%s gave no orders and played the default orders: every unit held where it stood\n", side)
	}
	fmt.Fprintf(e.stdout, "played %s: %d events", ordertext.RoundName(rs, st), len(events))
	if next.Ended {
		fmt.Fprintf(e.stdout, "; the battle is over: %s", next.Result)
	}
	fmt.Fprintln(e.stdout)
	return nil
}

func cmdMap(e *env, args []string) error {
	fs := newFlags(e, "map")
	state := fs.String("state", "", "state file")
	png := fs.String("png", "", "write a PNG picture here")
	ascii := fs.Bool("ascii", false, "print the map as text")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (*png == "") == !*ascii || fs.NArg() > 0 {
		return errUsage
	}
	gf, rs, err := readGame(*state)
	if err != nil {
		return err
	}
	if *ascii {
		fmt.Fprint(e.stdout, mapview.ASCII(rs, gf.State))
		return nil
	}
	var b bytes.Buffer
	if err := mapview.PNG(&b, rs, gf.State, nil, mapview.Options{}); err != nil {
		return err
	}
	return writeFileAtomic(*png, b.Bytes(), 0o644)
}
