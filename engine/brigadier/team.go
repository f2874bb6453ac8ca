package brigadier

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
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

// maxSeats: a battalion's commander and its companies' (the bundled
// scenarios' battalions have at most four companies).
const maxSeats = 5

// MaxSeats implements engine.Seated.
func (p *Position) MaxSeats() int { return maxSeats }

// seatName is seat n's name for people.
func seatName(n int) string {
	if n <= 1 {
		return "Senior commander"
	}
	return "Command " + strconv.Itoa(n-1)
}

// Seats implements engine.Seated.
func (p *Position) Seats(side string) []engine.Seat {
	var units []string
	for _, pl := range p.st.Active(side) {
		units = append(units, pl.Name)
	}
	return p.teams[side].List(side, seatName(1), units)
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
	teams, err := engine.NewTeams(seats, maxSeats, deal, func(side, name string) bool { return p.st.Platoon(side, name) != nil }, seatName)
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

// seniorWords are the senior commander's orders.
var seniorWords = map[string]string{"INITIATIVE": "INITIATIVE", "PURSUE": "PURSUE", "BUGOUT-DEFAULT": "BUGOUT-DEFAULT",
	"CALL": "CALL", "CANCEL": "CANCEL", "AIR": "AIR"}

// SeatForm implements engine.Seated: the side's form with the seat's
// platoons only, and for a command without the senior commander's lines.
func (p *Position) SeatForm(seat, game string) string {
	side, n := engine.SplitSeat(seat)
	form := ordertext.Form(p.sys.rs, p.st, side, game)
	team := p.teams[side]
	if team == nil {
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
			keep[i] = team.Commands(side, seat, f[0])
			if !keep[i] && i > 0 && strings.HasPrefix(strings.TrimSpace(lines[i-1]), "# ") && strings.Contains(lines[i-1], "Count") {
				keep[i-1] = false // the platoon's description
			}
		case seniorWords[strings.ToUpper(f[0])] != "":
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
			b.WriteString(strings.Replace(line, "SIDE "+side, "SIDE "+side+engine.SeatHeader(seat), 1) + "\n")
			p.writeSeats(&b, side, seat)
			continue
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// writeSeats writes the seats and what this one orders, as comments.
func (p *Position) writeSeats(b *strings.Builder, side, seat string) {
	engine.WriteSeats(b, p.Seats(side), seat)
	if seat == side {
		b.WriteString("# You are the senior commander: INITIATIVE, PURSUE, BUGOUT-DEFAULT, CALL, CANCEL, AIR and the\n" +
			"# platoons you keep. ASSIGN platoon|company... TO seat gives them to a seat from the next turn.\n")
		return
	}
	b.WriteString("# You direct your command: your platoons' lines (raised BY any commander of the side).\n" +
		"# ASSIGN platoon|company... TO seat passes yours to another seat from the next turn.\n")
}

// SeatRead implements engine.Seated.
func (p *Position) SeatRead(seat, text string, maxErrors int) engine.Reading {
	side, n := engine.SplitSeat(seat)
	team := p.teams[side]
	if p.st.Side(side) == nil || n != 1 && !team.Has(seat) {
		why := []engine.Problem{{Text: fmt.Sprintf("there is no seat %s in this game", seat)}}
		return engine.Reading{Errors: 1, Problems: why, Answer: engine.Refusal(text, why, maxErrors)}
	}
	mail := text
	text, said := engine.CutSeat(text)
	text, assigns, probs := engine.CutAssign(text, side)
	probs = append(probs, engine.SeatMismatch(said, n, seat)...)
	known := func(name string) bool { return p.st.Platoon(side, name) != nil }
	for i, a := range assigns {
		assigns[i].Units = p.platoonsOf(side, a.Units)
		probs = append(probs, team.CheckAssign(side, seat, assigns[i], known)...)
	}
	sub, parsed := ordertext.Parse(p.sys.rs, p.st, side, text)
	probs = append(probs, ordertext.Problems(parsed)...)
	probs = append(probs, p.seatProblems(seat, sub.Orders, text)...)
	slices.SortStableFunc(probs, func(a, b engine.Problem) int { return a.Line - b.Line })
	r := engine.Reading{Found: sub.Lines > 0 || len(assigns) > 0, Errors: len(probs)}
	switch {
	case len(probs) > 0:
		r.Problems = probs
		r.Answer = engine.Refusal(mail, probs, maxErrors)
	case r.Found:
		r.Orders = &Orders{Orders: sub.Orders, Assign: assigns}
		r.Answer = ordertext.Echo(p.sys.rs, p.st, sub.Orders)
		for _, a := range assigns {
			r.Answer += fmt.Sprintf("  %s pass to seat %s from the next turn\n", strings.Join(a.Units, " "), a.Seat)
		}
	}
	return r
}

// seatProblems are the orders a seat gives that are not its own.
func (p *Position) seatProblems(seat string, o *rules.Orders, text string) []engine.Problem {
	side, n := engine.SplitSeat(seat)
	team := p.teams[side]
	var errs []engine.Problem
	if n > 1 {
		for i, line := range strings.Split(text, "\n") {
			if f := strings.Fields(line); len(f) > 0 && seniorWords[strings.ToUpper(f[0])] != "" {
				errs = append(errs, engine.Problem{Line: i + 1, Text: fmt.Sprintf("%s is the senior commander's (%s) to order, not a command's", strings.ToUpper(f[0]), side)})
			}
		}
	}
	for _, po := range o.Platoons {
		if !team.Commands(side, seat, po.Platoon) {
			errs = append(errs, engine.Problem{Line: po.Line, Text: fmt.Sprintf("%s is commanded by seat %s, not by you (%s): each seat orders only its own platoons",
				po.Platoon, team.OwnerOf(side, po.Platoon), seat)})
		}
	}
	return errs
}

// Merge implements engine.Seated: the senior commander's side-wide orders
// and every seat's platoons; the platoons of a seat that sent nothing keep
// their orders.
func (p *Position) Merge(side string, seats map[string]engine.Orders) (engine.Orders, error) {
	merged := &Orders{Orders: &rules.Orders{Side: side}}
	var chiefAssign []engine.Assignment
	ids := make([]string, 0, len(seats))
	for id := range seats {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		_, x := engine.SplitSeat(a)
		_, y := engine.SplitSeat(b)
		return x - y
	})
	for _, id := range ids {
		o, ok := seats[id].(*Orders)
		if !ok {
			return nil, fmt.Errorf("orders of %s are not Brigadier General Commands orders: %T", id, seats[id])
		}
		m, so := merged.Orders, o.Orders
		if _, n := engine.SplitSeat(id); n == 1 {
			m.Initiative, m.Pursue, m.BugoutDefault = so.Initiative, so.Pursue, so.BugoutDefault
			m.Calls, m.Strikes, m.Cancels = so.Calls, so.Strikes, so.Cancels
			chiefAssign = o.Assign
		} else {
			merged.Assign = append(merged.Assign, o.Assign...)
		}
		m.Platoons = append(m.Platoons, so.Platoons...)
	}
	merged.Assign = append(merged.Assign, chiefAssign...)
	if errs := rules.Validate(p.sys.rs, p.st, merged.Orders); len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		return nil, fmt.Errorf("the seats' orders together break the rules: %s (line numbers are of each seat's mail)", strings.Join(msgs, "; "))
	}
	return merged, nil
}

// stored is a position as Marshal writes it: the rules' state with the
// sides' teams beside it (none in a game of one player a side).
type stored struct {
	*rules.State
	Teams map[string]*engine.Team `json:"teams,omitempty"`
}

// loadTeams reads the teams stored beside a state.
func loadTeams(raw []byte) (map[string]*engine.Team, error) {
	var s struct {
		Teams map[string]*engine.Team `json:"teams"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("brigadier position's teams: %w", err)
	}
	return s.Teams, nil
}

// afterTurn is the teams after a turn: every side's assignments done.
func (p *Position) afterTurn(list []*Orders, next *rules.State) map[string]*engine.Team {
	if p.teams == nil {
		return nil
	}
	teams := map[string]*engine.Team{}
	for side, t := range p.teams {
		teams[side] = t.Clone()
	}
	for _, o := range list {
		side := o.Orders.Side
		if t := teams[side]; t != nil {
			t.Apply(side, o.Assign, func(name string) bool { return next.Platoon(side, name) != nil })
		}
	}
	return teams
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

// commandText is orders written for a side without the senior
// commander's lines, as a command sends them.
func commandText(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if f := strings.Fields(line); len(f) > 0 && seniorWords[strings.ToUpper(f[0])] != "" {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}
