package frontline

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"fieldpost/engine"
	"fieldpost/engine/frontline/ordertext"
	"fieldpost/engine/frontline/rules"
)

// Team Play Command (§IV.2, Table IV.1): a side is one Frontline General
// (seat 1) and up to four Commanders. The General selects, buys and stages
// forces, manages income and supply (IDLE), establishes and relocates
// command posts (BUILD CP, RELOCATE, CONVERT), plays the Command Cards
// (RUSH, ENCIRCLE, PUSH, and an engagement's SUSPEND, WITHDRAW, CEASEFIRE,
// SURRENDER and INSPIRE) and gives the side's standing orders (REACT); a
// Commander moves and fights the units allocated to him and places his
// staged units. Units pass between seats by ASSIGN (the book's exchange of
// Unit Cards, attachment): the General gives any unit, a Commander his
// own; it takes effect from the side's next turn. ENGAGE lines of several
// seats on one hex are one engagement ("Multiple Commanders may work
// together to attack single targets").

var _ engine.Seated = (*Position)(nil)

// team is what the book says of Frontline's teams: a General and at most
// four Commanders (§IV.2). Which orders are the General's it checks by
// their kind (seatProblems).
var team = &engine.TeamRules{
	MaxSeats: 5, Chief: "Frontline General", Subordinate: "Commander",
	ChiefRole: "# You are the Frontline General (§IV.2): PRODUCE, IDLE, RELOCATE, CONVERT, the Command Cards\n" +
		"# (RUSH, ENCIRCLE, PUSH, SUSPEND, WITHDRAW, CEASEFIRE, SURRENDER, INSPIRE), REACT, and the\n" +
		"# units you keep. ASSIGN unit... TO seat gives units to a seat from your next turn.\n",
	SubordinateRole: "# You are a Commander (§IV.2): you MOVE, fight (COMBAT) and DEPLOY your own units; the rest\n" +
		"# is the General's. ASSIGN unit... TO seat attaches your units to another seat from your next turn.\n",
	Units: "units", Rule: "§IV.2", Effect: "your next turn",
}

// MaxSeats implements engine.Seated.
func (p *Position) MaxSeats() int { return team.MaxSeats }

// Seats implements engine.Seated.
func (p *Position) Seats(side string) []engine.Seat {
	side = strings.ToUpper(side)
	var units []string
	for _, u := range p.st.Units {
		if u.Side == side {
			units = append(units, u.ID)
		}
	}
	return p.teams[side].List(side, team.SeatName(1), units)
}

// WithSeats implements engine.Seated: the General keeps the command posts,
// the Forward HQ and the staged units; the other units on the map are
// dealt among the seats in sectors, west to east (the book's "area of
// responsibility" of each Commander).
func (p *Position) WithSeats(seats []engine.SeatSetup) (engine.Position, error) {
	deal := map[string][]string{}
	for _, side := range p.st.Sides {
		var units []*rules.Unit
		for _, u := range p.st.Units {
			if u.Side == side && u.OnMap() && u.In == "" && !commandUnit(u) {
				units = append(units, u)
			}
		}
		slices.SortStableFunc(units, func(a, b *rules.Unit) int {
			return cmp.Or(cmp.Compare(a.Hex.Col, b.Hex.Col), cmp.Compare(a.Hex.Row, b.Hex.Row))
		})
		deal[side] = nil
		for _, u := range units {
			deal[side] = append(deal[side], u.ID)
		}
	}
	for i := range seats {
		side, n := engine.SplitSeat(seats[i].ID)
		seats[i].ID = engine.SeatID(strings.ToUpper(side), n)
		for j, u := range seats[i].Units {
			seats[i].Units[j] = strings.ToUpper(u)
		}
	}
	teams, err := engine.NewTeams(seats, team.MaxSeats, deal, func(side, u string) bool { return p.st.Unit(side, u) != nil }, team.SeatName)
	if err != nil {
		return nil, err
	}
	carried(p.st, teams)
	return &Position{st: p.st, teams: teams}, nil
}

// topCarrier is the unit that carries a unit, or carries what carries
// it; the unit itself when nothing does.
func (p *Position) topCarrier(side, unit string) string {
	u := p.st.Unit(side, unit)
	for range len(p.st.Units) { // a chain of carriers, never a loop
		if u == nil || u.In == "" || p.st.Unit(side, u.In) == nil {
			break
		}
		u = p.st.Unit(side, u.In)
	}
	if u == nil {
		return unit
	}
	return u.ID
}

// carried gives each unit carried, crewing or towed (In) its carrier's
// seat: a gun's crew and a truck's passengers go where it goes.
func carried(st *rules.State, teams map[string]*engine.Team) {
	for _, u := range st.Units {
		t := teams[u.Side]
		if t == nil || u.In == "" {
			continue
		}
		carrier := (&Position{st: st}).topCarrier(u.Side, u.ID)
		if owner := t.OwnerOf(u.Side, carrier); owner == u.Side {
			delete(t.Owner, u.ID)
		} else {
			t.Owner[u.ID] = owner
		}
	}
}

// commandUnit: command posts and the Forward HQ stay the General's (Table
// IV.1: he establishes and relocates command posts).
func commandUnit(u *rules.Unit) bool {
	return u.Code == "CP" || u.Code == "FHQ" || strings.HasPrefix(u.ID, "CP-") || strings.HasPrefix(u.ID, "FHQ-")
}

// SeatForm implements engine.Seated: the side's form, headed by the seat,
// with the seat's units and what it may order.
func (p *Position) SeatForm(seat, game string) string {
	side, n := engine.SplitSeat(seat)
	side = strings.ToUpper(side)
	form := ordertext.Form(p.st, game, side)
	if p.teams[side] == nil {
		return form
	}
	seat = engine.SeatID(side, n)
	var b strings.Builder
	lines := strings.Split(form, "\n")
	chief := n == 1
	section := ""
	otherExample := false // a worked example naming another seat's unit, with its lines
	for i, line := range lines {
		f := strings.Fields(line)
		if strings.HasPrefix(line, "# e.g.  ") {
			otherExample = slices.ContainsFunc(f, func(w string) bool {
				return p.st.Unit(side, w) != nil && !p.teams[side].Commands(side, seat, w)
			})
		} else if !strings.HasPrefix(line, "#       ") {
			otherExample = false
		}
		if otherExample {
			continue
		}
		if i == 0 {
			b.WriteString(engine.AddSeat(line, seat) + "\n")
			team.WriteSeats(&b, p.Seats(side), seat)
			continue
		}
		if len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			if _, isSection := sectionWords[f[0]]; isSection {
				section = f[0]
			} else if section == "DEPLOY" && !p.teams[side].Commands(side, seat, f[0]) {
				continue // another seat's staged unit
			}
		}
		if !chief && (section == "REACT" || section == "PRODUCE" && len(f) > 0 && f[0] == "PRODUCE") {
			if section == "REACT" && len(f) > 0 && f[0] == "END" {
				b.WriteString("END\n")
			}
			continue
		}
		if i < len(lines)-1 {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

var sectionWords = map[string]struct{}{"PRODUCE": {}, "MOVE": {}, "COMBAT": {}, "DEPLOY": {}, "REACT": {}, "END": {}}

// SeatRead implements engine.Seated.
func (p *Position) SeatRead(seat, text string, maxErrors int) engine.Reading {
	side, n := engine.SplitSeat(seat)
	side = strings.ToUpper(side)
	seat = engine.SeatID(side, n)
	return engine.ReadSeat(seat, text, maxErrors, engine.SeatReader[rules.Orders]{
		Rules: team, Team: p.teams[side],
		Known: func(u string) bool { return p.st.Unit(side, u) != nil },
		Names: func(units []string) []string {
			for k, u := range units {
				units[k] = strings.ToUpper(u)
			}
			return units
		},
		Goes: func(u string) string { return p.topCarrier(side, u) }, // a crew or passenger goes with what carries it
		Read: func(text string) engine.Parsed[rules.Orders] {
			read := p.parse(side, text)
			read.Found = read.Found || engine.HasHeader(text)
			read.Problems = append(read.Problems, p.seatProblems(seat, read.Orders, text)...)
			return read
		},
		Echo: p.echo,
	})
}

// seatProblems are the orders a seat gives that are not its to give
// (§IV.2, Table IV.1).
func (p *Position) seatProblems(seat string, o rules.Orders, text string) []engine.Problem {
	side, n := engine.SplitSeat(seat)
	c := team.Check(p.teams[side], seat)
	generals := func(line int, what, why string) {
		c.Problems = append(c.Problems, engine.Problem{Line: line, Rule: "§IV.2, Table IV.1",
			Text: fmt.Sprintf("%s is the Frontline General's to order, not a Commander's: %s", what, why)})
	}
	commands := c.Unit
	if n > 1 {
		for _, by := range o.Buys {
			generals(by.Line, "BUY", "he selects and stages the forces")
		}
		for _, bu := range o.Builds {
			generals(bu.Line, "BUILD", "he establishes command posts and places works with his Commanders")
		}
		if len(o.Idle) > 0 {
			generals(lineOf(text, "IDLE"), "IDLE", "he manages income and supply")
		}
		if len(o.Rush) > 0 {
			generals(lineOf(text, "RUSH"), "RUSH", "it plays a Command Card")
		}
		for _, e := range o.Encircle {
			generals(e.Line, "ENCIRCLE", "it plays a Command Card")
		}
		if o.Convert != "" {
			generals(lineOf(text, "CONVERT"), "CONVERT", "he establishes and relocates command posts")
		}
		for _, r := range o.Relocate {
			generals(r.Line, "RELOCATE", "he establishes and relocates command posts")
		}
		if o.Standing != nil {
			generals(lineOf(text, "REACT"), "REACT", "the side's standing orders are his")
		}
	}
	for _, m := range o.Moves {
		commands(m.Line, m.Unit)
		if m.Push && n > 1 {
			generals(m.Line, "PUSH", "it plays a Command Card")
		}
	}
	for _, e := range o.Engagements {
		for _, u := range e.Units {
			commands(e.Line, u)
		}
		if e.Mission != nil {
			commands(e.Line, e.Mission.FO)
			for _, g := range e.Mission.Guns {
				commands(e.Line, g)
			}
		}
		if n > 1 {
			for _, c := range []struct {
				word string
				on   bool
			}{{"SUSPEND", e.Suspend != nil}, {"WITHDRAW", e.Withdraw != nil}, {"CEASEFIRE", e.CeaseFire != nil}, {"SURRENDER", e.Surrender != nil}, {"INSPIRE", e.Inspire}} {
				if c.on {
					generals(e.Line, c.word, "it plays a Command Card, which the General issues to his Commanders")
				}
			}
		}
	}
	for _, d := range o.Deploys {
		commands(d.Line, d.Unit)
	}
	return c.Problems
}

// lineOf is the number of the first line of text that begins with word.
func lineOf(text, word string) int {
	for i, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.EqualFold(f[0], word) {
			return i + 1
		}
	}
	return 0
}

// Merge implements engine.Seated: the General's side-wide orders, every
// seat's moves, engagements (one a hex, whoever wrote it) and deployments,
// and the assignments, the General's last so that his stand. Orders that
// clash (a unit in two engagements) are refused by the rules' check.
func (p *Position) Merge(side string, seats map[string]engine.Orders) (engine.Orders, error) {
	side = strings.ToUpper(side)
	m := p.st.Default(side)
	assigns, err := engine.MergeSeats(family, seats, func(chief bool, so rules.Orders) {
		if chief {
			m.Buys, m.Builds, m.Idle, m.Rush = so.Buys, so.Builds, so.Idle, so.Rush
			m.Encircle, m.Convert, m.Relocate, m.Standing = so.Encircle, so.Convert, so.Relocate, so.Standing
		}
		m.Moves = append(m.Moves, so.Moves...)
		m.Deploys = append(m.Deploys, so.Deploys...)
		for _, e := range so.Engagements {
			m.Engagements = joinEngagement(m.Engagements, e)
		}
	})
	if err != nil {
		return nil, err
	}
	if err := engine.MergeBroken(p.st.Validate(m)); err != nil {
		return nil, err
	}
	return &Orders{Orders: m, Assign: assigns}, nil
}

// joinEngagement adds an engagement to a side's, joined with the one
// already on its hex: its units fight together (§IV.2), the conditions of
// the first seat that set them holding.
func joinEngagement(all []rules.Engagement, e rules.Engagement) []rules.Engagement {
	i := slices.IndexFunc(all, func(x rules.Engagement) bool { return x.Hex == e.Hex })
	if i < 0 {
		e.Units = slices.Clone(e.Units)
		return append(all, e)
	}
	j := &all[i]
	j.Units = append(slices.Clone(j.Units), e.Units...)
	j.HE = append(slices.Clone(j.HE), e.HE...)
	j.Smoke = append(slices.Clone(j.Smoke), e.Smoke...)
	if len(e.Targets) > 0 {
		targets, lines := map[string]string{}, map[string]int{}
		for k, v := range j.Targets {
			targets[k], lines[k] = v, j.TargetLines[k]
		}
		for k, v := range e.Targets {
			targets[k], lines[k] = v, e.TargetLines[k]
		}
		j.Targets, j.TargetLines = targets, lines
	}
	j.Mission = cmp.Or(j.Mission, e.Mission)
	j.Suspend = cmp.Or(j.Suspend, e.Suspend)
	j.Withdraw = cmp.Or(j.Withdraw, e.Withdraw)
	j.CeaseFire = cmp.Or(j.CeaseFire, e.CeaseFire)
	j.Surrender = cmp.Or(j.Surrender, e.Surrender)
	j.Inspire = j.Inspire || e.Inspire
	j.Exit = cmp.Or(j.Exit, e.Exit)
	return all
}

// stored is a position as Marshal writes it: the rules' state with the
// sides' teams beside it (none in a game of one player a side).
type stored struct {
	*rules.State
	Teams map[string]*engine.Team `json:"teams,omitempty"`
}

// afterTurn is the teams after a turn: the active side's assignments done,
// what is carried with its carrier.
func (p *Position) afterTurn(active string, o engine.Orders, next *rules.State) map[string]*engine.Team {
	teams := engine.AfterPlay(p.teams, map[string]engine.Orders{active: o}, func(side, u string) bool { return next.Unit(side, u) != nil })
	carried(next, teams)
	return teams
}

// seatShare is the part of a side's orders a seat gives: the moves,
// engagements and deployments of the units it commands, and for the
// General the side-wide orders; a Commander plays no Command Card.
func seatShare(team *engine.Team, seat string, o rules.Orders) rules.Orders {
	if team == nil {
		return o
	}
	side, n := engine.SplitSeat(seat)
	mine := func(u string) bool { return team.Commands(side, seat, u) }
	share := rules.Orders{Side: o.Side}
	if n == 1 {
		share = o
		share.Moves, share.Engagements, share.Deploys = nil, nil, nil
	}
	for _, m := range o.Moves {
		if mine(m.Unit) {
			m.Push = m.Push && n == 1
			share.Moves = append(share.Moves, m)
		}
	}
	for _, e := range o.Engagements {
		if !slices.ContainsFunc(e.Units, func(u string) bool { return !mine(u) }) && (e.Mission == nil || mine(e.Mission.FO)) {
			if n > 1 {
				e.Suspend, e.Withdraw, e.CeaseFire, e.Surrender, e.Inspire = nil, nil, nil, nil, false
			}
			share.Engagements = append(share.Engagements, e)
		}
	}
	for _, d := range o.Deploys {
		if mine(d.Unit) {
			share.Deploys = append(share.Deploys, d)
		}
	}
	return share
}
