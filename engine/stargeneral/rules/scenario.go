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

func (p *scenarioParser) mapHeader(n int, args []string) {
	if p.st.Map != nil {
		p.errorf(n, "a second MAP")
		return
	}
	if len(args) < 2 || len(args) > 3 {
		p.errorf(n, "MAP takes columns and rows, then the rows of terrain letters (or the word open: all open ground)")
		return
	}
	cols, err1 := atoi(args[0])
	rows, err2 := atoi(args[1])
	if err1 != nil || err2 != nil || cols < 1 || rows < 1 || cols > 99 || rows > 99 {
		p.errorf(n, "MAP %s %s: columns and rows must be from 1 to 99", args[0], args[1])
		return
	}
	p.st.Map = &Map{Cols: cols, Rows: rows}
	if len(args) == 3 {
		if !strings.EqualFold(args[2], "open") {
			// The map is still made, all open, so that the hexes of the
			// lines after are checked (and a TERRAIN line finds rows).
			p.errorf(n, "MAP: the third word can only be open")
		}
		row := strings.Repeat(p.rs.TerrainByID("open").Letter, cols)
		for range rows {
			p.st.Map.Grid = append(p.st.Map.Grid, row)
		}
		return
	}
	p.mapLine = n
	p.gridLeft = rows
}

func (p *scenarioParser) gridRow(n int, row string) {
	m := p.st.Map
	want := m.Cols
	r := len(m.Grid) + 1
	p.gridLeft--
	if len(row) != want {
		p.errorf(n, "map row %d has %d letters, want %d", r, len(row), want)
		row = (row + strings.Repeat(".", want))[:want]
	}
	for c := 0; c < len(row); c++ {
		if p.rs.TerrainByLetter(row[c]) == nil {
			p.errorf(n, "map row %d column %d: unknown terrain letter %q (%s)", r, c+1, row[c], p.letters())
			row = row[:c] + p.rs.TerrainByID("open").Letter + row[c+1:]
		}
	}
	m.Grid = append(m.Grid, row)
}

func (p *scenarioParser) letters() string {
	var parts []string
	for _, t := range p.rs.Terrain {
		parts = append(parts, t.Letter+" "+t.ID)
	}
	return strings.Join(parts, ", ")
}

func (p *scenarioParser) hexArg(n int, s string) (Hex, bool) {
	h, err := ParseHex(s)
	if err != nil {
		p.errorf(n, "%v", err)
		return h, false
	}
	if p.st.Map == nil {
		p.errorf(n, "hex %s before the MAP line", s)
		return h, false
	}
	if !p.st.Map.OnMap(h) {
		p.errorf(n, "hex %s is off the %dx%d map", s, p.st.Map.Cols, p.st.Map.Rows)
		return h, false
	}
	return h, true
}

// terrain sets single hexes: TERRAIN id hex hex ...
func (p *scenarioParser) terrain(n int, args []string) {
	if len(args) < 2 {
		p.errorf(n, "TERRAIN takes a terrain name and one or more hexes")
		return
	}
	t := p.rs.TerrainByID(strings.ToLower(args[0]))
	if t == nil {
		p.errorf(n, "unknown terrain %q (%s)", args[0], p.letters())
		return
	}
	for _, a := range args[1:] {
		if h, ok := p.hexArg(n, a); ok {
			row := []byte(p.st.Map.Grid[h.Row-1])
			row[h.Col-1] = t.Letter[0]
			p.st.Map.Grid[h.Row-1] = string(row)
		}
	}
}

func (p *scenarioParser) road(n int, args []string) {
	if len(args) < 2 {
		p.errorf(n, "ROAD takes two or more hexes, each adjacent to the one before")
		return
	}
	var road []Hex
	for _, a := range args {
		h, ok := p.hexArg(n, a)
		if !ok {
			return
		}
		if len(road) > 0 && !Adjacent(road[len(road)-1], h) {
			p.errorf(n, "ROAD: %s is not adjacent to %s", h, road[len(road)-1])
			return
		}
		road = append(road, h)
	}
	p.st.Map.Roads = append(p.st.Map.Roads, road)
}

func (p *scenarioParser) placeName(n int, args []string) {
	if len(args) < 2 {
		p.errorf(n, "NAME takes a hex and a place name")
		return
	}
	h, ok := p.hexArg(n, args[0])
	if !ok {
		return
	}
	if p.st.Map.Names == nil {
		p.st.Map.Names = map[string]string{}
	}
	p.st.Map.Names[h.String()] = strings.Join(args[1:], " ")
}

// objective: OBJECTIVE hex [value=N] [owner=side] name...
func (p *scenarioParser) objective(n int, args []string) {
	if len(args) < 1 {
		p.errorf(n, "OBJECTIVE takes a hex, then optionally value=N, owner=SIDE and a name")
		return
	}
	h, ok := p.hexArg(n, args[0])
	if !ok {
		return
	}
	if p.objSeen[h] {
		p.errorf(n, "objective %s listed twice", h)
		return
	}
	p.objSeen[h] = true
	o := &Objective{Hex: h, Value: 1}
	var name []string
	for _, a := range args[1:] {
		k, v, isOpt := strings.Cut(a, "=")
		switch {
		case isOpt && strings.EqualFold(k, "value"):
			val, err := atoi(v)
			if err != nil || val < 1 {
				p.errorf(n, "objective value %q: want a positive whole number", v)
			}
			o.Value = val
		case isOpt && strings.EqualFold(k, "owner"):
			o.Owner = v
		default:
			name = append(name, a)
		}
	}
	o.Name = strings.Join(name, " ")
	if o.Name == "" {
		o.Name = h.String()
	}
	p.st.Objectives = append(p.st.Objectives, o)
}

// victory: VICTORY objectives | VICTORY hold SIDE N
func (p *scenarioParser) victory(n int, args []string) {
	switch {
	case len(args) == 1 && strings.EqualFold(args[0], VictoryObjectives):
		p.st.Victory = Victory{Kind: VictoryObjectives}
	case len(args) == 3 && strings.EqualFold(args[0], VictoryHold):
		need, err := atoi(args[2])
		if err != nil || need < 1 {
			p.errorf(n, "VICTORY hold: %q is not a positive number of objective points", args[2])
			return
		}
		p.st.Victory = Victory{Kind: VictoryHold, Side: args[1], Need: need}
	default:
		p.errorf(n, "VICTORY takes \"objectives\" (most objective points wins) or \"hold SIDE N\" (SIDE wins holding N points at the end)")
	}
}

// sideLine: SIDE name [air=N] [nightsp=N] [nightsupport=N] title...
func (p *scenarioParser) sideLine(n int, args []string) {
	if len(args) < 1 {
		p.errorf(n, "SIDE takes a name, then optionally air=N and a title")
		return
	}
	name := args[0]
	if p.sideNamed(name) != nil {
		p.errorf(n, "side %q listed twice", name)
		return
	}
	if why := sideNameProblem(name); why != "" {
		p.errorf(n, "side %q: %s", name, why)
		return
	}
	if len(p.st.Sides) == 2 {
		p.errorf(n, "a third side: a game has two sides")
		return
	}
	sd := Side{Name: name}
	var title []string
	for _, a := range args[1:] {
		k, v, isOpt := strings.Cut(a, "=")
		if !isOpt {
			title = append(title, a)
			continue
		}
		val, err := atoi(v)
		if err != nil || val < 0 {
			p.errorf(n, "%s=%q: want a whole number", k, v)
			continue
		}
		switch strings.ToLower(k) {
		case "air":
			sd.Air = val
		case "nightsp":
			sd.NightSP = val
		case "nightsupport":
			sd.NightSupport = val
		default:
			p.errorf(n, "unknown side option %q (air, nightsp, nightsupport)", k)
		}
	}
	sd.AirLeft = sd.Air
	sd.Title = strings.Join(title, " ")
	if sd.Title == "" {
		sd.Title = name
	}
	p.st.Sides = append(p.st.Sides, sd)
	p.side = name
	p.unit = nil
}

// unitLine: UNIT id STATUS [hqlost=TURN] title...
func (p *scenarioParser) unitLine(n int, args []string) {
	p.unit = nil
	if p.side == "" {
		p.errorf(n, "a unit before any SIDE line")
		return
	}
	if len(args) < 2 {
		p.errorf(n, "UNIT takes an id and a status (M, H, D or R), then optionally a title")
		return
	}
	if p.unitNamed(args[0]) != nil {
		p.errorf(n, "unit %q listed twice", args[0])
		return
	}
	if !p.checkName(n, "unit", args[0]) {
		return
	}
	status, err := ParseStatus(args[1])
	if err != nil {
		p.errorf(n, "unit %s: %v", args[0], err)
		return
	}
	u := &Unit{ID: args[0], Side: p.side, Status: status, HQLostTurn: -1, Initial: true}
	var title []string
	for _, a := range args[2:] {
		k, v, isOpt := strings.Cut(a, "=")
		switch {
		case isOpt && strings.EqualFold(k, "hqlost"):
			t, err := atoi(v)
			if err != nil || t < 0 {
				p.errorf(n, "hqlost=%q: want the turn number the HQ was lost in", v)
			}
			u.HQLostTurn = t
		case strings.EqualFold(a, "reinforcement"):
			u.Initial = false
		default:
			title = append(title, a)
		}
	}
	u.Title = strings.Join(title, " ")
	p.st.Units = append(p.st.Units, u)
	p.unitLines[u] = n
	p.unit = u
}

// standLine: NAME TYPE HEX [sp=N] [maxsp=N] [fs=N] [elite] [superior] [armoured] [move=CLASS] [lost] [+TYPE[:NAME]]...
func (p *scenarioParser) standLine(n int, toks []string) {
	if len(toks) < 3 {
		p.errorf(n, "a stand line takes a name, a stand type and a hex (unknown keyword %q?)", toks[0])
		return
	}
	u := p.unit
	name, typ := toks[0], strings.ToLower(toks[1])
	if standNamed(u.Stands, name) != nil || standNamed(u.Lost, name) != nil {
		p.errorf(n, "unit %s has two stands named %s", u.ID, name)
		return
	}
	if !p.checkName(n, "stand", name) {
		return
	}
	st, ok := p.rs.StandTypes[typ]
	if !ok || st.Class != ClassCore {
		p.errorf(n, "stand %s: %q is not a core stand type of %s (%s)", name, toks[1], p.rs.Name, strings.Join(p.typesOf(ClassCore), ", "))
		return
	}
	h, ok := p.hexArg(n, toks[2])
	if !ok {
		return
	}
	s := &Stand{Name: name, Type: typ, Hex: h, SP: st.SP, MaxSP: st.SP, FS: st.FS, Armoured: st.Armoured}
	spSet := false
	lost := false
	for _, a := range toks[3:] {
		if strings.HasPrefix(a, "+") {
			p.attach(n, s, a[1:])
			continue
		}
		k, v, isOpt := strings.Cut(strings.ToLower(a), "=")
		num := func() int {
			val, err := atoi(v)
			if err != nil || val < 0 {
				p.errorf(n, "stand %s: %s=%q: want a whole number", name, k, v)
			}
			return val
		}
		switch {
		case isOpt && k == "sp":
			s.SP = num()
			spSet = true
		case isOpt && k == "maxsp":
			s.MaxSP = num()
			if !spSet {
				s.SP = s.MaxSP
			}
		case isOpt && k == "fs":
			s.FS = num()
		case isOpt && k == "move":
			if _, ok := p.rs.Movement[v]; !ok {
				p.errorf(n, "stand %s: unknown movement class %q", name, v)
			}
			s.MoveClass = v
		case !isOpt && k == "elite":
			s.Elite = true
		case !isOpt && (k == "superior" || k == "superior_gun"):
			s.SuperiorGun = true
		case !isOpt && k == "armoured":
			s.Armoured = true
		case !isOpt && k == "lost":
			lost = true
		default:
			p.errorf(n, "stand %s: unknown option %q (sp=, maxsp=, fs=, move=, elite, superior, armoured, lost, +PLATOON)", name, a)
		}
	}
	if s.SP > s.MaxSP {
		p.errorf(n, "stand %s: sp=%d is more than its maximum %d", name, s.SP, s.MaxSP)
	}
	if lost {
		s.SP = 0
		u.Lost = append(u.Lost, s)
		return
	}
	if s.SP == 0 {
		p.errorf(n, "stand %s has no strength points left: mark it lost instead", name)
		return
	}
	u.Stands = append(u.Stands, s)
	p.placed = append(p.placed, placement{line: n, who: u.ID + " " + name, hex: h})
}

// attach adds a platoon written TYPE or TYPE:NAME to a stand.
func (p *scenarioParser) attach(n int, s *Stand, spec string) {
	typ, name, named := strings.Cut(spec, ":")
	typ = strings.ToLower(typ)
	if !named {
		name = typ
	}
	pt, ok := p.rs.StandTypes[typ]
	if !ok || pt.Class == ClassCore {
		p.errorf(n, "stand %s: %q is not a support platoon or transport of %s (%s)", s.Name, typ, p.rs.Name,
			strings.Join(append(p.typesOf(ClassSupport), p.typesOf(ClassTransport)...), ", "))
		return
	}
	if p.unitHasPlatoon(p.unit, name) {
		p.errorf(n, "unit %s has two platoons named %s: name them TYPE:NAME", p.unit.ID, name)
		return
	}
	if !p.checkName(n, "platoon", name) {
		return
	}
	pl := &Platoon{Name: name, Type: typ, Home: p.unit.ID}
	switch pt.Class {
	case ClassTransport:
		if !p.rs.Trucks {
			p.errorf(n, "stand %s: %s has no transport stands (built-in transport)", s.Name, p.rs.Name)
			return
		}
		if s.Transport != nil {
			p.errorf(n, "stand %s: a second transport (1.3: one truck a hex)", s.Name)
			return
		}
		s.Transport = pl
	default:
		if s.Support != nil {
			p.errorf(n, "stand %s: a second support platoon (1.3: one a hex)", s.Name)
			return
		}
		s.Support = pl
	}
	if s.Transport != nil && s.Support != nil && p.rs.StandTypes[s.Support.Type].Exclusive {
		p.errorf(n, "stand %s: nothing else may share a hex with %s (%s)", s.Name, s.Support.Type, p.rs.Section(SecTransport))
	}
}

// lostPlatoon: LOSTPLATOON TYPE NAME — a platoon destroyed before this position.
func (p *scenarioParser) lostPlatoon(n int, args []string) {
	if p.unit == nil || len(args) != 2 {
		p.errorf(n, "LOSTPLATOON takes a platoon type and name, inside a unit")
		return
	}
	typ := strings.ToLower(args[0])
	if pt, ok := p.rs.StandTypes[typ]; !ok || pt.Class == ClassCore {
		p.errorf(n, "%q is not a support platoon type", args[0])
		return
	}
	if p.unitHasPlatoon(p.unit, args[1]) {
		p.errorf(n, "unit %s has two platoons named %s", p.unit.ID, args[1])
		return
	}
	if !p.checkName(n, "platoon", args[1]) {
		return
	}
	p.unit.LostPlatoons = append(p.unit.LostPlatoons, &Platoon{Name: args[1], Type: typ, Home: p.unit.ID})
}

// battery: BATTERY id TYPE HEX [shots=N] [per=N] [range=N] [sp=N] [armoured] title...
func (p *scenarioParser) battery(n int, args []string) {
	p.unit = nil
	if p.side == "" {
		p.errorf(n, "a battery before any SIDE line")
		return
	}
	if len(args) < 3 {
		p.errorf(n, "BATTERY takes an id, an artillery stand type and a hex")
		return
	}
	if p.batteryNamed(args[0]) != nil {
		p.errorf(n, "battery %q listed twice", args[0])
		return
	}
	if !p.checkName(n, "battery", args[0]) {
		return
	}
	typ := strings.ToLower(args[1])
	st, ok := p.rs.StandTypes[typ]
	if !ok || st.Role != RoleArtillery {
		p.errorf(n, "battery %s: %q is not an artillery type of %s", args[0], args[1], p.rs.Name)
		return
	}
	h, ok := p.hexArg(n, args[2])
	if !ok {
		return
	}
	b := &Battery{ID: args[0], Side: p.side, Type: typ, Hex: h, SP: st.SP, MaxSP: st.SP, FS: st.FS,
		Range: st.Range, ShotsPerRound: p.rs.ShotsPerRound, Armoured: st.Armoured}
	if b.Range == 0 {
		b.Range = p.rs.FieldArtilleryRange
	}
	shotsSet := false
	var title []string
	for _, a := range args[3:] {
		k, v, isOpt := strings.Cut(strings.ToLower(a), "=")
		if !isOpt {
			if k == "armoured" {
				b.Armoured = true
			} else {
				title = append(title, a)
			}
			continue
		}
		val, err := atoi(v)
		if err != nil || val < 0 {
			p.errorf(n, "battery %s: %s=%q: want a whole number", b.ID, k, v)
			continue
		}
		switch k {
		case "shots":
			b.Shots = val
			shotsSet = true
		case "per":
			b.ShotsPerRound = val
		case "range":
			b.Range = val
		case "sp":
			b.SP = val
		case "maxsp":
			b.MaxSP = val
		default:
			p.errorf(n, "battery %s: unknown option %q (shots=, per=, range=, sp=, maxsp=, armoured)", b.ID, k)
		}
	}
	if !shotsSet {
		b.Shots = b.ShotsPerRound
	}
	b.Title = strings.Join(title, " ")
	p.st.Batteries = append(p.st.Batteries, b)
	p.placed = append(p.placed, placement{line: n, who: "battery " + b.ID, hex: h})
}

func (p *scenarioParser) typesOf(class string) []string {
	var out []string
	for _, k := range sortedKeys(p.rs.StandTypes) {
		if p.rs.StandTypes[k].Class == class {
			out = append(out, k)
		}
	}
	return out
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
