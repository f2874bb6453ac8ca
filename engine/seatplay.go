package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// What every family's team play does alike, written once: each family says
// in a TeamRules what its book says of its teams, and keeps only which
// orders a seat may give and how it names units.

// TeamRules is what a family's rules say of its teams.
type TeamRules struct {
	// MaxSeats is the most seats a side, the commander-in-chief's included.
	MaxSeats int
	// Chief names seat 1 for people ("Commander"); Subordinate, with a
	// number, the others ("Subordinate" 1 is seat 2).
	Chief, Subordinate string
	// ChiefRole and SubordinateRole are the comment lines of a seat's form
	// that say what the seat orders, each ending in a newline.
	ChiefRole, SubordinateRole string
	// ChiefWords are the orders only the commander-in-chief gives, each
	// spelling (upper case) to the order it spells: a subordinate's line
	// that opens with one is refused. Nil where the family checks its
	// orders by their kind.
	ChiefWords map[string]string
	// ChiefTitle and SubordinateTitle name the two in ChiefWords' refusal:
	// "PRIORITY is the side's commander's to order (us), not a subordinate's".
	ChiefTitle, SubordinateTitle string
	// Units is what the family calls the units a seat commands: "units",
	// "platoons".
	Units string
	// Rule is the book's rule of team play, cited by refusals; "" for none.
	Rule string
	// Effect says when ASSIGN takes effect: "the next round".
	Effect string
}

// SeatName is seat n's name for people.
func (r *TeamRules) SeatName(n int) string {
	if n <= 1 {
		return r.Chief
	}
	return r.Subordinate + " " + strconv.Itoa(n-1)
}

// WriteSeats writes a side's seats as comment lines of a seat's order
// form, the seat's own marked ("# -> us.2 Commander 1: A B C"), then what
// the seat orders.
func (r *TeamRules) WriteSeats(b *strings.Builder, seats []Seat, seat string) {
	writeSeatList(b, seats, seat)
	if _, n := SplitSeat(seat); n == 1 {
		b.WriteString(r.ChiefRole)
		return
	}
	b.WriteString(r.SubordinateRole)
}

// WithoutChiefLines is orders written for a side without the lines
// ChiefWords open, as a subordinate sends them.
func (r *TeamRules) WithoutChiefLines(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if f := strings.Fields(line); len(f) > 0 && r.ChiefWords[strings.ToUpper(f[0])] != "" {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// SeatCheck collects what a seat orders that is not its to order.
type SeatCheck struct {
	rules      *TeamRules
	team       *Team
	side, seat string
	// Chief reports whether the seat is the commander-in-chief's.
	Chief    bool
	Problems []Problem
}

// Check starts the check of a seat's orders in a side's team.
func (r *TeamRules) Check(team *Team, seat string) *SeatCheck {
	side, n := SplitSeat(seat)
	return &SeatCheck{rules: r, team: team, side: side, seat: seat, Chief: n == 1}
}

// Unit refuses the order on line for a unit the seat does not command.
func (c *SeatCheck) Unit(line int, unit string) {
	if c.team.Commands(c.side, c.seat, unit) {
		return
	}
	c.Problems = append(c.Problems, Problem{Line: line, Rule: c.rules.Rule,
		Text: fmt.Sprintf("%s is commanded by seat %s, not by you (%s): each seat orders only its own %s", unit, c.team.OwnerOf(c.side, unit), c.seat, c.rules.Units)})
}

// ChiefLines refuses, for a subordinate, every line of text that opens
// with one of ChiefWords.
func (c *SeatCheck) ChiefLines(text string) {
	if c.Chief {
		return
	}
	for i, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) > 0 && c.rules.ChiefWords[strings.ToUpper(f[0])] != "" {
			c.Problems = append(c.Problems, Problem{Line: i + 1, Rule: c.rules.Rule,
				Text: fmt.Sprintf("%s is the %s's to order (%s), not a %s's", c.rules.ChiefWords[strings.ToUpper(f[0])], c.rules.ChiefTitle, c.side, c.rules.SubordinateTitle)})
		}
	}
}

// SeatReader is what a family gives ReadSeat.
type SeatReader[O any] struct {
	Rules *TeamRules
	Team  *Team // the side's
	// Known reports whether a unit is the side's.
	Known func(unit string) bool
	// Names reads the units an ASSIGN line names as the family names them
	// (a company for its platoons); nil for as written.
	Names func(units []string) []string
	// Goes is the unit that goes where an assigned unit goes (a crew goes
	// with its gun: the gun); nil for the unit itself.
	Goes func(unit string) string
	// Read reads the seat's order text, its SEAT and ASSIGN lines taken
	// out: its problems include the orders that are not the seat's to
	// give, and it is Found where a form sent back with no order in it
	// counts as orders.
	Read func(text string) Parsed[O]
	// Echo says accepted orders back.
	Echo func(o O) string
}

// ReadSeat reads a seat's mail as Seated.SeatRead does: the seat in play,
// its SEAT line its own, its ASSIGN lines its to give, then the family's
// reading of the rest; every problem at once, by line.
func ReadSeat[O any](seat, text string, maxErrors int, sr SeatReader[O]) Reading {
	side, n := SplitSeat(seat)
	if n != 1 && !sr.Team.Has(seat) {
		why := []Problem{{Text: fmt.Sprintf("there is no seat %s in this game", seat)}}
		return Reading{Errors: 1, Problems: why, Answer: Refusal(text, why, maxErrors)}
	}
	mail := text
	text, said := CutSeat(text)
	text, assigns, probs := CutAssign(text, side)
	probs = append(probs, SeatMismatch(said, n, seat)...)
	for i := range assigns {
		a := &assigns[i]
		if sr.Names != nil {
			a.Units = sr.Names(a.Units)
		}
		probs = append(probs, sr.Team.CheckAssign(side, seat, *a, sr.Known)...)
		if sr.Goes != nil {
			for k, u := range a.Units {
				a.Units[k] = sr.Goes(u)
			}
		}
	}
	read := sr.Read(text)
	read.Problems = append(probs, read.Problems...)
	slices.SortStableFunc(read.Problems, func(a, b Problem) int { return a.Line - b.Line })
	read.Found = read.Found || len(assigns) > 0
	r := read.Reading(mail, maxErrors, sr.Echo)
	if o, ok := r.Orders.(*JSONOrders[O]); ok {
		o.Assign = assigns
		for _, a := range assigns {
			r.Answer += fmt.Sprintf("  %s pass to seat %s from %s\n", strings.Join(a.Units, " "), a.Seat, sr.Rules.Effect)
		}
	}
	return r
}

// MergeSeats hands add each seat's orders of a side, in seat order (the
// commander-in-chief's first), and returns their assignments, the
// commander-in-chief's last so that his stand. Orders of another game
// (not of type O) are an error naming family.
func MergeSeats[O any](family string, seats map[string]Orders, add func(chief bool, o O)) ([]Assignment, error) {
	ids := make([]string, 0, len(seats))
	for id := range seats {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		_, x := SplitSeat(a)
		_, y := SplitSeat(b)
		return x - y
	})
	var assigns, chiefs []Assignment
	for _, id := range ids {
		o, ok := seats[id].(*JSONOrders[O])
		if !ok {
			return nil, fmt.Errorf("orders of %s are not %s orders: %T", id, family, seats[id])
		}
		_, n := SplitSeat(id)
		if n == 1 {
			chiefs = o.Assign
		} else {
			assigns = append(assigns, o.Assign...)
		}
		add(n == 1, o.Orders)
	}
	return append(assigns, chiefs...), nil
}

// MergeBroken is the error of seats' orders that are valid each alone and
// break the rules together (probs, from the rules' check of the merged
// orders); nil when there are none.
func MergeBroken(probs []Problem) error {
	if len(probs) == 0 {
		return nil
	}
	msgs := make([]string, len(probs))
	for i, p := range probs {
		msgs[i] = p.String()
	}
	return fmt.Errorf("the seats' orders together break the rules: %s (line numbers are of each seat's mail)", strings.Join(msgs, "; "))
}

// AfterPlay is the teams after a play with orders (by side): copies, with
// each side's ASSIGN lines carried out, units known no more passed over;
// nil for a game of one player a side.
func AfterPlay(teams map[string]*Team, orders map[string]Orders, known func(side, unit string) bool) map[string]*Team {
	if teams == nil {
		return nil
	}
	after := map[string]*Team{}
	for side, t := range teams {
		after[side] = t.Clone()
	}
	for side, o := range orders {
		if t, ok := o.(interface{ assignments() []Assignment }); ok && after[side] != nil {
			after[side].Apply(side, t.assignments(), func(u string) bool { return known(side, u) })
		}
	}
	return after
}

// LoadTeams reads the teams a family's position stores beside its rules'
// state, under "teams" (none in a game of one player a side).
func LoadTeams(family string, stored []byte) (map[string]*Team, error) {
	var s struct {
		Teams map[string]*Team `json:"teams"`
	}
	if err := json.Unmarshal(stored, &s); err != nil {
		return nil, fmt.Errorf("%s position's teams: %w", family, err)
	}
	return s.Teams, nil
}

// WriteAssigns writes a side's ASSIGN lines into its orders written as
// text, before their END line.
func WriteAssigns(text string, assigns []Assignment) string {
	if len(assigns) == 0 {
		return text
	}
	var b strings.Builder
	for _, a := range assigns {
		fmt.Fprintf(&b, "ASSIGN %s TO %s\n", strings.Join(a.Units, " "), a.Seat)
	}
	return strings.Replace(text, "\nEND\n", "\n"+b.String()+"END\n", 1)
}
