// Package stargeneral is the Star General family of rules (Two Star General
// and its variant Three Star General) as a game system of the judge: it joins
// the rules (rules), the order language (ordertext), the reports (report),
// the maps (mapview) and the bot (bot) behind engine.System.
package stargeneral

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral/bot"
	"fieldpost/engine/stargeneral/mapview"
	"fieldpost/engine/stargeneral/ordertext"
	"fieldpost/engine/stargeneral/report"
	"fieldpost/engine/stargeneral/rules"
)

// Name is the system's stored name. Games stored before systems had names
// are Star General games.
const Name = "stargeneral"

// family names the game in errors.
const family = "Star General"

// System is Star General for the judge. Its reports are written with the
// templates it is given (a club may restyle them).
type System struct {
	templates fs.FS
}

// New returns the system, writing reports with the templates in fsys
// (report.txt.tmpl, situation.txt.tmpl). A template that is missing or
// does not parse is an error now rather than at the first report.
func New(templates fs.FS) (*System, error) {
	if err := report.CheckTemplates(templates); err != nil {
		return nil, err
	}
	return &System{templates: templates}, nil
}

var (
	_ engine.System  = (*System)(nil)
	_ engine.Planner = (*System)(nil)
)

// Name implements engine.System.
func (s *System) Name() string { return Name }

// Title implements engine.System.
func (s *System) Title() string { return "Two Star General / Three Star General" }

// Scenarios implements engine.System: the bundled scenarios.
func (s *System) Scenarios() []engine.ScenarioInfo {
	var out []engine.ScenarioInfo
	for _, name := range rules.BundledScenarioNames() {
		sc, err := rules.BundledScenario(name)
		if err != nil {
			continue // data's own tests load every bundled scenario
		}
		st := sc.State
		info := engine.ScenarioInfo{Name: sc.Name, Title: sc.Title, Ruleset: st.Ruleset, Description: sc.Description,
			Sides: sides(st), Map: fmt.Sprintf("%dx%d", st.Map.Cols, st.Map.Rows),
			Length: fmt.Sprintf("%s of %d rounds", plural(st.Days, "day"), sc.Ruleset.RoundsPerDay)}
		out = append(out, info)
	}
	return out
}

// NewGame implements engine.System; Star General's setup draws nothing.
func (s *System) NewGame(scenario string, _ uint64) (engine.Position, error) {
	sc, err := rules.BundledScenario(scenario)
	if err != nil {
		return nil, err
	}
	return &Position{sys: s, rs: sc.Ruleset, st: sc.NewGame()}, nil
}

// Load implements engine.System.
func (s *System) Load(stored []byte) (engine.Position, error) {
	var st rules.State
	if err := json.Unmarshal(stored, &st); err != nil {
		return nil, fmt.Errorf("reading a Star General position: %w", err)
	}
	p, err := s.Wrap(&st)
	if err != nil {
		return nil, err
	}
	if p.teams, err = engine.LoadTeams(family, stored); err != nil {
		return nil, err
	}
	return p, nil
}

// Wrap makes a position of a state, with the bundled ruleset it names.
func (s *System) Wrap(st *rules.State) (*Position, error) {
	rs, err := rules.BundledRuleset(st.Ruleset)
	if err != nil {
		return nil, err
	}
	return &Position{sys: s, rs: rs, st: st}, nil
}

// Plan implements engine.Planner with the bot, from situation.json.
func (s *System) Plan(view []byte, seat, game string, seed uint64) (engine.Plan, error) {
	side, _ := engine.SplitSeat(seat)
	var sit situation
	if err := json.Unmarshal(view, &sit); err != nil {
		return engine.Plan{}, fmt.Errorf("reading the situation: %w", err)
	}
	if sit.State == nil || sit.State.Map == nil {
		return engine.Plan{}, errors.New("the situation holds no position")
	}
	rs, err := rules.BundledRuleset(sit.Ruleset)
	if err != nil {
		return engine.Plan{}, err
	}
	st := sit.State
	plan := engine.Plan{Turn: st.Turn, Over: st.Ended}
	switch {
	case st.Ended:
		return plan, nil
	case st.Side(side) == nil:
		return engine.Plan{}, fmt.Errorf("the game has no side %q", side)
	}
	o := bot.Plan(rs, st, side, bot.Options{Seed: seed})
	if team := sit.Teams[side]; team != nil {
		o = seatShare(team, seat, o)
	}
	plan.Orders = ordertext.Format(rs, st, o, game)
	if h := engine.SeatHeader(seat); h != "" {
		plan.Orders = team.WithoutChiefLines(strings.Replace(plan.Orders, "  ROUND", "  "+strings.TrimSpace(h)+"  ROUND", 1))
		plan.Summary = "seat " + seat + ": "
	}
	if _, errs := ordertext.Parse(rs, st, side, plan.Orders); errs != nil && engine.SeatHeader(seat) == "" {
		// The bot's plans always validate; should the text still not read
		// back, the form surely does.
		plan.Orders = ordertext.Form(rs, st, side, game)
		if sit.Teams[side] != nil {
			plan.Orders = (&Position{sys: s, rs: rs, st: st, teams: sit.Teams}).SeatForm(seat, game)
		}
		plan.Summary = "the order form unchanged: the bot's orders did not read back: " + errs[0].String()
		return plan, nil
	}
	attacks := 0
	for _, uo := range o.Units {
		if uo.Attack != nil {
			attacks++
		}
	}
	plan.Summary += fmt.Sprintf("%s, %s", plural(len(o.Units), "unit"), plural(attacks, "attack"))
	return plan, nil
}

// situation is situation.json: the whole position and its ruleset's name.
type situation struct {
	Ruleset string       `json:"ruleset"`
	State   *rules.State `json:"state"`
	// Teams are the side's seats in a team game (the reader's side's).
	Teams map[string]*engine.Team `json:"teams,omitempty"`
}

// Position is a Star General game between rounds. Star General hides
// nothing: every side sees the whole position.
type Position struct {
	sys *System
	rs  *rules.Ruleset
	st  *rules.State
	// teams are the sides played by a team, by side; nil for one player a
	// side.
	teams map[string]*engine.Team
}

// State is the rules' position; callers must not change it.
func (p *Position) State() *rules.State { return p.st }

// Ruleset is the position's ruleset.
func (p *Position) Ruleset() *rules.Ruleset { return p.rs }

// Marshal implements engine.Position.
func (p *Position) Marshal() ([]byte, error) { return json.Marshal(stored{p.st, p.teams}) }

// Scenario implements engine.Position.
func (p *Position) Scenario() string { return p.st.Scenario }

// Title implements engine.Position.
func (p *Position) Title() string { return p.st.Title }

// Sides implements engine.Position.
func (p *Position) Sides() []engine.Side { return sides(p.st) }

// Turn implements engine.Position.
func (p *Position) Turn() int { return p.st.Turn }

// Step implements engine.Position: both sides plot every round at once.
func (p *Position) Step() engine.Step {
	step := engine.Step{Name: ordertext.RoundName(p.rs, p.st), Over: p.st.Ended, Winner: p.st.Winner, Result: p.st.Result}
	if !p.st.Ended {
		step.Waiting = engine.SideNames(p.Sides())
	}
	return step
}

// HidesInformation implements engine.Position: Star General is played
// with open information.
func (p *Position) HidesInformation() bool { return false }

// Forces implements engine.Position: units in play, their core stands on
// the map with the batteries, and the strength points of those.
func (p *Position) Forces(side string) engine.Forces {
	var f engine.Forces
	for _, u := range p.st.ActiveUnits(side) {
		f.Units++
		for _, s := range u.Stands {
			f.Pieces++
			f.Strength += s.SP
		}
	}
	for _, b := range p.st.Batteries {
		if b.Side == side && !b.Removed {
			f.Pieces++
			f.Strength += b.SP
		}
	}
	return f
}

// Objectives implements engine.Position.
func (p *Position) Objectives() []string { return report.Objectives(p.st) }

// Form implements engine.Position.
func (p *Position) Form(side, game string) string { return ordertext.Form(p.rs, p.st, side, game) }

// Read implements engine.Position.
func (p *Position) Read(side, text string, maxErrors int) engine.Reading {
	known := func(u string) bool { return p.known(side, u) }
	return engine.ReadWholeSide[*rules.Orders](text, side, p.teams[side], known, maxErrors, func(text string) engine.Reading {
		return p.readSide(side, text, maxErrors)
	})
}

// readSide reads a side's orders, its team's ASSIGN lines aside.
func (p *Position) readSide(side, text string, maxErrors int) engine.Reading {
	return p.parse(side, text).Reading(text, maxErrors, p.echo)
}

// parse reads a side's order text.
func (p *Position) parse(side, text string) engine.Parsed[*rules.Orders] {
	sub, errs := ordertext.Parse(p.rs, p.st, side, text)
	return engine.Parsed[*rules.Orders]{Orders: sub.Orders, Found: sub.Lines > 0, Problems: errs, Round: sub.Round, Ignored: sub.Ignored}
}

// echo says accepted orders back, with the odds of their attacks.
func (p *Position) echo(o *rules.Orders) string { return ordertext.Echo(p.rs, p.st, o) }

// Default implements engine.Position: everything holds.
func (p *Position) Default(side string) engine.Orders {
	return &Orders{Orders: rules.DefaultOrders(p.rs, p.st, side)}
}

// LoadOrders implements engine.Position.
func (p *Position) LoadOrders(side string, stored []byte) (engine.Orders, error) {
	return engine.LoadJSONOrders[*rules.Orders](side, stored)
}

// WriteOrders implements engine.Position.
func (p *Position) WriteOrders(side string, o engine.Orders, game string) (string, error) {
	list, err := p.orderList(map[string]engine.Orders{side: o})
	if err != nil {
		return "", err
	}
	for _, so := range list {
		if so.Orders.Side == side {
			return engine.WriteAssigns(ordertext.Format(p.rs, p.st, so.Orders, game), so.Assign), nil
		}
	}
	return "", fmt.Errorf("no side %q", side)
}

// Play implements engine.Position: it plays the next round, day or night.
func (p *Position) Play(orders map[string]engine.Orders, dice engine.Dice) (engine.Position, engine.Round, error) {
	list, err := p.orderList(orders)
	if err != nil {
		return nil, nil, err
	}
	plain := make([]*rules.Orders, len(list))
	for i, o := range list {
		plain[i] = o.Orders
	}
	next, events, err := rules.Resolve(p.rs, p.st, plain, sixSided{dice})
	if err != nil {
		return nil, nil, err
	}
	after := &Position{sys: p.sys, rs: p.rs, st: next, teams: engine.AfterPlay(p.teams, orders, func(_, u string) bool { x := next.Unit(u); return x != nil && !x.Removed })}
	return after, &Round{Played: engine.Played[*Position, rules.Event]{Before: p, After: after, Events: events}}, nil
}

// orderList puts orders in the order of the sides, a side without any
// playing the default orders.
func (p *Position) orderList(orders map[string]engine.Orders) ([]*Orders, error) {
	var list []*Orders
	for _, sd := range p.st.Sides {
		o, given := orders[sd.Name]
		if !given || o == nil {
			list = append(list, &Orders{Orders: rules.DefaultOrders(p.rs, p.st, sd.Name)})
			continue
		}
		if _, err := engine.OrdersOf[*rules.Orders](family, sd.Name, o); err != nil {
			return nil, err
		}
		list = append(list, o.(*Orders)) // OrdersOf checked its type
	}
	return list, nil
}

// LoadRound implements engine.Position.
func (p *Position) LoadRound(after engine.Position, stored []byte) (engine.Round, error) {
	played, err := engine.LoadPlayed[*Position, rules.Event](family, p, after, stored)
	if err != nil {
		return nil, err
	}
	return &Round{Played: played}, nil
}

// Situation implements engine.Position.
func (p *Position) Situation(side string) (string, error) {
	return report.Situation(p.sys.templates, p.rs, p.st)
}

// View implements engine.Position: situation.json, the whole position (it
// is what `fieldpost resolve --state` replays from).
func (p *Position) View(side string) ([]byte, error) {
	sit := situation{Ruleset: p.st.Ruleset, State: p.st}
	if t := p.teams[side]; t != nil {
		sit.Teams = map[string]*engine.Team{side: t}
	}
	return json.Marshal(sit)
}

// Map implements engine.Position.
func (p *Position) Map(w io.Writer, side string, f engine.MapFormat) error {
	return drawMap(w, p.rs, p.st, nil, f)
}

func drawMap(w io.Writer, rs *rules.Ruleset, st *rules.State, events []rules.Event, f engine.MapFormat) error {
	switch f {
	case engine.PNG:
		return mapview.PNG(w, rs, st, events, mapview.Options{})
	case engine.SVG:
		return mapview.SVG(w, rs, st, events, mapview.Options{})
	case engine.ASCII:
		_, err := io.WriteString(w, mapview.ASCII(rs, st))
		return err
	}
	return engine.NoMap(family, f)
}

// Orders are a side's orders for a Star General round, or a seat's, with
// its ASSIGN lines.
type Orders = engine.JSONOrders[*rules.Orders]

// Round is a Star General round played; Events is its event log.
type Round struct {
	engine.Played[*Position, rules.Event]
}

// Report implements engine.Round: the report without an order form (the
// judge adds the reader's).
func (r *Round) Report(side string, meta engine.RoundMeta) (string, error) {
	list, err := r.Before.orderList(meta.Orders)
	if err != nil {
		return "", err
	}
	orders := make([]*rules.Orders, len(list))
	for i, o := range list {
		orders[i] = o.Orders
	}
	return report.Text(r.Before.sys.templates, report.Round{Ruleset: r.After.rs, Before: r.Before.st, After: r.After.st,
		Events: r.Events, Seed: meta.Seed, Game: meta.Game, Defaulted: append(slices.Clone(meta.Defaulted), meta.DefaultedSeats...), Orders: orders})
}

// Map implements engine.Round.
func (r *Round) Map(w io.Writer, side string, f engine.MapFormat) error {
	return drawMap(w, r.After.rs, r.After.st, r.Events, f)
}

// sixSided rolls the rules' d6 from the engine's dice.
type sixSided struct{ engine.Dice }

func (d sixSided) D6() int { return d.Roll(6) }

// sides are the game's sides, as the scenario names them.
func sides(st *rules.State) []engine.Side {
	out := make([]engine.Side, len(st.Sides))
	for i, sd := range st.Sides {
		out[i] = engine.Side{Name: sd.Name, Title: sd.Title}
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
