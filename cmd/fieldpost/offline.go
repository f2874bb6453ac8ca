package main

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"fieldpost/engine"
	"fieldpost/mail"
	"fieldpost/pbem"
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

// gameFile is a game on disk for the offline commands: its game system,
// the position and the game's secret dice seed, from which every round's
// seed is derived. The situation.json attached to the judge's mails of a
// game that hides nothing reads as one too, without a seed (Format 0, with
// its Ruleset): a round is replayed from it with the seed its report
// reveals.
type gameFile struct {
	Format int `json:"format,omitempty"`
	// System is the game system; files written before there were several
	// have none and are Star General.
	System  string          `json:"system,omitempty"`
	Ruleset string          `json:"ruleset,omitempty"`
	Seed    uint64          `json:"seed,omitempty"`
	State   json.RawMessage `json:"state"`

	pos engine.Position
}

// situation reports whether the file is a judge's situation.json.
func (gf *gameFile) situation() bool { return gf.Format == 0 }

func readGame(path string) (*gameFile, error) {
	if path == "" {
		return nil, fmt.Errorf("--state is required")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var gf gameFile
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&gf); err != nil {
		return nil, fmt.Errorf("%s is not a Fieldpost state file: %w", path, err)
	}
	situation := gf.Format == 0 && gf.Ruleset != ""
	if gf.Format != 1 && !situation || len(gf.State) == 0 {
		return nil, fmt.Errorf("%s is not a Fieldpost state file (format 1) or a judge's situation.json", path)
	}
	systems, err := builtinGames()
	if err != nil {
		return nil, err
	}
	sys, err := systems.Lookup(cmp.Or(gf.System, pbem.LegacySystem))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if gf.pos, err = sys.Load(gf.State); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &gf, nil
}

// writeGame writes a game file with the position pos.
func writeGame(path string, gf *gameFile, pos engine.Position) error {
	state, err := pos.Marshal()
	if err != nil {
		return err
	}
	gf.State = state
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
	systems, err := builtinGames()
	if err != nil {
		return err
	}
	type entry struct {
		Name    string   `json:"name"`
		Title   string   `json:"title"`
		System  string   `json:"system"`
		Ruleset string   `json:"ruleset"`
		Sides   []string `json:"sides"`
		Map     string   `json:"map"`
		Length  string   `json:"length"`
	}
	out := []entry{}
	for _, sys := range systems {
		for _, sc := range sys.Scenarios() {
			en := entry{Name: sc.Name, Title: sc.Title, System: sys.Name(), Ruleset: sc.Ruleset, Map: sc.Map, Length: sc.Length}
			for _, sd := range sc.Sides {
				en.Sides = append(en.Sides, sd.Name)
			}
			out = append(out, en)
		}
	}
	slices.SortFunc(out, func(a, b entry) int { return strings.Compare(a.Name, b.Name) })
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	// Columns as wide as their widest value, so that every row lines up.
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, en := range out {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n",
			en.Name, en.Ruleset, en.Map, en.Length, strings.Join(en.Sides, " v "), en.Title)
	}
	return tw.Flush()
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
	sys, sc, err := scenarioInfo(*name)
	if err != nil {
		return err
	}
	gf := &gameFile{Format: 1, System: sys.Name(), Seed: *seed}
	if !flagSet(fs, "seed") {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		gf.Seed = binary.BigEndian.Uint64(b[:])
	}
	pos, err := sys.NewGame(sc.Name, engine.SetupSeed(gf.Seed))
	if err != nil {
		return err
	}
	if err := writeGame(*out, gf, pos); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %s, %s, %s\n", *out, sc.Title, strings.Join(sideNameList(pos), " v "), pos.Step().Name)
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

func sideArg(pos engine.Position, side string) error {
	names := sideNameList(pos)
	if side == "" {
		return fmt.Errorf("--side is required (%s)", strings.Join(names, " or "))
	}
	if !slices.Contains(names, side) {
		return fmt.Errorf("no side %q in this game (%s)", side, strings.Join(names, " or "))
	}
	return nil
}

func sideNameList(pos engine.Position) []string {
	var names []string
	for _, sd := range pos.Sides() {
		names = append(names, sd.Name)
	}
	return names
}

func cmdForm(e *env, args []string) error {
	fs := newFlags(e, "form")
	state := fs.String("state", "", "state file")
	side := fs.String("side", "", "the side whose form to print")
	game := fs.String("game", "", "game id to write in the form's header")
	if err := fs.Parse(args); err != nil {
		return err
	}
	gf, err := readGame(*state)
	if err != nil {
		return err
	}
	if err := sideArg(gf.pos, *side); err != nil {
		return err
	}
	if step := gf.pos.Step(); step.Over {
		return fmt.Errorf("the game is over: %s", step.Result)
	}
	fmt.Fprint(e.stdout, gf.pos.Form(*side, *game))
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
	gf, err := readGame(*state)
	if err != nil {
		return err
	}
	if err := sideArg(gf.pos, *side); err != nil {
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
	report, orders := pbem.CheckMail(gf.pos, *side, *game, msg, maxMailSize, *mailFile != "")
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
	gf, err := readGame(*state)
	if err != nil {
		return err
	}
	pos := gf.pos
	step := pos.Step()
	orders := map[string]engine.Orders{}
	for _, spec := range orderFiles {
		side, file, ok := strings.Cut(spec, "=")
		if !ok {
			return fmt.Errorf("--orders %q: want SIDE=FILE", spec)
		}
		if err := sideArg(pos, side); err != nil {
			return err
		}
		if !slices.Contains(step.Waiting, side) {
			return fmt.Errorf("--orders: %s gives no orders now (%s waits for %s)", side, step.Name, strings.Join(step.Waiting, ", "))
		}
		if orders[side] != nil {
			return fmt.Errorf("--orders: two files for %s", side)
		}
		msg, err := orderFileMail(file)
		if err != nil {
			return err
		}
		report, sideOrders := pbem.CheckMail(pos, side, "", msg, maxMailSize, false)
		if sideOrders == nil {
			fmt.Fprintf(e.stderr, "%s's orders (%s) are refused:\n%s", side, file, report)
			return exitCode(1)
		}
		orders[side] = sideOrders
	}
	var defaulted []string
	for _, side := range step.Waiting {
		if orders[side] == nil {
			defaulted = append(defaulted, side)
			orders[side] = pos.Default(side)
		}
	}
	roundSeed := engine.RoundSeed(gf.Seed, pos.Turn())
	switch {
	case flagSet(fs, "seed"):
		roundSeed = *seed
	case gf.situation():
		return fmt.Errorf("%s is a situation from the judge, without the game's seed: give the round's --seed from its report", *state)
	}
	next, round, err := pos.Play(orders, engine.NewSeededDice(roundSeed))
	if err != nil {
		return err
	}
	if err := writeGame(*out, &gameFile{Format: gf.Format, System: gf.System, Ruleset: gf.Ruleset, Seed: gf.Seed}, next); err != nil {
		return err
	}
	if *reportPath != "" {
		text, err := round.Report(engine.Umpire, engine.RoundMeta{Seed: roundSeed, Defaulted: defaulted, Orders: orders})
		if err != nil {
			return err
		}
		if err := writeFileAtomic(*reportPath, []byte(text), 0o644); err != nil {
			return err
		}
	}
	if *mapPath != "" {
		var b bytes.Buffer
		if err := round.Map(&b, engine.Umpire, engine.PNG); err != nil {
			return err
		}
		if err := writeFileAtomic(*mapPath, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	for _, side := range defaulted {
		fmt.Fprintf(e.stdout, "%s gave no orders and played the default orders: every unit held where it stood\n", side)
	}
	fmt.Fprintf(e.stdout, "played %s", step.Name)
	if after := next.Step(); after.Over {
		fmt.Fprintf(e.stdout, "; the battle is over: %s", after.Result)
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
	gf, err := readGame(*state)
	if err != nil {
		return err
	}
	if *ascii {
		return gf.pos.Map(e.stdout, engine.Umpire, engine.ASCII)
	}
	var b bytes.Buffer
	if err := gf.pos.Map(&b, engine.Umpire, engine.PNG); err != nil {
		return err
	}
	return writeFileAtomic(*png, b.Bytes(), 0o644)
}
