// Package frontline is Frontline General: Italian Campaign as a game system
// of the judge: it joins the rules (rules), the order language (ordertext),
// the reports (report), the maps (mapview) and the bot (bot) behind
// engine.System. Player turns alternate: each play is the active side's
// turn, its opponent answering by the standing orders it gave in its own.
// Each side sees only its own view (its hand, its treasury, the enemy it
// may see under fog of war).
package frontline

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"fieldpost/engine"
	"fieldpost/engine/frontline/bot"
	"fieldpost/engine/frontline/fog"
	"fieldpost/engine/frontline/mapview"
	"fieldpost/engine/frontline/ordertext"
	"fieldpost/engine/frontline/report"
	"fieldpost/engine/frontline/rules"
)

// Name is the system's stored name.
const Name = "frontline"

// family names the game in errors.
const family = "Frontline General"

// System is Frontline General for the judge.
type System struct{}

// New returns the system, once its unit cards, events and scenarios read.
func New() (*System, error) {
	if _, err := rules.Lib(); err != nil {
		return nil, err
	}
	return &System{}, nil
}

var (
	_ engine.System   = (*System)(nil)
	_ engine.Planner  = (*System)(nil)
	_ engine.Standing = (*Position)(nil)
)

// Name implements engine.System.
func (s *System) Name() string { return Name }

// Title implements engine.System.
func (s *System) Title() string { return "Frontline General: Italian Campaign" }

// Scenarios implements engine.System.
func (s *System) Scenarios() []engine.ScenarioInfo {
	list, err := rules.Scenarios()
	if err != nil {
		return nil // the package's tests load every bundled scenario
	}
	var out []engine.ScenarioInfo
	for _, sc := range list {
		st, err := rules.LoadScenario(sc.Name)
		if err != nil {
			continue
		}
		out = append(out, engine.ScenarioInfo{Name: sc.Name, Title: sc.Title, Ruleset: Name, Sides: sides(st), Description: scenarioDescription(sc.Name),
			Map: fmt.Sprintf("%dx%d", st.Map.Width, st.Map.Height), Length: fmt.Sprintf("%d turns", st.Turns)})
	}
	return out
}

// NewGame implements engine.System: the decks are shuffled from seed.
func (s *System) NewGame(scenario string, seed uint64) (engine.Position, error) {
	st, err := rules.NewGame(scenario, seed)
	if err != nil {
		return nil, err
	}
	return &Position{st: st}, nil
}

// Load implements engine.System.
func (s *System) Load(raw []byte) (engine.Position, error) {
	st, err := rules.Load(raw)
	if err != nil {
		return nil, err
	}
	teams, err := engine.LoadTeams(family, raw)
	if err != nil {
		return nil, err
	}
	return &Position{st: st, teams: teams}, nil
}

// Plan implements engine.Planner: the bot plans from the side's view.
func (s *System) Plan(view []byte, seat, game string, seed uint64) (engine.Plan, error) {
	side, n := engine.SplitSeat(seat)
	side = strings.ToUpper(side)
	seat = engine.SeatID(side, n)
	v, err := rules.Load(view)
	if err != nil {
		return engine.Plan{}, fmt.Errorf("reading the situation: %w", err)
	}
	plan := engine.Plan{Turn: v.Plays, Over: v.Over}
	if v.Over {
		return plan, nil
	}
	if v.Player(side) == nil {
		return engine.Plan{}, fmt.Errorf("the game has no side %q", side)
	}
	if v.Active != side {
		return plan, nil // its standing orders went with its own turn
	}
	o := bot.Plan(v, side)
	teams, err := engine.LoadTeams(family, view)
	if err != nil {
		return engine.Plan{}, err
	}
	o = seatShare(teams[side], seat, o)
	plan.Orders = ordertext.Format(v, o, game)
	plan.Orders = engine.AddSeat(plan.Orders, seat)
	plan.Summary = fmt.Sprintf("%d buys, %d moves, %d engagements", len(o.Buys), len(o.Moves), len(o.Engagements))
	return plan, nil
}

// Position is a Frontline General game between two player turns.
type Position struct {
	st *rules.State
	// teams are the sides played by a team (§IV.2), by side; nil for one
	// player a side.
	teams map[string]*engine.Team
}

// Marshal implements engine.Position.
func (p *Position) Marshal() ([]byte, error) { return json.Marshal(stored{p.st, p.teams}) }

// Scenario implements engine.Position.
func (p *Position) Scenario() string { return p.st.Scenario }

// Title implements engine.Position.
func (p *Position) Title() string { return p.st.Title }

// Sides implements engine.Position.
func (p *Position) Sides() []engine.Side { return sides(p.st) }

// Turn implements engine.Position: the player turns played.
func (p *Position) Turn() int { return p.st.Plays }

// Step implements engine.Position: only the active side gives orders.
func (p *Position) Step() engine.Step {
	return engine.Step{Name: p.st.Step(), Waiting: p.st.Waiting(), Over: p.st.Over, Winner: p.st.Winner, Result: p.st.Result}
}

// HidesInformation implements engine.Position.
func (p *Position) HidesInformation() bool { return true }

// Form implements engine.Position.
func (p *Position) Form(side, game string) string { return ordertext.Form(p.st, game, side) }

// Read implements engine.Position.
func (p *Position) Read(side, text string, maxErrors int) engine.Reading {
	name := p.side(side)
	known := func(u string) bool { return p.st.Unit(name, u) != nil }
	return engine.ReadWholeSide[rules.Orders](text, name, p.teams[name], known, maxErrors, func(text string) engine.Reading {
		return p.readSide(side, text, maxErrors)
	})
}

// readSide reads a side's orders, its team's ASSIGN lines aside.
func (p *Position) readSide(side, text string, maxErrors int) engine.Reading {
	return p.parse(side, text).Reading(text, maxErrors, p.echo)
}

// parse reads a side's order text.
func (p *Position) parse(side, text string) engine.Parsed[rules.Orders] {
	sub, probs := ordertext.Parse(p.st, side, text)
	return engine.Parsed[rules.Orders]{Orders: sub.Orders, Found: found(sub.Orders), Problems: probs, Round: sub.Round, Ignored: sub.Ignored}
}

// echo says accepted orders back, with the odds of their shots.
func (p *Position) echo(o rules.Orders) string { return ordertext.Echo(p.st, o) }

// found reports whether orders hold anything a player wrote.
func found(o rules.Orders) bool {
	return len(o.Buys)+len(o.Builds)+len(o.Idle)+len(o.Moves)+len(o.Engagements)+len(o.Deploys)+
		len(o.Rush)+len(o.Encircle) > 0 || o.Convert != "" || o.Standing != nil
}

// Stand implements engine.Standing: a waiting side's REACT orders replace
// the standing orders it gave with its own turn.
func (p *Position) Stand(side, text string, maxErrors int) (engine.Position, engine.Reading) {
	if side, n := engine.SplitSeat(side); n != 1 {
		why := []engine.Problem{{Rule: "§IV.2, Table IV.1",
			Text: fmt.Sprintf("standing orders (REACT) are the Frontline General's, %s's: a Commander gives none", side)}}
		return nil, engine.Reading{Errors: 1, Found: true, Problems: why, Answer: engine.Refusal(text, why, maxErrors)}
	}
	text, _ = engine.CutSeat(text)
	sub, probs := ordertext.Parse(p.st, side, text)
	o := sub.Orders
	r := engine.Reading{Errors: len(probs), Found: found(o), Round: sub.Round, Ignored: sub.Ignored}
	switch {
	case len(probs) > 0:
		r.Problems = probs
		r.Answer = engine.Refusal(text, r.Problems, maxErrors)
		return nil, r
	case o.Standing == nil:
		return nil, r
	}
	next, err := p.st.SetStanding(p.side(side), *o.Standing)
	if err != nil {
		r.Errors, r.Answer = 1, err.Error()
		return nil, r
	}
	r.Orders = &Orders{Orders: o}
	r.Answer = fmt.Sprintf("Standing orders of %s accepted: they answer for you during %s's turn.\n\n%s",
		p.side(side), p.st.Active, ordertext.FormatStanding(*o.Standing))
	return &Position{st: next, teams: p.teams}, r
}

// Default implements engine.Position: nothing bought, nothing moved.
func (p *Position) Default(side string) engine.Orders {
	return &Orders{Orders: p.st.Default(side)}
}

// LoadOrders implements engine.Position.
func (p *Position) LoadOrders(side string, stored []byte) (engine.Orders, error) {
	return engine.LoadJSONOrders[rules.Orders](side, stored)
}

// WriteOrders implements engine.Position.
func (p *Position) WriteOrders(side string, o engine.Orders, game string) (string, error) {
	fo, err := engine.OrdersOf[rules.Orders](family, side, o)
	if err != nil {
		return "", err
	}
	return engine.WriteAssigns(ordertext.Format(p.st, fo, game), o.(*Orders).Assign), nil // OrdersOf checked its type
}

// Play implements engine.Position: the active side's player turn.
func (p *Position) Play(orders map[string]engine.Orders, dice engine.Dice) (engine.Position, engine.Round, error) {
	active := p.st.Active
	o, given := orders[active]
	if !given || o == nil {
		o = p.Default(active)
	}
	fo, err := engine.OrdersOf[rules.Orders](family, active, o)
	if err != nil {
		return nil, nil, err
	}
	next, events, err := p.st.Play(fo, dice)
	if err != nil {
		return nil, nil, err
	}
	after := &Position{st: next, teams: p.afterTurn(active, o, next)}
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

// Situation implements engine.Position: the scores and the map as the side
// sees it.
func (p *Position) Situation(side string) (string, error) {
	return situation(p.st, side), nil
}

// situation is the scores and the map as side sees them.
func situation(st *rules.State, side string) string {
	v := sideView(st, side)
	var b strings.Builder
	for _, pl := range v.Players {
		fmt.Fprintf(&b, "%s: score %d\n", pl.Side, pl.Score)
	}
	b.WriteString("\n")
	b.WriteString(mapview.ASCII(v))
	return b.String()
}

// View implements engine.Position: the side's view, as JSON.
func (p *Position) View(side string) ([]byte, error) {
	v := stored{State: sideView(p.st, side)}
	if t := p.teams[strings.ToUpper(side)]; t != nil {
		v.Teams = map[string]*engine.Team{strings.ToUpper(side): t}
	}
	return json.Marshal(v)
}

// Map implements engine.Position.
func (p *Position) Map(w io.Writer, side string, f engine.MapFormat) error {
	return drawMap(w, sideView(p.st, side), nil, f)
}

// sideView is st as side may know it: a side's view (its own units, the
// enemy it sees, the opening of the turn as it observed it); the public's,
// with no unit of either side (the map, who holds the cities, the scores);
// the umpire's, everything.
func sideView(st *rules.State, side string) *rules.State {
	switch side {
	case engine.Umpire:
		return st.Clone()
	case engine.Public:
		v := st.View("")
		v.Units, v.Opening = nil, nil
		return v
	}
	return fog.View(st, side)
}

// observed are the events as sight observed them.
func observed(sight fog.Sight, events []rules.Event) []rules.Event {
	var out []rules.Event
	for _, e := range events {
		if e, ok := sight.Observe(e); ok {
			out = append(out, e)
		}
	}
	return out
}

// drawMap draws a side's view v, with the turn that led to it (nil for
// none).
func drawMap(w io.Writer, v *rules.State, t *mapview.Turn, f engine.MapFormat) error {
	switch f {
	case engine.PNG, engine.SVG:
		return mapview.Write(w, string(f), v, t)
	case engine.ASCII:
		_, err := io.WriteString(w, mapview.ASCII(v))
		return err
	}
	return engine.NoMap(family, f)
}

// Forces implements engine.Position: units in play, on the map, and their
// steps (a damaged unit has one left, a sound one two).
func (p *Position) Forces(side string) engine.Forces {
	var f engine.Forces
	side = p.side(side)
	for _, u := range p.st.Units {
		if u.Side != side {
			continue
		}
		f.Units++
		if u.OnMap() {
			f.Pieces++
		}
		f.Strength += 2
		if u.Damaged {
			f.Strength--
		}
	}
	return f
}

// Objectives implements engine.Position: the hexes a side must hold to win.
func (p *Position) Objectives() []string {
	var out []string
	for _, v := range p.st.Victory {
		var hexes []string
		for _, h := range v.Hold {
			hexes = append(hexes, h.String())
		}
		out = append(out, fmt.Sprintf("%s wins holding %s at the end of its turn", v.Side, strings.Join(hexes, " ")))
	}
	return out
}

// Orders are a side's orders for a player turn, or a seat's, with its
// ASSIGN lines (§IV.2).
type Orders = engine.JSONOrders[rules.Orders]

// Round is a player turn played.
type Round struct {
	engine.Played[*Position, rules.Event]
}

// Report implements engine.Round: what the side saw of the turn, every die
// with what it was checked against, then its situation.
func (r *Round) Report(side string, meta engine.RoundMeta) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%s", r.Before.st.Title, r.Before.st.Step())
	if meta.Game != "" {
		fmt.Fprintf(&b, " - game %s", meta.Game)
	}
	b.WriteString("\n\n")
	for _, d := range meta.Defaulted {
		fmt.Fprintf(&b, "%s sent no orders: nothing was bought or moved (default orders).\n\n", d)
	}
	for _, d := range meta.DefaultedSeats {
		fmt.Fprintf(&b, "Seat %s sent no orders: its units held (default orders).\n\n", d)
	}
	switch side {
	case engine.Public:
		b.WriteString("Fog of war (VIII.1) and hidden units: what each side did and saw is told to that side only, and to everybody once the game is over.\n")
	case engine.Umpire:
		b.WriteString(report.Text(r.Events, fog.Umpire))
	default:
		b.WriteString(report.Text(r.Events, r.sight(side)))
	}
	fmt.Fprintf(&b, "\nDice seed for this turn: %d (its SHA-256 was promised before the orders).\n", meta.Seed)
	if r.After.st.Over {
		fmt.Fprintf(&b, "\nTHE GAME IS OVER. %s\n", r.After.st.Result)
	}
	b.WriteString("\nSITUATION\n")
	b.WriteString(situation(r.After.st, side))
	return b.String(), nil
}

// Map implements engine.Round: the position after the turn, as the side
// sees it, with the moves it saw and the engagements; the public's shows
// neither.
func (r *Round) Map(w io.Writer, side string, f engine.MapFormat) error {
	var t *mapview.Turn
	switch side {
	case engine.Public:
	case engine.Umpire:
		t = &mapview.Turn{Before: sideView(r.Before.st, side), Events: r.Events}
	default:
		t = &mapview.Turn{Before: sideView(r.Before.st, side), Events: observed(r.sight(side), r.Events)}
	}
	return drawMap(w, sideView(r.After.st, side), t, f)
}

// sight is what side observed of the turn.
func (r *Round) sight(side string) fog.Sight {
	return fog.New(side, r.Before.st, r.After.st, r.Events)
}

// side is the game's spelling of a side named to the seam ("us": "US");
// "" for an observer or a side the game has not.
func (p *Position) side(name string) string { return engine.SideNamed(p.Sides(), name) }

// sides are the game's sides, as the scenario names them.
func sides(st *rules.State) []engine.Side {
	out := make([]engine.Side, len(st.Sides))
	for i, sd := range st.Sides {
		out[i] = engine.Side{Name: sd, Title: sideTitle(sd)}
	}
	return out
}

// sideTitle names a side for people.
func sideTitle(side string) string {
	switch side {
	case "US":
		return "US forces"
	case "GE":
		return "German forces"
	}
	return side
}
