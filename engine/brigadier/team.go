package brigadier

import (
	"fmt"
	"slices"
	"strings"

	"fieldpost/engine"
	"fieldpost/engine/brigadier/ordertext"
	"fieldpost/engine/brigadier/rules"
)

// Team play in Brigadier General Commands ("a number of commands on each
// side, each directed by a different player", introduction): the senior
// commander (seat 1) keeps the battalion's own platoons and gives the
// side's INITIATIVE, PURSUE and BUGOUT-DEFAULT, the artillery CALLs and
// CANCELs and the AIR strikes; each other seat commands companies, giving
// its platoons' lines (a raise BY any commander of the side, as the order
// ladder runs down the chain). Every seat of a side sees the side's view.
// ASSIGN passes platoons, or whole companies by name, between seats from
// the next turn.

var _ engine.Seated = (*Position)(nil)

// team is what Brigadier's rules say of its teams: a battalion's commander
// and its companies' (the bundled scenarios' battalions have at most four
// companies).
var team = &engine.TeamRules{
	MaxSeats: 5, Chief: "Senior commander", Subordinate: "Command",
	ChiefRole: "# You are the senior commander: INITIATIVE, PURSUE, BUGOUT-DEFAULT, CALL, CANCEL, AIR and the\n" +
		"# platoons you keep. ASSIGN platoon|company... TO seat gives them to a seat from the next turn.\n",
	SubordinateRole: "# You direct your command: your platoons' lines (raised BY any commander of the side).\n" +
		"# ASSIGN platoon|company... TO seat passes yours to another seat from the next turn.\n",
	ChiefWords: map[string]string{"INITIATIVE": "INITIATIVE", "PURSUE": "PURSUE", "BUGOUT-DEFAULT": "BUGOUT-DEFAULT",
		"CALL": "CALL", "CANCEL": "CANCEL", "AIR": "AIR"},
	ChiefTitle: "senior commander", SubordinateTitle: "command",
	Units: "platoons", Effect: "the next turn",
}

// MaxSeats implements engine.Seated.
func (p *Position) MaxSeats() int { return team.MaxSeats }

// Seats implements engine.Seated.
func (p *Position) Seats(side string) []engine.Seat {
	var units []string
	for _, pl := range p.st.Active(side) {
		units = append(units, pl.Name)
	}
	return p.teams[side].List(side, team.SeatName(1), units)
}

// WithSeats implements engine.Seated: a seat given a company by name gets
// its platoons; seats given nothing get the companies in the scenario's
// order, one after another; the battalion's own platoons (headquarters,
// support) stay with the senior commander.
func (p *Position) WithSeats(seats []engine.SeatSetup) (engine.Position, error) {
	deal := map[string][]string{}
	companies := map[string][]string{} // side -> company names in order
	for _, sd := range p.st.Sides {
		deal[sd.Name] = nil
		for _, pl := range p.st.Active(sd.Name) {
			deal[sd.Name] = append(deal[sd.Name], pl.Name)
			if pl.Company != "" && !slices.Contains(companies[sd.Name], pl.Company) {
				companies[sd.Name] = append(companies[sd.Name], pl.Company)
			}
		}
	}
	next := map[string]int{} // side -> next company to deal
	for i := range seats {
		side, _ := engine.SplitSeat(seats[i].ID)
		if seats[i].Units == nil {
			if k := next[side]; k < len(companies[side]) {
				seats[i].Units = []string{companies[side][k]}
				next[side]++
			} else {
				seats[i].Units = []string{}
			}
		}
		seats[i].Units = p.platoonsOf(side, seats[i].Units)
	}
	teams, err := engine.NewTeams(seats, team.MaxSeats, deal, func(side, name string) bool { return p.st.Platoon(side, name) != nil }, team.SeatName)
	if err != nil {
		return nil, err
	}
	return &Position{sys: p.sys, st: p.st, teams: teams}, nil
}

// platoonsOf reads names of platoons or companies as platoons.
func (p *Position) platoonsOf(side string, names []string) []string {
	var out []string
	for _, name := range names {
		found := false
		for _, pl := range p.st.Active(side) {
			if pl.Company == name {
				out, found = append(out, pl.Name), true
			}
		}
		if !found {
			out = append(out, name)
		}
	}
	return out
}

// SeatForm implements engine.Seated: the side's form with the seat's
// platoons only, and for a command without the senior commander's lines.
func (p *Position) SeatForm(seat, game string) string {
	side, n := engine.SplitSeat(seat)
	form := ordertext.Form(p.sys.rs, p.st, side, game)
	t := p.teams[side]
	if t == nil {
		return form
	}
	lines := strings.Split(strings.TrimSuffix(form, "\n"), "\n")
	keep := make([]bool, len(lines))
	for i, line := range lines {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
			keep[i] = true
		case strings.HasPrefix(f[0], "#"):
			// The artillery's comments are the senior commander's.
			keep[i] = n == 1 || !strings.Contains(line, "CALL ") && !strings.Contains(line, "CANCEL ") && !strings.Contains(line, "(11.4.1)")
		case p.st.Platoon(side, f[0]) != nil:
			keep[i] = t.Commands(side, seat, f[0])
			if !keep[i] && i > 0 && strings.HasPrefix(strings.TrimSpace(lines[i-1]), "# ") && strings.Contains(lines[i-1], "Count") {
				keep[i-1] = false // the platoon's description
			}
		case team.ChiefWords[strings.ToUpper(f[0])] != "":
			keep[i] = n == 1
		default:
			keep[i] = true
		}
	}
	// A heading (BATTALION, COMPANY) whose platoons are all another seat's
	// goes too.
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) != 2 || (f[0] != "BATTALION" && f[0] != "COMPANY") {
			continue
		}
		any := false
		for j := i + 1; j < len(lines); j++ {
			g := strings.Fields(lines[j])
			if len(g) > 0 && (g[0] == "BATTALION" || g[0] == "COMPANY" || g[0] == "END") {
				break
			}
			if len(g) > 0 && p.st.Platoon(side, g[0]) != nil && keep[j] {
				any = true
			}
		}
		keep[i] = any
	}
	var b strings.Builder
	for i, line := range lines {
		if !keep[i] {
			continue
		}
		if i == 0 {
			b.WriteString(engine.AddSeat(line, seat) + "\n")
			team.WriteSeats(&b, p.Seats(side), seat)
			continue
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// SeatRead implements engine.Seated.
func (p *Position) SeatRead(seat, text string, maxErrors int) engine.Reading {
	side, _ := engine.SplitSeat(seat)
	if p.st.Side(side) == nil {
		why := []engine.Problem{{Text: fmt.Sprintf("there is no seat %s in this game", seat)}}
		return engine.Reading{Errors: 1, Problems: why, Answer: engine.Refusal(text, why, maxErrors)}
	}
	return engine.ReadSeat(seat, text, maxErrors, engine.SeatReader[*rules.Orders]{
		Rules: team, Team: p.teams[side],
		Known: func(name string) bool { return p.st.Platoon(side, name) != nil },
		Names: func(names []string) []string { return p.platoonsOf(side, names) },
		Read: func(text string) engine.Parsed[*rules.Orders] {
			read := p.parse(side, text)
			read.Problems = append(read.Problems, p.seatProblems(seat, read.Orders, text)...)
			return read
		},
		Echo: p.echo,
	})
}

// seatProblems are the orders a seat gives that are not its own.
func (p *Position) seatProblems(seat string, o *rules.Orders, text string) []engine.Problem {
	side, _ := engine.SplitSeat(seat)
	c := team.Check(p.teams[side], seat)
	c.ChiefLines(text)
	for _, po := range o.Platoons {
		c.Unit(po.Line, po.Platoon)
	}
	return c.Problems
}

// Merge implements engine.Seated: the senior commander's side-wide orders
// and every seat's platoons; the platoons of a seat that sent nothing keep
// their orders.
func (p *Position) Merge(side string, seats map[string]engine.Orders) (engine.Orders, error) {
	m := &rules.Orders{Side: side}
	assigns, err := engine.MergeSeats(family, seats, func(chief bool, so *rules.Orders) {
		if chief {
			m.Initiative, m.Pursue, m.BugoutDefault = so.Initiative, so.Pursue, so.BugoutDefault
			m.Calls, m.Strikes, m.Cancels = so.Calls, so.Strikes, so.Cancels
		}
		m.Platoons = append(m.Platoons, so.Platoons...)
	})
	if err != nil {
		return nil, err
	}
	if err := engine.MergeBroken(rules.Validate(p.sys.rs, p.st, m)); err != nil {
		return nil, err
	}
	return &Orders{Orders: m, Assign: assigns}, nil
}

// stored is a position as Marshal writes it: the rules' state with the
// sides' teams beside it (none in a game of one player a side).
type stored struct {
	*rules.State
	Teams map[string]*engine.Team `json:"teams,omitempty"`
}

// seatShare is the part of a side's orders a seat gives.
func seatShare(team *engine.Team, seat string, o *rules.Orders) *rules.Orders {
	if team == nil {
		return o
	}
	side, n := engine.SplitSeat(seat)
	share := &rules.Orders{Side: o.Side}
	if n == 1 {
		c := *o
		share = &c
		share.Platoons = nil
	}
	for _, po := range o.Platoons {
		if team.Commands(side, seat, po.Platoon) {
			share.Platoons = append(share.Platoons, po)
		}
	}
	return share
}
