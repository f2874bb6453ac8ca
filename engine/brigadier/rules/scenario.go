package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fieldpost/engine/ordertext"
)

// Scenario is a scenario read from its text: the position before turn 1.
type Scenario struct {
	Name        string
	Title       string
	Description string
	State       *State
}

// ParseScenario reads a scenario (brief §6): SCENARIO, TITLE, DESCRIPTION,
// RULESET, CLOCK, MAP with its rows, LEVELS with its rows, ROAD, OBJECTIVE, VICTORY, SIDE,
// BATTALION, COMPANY, BATTERY, AIR, PLAN and platoon lines. Every error names its line.
func ParseScenario(rs *Ruleset, text string) (*Scenario, error) {
	sc := &Scenario{State: &State{}}
	st := sc.State
	p := scenarioParser{rs: rs, st: st}
	lines := ordertext.Lines(text)
	for i := 0; i < len(lines); i++ {
		line, f := lines[i].Text, lines[i].Words
		fail := func(format string, args ...any) error {
			return fmt.Errorf("scenario line %d (%s): %s", lines[i].N, line, fmt.Sprintf(format, args...))
		}
		var err error
		switch f[0] {
		case "SCENARIO":
			if len(f) < 2 {
				return nil, fail("SCENARIO needs a name")
			}
			sc.Name = f[1]
			st.Scenario = f[1]
		case "TITLE":
			sc.Title = strings.TrimSpace(strings.TrimPrefix(line, "TITLE"))
			st.Title = sc.Title
		case "DESCRIPTION":
			// Lines run on into a paragraph; one with no text starts the next.
			switch text := strings.TrimSpace(strings.TrimPrefix(line, "DESCRIPTION")); {
			case text == "":
				sc.Description += "\n\n"
			case sc.Description == "" || strings.HasSuffix(sc.Description, "\n"):
				sc.Description += text
			default:
				sc.Description += " " + text
			}
		case "RULESET":
			if len(f) != 2 || f[1] != rs.Name {
				return nil, fail("this system plays ruleset %s", rs.Name)
			}
		case "CLOCK":
			err = p.clock(f[1:])
		case "MAP":
			if len(f) != 3 {
				return nil, fail("MAP cols rows")
			}
			cols, e1 := strconv.Atoi(f[1])
			rows, e2 := strconv.Atoi(f[2])
			if e1 != nil || e2 != nil || cols < 2 || rows < 2 || cols > 99 || rows > 99 {
				return nil, fail("MAP needs two sizes from 2 to 99")
			}
			st.Map = &Map{Cols: cols, Rows: rows}
			for r := 0; r < rows; r++ {
				i++
				if i >= len(lines) {
					return nil, fail("the map needs %d rows", rows)
				}
				st.Map.Terrain = append(st.Map.Terrain, lines[i].Text)
			}
			if err := st.Map.check(); err != nil {
				return nil, fail("%v", err)
			}
		case "LEVELS":
			if st.Map == nil || len(f) != 1 {
				return nil, fail("LEVELS, with a row of digits for each map row, after the MAP")
			}
			for r := 0; r < st.Map.Rows; r++ {
				i++
				if i >= len(lines) {
					return nil, fail("the levels need %d rows", st.Map.Rows)
				}
				st.Map.Levels = append(st.Map.Levels, lines[i].Text)
			}
			if err := st.Map.check(); err != nil {
				return nil, fail("%v", err)
			}
		case "ROAD":
			err = p.road(f[1:])
		case "OBJECTIVE":
			err = p.objective(f[1:])
		case "VICTORY":
			if len(f) != 4 || f[1] != "hold" {
				return nil, fail("VICTORY hold side value")
			}
			v, e := strconv.Atoi(f[3])
			if e != nil {
				return nil, fail("victory value %q", f[3])
			}
			st.Victory = Victory{Side: f[2], Value: v}
		case "SIDE":
			err = p.sideLine(f[1:])
		case "BATTALION":
			err = p.battalion(f[1:])
		case "COMPANY":
			if len(f) < 4 {
				return nil, fail("COMPANY name hq-name hex")
			}
			if p.battalionName == "" {
				return nil, fail("COMPANY before any BATTALION")
			}
			p.company = f[1]
			err = p.units(append([]string{f[2], "hq"}, f[3:]...))
		case "BATTERY":
			err = p.battery(f[1:])
		case "AIR":
			err = p.air(f[1:])
		case "PLAN":
			err = p.plan(f[1:])
		default:
			err = p.units(f)
		}
		if err != nil {
			return nil, fail("%v", err)
		}
	}
	return sc, p.finish(sc)
}

type scenarioParser struct {
	rs            *Ruleset
	st            *State
	side          string
	sideOrder     int
	battalionName string
	battalionExp  string
	company       string
}

func parseClock(s string) (int, error) {
	h, m, ok := strings.Cut(s, ":")
	hh, e1 := strconv.Atoi(h)
	mm, e2 := strconv.Atoi(m)
	if !ok || e1 != nil || e2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, fmt.Errorf("time %q: want hh:mm", s)
	}
	return hh*60 + mm, nil
}

func (p *scenarioParser) clock(f []string) error {
	args := append([]string{"CLOCK"}, f...)
	if len(args) != 8 {
		return fmt.Errorf("CLOCK hh:mm END hh:mm SUNRISE hh:mm SUNSET hh:mm")
	}
	targets := map[string]*int{"CLOCK": &p.st.Clock, "END": &p.st.End, "SUNRISE": &p.st.Sunrise, "SUNSET": &p.st.Sunset}
	for i := 0; i < 8; i += 2 {
		t, ok := targets[args[i]]
		if !ok {
			return fmt.Errorf("%q: want CLOCK, END, SUNRISE or SUNSET", args[i])
		}
		v, err := parseClock(args[i+1])
		if err != nil {
			return err
		}
		*t = v
	}
	return nil
}

func (p *scenarioParser) road(f []string) error {
	r := Road{}
	if len(f) > 0 && f[0] == "paved" {
		r.Paved = true
		f = f[1:]
	}
	for _, s := range f {
		h, err := ParseHex(s)
		if err != nil {
			return err
		}
		if len(r.Hexes) > 0 && !Adjacent(r.Hexes[len(r.Hexes)-1], h) {
			return fmt.Errorf("road hex %s does not touch %s", h, r.Hexes[len(r.Hexes)-1])
		}
		r.Hexes = append(r.Hexes, h)
	}
	if p.st.Map == nil {
		return fmt.Errorf("ROAD before MAP")
	}
	p.st.Map.Roads = append(p.st.Map.Roads, r)
	return nil
}

func (p *scenarioParser) objective(f []string) error {
	if len(f) < 2 || !strings.HasPrefix(f[1], "value=") {
		return fmt.Errorf("OBJECTIVE hex value=N name")
	}
	h, err := ParseHex(f[0])
	if err != nil {
		return err
	}
	v, err := strconv.Atoi(strings.TrimPrefix(f[1], "value="))
	if err != nil {
		return fmt.Errorf("objective value %q", f[1])
	}
	p.st.Objectives = append(p.st.Objectives, &Objective{Hex: h, Value: v, Name: strings.Join(f[2:], " ")})
	return nil
}

func (p *scenarioParser) sideLine(f []string) error {
	if len(f) < 1 {
		return fmt.Errorf("SIDE name [initiative] home=west|east|north|south [order=move] title")
	}
	s := &Side{Name: f[0]}
	p.side, p.battalionName, p.company = f[0], "", ""
	p.sideOrder = Aim
	var title []string
	for _, t := range f[1:] {
		switch {
		case t == "initiative":
			p.st.Initiative = s.Name
		case strings.HasPrefix(t, "home="):
			s.Home = strings.TrimPrefix(t, "home=")
			if !slices.Contains([]string{"west", "east", "north", "south"}, s.Home) {
				return fmt.Errorf("home %q: west, east, north or south", s.Home)
			}
		case strings.HasPrefix(t, "order="):
			p.sideOrder = p.rs.RungOf(strings.TrimPrefix(t, "order="))
			if p.sideOrder == 0 {
				return fmt.Errorf("unknown order %q", t)
			}
		default:
			title = append(title, t)
		}
	}
	if s.Home == "" {
		return fmt.Errorf("SIDE %s needs home=", s.Name)
	}
	s.Title = strings.Join(title, " ")
	p.st.Sides = append(p.st.Sides, s)
	return nil
}

func (p *scenarioParser) battalion(f []string) error {
	if p.side == "" {
		return fmt.Errorf("BATTALION before any SIDE")
	}
	if len(f) < 2 || !slices.Contains(p.rs.Experience, f[1]) {
		return fmt.Errorf("BATTALION name experience [radio=in|out]; experience is one of %s", strings.Join(p.rs.Experience, ", "))
	}
	b := &Battalion{Name: f[0], Side: p.side, Exp: f[1], Radio: true}
	for _, t := range f[2:] {
		switch t {
		case "radio=in":
		case "radio=out":
			b.Radio = false
		default:
			return fmt.Errorf("unknown battalion word %q", t)
		}
	}
	p.battalionName, p.battalionExp, p.company = b.Name, b.Exp, ""
	p.st.Battalions = append(p.st.Battalions, b)
	return nil
}

func (p *scenarioParser) battery(f []string) error {
	if p.side == "" || len(f) < 2 {
		return fmt.Errorf("BATTERY name type [experience] [missions=N] after a SIDE")
	}
	if _, ok := p.rs.Batteries[f[1]]; !ok {
		return fmt.Errorf("unknown battery type %q", f[1])
	}
	b := &Battery{Name: f[0], Side: p.side, Type: f[1], Exp: "regular", Missions: -1, Radio: true}
	for _, t := range f[2:] {
		switch {
		case slices.Contains(p.rs.Experience, t):
			b.Exp = t
		case strings.HasPrefix(t, "missions="):
			n, err := strconv.Atoi(strings.TrimPrefix(t, "missions="))
			if err != nil || n < 0 {
				return fmt.Errorf("missions %q", t)
			}
			b.Missions = n
		default:
			return fmt.Errorf("unknown battery word %q", t)
		}
	}
	p.st.Batteries = append(p.st.Batteries, b)
	return nil
}

// plan reads PLAN unit ON hex AT hh:mm: a barrage planned on the map
// before the battle (Planned Map Fire, 11.4.1).
func (p *scenarioParser) plan(f []string) error {
	if p.side == "" || len(f) != 5 || f[1] != "ON" || f[3] != "AT" {
		return fmt.Errorf("PLAN unit ON hex AT hh:mm after a SIDE (11.4.1)")
	}
	h, err := ParseHex(f[2])
	if err != nil {
		return err
	}
	at, err := parseClock(f[4])
	if err != nil {
		return err
	}
	p.st.Plans = append(p.st.Plans, &Plan{Side: p.side, Unit: f[0], Target: h, At: at})
	return nil
}

// air reads AIR name mission=certain|possible|small|liaison sorties=N.
func (p *scenarioParser) air(f []string) error {
	if p.side == "" || len(f) < 3 {
		return fmt.Errorf("AIR name mission=certain|possible|small|liaison sorties=N after a SIDE")
	}
	fl := &Flight{Name: f[0], Side: p.side}
	for _, t := range f[1:] {
		switch {
		case strings.HasPrefix(t, "mission="):
			fl.Mission = strings.TrimPrefix(t, "mission=")
			if _, ok := p.rs.Missions[fl.Mission]; !ok {
				return fmt.Errorf("unknown air mission %q (11.4.3)", fl.Mission)
			}
		case strings.HasPrefix(t, "sorties="):
			n, err := strconv.Atoi(strings.TrimPrefix(t, "sorties="))
			if err != nil || n < 0 {
				return fmt.Errorf("sorties %q", t)
			}
			fl.Sorties = n
		default:
			return fmt.Errorf("unknown air word %q", t)
		}
	}
	if fl.Mission == "" {
		return fmt.Errorf("AIR %s needs mission=", fl.Name)
	}
	p.st.Flights = append(p.st.Flights, fl)
	return nil
}

// units reads one or more platoons: name type hex, then its marks.
func (p *scenarioParser) units(f []string) error {
	if p.battalionName == "" {
		return fmt.Errorf("a platoon before any BATTALION (or an unknown keyword %q)", f[0])
	}
	for len(f) > 0 {
		if len(f) < 3 {
			return fmt.Errorf("a platoon is: name type hex [marks]")
		}
		if _, ok := p.rs.Types[f[1]]; !ok {
			return fmt.Errorf("platoon %s: unknown type %q", f[0], f[1])
		}
		h, err := ParseHex(f[2])
		if err != nil {
			return fmt.Errorf("platoon %s: %v", f[0], err)
		}
		pl := &Platoon{Name: f[0], Side: p.side, Type: f[1], Battalion: p.battalionName, Exp: p.battalionExp, Hex: h, Order: p.sideOrder}
		if f[1] == "hq" || p.company != "" {
			pl.Company = p.company
		}
		if p.st.Platoon(p.side, pl.Name) != nil {
			return fmt.Errorf("two platoons named %s", pl.Name)
		}
		f = f[3:]
		for len(f) > 0 {
			t := f[0]
			switch {
			case slices.Contains(p.rs.Experience, t):
				pl.Exp = t
			case p.rs.RungOf(t) != 0:
				pl.Order = p.rs.RungOf(t)
			case t == "dug_in":
				pl.DugIn = true
			case t == "hidden":
				pl.Hidden = true
			case t == "fired":
				pl.FiredTurn = p.st.Turn + 1 // fired just before the game: seen at its firing range [9.1]
			case strings.HasPrefix(t, "defending="):
				n, err := strconv.Atoi(strings.TrimPrefix(t, "defending="))
				if err != nil || n < 0 {
					return fmt.Errorf("platoon %s: %q", pl.Name, t)
				}
				pl.Defending = n
			case strings.HasPrefix(t, "kills="):
				n, err := strconv.Atoi(strings.TrimPrefix(t, "kills="))
				if err != nil || n < 0 || n >= p.rs.Count.I() {
					return fmt.Errorf("platoon %s: %q", pl.Name, t)
				}
				pl.Dead = n
			case strings.HasPrefix(t, "wounded="):
				n, err := strconv.Atoi(strings.TrimPrefix(t, "wounded="))
				if err != nil || n < 0 {
					return fmt.Errorf("platoon %s: %q", pl.Name, t)
				}
				pl.Wounded = n
			case strings.HasPrefix(t, "bugout="):
				n, err := strconv.Atoi(strings.TrimPrefix(t, "bugout="))
				if err != nil || n < 0 {
					return fmt.Errorf("platoon %s: %q", pl.Name, t)
				}
				pl.Bugout = n
			case strings.HasPrefix(t, "+"):
				w := strings.TrimPrefix(t, "+")
				if wp, ok := p.rs.Weapons[w]; !ok || !wp.PlatoonWeapon {
					return fmt.Errorf("platoon %s: %q is not a platoon weapon", pl.Name, t)
				}
				pl.Weapons = append(pl.Weapons, w)
			default:
				goto next
			}
			f = f[1:]
		}
	next:
		if pl.Dead+pl.Wounded > p.rs.Count.I() {
			return fmt.Errorf("platoon %s: more dead and wounded than men", pl.Name)
		}
		p.st.Platoons = append(p.st.Platoons, pl)
	}
	return nil
}

func (p *scenarioParser) finish(sc *Scenario) error {
	st := sc.State
	switch {
	case sc.Name == "":
		return fmt.Errorf("the scenario has no SCENARIO line")
	case st.Map == nil:
		return fmt.Errorf("scenario %s has no MAP", sc.Name)
	case len(st.Sides) != 2:
		return fmt.Errorf("scenario %s has %d sides, want 2", sc.Name, len(st.Sides))
	case st.Initiative == "":
		return fmt.Errorf("scenario %s: no side has the initiative", sc.Name)
	case st.End <= st.Clock:
		return fmt.Errorf("scenario %s: END must come after the CLOCK", sc.Name)
	}
	if st.Title == "" {
		st.Title = sc.Name
		sc.Title = sc.Name
	}
	for _, pl := range st.Platoons {
		if !st.Map.On(pl.Hex) {
			return fmt.Errorf("platoon %s at %s: off the map", pl.Name, pl.Hex)
		}
		if q := st.At(pl.Hex); q != pl {
			return fmt.Errorf("platoons %s and %s share hex %s: one platoon a hex (FP-0)", q.Name, pl.Name, pl.Hex)
		}
	}
	defender := st.Enemy(st.Victory.Side)
	for _, o := range st.Objectives {
		if !st.Map.On(o.Hex) {
			return fmt.Errorf("objective %s: off the map", o.Hex)
		}
		o.Holder = defender
	}
	for _, pl := range st.Plans {
		switch {
		case st.Battery(pl.Side, pl.Unit) == nil && st.Artillery(p.rs, pl.Side, pl.Unit) == nil:
			return fmt.Errorf("PLAN %s: %s has no artillery unit of that name (11.4.1)", pl.Unit, pl.Side)
		case !st.Map.On(pl.Target):
			return fmt.Errorf("PLAN %s ON %s: off the map", pl.Unit, pl.Target)
		case pl.At < st.Clock:
			return fmt.Errorf("PLAN %s AT %s: the time is before the battle begins (11.4.1)", pl.Unit, ClockText(pl.At))
		}
	}
	if st.Victory.Side != "" && st.Side(st.Victory.Side) == nil {
		return fmt.Errorf("VICTORY names unknown side %q", st.Victory.Side)
	}
	return nil
}
