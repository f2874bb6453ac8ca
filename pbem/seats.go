package pbem

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"fieldpost/engine"
)

// Team play: a player holds a seat, whose id is its side's name for the
// side's commander-in-chief (or only player) and SIDE.n for a subordinate
// (engine.SeatID). The judge handles seats as names: Player.Side, the
// tokens and the submissions are by seat id; what a seat commands, its
// form, its reading and the merge of a side's seat orders are the game
// system's (engine.Seated).

// seatSide is the side a seat id belongs to.
func seatSide(seat string) string {
	side, _ := engine.SplitSeat(seat)
	return side
}

// teamSide returns the position's seats capability when the side is
// played by more than one seat.
func teamSide(pos engine.Position, side string) (engine.Seated, bool) {
	s, ok := pos.(engine.Seated)
	return s, ok && len(s.Seats(side)) > 1
}

// formOf is the order form of a seat.
func formOf(pos engine.Position, seat, game string) string {
	if s, ok := teamSide(pos, seatSide(seat)); ok {
		return s.SeatForm(seat, game)
	}
	return pos.Form(seat, game)
}

// readOf reads a seat's mail text for its orders.
func readOf(pos engine.Position, seat, text string, maxErrors int) engine.Reading {
	if s, ok := teamSide(pos, seatSide(seat)); ok {
		return s.SeatRead(seat, text, maxErrors)
	}
	return pos.Read(seat, text, maxErrors)
}

// seatsWaitedFor lists the seats of a side whose orders the round waits
// for: its players' seats that command units now (a seat left with none
// has nothing to order), the commander-in-chief's always.
func seatsWaitedFor(g *Game, pos engine.Position, side string) []string {
	s, ok := teamSide(pos, side)
	if !ok {
		return []string{side}
	}
	var out []string
	for _, seat := range s.Seats(side) {
		if g.Player(seat.ID) != nil && (seat.ID == side || len(seat.Units) > 0) {
			out = append(out, seat.ID)
		}
	}
	return out
}

// sideOrders is what a side plays: the merge of its seats' orders (nil
// when none sent any), or the side's own orders when one player plays it.
// sent lists the seats whose orders were merged.
func (t storeTx) sideOrders(g *Game, pos engine.Position, side string, extra map[string]engine.Orders) (o engine.Orders, sent []string, err error) {
	s, ok := teamSide(pos, side)
	if !ok {
		if o, found := extra[side]; found {
			return o, []string{side}, nil
		}
		sub, err := t.submission(g.ID, g.Turn, side)
		if err != nil || sub == nil {
			return nil, nil, err
		}
		o, err := pos.LoadOrders(side, sub.Orders)
		if err != nil {
			return nil, nil, fmt.Errorf("game %s: %w", g.ID, err)
		}
		return o, []string{side}, nil
	}
	seats := maps.Clone(extra)
	if seats == nil {
		seats = map[string]engine.Orders{}
	}
	for _, seat := range s.Seats(side) {
		if _, found := seats[seat.ID]; found {
			continue
		}
		sub, err := t.submission(g.ID, g.Turn, seat.ID)
		if err != nil {
			return nil, nil, err
		}
		if sub == nil {
			continue
		}
		if seats[seat.ID], err = pos.LoadOrders(side, sub.Orders); err != nil {
			return nil, nil, fmt.Errorf("game %s: %w", g.ID, err)
		}
	}
	if len(seats) == 0 {
		return nil, nil, nil
	}
	sent = slices.Sorted(maps.Keys(seats))
	o, err = s.Merge(side, seats)
	return o, sent, err
}

// seatLine names a seat for people: "us.2 (Commander 1)".
func seatLine(pos engine.Position, seat string) string {
	if s, ok := teamSide(pos, seatSide(seat)); ok {
		for _, st := range s.Seats(seatSide(seat)) {
			if st.ID == seat {
				return seat + " (" + st.Name + ")"
			}
		}
	}
	return seat
}

// seatSetups reads NEWGAME's subordinate seats: SIDE.n=address, or
// SIDE.n=empty for a seat no player holds, with optional names
// (SIDE.n.name=...) and units (SIDE.n.units=a,b,c) given by the game
// master.
func seatSetups(seats, names, units map[string]string) []engine.SeatSetup {
	var out []engine.SeatSetup
	for _, id := range slices.Sorted(maps.Keys(seats)) {
		su := engine.SeatSetup{ID: id, Name: names[id], Empty: strings.EqualFold(seats[id], "empty")}
		if u, ok := units[id]; ok {
			su.Units = strings.FieldsFunc(u, func(r rune) bool { return r == ',' || r == ' ' })
		}
		out = append(out, su)
	}
	return out
}

// maxTeamMessage is the longest TEAM message kept, in bytes.
const maxTeamMessage = 8 << 10

// teamMessage passes a TEAM message from a seat to the other seats of its
// side, and keeps it in the game's record: the words after TEAM on its
// line, and the lines below it.
func (t *txn) teamMessage(id *identity, req *request) error {
	g, seat := id.game, id.side
	side := seatSide(seat)
	lines := strings.Split(req.Text, "\n")
	var text []string
	if req.Line >= 0 && req.Line < len(lines) {
		first := strings.TrimSpace(lines[req.Line])
		if _, rest, ok := strings.Cut(first, " "); ok {
			text = append(text, strings.TrimSpace(rest))
		}
		text = append(text, lines[req.Line+1:]...)
	}
	msg := strings.TrimSpace(strings.Join(text, "\n"))
	var to []Player
	for _, p := range g.Players {
		if seatSide(p.Side) == side && p.Side != seat {
			to = append(to, p)
		}
	}
	switch {
	case msg == "":
		return t.letters().mailPlayer(g, seat, kindError, "TEAM message not sent", "A TEAM message needs its text: after TEAM on its line, or on the lines below.", false)
	case len(msg) > maxTeamMessage:
		return t.letters().mailPlayer(g, seat, kindError, "TEAM message not sent",
			fmt.Sprintf("The TEAM message is %s long; at most %s is passed on. Nothing was sent.", byteSize(int64(len(msg))), byteSize(maxTeamMessage)), false)
	case len(to) == 0:
		return t.letters().mailPlayer(g, seat, kindError, "TEAM message not sent", fmt.Sprintf("Nobody else plays %s: there is nobody to send a TEAM message to.", side), false)
	}
	g.Team = append(g.Team, TeamMessage{From: seat, Round: g.Round(), At: t.now, Text: msg})
	if err := t.putGame(g); err != nil {
		return err
	}
	pos, err := t.position(g)
	if err != nil {
		return err
	}
	t.log.Info("team message passed on", "to", len(to))
	var names []string
	for _, p := range to {
		d := t.letters().gameData(g, p.Side, pos)
		d.Body = fmt.Sprintf("From %s:\n\n%s\n", seatLine(pos, seat), msg)
		l := &letter{kind: kindTeam, game: g, side: p.Side, to: p.Address, subject: fmt.Sprintf("[%s] TEAM from %s", g.ID, seatLine(pos, seat))}
		if l.text, err = t.s.render(kindTeam, d); err != nil {
			return err
		}
		if err := t.letters().queue(l); err != nil {
			return err
		}
		names = append(names, seatLine(pos, p.Side))
	}
	return t.letters().mailPlayer(g, seat, kindStatus, "TEAM message sent",
		fmt.Sprintf("Your TEAM message went to %s. It is kept in the game's record, public once the game is over.", strings.Join(names, ", ")), false)
}

// wholeSide is a position read for a whole side's orders, every seat's at
// once (a team round replayed, `fieldpost resolve`): it hides the seats, so
// that the side's reader reads every unit's orders and the ASSIGN lines.
type wholeSide struct{ engine.Position }
