package rules

import (
	"fmt"
	"sort"
	"strings"

	"fieldpost/engine/ordertext"
)

// Scenario is a parsed scenario file: its description and the game's opening state.
type Scenario struct {
	Name        string
	Title       string
	Description string
	Ruleset     *Ruleset
	State       *State
}

// NewGame returns a fresh copy of the opening state.
func (sc *Scenario) NewGame() *State { return sc.State.Clone() }

// LineError is a problem at a line of a text the engine reads.
type LineError struct {
	Line int
	Msg  string
}

func (e LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// LineErrors is every problem found in one text, in line order.
type LineErrors []LineError

func (es LineErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// RulesetLookup finds a ruleset by name for a scenario that names it.
type RulesetLookup func(name string) (*Ruleset, error)

// ParseScenario reads the scenario format (docs/scenarios.md): one keyword per
// line, the map as a grid of terrain letters, units with their stands indented
// below them. Every problem is reported with its line, all at once.
func ParseScenario(text []byte, lookup RulesetLookup) (*Scenario, error) {
	p := &scenarioParser{lookup: lookup, sc: &Scenario{}, st: &State{Day: 1, Round: 1, Days: 1, Victory: Victory{Kind: VictoryObjectives}}}
	p.parse(string(text))
	p.finish()
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	p.sc.Description = strings.TrimRight(p.sc.Description, "\n")
	p.sc.State = p.st
	return p.sc, nil
}

type scenarioParser struct {
	lookup   RulesetLookup
	sc       *Scenario
	st       *State
	rs       *Ruleset
	errs     LineErrors
	side     string
	unit     *Unit
	mapLine  int
	gridLeft int
	objSeen  map[Hex]bool
	// placed holds every core stand and battery put on the map, in file
	// order, and unitLines the line of every UNIT, so that problems of the
	// finished position are reported at the line that wrote them.
	placed    []placement
	unitLines map[*Unit]int
}

// placement is a core stand or battery as a scenario line put it on the map.
type placement struct {
	line int
	who  string
	hex  Hex
}

func (p *scenarioParser) errorf(line int, format string, args ...any) {
	p.errs = append(p.errs, LineError{Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *scenarioParser) parse(text string) {
	p.objSeen = map[Hex]bool{}
	p.unitLines = map[*Unit]int{}
	for _, l := range ordertext.Lines(text) {
		if p.gridLeft > 0 {
			// Blank and comment lines between the rows of the grid are not rows.
			p.gridRow(l.N, l.Text)
			continue
		}
		toks, err := ordertext.QuotedWords(l.Text)
		if err != nil {
			p.errorf(l.N, "%v", err)
			continue
		}
		p.line(l.N, toks)
	}
	if p.gridLeft > 0 {
		p.errorf(p.mapLine, "MAP promised %d rows but the file ended after %d", p.st.Map.Rows, p.st.Map.Rows-p.gridLeft)
	}
}

func (p *scenarioParser) line(n int, toks []string) {
	kw := strings.ToUpper(toks[0])
	args := toks[1:]
	if p.rs == nil && kw != "RULESET" && kw != "SCENARIO" && kw != "TITLE" && kw != "DESCRIPTION" {
		p.errorf(n, "%s before RULESET: the ruleset must be named first", toks[0])
		return
	}
	switch kw {
	case "SCENARIO":
		if len(args) != 1 {
			p.errorf(n, "SCENARIO takes one name")
			return
		}
		p.sc.Name = args[0]
		p.st.Scenario = args[0]
	case "TITLE":
		p.sc.Title = strings.Join(args, " ")
		p.st.Title = p.sc.Title
	case "DESCRIPTION":
		p.describe(strings.Join(args, " "))
	case "RULESET":
		if len(args) != 1 {
			p.errorf(n, "RULESET takes one name, such as 2sg")
			return
		}
		rs, err := p.lookup(args[0])
		if err != nil {
			p.errorf(n, "ruleset %q: %v", args[0], err)
			return
		}
		p.rs = rs
		p.sc.Ruleset = rs
		p.st.Ruleset = rs.Name
	case "DAYS":
		p.st.Days = p.positive(n, "DAYS", args)
	case "START":
		p.start(n, args)
	case "MAP":
		p.mapHeader(n, args)
	case "TERRAIN":
		p.terrain(n, args)
	case "ROAD":
		p.road(n, args)
	case "NAME":
		p.placeName(n, args)
	case "OBJECTIVE":
		p.objective(n, args)
	case "VICTORY":
		p.victory(n, args)
	case "SIDE":
		p.sideLine(n, args)
	case "UNIT", "BATTALION", "REGIMENT":
		p.unitLine(n, args)
	case "BATTERY":
		p.battery(n, args)
	case "LOSTPLATOON":
		p.lostPlatoon(n, args)
	default:
		if p.unit == nil {
			p.errorf(n, "unknown keyword %q (a stand line must follow a UNIT line)", toks[0])
			return
		}
		p.standLine(n, toks)
	}
}

// describe adds a DESCRIPTION line: lines run on into one paragraph, and a
// DESCRIPTION line with no text starts the next paragraph.
func (p *scenarioParser) describe(text string) {
	d := &p.sc.Description
	switch {
	case text == "":
		if *d != "" && !strings.HasSuffix(*d, "\n\n") {
			*d += "\n\n"
		}
	case *d == "" || strings.HasSuffix(*d, "\n\n"):
		*d += text
	default:
		*d += " " + text
	}
}

func (p *scenarioParser) positive(n int, what string, args []string) int {
	if len(args) != 1 {
		p.errorf(n, "%s takes one number", what)
		return 1
	}
	v, err := atoi(args[0])
	if err != nil || v <= 0 {
		p.errorf(n, "%s %q: want a whole number from 1 to %d", what, args[0], maxScenarioNumber)
		return 1
	}
	return v
}

// start sets where a saved position stands: START day round [night].
func (p *scenarioParser) start(n int, args []string) {
	if len(args) < 2 || len(args) > 3 {
		p.errorf(n, "START takes a day and a round, and optionally the word night")
		return
	}
	d, err1 := atoi(args[0])
	r, err2 := atoi(args[1])
	if err1 != nil || err2 != nil || d < 1 || r < 1 || r > p.rs.RoundsPerDay {
		p.errorf(n, "START %s %s: want a day from 1 and a round from 1 to %d", args[0], args[1], p.rs.RoundsPerDay)
		return
	}
	p.st.Day, p.st.Round = d, r
	if len(args) == 3 {
		if !strings.EqualFold(args[2], "night") {
			p.errorf(n, "START: the third word can only be night")
			return
		}
		p.st.Night = true
	}
	p.st.Turn = (d-1)*(p.rs.RoundsPerDay+1) + r - 1
	if p.st.Night {
		p.st.Turn = (d-1)*(p.rs.RoundsPerDay+1) + p.rs.RoundsPerDay
	}
}

// finish checks what only the whole file can show.
func (p *scenarioParser) finish() {
	if p.rs == nil {
		p.errorf(1, "no RULESET line")
		return
	}
	if p.st.Map == nil {
		p.errorf(1, "no MAP")
		return
	}
	if len(p.st.Sides) != 2 {
		p.errorf(1, "a scenario needs two SIDE lines, found %d", len(p.st.Sides))
		return
	}
	if p.st.Victory.Kind == VictoryHold && p.st.Side(p.st.Victory.Side) == nil {
		p.errorf(1, "VICTORY hold names side %q, which is not a SIDE", p.st.Victory.Side)
	}
	for _, o := range p.st.Objectives {
		if o.Owner != "" && p.st.Side(o.Owner) == nil {
			p.errorf(1, "objective %s: owner %q is not a SIDE", o.Hex, o.Owner)
		}
	}
	if len(p.errs) > 0 {
		return
	}
	p.checkPosition()
}

// checkPosition checks stacking (1.3), terrain and HQs (6) on the finished
// position, since TERRAIN lines may follow the stands they concern, and
// reports each problem at the line of the stand, battery or unit.
func (p *scenarioParser) checkPosition() {
	held := map[Hex]string{}
	for _, pl := range p.placed {
		if t := p.rs.TerrainByLetter(p.st.Map.Letter(pl.hex)); t.Impassable {
			p.errorf(pl.line, "%s at %s stands in impassable %s", pl.who, pl.hex, t.ID)
		}
		if other, taken := held[pl.hex]; taken {
			p.errorf(pl.line, "%s and %s share hex %s: one core stand a hex (%s)", other, pl.who, pl.hex, p.rs.Section(SecStacking))
			continue
		}
		held[pl.hex] = pl.who
	}
	for _, u := range p.st.Units {
		switch {
		case len(u.Stands) == 0:
			p.errorf(p.unitLines[u], "unit %s has no stands on the map", u.ID)
		case u.HQ(p.rs) == nil && u.HQLostTurn < 0:
			p.errorf(p.unitLines[u], "unit %s has no HQ stand (mark hqlost=TURN if it was lost)", u.ID)
		}
	}
	sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
}

func standIn(list []*Stand, name string) *Stand {
	for _, s := range list {
		if s.Name == name {
			return s
		}
	}
	return nil
}

func platoonIn(list []*Platoon, name string) *Platoon {
	for _, pl := range list {
		if pl.Name == name {
			return pl
		}
	}
	return nil
}
