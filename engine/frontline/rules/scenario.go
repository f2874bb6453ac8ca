package rules

import (
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"fieldpost/engine"
	"fieldpost/engine/frontline/data"
	"fieldpost/engine/ordertext"
)

// ScenarioInfo names a bundled scenario.
type ScenarioInfo struct {
	Name  string `json:"name"`
	Title string `json:"title"`
}

// Scenarios lists the bundled scenarios in name order.
func Scenarios() ([]ScenarioInfo, error) {
	entries, err := fs.ReadDir(data.Files, "scenarios")
	if err != nil {
		return nil, fmt.Errorf("frontline scenarios: %w", err)
	}
	var out []ScenarioInfo
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".txt")
		s, err := LoadScenario(name)
		if err != nil {
			return nil, err
		}
		out = append(out, ScenarioInfo{Name: name, Title: s.Title})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// LoadScenario parses a bundled scenario into its opening position, decks
// not yet shuffled.
func LoadScenario(name string) (*State, error) {
	b, err := data.Files.ReadFile("scenarios/" + name + ".txt")
	if err != nil {
		return nil, fmt.Errorf("frontline scenario %q: no such scenario", name)
	}
	s, err := ParseScenario(string(b))
	if err != nil {
		return nil, fmt.Errorf("frontline scenario %s: %w", name, err)
	}
	return s, nil
}

// NewGame starts a bundled scenario: the decks are shuffled from the
// game's secret setup seed (engine.SetupSeed); the first side is in its own turn 1, which has no income, event
// or card to open it (§V.1).
func NewGame(scenario string, seed uint64) (*State, error) {
	s, err := LoadScenario(scenario)
	if err != nil {
		return nil, err
	}
	s.shuffleDecks(engine.NewSeededDice(seed))
	return s, nil
}

// shuffleDecks builds and shuffles the command deck (8 decisions x copies,
// §III.7) and the event deck (design 2.2) with Fisher-Yates on the dice.
func (s *State) shuffleDecks(d Dice) {
	r := s.lib.Rules
	s.CommandDeck = s.CommandDeck[:0]
	if s.Options.Cards {
		for range r.CardsPerDecision {
			s.CommandDeck = append(s.CommandDeck, CardNames...)
		}
	}
	s.EventDeck = s.EventDeck[:0]
	if s.Options.Events {
		for range r.EventCopies {
			for _, e := range s.lib.Events {
				s.EventDeck = append(s.EventDeck, e.N)
			}
		}
	}
	for i := len(s.CommandDeck) - 1; i > 0; i-- {
		j := d.Roll(i+1) - 1
		s.CommandDeck[i], s.CommandDeck[j] = s.CommandDeck[j], s.CommandDeck[i]
	}
	for i := len(s.EventDeck) - 1; i > 0; i-- {
		j := d.Roll(i+1) - 1
		s.EventDeck[i], s.EventDeck[j] = s.EventDeck[j], s.EventDeck[i]
	}
}

// ParseScenario reads the scenario format (docs/rules-frontline.md): the map,
// the sides and their units, control, victory. The adjudication cases write
// their positions in it too, with the extra lines TURN, HAND, DECK, EVENTDECK,
// MODIFIER, STARS, BOARD, FILL.
func ParseScenario(text string) (*State, error) {
	l, err := Lib()
	if err != nil {
		return nil, err
	}
	s := &State{lib: l, Map: &Map{Names: map[Hex]string{}, Roads: map[Side2]bool{}, Rivers: map[Side2]bool{}},
		Control: map[Hex]string{}, Bridges: map[Side2]string{}, Tries: map[string]int{}, Turn: 1}
	var errs []string
	fail := func(n int, format string, a ...any) {
		errs = append(errs, fmt.Sprintf("line %d: %s", n, fmt.Sprintf(format, a...)))
	}
	hexes := func(n int, fields []string) []Hex {
		var out []Hex
		for _, f := range fields {
			h, err := ParseHex(f)
			if err != nil {
				fail(n, "%v", err)
				continue
			}
			out = append(out, h)
		}
		return out
	}
	ownTurns := map[string]int{}
	for _, line := range ordertext.Lines(text) {
		n, f := line.N, line.Words
		key, args := strings.ToUpper(f[0]), f[1:]
		switch key {
		case "SCENARIO":
			s.Scenario = strings.Join(args, " ")
		case "TITLE":
			s.Title = strings.Join(args, " ")
		case "SOURCE", "DESCRIPTION":
			// For people: the source of the numbers, the players' briefing
			// (read by the system from the file).
		case "SIZE":
			if len(args) != 2 {
				fail(n, "SIZE takes columns and rows")
				continue
			}
			s.Map.Width, _ = strconv.Atoi(args[0])
			s.Map.Height, _ = strconv.Atoi(args[1])
			s.Map.Rows = make([]string, s.Map.Height)
		case "TERRAIN":
			if len(args) != 2 {
				fail(n, "TERRAIN takes a row number and its letters")
				continue
			}
			row, err := strconv.Atoi(args[0])
			if err != nil || row < 1 || row > s.Map.Height {
				fail(n, "TERRAIN row %q is not on the map (SIZE first)", args[0])
				continue
			}
			if len(args[1]) != s.Map.Width {
				fail(n, "TERRAIN row %d has %d hexes, the map is %d wide", row, len(args[1]), s.Map.Width)
				continue
			}
			for _, c := range args[1] {
				if !strings.ContainsRune(".c~^X%KRP", c) {
					fail(n, "terrain letter %q unknown (. c ~ ^ X %% K R P)", c)
				}
			}
			s.Map.Rows[row-1] = args[1]
		case "FILL":
			// FILL letter: every row not given is all that terrain.
			for r := range s.Map.Rows {
				if s.Map.Rows[r] == "" {
					s.Map.Rows[r] = strings.Repeat(firstOr(args, "."), s.Map.Width)
				}
			}
		case "BOARD":
			// BOARD scenario: that scenario's map, roads, rivers, bridges.
			b, err := LoadScenario(firstOr(args, ""))
			if err != nil {
				fail(n, "%v", err)
				continue
			}
			s.Map = b.Map
			s.Bridges = cloneMap(b.Bridges)
		case "PLACE":
			hs := hexes(n, args[:1])
			if len(hs) == 1 && len(args) > 1 {
				s.Map.Names[hs[0]] = strings.Join(args[1:], " ")
			}
		case "ROAD":
			hs := hexes(n, args)
			for k := 1; k < len(hs); k++ {
				if Distance(hs[k-1], hs[k]) != 1 {
					fail(n, "road %s to %s: not neighbours", hs[k-1], hs[k])
					continue
				}
				s.Map.Roads[hexside(hs[k-1], hs[k])] = true
			}
		case "RIVER", "BRIDGE":
			for _, a := range args {
				hs, err := ParseHexside(a)
				if err != nil {
					fail(n, "%v", err)
					continue
				}
				if key == "RIVER" {
					s.Map.Rivers[hs] = true
				} else {
					s.Bridges[hs] = "intact"
				}
			}
		case "TRIES":
			// TRIES bridge|obstacle name n: engineer tries already failed.
			if len(args) != 3 {
				fail(n, "TRIES takes bridge HEX-HEX or obstacle SIDE:ID, and a number")
				continue
			}
			k, err := strconv.Atoi(args[2])
			if err != nil {
				fail(n, "TRIES %q is not a number", args[2])
				continue
			}
			s.Tries[strings.ToLower(args[0])+" "+strings.ToUpper(args[1])] = k
		case "COLLAPSED":
			for _, a := range args {
				hs, err := ParseHexside(a)
				if err != nil {
					fail(n, "%v", err)
					continue
				}
				s.Bridges[hs] = "collapsed"
			}
		case "PORT":
			// PORT hex damaged|destroyed: a port hit earlier (§VII.3.4).
			if len(args) != 2 || (args[1] != portDamaged && args[1] != portDestroyed) {
				fail(n, "PORT takes a hex and damaged or destroyed")
				continue
			}
			h, err := ParseHex(args[0])
			if err != nil || !s.Map.Port(h) {
				fail(n, "PORT %s: not a port of the map", args[0])
				continue
			}
			s.setPort(h, args[1])
		case "SIDES":
			if len(args) != 2 || args[0] == args[1] {
				fail(n, "SIDES takes two side names, the first player first")
				continue
			}
			s.Sides = []string{strings.ToUpper(args[0]), strings.ToUpper(args[1])}
			for _, side := range s.Sides {
				s.Players = append(s.Players, &Player{Side: side, Hand: []string{}, Treasury: l.Rules.StartTreasury})
			}
			s.Active = s.Sides[0]
		case "TURNS":
			s.Turns, _ = strconv.Atoi(firstOr(args, ""))
		case "OPTIONS":
			for _, o := range args {
				switch strings.ToLower(o) {
				case "events":
					s.Options.Events = true
				case "cards":
					s.Options.Cards = true
				case "fog":
					s.Options.Fog = true
				case "experience":
					s.Options.Experience = true
				case "momentum":
					s.Options.Momentum = true
				default:
					fail(n, "option %q unknown (events cards fog experience momentum)", o)
				}
			}
		case "TREASURY", "SCORE":
			p := s.player(args, 2)
			if p == nil {
				fail(n, "%s takes a side (after SIDES) and a number", key)
				continue
			}
			v, err := strconv.Atoi(args[1])
			if err != nil {
				fail(n, "%s %q is not a number", key, args[1])
			}
			switch key {
			case "TREASURY":
				p.Treasury = v
			default:
				p.Score = v
			}
		case "HAND":
			p := s.player(args, 1)
			if p == nil {
				fail(n, "HAND takes a side and cards")
				continue
			}
			for _, c := range args[1:] {
				name, ok := cardByName(c)
				if !ok {
					fail(n, "command card %q unknown", c)
					continue
				}
				p.Hand = append(p.Hand, name)
			}
		case "DECK":
			for _, c := range args {
				name, ok := cardByName(c)
				if !ok {
					fail(n, "command card %q unknown", c)
					continue
				}
				s.CommandDeck = append(s.CommandDeck, name)
			}
		case "EVENTDECK":
			for _, a := range args {
				v, err := strconv.Atoi(a)
				if err != nil || v < 1 || v > len(l.Events) {
					fail(n, "event card %q unknown (1-%d)", a, len(l.Events))
					continue
				}
				s.EventDeck = append(s.EventDeck, v)
			}
		case "MODIFIER":
			// MODIFIER name side|all turns
			if len(args) != 3 {
				fail(n, "MODIFIER takes a name, a side or all, and the turns left")
				continue
			}
			m := Modifier{Name: args[0], Owner: s.Active}
			if !strings.EqualFold(args[1], "all") {
				m.Side = strings.ToUpper(args[1])
				m.Owner = m.Side
			}
			m.Left, _ = strconv.Atoi(args[2])
			s.Modifiers = append(s.Modifiers, m)
		case "TURN":
			// TURN game-turn ACTIVE-SIDE [own turns: SIDE=n ...]
			if len(args) < 2 {
				fail(n, "TURN takes the game turn and the active side")
				continue
			}
			s.Turn, _ = strconv.Atoi(args[0])
			s.Active = strings.ToUpper(args[1])
			for _, a := range args[2:] {
				k, v, ok := strings.Cut(a, "=")
				t, err := strconv.Atoi(v)
				if !ok || err != nil {
					fail(n, "own turn %q: want SIDE=n", a)
					continue
				}
				ownTurns[strings.ToUpper(k)] = t
			}
		case "CONTROL":
			if len(args) < 1 {
				fail(n, "CONTROL takes a side and hexes")
				continue
			}
			for _, h := range hexes(n, args[1:]) {
				s.Control[h] = strings.ToUpper(args[0])
			}
		case "UNIT":
			if err := s.parseUnit(args); err != nil {
				fail(n, "%v", err)
			}
		case "STARS":
			// STARS side id a,b: experience for a unit listed before (crews).
			if len(args) != 3 {
				fail(n, "STARS takes a side, a unit and its abilities")
				continue
			}
			u := s.Unit(strings.ToUpper(args[0]), strings.ToUpper(args[1]))
			if u == nil {
				fail(n, "STARS: no unit %s %s listed before", args[0], args[1])
				continue
			}
			for _, st := range strings.Split(args[2], ",") {
				if !validStar(st) {
					fail(n, "experience %q unknown", st)
					continue
				}
				u.Stars = append(u.Stars, st)
			}
		case "VICTORY":
			if len(args) < 3 || !strings.EqualFold(args[1], "hold") {
				fail(n, "VICTORY takes a side, HOLD and hexes")
				continue
			}
			s.Victory = append(s.Victory, VictoryRule{Side: strings.ToUpper(args[0]), Hold: hexes(n, args[2:])})
		case "OBJECTIVE":
			// OBJECTIVE side primary|secondary hex [achieved] (§III.5).
			if len(args) < 3 || len(args) > 4 || (!strings.EqualFold(args[1], "primary") && !strings.EqualFold(args[1], "secondary")) || (len(args) == 4 && !strings.EqualFold(args[3], "achieved")) {
				fail(n, "OBJECTIVE takes a side, primary or secondary, a hex and optionally achieved")
				continue
			}
			for _, h := range hexes(n, args[2:3]) {
				s.Objectives = append(s.Objectives, Objective{Side: strings.ToUpper(args[0]), Primary: strings.EqualFold(args[1], "primary"), Hex: h, Achieved: len(args) == 4})
			}
		case "LIMIT":
			s.Limit = strings.ToUpper(firstOr(args, ""))
		default:
			fail(n, "%q is not a scenario line", f[0])
		}
	}
	if len(s.Sides) != 2 {
		errs = append(errs, "SIDES missing")
	}
	for i, r := range s.Map.Rows {
		if r == "" {
			errs = append(errs, fmt.Sprintf("TERRAIN row %d missing", i+1))
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	for side, t := range ownTurns {
		if p := s.Player(side); p != nil {
			p.OwnTurn = t
		}
	}
	// A position is inside its active side's turn: at least its first.
	if p := s.Player(s.Active); p != nil && p.OwnTurn == 0 {
		p.OwnTurn = 1
	}
	for _, u := range s.Units {
		// A unit listed idle was idled in its side's previous own turn.
		if u.Idle && u.IdleTurn == 0 {
			u.IdleTurn = s.Player(u.Side).OwnTurn - 1
		}
		if u.OnMap() && !s.Map.On(u.Hex) {
			return nil, fmt.Errorf("unit %s at %s: off the map", u.Key(), u.Hex)
		}
		if u.In != "" && s.Unit(u.Side, u.In) == nil {
			return nil, fmt.Errorf("unit %s is in %s, which is not listed", u.Key(), u.In)
		}
	}
	s.sortUnits()
	return s, nil
}

func (s *State) player(args []string, min int) *Player {
	if len(args) < min || len(args) == 0 {
		return nil
	}
	return s.Player(strings.ToUpper(args[0]))
}

func firstOr(a []string, d string) string {
	if len(a) == 0 {
		return d
	}
	return a[0]
}

// parseUnit reads UNIT side ID hex [words]: dug, damaged, hidden, found,
// idle, spent, aloft N (turns of flight left), staged N, away N, crew ID
// (adds the crew inside), in ID (carried), towed ID, stars a,b.
func (s *State) parseUnit(args []string) error {
	if len(args) < 3 {
		return fmt.Errorf("UNIT takes a side, an id and a hex (0000 when staged)")
	}
	side := strings.ToUpper(args[0])
	if s.Player(side) == nil {
		return fmt.Errorf("UNIT side %q is not one of SIDES", args[0])
	}
	id := strings.ToUpper(args[1])
	code, num := splitID(id)
	card, ok := s.lib.Cards[code]
	if !ok || num == 0 {
		return fmt.Errorf("unit %q: want a card code and a number, like RS-1", args[1])
	}
	if s.Unit(side, id) != nil {
		return fmt.Errorf("unit %s:%s twice", side, id)
	}
	var h Hex
	if err := h.UnmarshalText([]byte(args[2])); err != nil {
		return err
	}
	u := &Unit{ID: id, Side: side, Code: code, Hex: h, Hidden: card.Hidden}
	s.Units = append(s.Units, u)
	rest := args[3:]
	next := func() (string, error) {
		if len(rest) < 2 {
			return "", fmt.Errorf("unit %s: %s needs a value", id, rest[0])
		}
		v := rest[1]
		rest = rest[1:]
		return v, nil
	}
	for ; len(rest) > 0; rest = rest[1:] {
		switch strings.ToLower(rest[0]) {
		case "dug":
			u.DugIn = true
		case "damaged":
			u.Damaged = true
		case "seen":
			u.Hidden = false
		case "found":
			u.Found = true
		case "idle":
			u.Idle = true
		case "spent":
			u.Spent = true
		case "captured":
			u.Captured = true
		case "aloft", "staged", "away", "pushed", "surrounded", "repairing", "relocate", "arrives", "momentum", "ready":
			word := strings.ToLower(rest[0])
			v, err := next()
			if err != nil {
				return err
			}
			k, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("unit %s: %s %q is not a number", id, word, v)
			}
			switch word {
			case "aloft":
				u.Aloft, u.TOF = true, k
			case "staged":
				u.Staged = k
			case "away":
				u.Away = k
			case "surrounded":
				u.Surrounded = k
			case "repairing":
				u.Repairing = k
			case "ready":
				u.Ready = k
			case "relocate":
				u.Relocate = k
			case "arrives":
				u.Arrives = k
			case "momentum":
				u.Momentum = k
			default:
				u.PushTurn = k
				if card.Kind == "infantry" {
					u.SkipMove = k + 1
				}
			}
		case "crew":
			v, err := next()
			if err != nil {
				return err
			}
			crewCode, _ := splitID(strings.ToUpper(v))
			cc := s.lib.Cards[crewCode]
			if cc == nil || cc.Crew != card.Requires || card.Requires == "" {
				return fmt.Errorf("unit %s: %s cannot crew it (needs a %s crew)", id, v, card.Requires)
			}
			s.Units = append(s.Units, &Unit{ID: strings.ToUpper(v), Side: side, Code: crewCode, Hex: h, In: id, Role: "crew", Staged: u.Staged})
		case "works":
			v, err := next()
			if err != nil {
				return err
			}
			if u.Works, err = strconv.Atoi(v); err != nil {
				return fmt.Errorf("unit %s: works %q is not a number", id, v)
			}
		case "building":
			v, err := next()
			if err != nil {
				return err
			}
			u.Building = strings.ToUpper(v)
		case "within":
			v, err := next()
			if err != nil {
				return err
			}
			u.Within = strings.ToUpper(v)
		case "across":
			v, err := next()
			if err != nil {
				return err
			}
			if u.Across, err = ParseHex(v); err != nil {
				return fmt.Errorf("unit %s: across: %w", id, err)
			}
		case "in", "towed":
			role := map[string]string{"in": "passenger", "towed": "towed"}[strings.ToLower(rest[0])]
			v, err := next()
			if err != nil {
				return err
			}
			u.In, u.Role = strings.ToUpper(v), role
		case "stars":
			v, err := next()
			if err != nil {
				return err
			}
			for _, st := range strings.Split(v, ",") {
				if !validStar(st) {
					return fmt.Errorf("unit %s: experience %q unknown", id, st)
				}
				u.Stars = append(u.Stars, st)
			}
		default:
			return fmt.Errorf("unit %s: %q unknown (dug damaged seen found idle spent captured aloft staged away pushed surrounded repairing ready relocate arrives momentum building works crew in towed stars across within)", id, rest[0])
		}
	}
	return nil
}
