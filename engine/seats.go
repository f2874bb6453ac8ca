package engine

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Team play: a side may be played by several players, each at a seat of
// its own. Seat 1 is the side's commander-in-chief, whose seat id is the
// side's name ("us"); subordinate seats are SIDE.n ("us.2"). The judge
// handles seat ids as names; which units a seat commands and which orders
// it may give is the family's, behind Seated.

// Seated is a position whose sides may be played by a team: a
// commander-in-chief and subordinates, each ordering its own units. A
// position without it has one seat a side.
type Seated interface {
	// MaxSeats is the most seats the rules give a side, the
	// commander-in-chief's included.
	MaxSeats() int
	// Seats lists a side's seats, the commander-in-chief's first: one seat
	// (the side's) until WithSeats gives more.
	Seats(side string) []Seat
	// WithSeats returns the position played by these seats (every side's,
	// subordinates only: seat 1 always is): their names, whether a player
	// holds them, and the units the game master gives them (the family
	// deals the rest). The units of an empty seat are its side's
	// commander-in-chief's to order.
	WithSeats(seats []SeatSetup) (Position, error)
	// SeatForm is the seat's order form: the units it commands, and for the
	// commander-in-chief the side-wide orders too.
	SeatForm(seat, game string) string
	// SeatRead reads a seat's mail as Position.Read does a side's, and
	// refuses by line every order for a unit the seat does not command or
	// that only the commander-in-chief gives.
	SeatRead(seat, text string, maxErrors int) Reading
	// Merge joins the latest valid orders of a side's seats (by seat id; a
	// seat that sent none is absent, and its units do what Default says)
	// into the side's orders for Play.
	Merge(side string, seats map[string]Orders) (Orders, error)
}

// Seat is one place at a side's table.
type Seat struct {
	ID    string   // "us" (the commander-in-chief), "us.2"
	Name  string   // for people: "Frontline General", "Commander 2"
	Empty bool     // no player holds it: the commander-in-chief orders its units
	Units []string // the units it owns now
}

// SeatSetup is a subordinate seat as a game sets it up.
type SeatSetup struct {
	ID    string
	Name  string   // "" for the family's name for it
	Empty bool     // no player holds it
	Units []string // given by the game master; nil for the family's deal
}

// SeatID names seat n of a side: the side's own name for seat 1.
func SeatID(side string, n int) string {
	if n <= 1 {
		return side
	}
	return side + "." + strconv.Itoa(n)
}

// SplitSeat is the side and number of a seat id: "us.2" is seat 2 of us,
// "us" seat 1. n is 0 for a malformed number.
func SplitSeat(seat string) (side string, n int) {
	side, num, found := strings.Cut(seat, ".")
	if !found {
		return seat, 1
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 2 {
		return side, 0
	}
	return side, n
}

// Team is a side's seats and which seat owns which unit: the part of a
// position team play adds. Families keep one a side, in the position, so
// that orders reassigning units replay with the game.
type Team struct {
	Seats []TeamSeat `json:"seats"` // the subordinates, in seat order
	// Owner gives each unit that is not the commander-in-chief's its seat.
	Owner map[string]string `json:"owner,omitempty"`
}

// TeamSeat is a subordinate seat of a Team.
type TeamSeat struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Empty bool   `json:"empty,omitempty"`
}

// NewTeams makes each side's Team from a game's seat setups: for every
// seat, units the game master gave it; the rest of a side's units, as
// deal lists them by side (each side's units in the order the family deals
// them, such as west to east along the front), shared out in runs among
// the seats of the side given none, the commander-in-chief included. name
// names seat n where the setup names none. A unit given to a seat that is
// not known (the side's) is an error.
func NewTeams(setups []SeatSetup, maxSeats int, deal map[string][]string, known func(side, unit string) bool, name func(n int) string) (map[string]*Team, error) {
	teams := map[string]*Team{}
	given := map[string]string{}
	for _, s := range setups {
		side, n := SplitSeat(s.ID)
		_, isSide := deal[side]
		switch {
		case !isSide:
			return nil, fmt.Errorf("seat %s: there is no side %q", s.ID, side)
		case n < 2:
			return nil, fmt.Errorf("seat %s: subordinate seats are SIDE.2 to SIDE.%d", s.ID, maxSeats)
		case n > maxSeats:
			return nil, fmt.Errorf("seat %s: the rules allow at most %d seats a side", s.ID, maxSeats)
		}
		t := teams[side]
		if t == nil {
			t = &Team{Owner: map[string]string{}}
			teams[side] = t
		}
		if t.Has(s.ID) {
			return nil, fmt.Errorf("seat %s is set up twice", s.ID)
		}
		t.Seats = append(t.Seats, TeamSeat{ID: s.ID, Name: cmp.Or(s.Name, name(n)), Empty: s.Empty})
		for _, u := range s.Units {
			if !known(side, u) {
				return nil, fmt.Errorf("seat %s: %s is no unit of %s", s.ID, u, side)
			}
			if other, dup := given[u]; dup {
				return nil, fmt.Errorf("seat %s: %s is given to %s already", s.ID, u, other)
			}
			given[u] = s.ID
			t.Owner[u] = s.ID
		}
	}
	for side, t := range teams {
		slices.SortFunc(t.Seats, func(a, b TeamSeat) int {
			_, x := SplitSeat(a.ID)
			_, y := SplitSeat(b.ID)
			return x - y
		})
		dealt := []string{side} // the commander-in-chief shares the deal
		for _, s := range t.Seats {
			if !slices.ContainsFunc(setups, func(su SeatSetup) bool { return su.ID == s.ID && su.Units != nil }) {
				dealt = append(dealt, s.ID)
			}
		}
		var rest []string
		for _, u := range deal[side] {
			if _, ok := given[u]; !ok {
				rest = append(rest, u)
			}
		}
		for i, u := range rest {
			if seat := dealt[i*len(dealt)/len(rest)]; seat != side {
				t.Owner[u] = seat
			}
		}
	}
	return teams, nil
}

// Clone is a copy to change.
func (t *Team) Clone() *Team {
	if t == nil {
		return nil
	}
	return &Team{Seats: slices.Clone(t.Seats), Owner: maps.Clone(t.Owner)}
}

// Has reports whether seat is a subordinate seat of the team.
func (t *Team) Has(seat string) bool {
	return t != nil && slices.ContainsFunc(t.Seats, func(s TeamSeat) bool { return s.ID == seat })
}

// OwnerOf is the seat that owns a unit: the commander-in-chief's (side)
// unless a subordinate's.
func (t *Team) OwnerOf(side, unit string) string {
	if t != nil {
		if s, ok := t.Owner[unit]; ok {
			return s
		}
	}
	return side
}

// Commands reports whether seat orders unit now: its owner does, or the
// commander-in-chief for an empty seat's unit.
func (t *Team) Commands(side, seat, unit string) bool {
	owner := t.OwnerOf(side, unit)
	if owner == seat {
		return true
	}
	if seat != side || t == nil {
		return false
	}
	i := slices.IndexFunc(t.Seats, func(s TeamSeat) bool { return s.ID == owner })
	return i >= 0 && t.Seats[i].Empty
}

// Assign gives a unit to a seat (side for the commander-in-chief).
func (t *Team) Assign(side, unit, seat string) error {
	if seat == side {
		delete(t.Owner, unit)
		return nil
	}
	if !t.Has(seat) {
		return fmt.Errorf("no seat %s", seat)
	}
	t.Owner[unit] = seat
	return nil
}

// List is the side's seats with their units, of units (every unit of the
// side, in the order to show them), the commander-in-chief's first named
// chief.
func (t *Team) List(side, chief string, units []string) []Seat {
	seats := []Seat{{ID: side, Name: chief}}
	if t != nil {
		for _, s := range t.Seats {
			seats = append(seats, Seat{ID: s.ID, Name: s.Name, Empty: s.Empty})
		}
	}
	for _, u := range units {
		owner := t.OwnerOf(side, u)
		for i := range seats {
			if seats[i].ID == owner {
				seats[i].Units = append(seats[i].Units, u)
			}
		}
	}
	return seats
}

// SeatHeader is the line that opens a seat's order form after GAME and
// SIDE: " SEAT n" for a subordinate, "" for the commander-in-chief.
func SeatHeader(seat string) string {
	if _, n := SplitSeat(seat); n > 1 {
		return " SEAT " + strconv.Itoa(n)
	}
	return ""
}

// AddSeat is orders or a form written for a side with the seat's SEAT n
// after the header's SIDE: the seat's own ("" for the commander-in-chief).
func AddSeat(text, seat string) string {
	side, _ := SplitSeat(seat)
	return strings.Replace(text, "SIDE "+side, "SIDE "+side+SeatHeader(seat), 1)
}

// CutSeat takes the SEAT n words out of a mail's header lines (those that
// begin with GAME or SIDE), for a family's reader that knows no SEAT, and
// says which seat number they named (0: none).
func CutSeat(text string) (string, int) {
	lines := strings.Split(text, "\n")
	seat := 0
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) == 0 || !slices.ContainsFunc([]string{"GAME", "SIDE"}, func(k string) bool { return strings.EqualFold(f[0], k) }) {
			continue
		}
		for j := 0; j+1 < len(f); j++ {
			if strings.EqualFold(f[j], "SEAT") {
				if n, err := strconv.Atoi(f[j+1]); err == nil {
					seat = n
					f = slices.Delete(f, j, j+2)
					lines[i] = strings.Join(f, " ")
					break
				}
			}
		}
	}
	return strings.Join(lines, "\n"), seat
}

// Assignment is an ASSIGN line: units given to another seat of the side,
// from the next play on.
type Assignment struct {
	Line  int      `json:"line,omitempty"`
	Units []string `json:"units"`
	Seat  string   `json:"seat"` // the seat id they go to
}

// CutAssign takes the ASSIGN lines out of a side's mail text, blanked so
// that the other lines keep their numbers, for a family's reader that
// knows no ASSIGN: `ASSIGN unit... TO seat`, the seat written as its id
// (us.2), its number (2) or the side (us, the commander-in-chief). It
// reads up to an END line; problems name their lines.
func CutAssign(text, side string) (rest string, assigns []Assignment, problems []Problem) {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if j := strings.Index(line, "#"); j >= 0 {
			line = line[:j]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if strings.EqualFold(f[0], "END") {
			break
		}
		if !strings.EqualFold(f[0], "ASSIGN") {
			continue
		}
		lines[i] = ""
		to := slices.IndexFunc(f, func(w string) bool { return strings.EqualFold(w, "TO") })
		if to < 2 || to != len(f)-2 {
			problems = append(problems, Problem{Line: i + 1, Text: fmt.Sprintf("want ASSIGN unit... TO seat (a seat's number, such as 2, or its id, such as %s.2)", side)})
			continue
		}
		seat, err := seatNamed(side, f[to+1])
		if err != nil {
			problems = append(problems, Problem{Line: i + 1, Text: err.Error()})
			continue
		}
		assigns = append(assigns, Assignment{Line: i + 1, Units: slices.Clone(f[1:to]), Seat: seat})
	}
	return strings.Join(lines, "\n"), assigns, problems
}

// seatNamed reads a seat as an ASSIGN line writes it.
func seatNamed(side, w string) (string, error) {
	if strings.EqualFold(w, side) {
		return side, nil
	}
	if n, err := strconv.Atoi(w); err == nil && n >= 1 {
		return SeatID(side, n), nil
	}
	s, n := SplitSeat(w)
	if !strings.EqualFold(s, side) || n < 2 {
		return "", fmt.Errorf("%q is no seat of %s: write its number (2) or id (%s.2)", w, side, side)
	}
	return SeatID(side, n), nil
}

// CheckAssign is what may be wrong with an assignment of a side's team:
// the seat must be in play and each unit the side's (known) and, for a
// subordinate giving (seat), its own to give; chief seats give any unit.
func (t *Team) CheckAssign(side, seat string, a Assignment, known func(unit string) bool) []Problem {
	var probs []Problem
	if a.Seat != side && !t.Has(a.Seat) {
		probs = append(probs, Problem{Line: a.Line, Text: fmt.Sprintf("there is no seat %s in this game", a.Seat)})
	}
	for _, u := range a.Units {
		switch {
		case !known(u):
			probs = append(probs, Problem{Line: a.Line, Text: fmt.Sprintf("%s is no unit of %s", u, side)})
		case seat != side && t.OwnerOf(side, u) != seat:
			probs = append(probs, Problem{Line: a.Line, Text: fmt.Sprintf("%s is not yours to give: it is %s's; only your own units pass to another seat (the commander-in-chief may give any)", u, t.OwnerOf(side, u))})
		}
	}
	return probs
}

// SeatMismatch is the problem of a mail whose SEAT line names another seat
// than its secret's; nil when it names none or the same.
func SeatMismatch(said, n int, seat string) []Problem {
	if said == 0 || said == n {
		return nil
	}
	return []Problem{{Text: fmt.Sprintf("these orders say SEAT %d, but they come from seat %d (%s)", said, n, seat)}}
}

// Apply carries out assignments in order, passing over units known no more.
func (t *Team) Apply(side string, assigns []Assignment, known func(unit string) bool) {
	for _, a := range assigns {
		for _, u := range a.Units {
			if known(u) && (a.Seat == side || t.Has(a.Seat)) {
				_ = t.Assign(side, u, a.Seat) // the seat is checked: no error
			}
		}
	}
}

// writeSeatList writes a side's seats as comment lines of a seat's order
// form, the seat's own marked: "# -> us.2 Commander 1: A B C".
func writeSeatList(b *strings.Builder, seats []Seat, seat string) {
	for _, s := range seats {
		mark := "  "
		if s.ID == seat {
			mark = "->"
		}
		empty := ""
		if s.Empty {
			empty = " (empty: the commander-in-chief orders its units)"
		}
		units := strings.Join(s.Units, " ")
		if units == "" {
			units = "no units"
		}
		fmt.Fprintf(b, "# %s %s %s%s: %s\n", mark, s.ID, s.Name, empty, units)
	}
}

// HasHeader reports whether a mail's text holds an order form's header
// line (GAME ...): a seat that sends its form with no order in it holds
// its units this round, which counts as its orders.
func HasHeader(text string) bool {
	for line := range strings.Lines(text) {
		if f := strings.Fields(line); len(f) > 1 && strings.EqualFold(f[0], "GAME") {
			return true
		}
	}
	return false
}

// ReadWholeSide reads a whole side's orders, as Position.Read does: in a
// team game every seat's at once, as the judge writes a round's merged
// orders for a replay, its ASSIGN lines (of any unit of the side: the side
// gives them) and the rest with read, the family's reader of a side's
// orders; with read alone for a side of one player (team nil).
func ReadWholeSide[O any](text, side string, team *Team, known func(unit string) bool, maxErrors int, read func(text string) Reading) Reading {
	if team == nil {
		return read(text)
	}
	rest, assigns, probs := CutAssign(text, side)
	for _, a := range assigns {
		probs = append(probs, team.CheckAssign(side, side, a, known)...)
	}
	r := read(rest)
	if len(probs) > 0 {
		probs = append(probs, r.Problems...)
		slices.SortStableFunc(probs, func(a, b Problem) int { return a.Line - b.Line })
		return Reading{Found: true, Errors: len(probs), Problems: probs, Answer: Refusal(text, probs, maxErrors), Round: r.Round}
	}
	if o, ok := r.Orders.(*JSONOrders[O]); ok {
		o.Assign = assigns
	}
	return r
}
