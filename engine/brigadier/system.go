// Package brigadier is Brigadier General Commands, the platoon game on
// hexes (one hex an inch, one platoon a hex), as a game system of the
// judge: the rules (rules), the order language (ordertext), reports and
// maps (report) and the bot (bot) behind engine.System. Hidden movement is
// always on: each side sees only the enemy its platoons can see.
package brigadier

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"fieldpost/engine"
	"fieldpost/engine/brigadier/bot"
	"fieldpost/engine/brigadier/mapview"
	"fieldpost/engine/brigadier/ordertext"
	"fieldpost/engine/brigadier/report"
	"fieldpost/engine/brigadier/rules"
)

// Name is the system's stored name.
const Name = "brigadier"

// family names the game in errors.
const family = "Brigadier General Commands"

// System is Brigadier General Commands for the judge.
type System struct {
	rs *rules.Ruleset
}

// New returns the system with its bundled ruleset.
func New() (*System, error) {
	rs, err := rules.BundledRuleset()
	if err != nil {
		return nil, err
	}
	return &System{rs: rs}, nil
}

var (
	_ engine.System  = (*System)(nil)
	_ engine.Planner = (*System)(nil)
)

// Name implements engine.System.
func (s *System) Name() string { return Name }

// Title implements engine.System.
func (s *System) Title() string { return "Brigadier General Commands" }

// Ruleset is the system's ruleset.
func (s *System) Ruleset() *rules.Ruleset { return s.rs }

// Scenarios implements engine.System.
func (s *System) Scenarios() []engine.ScenarioInfo {
	var out []engine.ScenarioInfo
	for _, name := range rules.BundledScenarioNames() {
		sc, err := s.scenario(name)
		if err != nil {
			continue // the package's tests load every bundled scenario
		}
		st := sc.State
		out = append(out, engine.ScenarioInfo{Name: sc.Name, Title: sc.Title, Ruleset: s.rs.Name, Description: sc.Description,
			Sides: sides(st), Map: fmt.Sprintf("%dx%d", st.Map.Cols, st.Map.Rows),
			Length: fmt.Sprintf("%s to %s", rules.ClockText(st.Clock), rules.ClockText(st.End))})
	}
	return out
}

func (s *System) scenario(name string) (*rules.Scenario, error) {
	text, err := rules.BundledScenarioText(name)
	if err != nil {
		return nil, err
	}
	return rules.ParseScenario(s.rs, text)
}

// NewGame implements engine.System.
func (s *System) NewGame(scenario string, _ uint64) (engine.Position, error) {
	sc, err := s.scenario(scenario)
	if err != nil {
		return nil, err
	}
	return &Position{sys: s, st: sc.State}, nil
}

// Load implements engine.System.
func (s *System) Load(stored []byte) (engine.Position, error) {
	var st rules.State
	if err := json.Unmarshal(stored, &st); err != nil {
		return nil, fmt.Errorf("reading a Brigadier General Commands position: %w", err)
	}
	if st.Map == nil || len(st.Sides) != 2 {
		return nil, errors.New("reading a Brigadier General Commands position: no map or not two sides")
	}
	teams, err := engine.LoadTeams(family, stored)
	if err != nil {
		return nil, err
	}
	return &Position{sys: s, st: &st, teams: teams}, nil
}

// view is what View writes: the side's picture of the game.
type view struct {
	Ruleset string       `json:"ruleset"`
	Side    string       `json:"side"`
	State   *rules.State `json:"state"`
	// Team is the side's seats in a team game.
	Team *engine.Team `json:"team,omitempty"`
}

// Plan implements engine.Planner with the bot, from a side's view.
func (s *System) Plan(raw []byte, seat, game string, seed uint64) (engine.Plan, error) {
	side, n := engine.SplitSeat(seat)
	var v view
	if err := json.Unmarshal(raw, &v); err != nil {
		return engine.Plan{}, fmt.Errorf("reading the view: %w", err)
	}
	st := v.State
	if st == nil || st.Map == nil {
		return engine.Plan{}, errors.New("the view holds no position")
	}
	plan := engine.Plan{Turn: st.Turn, Over: st.Ended}
	switch {
	case st.Ended:
		return plan, nil
	case st.Side(side) == nil:
		return engine.Plan{}, fmt.Errorf("the game has no side %q", side)
	}
	o := seatShare(v.Team, seat, bot.Plan(s.rs, st, side, seed))
	plan.Orders = ordertext.Format(s.rs, st, o, game)
	if n > 1 {
		plan.Orders = team.WithoutChiefLines(engine.AddSeat(plan.Orders, seat))
	}
	if _, errs := ordertext.Parse(s.rs, st, side, plan.Orders); errs != nil && n == 1 {
		plan.Orders = ordertext.Form(s.rs, st, side, game)
		if v.Team != nil {
			plan.Orders = (&Position{sys: s, st: st, teams: map[string]*engine.Team{side: v.Team}}).SeatForm(seat, game)
		}
		plan.Summary = "the order form unchanged: the bot's orders did not read back: " + errs[0].String()
		return plan, nil
	}
	moves, fires := 0, 0
	for _, po := range o.Platoons {
		if len(po.Path) > 0 {
			moves++
		}
		if !po.Fire.IsZero() || !po.Assault.IsZero() {
			fires++
		}
	}
	plan.Summary = fmt.Sprintf("%d platoons, %d moving, %d firing or assaulting, %d calls", len(o.Platoons), moves, fires, len(o.Calls))
	return plan, nil
}

// Position is a game between turns.
type Position struct {
	sys *System
	st  *rules.State
	// teams are the sides played by a team, by side; nil for one player a
	// side.
	teams map[string]*engine.Team
}

// State is the whole position; callers must not change it.
func (p *Position) State() *rules.State { return p.st }

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

// Step implements engine.Position: both sides send one mail a turn.
func (p *Position) Step() engine.Step {
	step := engine.Step{Name: fmt.Sprintf("turn %d, %s", p.st.Turn+1, rules.ClockText(p.st.Clock)), Over: p.st.Ended, Winner: p.st.Winner, Result: p.st.Result}
	if !p.st.Ended {
		step.Waiting = engine.SideNames(p.Sides())
	}
	return step
}

// HidesInformation implements engine.Position: hidden movement is always
// on [14].
func (p *Position) HidesInformation() bool { return true }

// Form implements engine.Position.
func (p *Position) Form(side, game string) string {
	return ordertext.Form(p.sys.rs, p.st, side, game)
}

// Read implements engine.Position.
func (p *Position) Read(side, text string, maxErrors int) engine.Reading {
	known := func(name string) bool { return p.st.Platoon(side, name) != nil }
	return engine.ReadWholeSide[*rules.Orders](text, side, p.teams[side], known, maxErrors, func(text string) engine.Reading {
		return p.readSide(side, text, maxErrors)
	})
}

// readSide reads a side's orders, its team's ASSIGN lines aside.
func (p *Position) readSide(side, text string, maxErrors int) engine.Reading {
	if p.st.Side(side) == nil {
		return engine.Reading{Errors: 1, Answer: fmt.Sprintf("there is no side %q in this game", side)}
	}
	return p.parse(side, text).Reading(text, maxErrors, p.echo)
}

// parse reads a side's order text.
func (p *Position) parse(side, text string) engine.Parsed[*rules.Orders] {
	sub, errs := ordertext.Parse(p.sys.rs, p.st, side, text)
	return engine.Parsed[*rules.Orders]{Orders: sub.Orders, Found: sub.Lines > 0, Problems: errs, Round: sub.Round, Ignored: sub.Ignored}
}

// echo says accepted orders back.
func (p *Position) echo(o *rules.Orders) string { return ordertext.Echo(p.sys.rs, p.st, o) }

// Default implements engine.Position: the solo-play advice (brief §3).
func (p *Position) Default(side string) engine.Orders {
	return &Orders{Orders: rules.DefaultOrders(p.sys.rs, p.st, side)}
}

// LoadOrders implements engine.Position.
func (p *Position) LoadOrders(side string, stored []byte) (engine.Orders, error) {
	return engine.LoadJSONOrders[*rules.Orders](side, stored)
}

// WriteOrders implements engine.Position.
func (p *Position) WriteOrders(side string, o engine.Orders, game string) (string, error) {
	bo, err := engine.OrdersOf[*rules.Orders](family, side, o)
	if err != nil {
		return "", err
	}
	return engine.WriteAssigns(ordertext.Format(p.sys.rs, p.st, bo, game), o.(*Orders).Assign), nil // OrdersOf checked its type
}

// Play implements engine.Position.
func (p *Position) Play(orders map[string]engine.Orders, dice engine.Dice) (engine.Position, engine.Round, error) {
	var list []*rules.Orders
	for _, sd := range p.st.Sides {
		o, found := orders[sd.Name]
		if !found || o == nil {
			continue // the rules play the default orders
		}
		bo, err := engine.OrdersOf[*rules.Orders](family, sd.Name, o)
		if err != nil {
			return nil, nil, err
		}
		list = append(list, bo)
	}
	next, events, err := rules.Resolve(p.sys.rs, p.st, list, dice)
	if err != nil {
		return nil, nil, err
	}
	after := &Position{sys: p.sys, st: next, teams: engine.AfterPlay(p.teams, orders, func(side, name string) bool { return next.Platoon(side, name) != nil })}
	return after, &Round{Played: engine.Played[*Position, rules.Event]{Before: p, After: after, Events: events}}, nil
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
	if side == engine.Public {
		return report.PublicSituation(p.sys.rs, publicView(p.st)), nil
	}
	side = umpireAsAll(side)
	return report.Situation(p.sys.rs, rules.View(p.sys.rs, p.st, side), side), nil
}

// View implements engine.Position: the side's own platoons and the enemy
// it sees, as JSON; the public's has no platoon, the umpire's has all.
func (p *Position) View(side string) ([]byte, error) {
	return json.Marshal(view{Ruleset: p.sys.rs.Name, Side: side, State: sideView(p.sys.rs, p.st, side), Team: p.teams[side]})
}

// Map implements engine.Position.
func (p *Position) Map(w io.Writer, side string, f engine.MapFormat) error {
	return drawMap(w, p.sys.rs, p.st, nil, side, f)
}

// sideView is the position as side may know it (engine.Public and
// engine.Umpire included).
func sideView(rs *rules.Ruleset, st *rules.State, side string) *rules.State {
	if side == engine.Public {
		return publicView(st)
	}
	return rules.View(rs, st, umpireAsAll(side))
}

// umpireAsAll turns engine.Umpire into the side rules and report read as
// "everything" (""); a player's side stays as it is. Call it only once
// engine.Public, which is "" too, has been dealt with.
func umpireAsAll(side string) string {
	if side == engine.Umpire {
		return ""
	}
	return side
}

// publicView is what the public may know while the game is played [14]:
// the map, the objectives, the clock and the initiative; no platoon,
// battery, flight or radio net, no side's standing choice or losses.
func publicView(st *rules.State) *rules.State {
	v := st.Clone()
	v.Platoons, v.Batteries, v.Flights, v.Battalions = nil, nil, nil, nil
	for _, sd := range v.Sides {
		sd.Pursue, sd.BugoutDefault, sd.LostThisTurn = false, 0, 0
	}
	return v
}

// drawMap draws st for side, with the events of the turn that led to it
// the side may read; the public's map shows neither platoons nor events.
func drawMap(w io.Writer, rs *rules.Ruleset, st *rules.State, events []rules.Event, side string, f engine.MapFormat) error {
	v := sideView(rs, st, side)
	if side == engine.Public {
		events = nil
	}
	side = umpireAsAll(side)
	switch f {
	case engine.PNG, engine.SVG:
		return mapview.Write(w, string(f), rs, v, events, side)
	case engine.ASCII:
		_, err := io.WriteString(w, report.ASCII(rs, v, side))
		return err
	}
	return engine.NoMap(family, f)
}

// Forces implements engine.Position: battalions with platoons left, the
// platoons, and their men still fighting.
func (p *Position) Forces(side string) engine.Forces {
	var f engine.Forces
	var bns []string
	for _, pl := range p.st.Active(side) {
		f.Pieces++
		f.Strength += pl.Count(p.sys.rs)
		if !slices.Contains(bns, pl.Battalion) {
			bns = append(bns, pl.Battalion)
		}
	}
	f.Units = len(bns)
	return f
}

// Objectives implements engine.Position.
func (p *Position) Objectives() []string { return report.Objectives(p.st) }

// Orders are a side's orders for a turn.
type Orders = engine.JSONOrders[*rules.Orders]

// Round is a turn played.
type Round struct {
	engine.Played[*Position, rules.Event]
}

// Report implements engine.Round: what side may read of the turn; the
// public reads that it was played, and the position as it may know it.
func (r *Round) Report(side string, meta engine.RoundMeta) (string, error) {
	rd := report.Round{Ruleset: r.After.sys.rs, Before: r.Before.st, After: r.After.st, Events: r.Events,
		Game: meta.Game, Seed: meta.Seed, Defaulted: append(slices.Clone(meta.Defaulted), meta.DefaultedSeats...)}
	if side == engine.Public {
		return report.PublicText(rd, publicView(r.After.st)), nil
	}
	return report.Text(rd, umpireAsAll(side)), nil
}

// Map implements engine.Round: the events drawn are those the side saw,
// as it saw them.
func (r *Round) Map(w io.Writer, side string, f engine.MapFormat) error {
	rs := r.After.sys.rs
	events := r.Events
	if side != engine.Public && side != engine.Umpire {
		sight := report.NewSight(rs, r.Before.st, r.After.st, side)
		events = nil
		for _, e := range r.Events {
			if e, ok := sight.Observe(e); ok {
				events = append(events, e)
			}
		}
	}
	return drawMap(w, rs, r.After.st, events, side, f)
}

// sides are the game's sides, as the scenario names them.
func sides(st *rules.State) []engine.Side {
	out := make([]engine.Side, len(st.Sides))
	for i, sd := range st.Sides {
		out[i] = engine.Side{Name: sd.Name, Title: sd.Title}
	}
	return out
}
