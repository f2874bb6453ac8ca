package pbem

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"fieldpost/engine"
)

// standingLookBack bounds how many rounds back the standing caretaker
// looks for a side's own orders.
const standingLookBack = 10

// caretakerOrders are the orders the game's caretaker gives a side that
// sent none, with how it gave them; nil orders when the side holds (the
// default orders): the caretaker is hold, or the bot or the standing
// orders have nothing valid to give.
func (t roundPlay) caretakerOrders(g *Game, pos engine.Position, side string, seed uint64) (engine.Orders, string, error) {
	switch g.Caretaker {
	case caretakerBot:
		sys, err := t.s.opts.Systems.Lookup(cmp.Or(g.System, LegacySystem))
		if err != nil {
			return nil, "", fmt.Errorf("game %s: %w", g.ID, err)
		}
		planner, ok := sys.(engine.Planner)
		if !ok {
			return nil, "", nil
		}
		view, err := pos.View(side)
		if err != nil {
			return nil, "", fmt.Errorf("game %s: the view of %s for the caretaker: %w", g.ID, side, err)
		}
		plan, err := planner.Plan(view, side, g.ID, seed)
		if err != nil || plan.Orders == "" {
			t.log.Warn("the caretaker bot has no orders; the side holds", "side", side, "err", err)
			return nil, "", nil
		}
		reading := pos.Read(side, plan.Orders, 0)
		if reading.Orders == nil {
			t.log.Error("the caretaker bot's orders do not read; the side holds", "side", side, "errors", reading.Errors)
			return nil, "", nil
		}
		// The plan's summary is logged only: the report goes to the other
		// side too, and must not tell it what the side has.
		t.log.Info("the caretaker bot planned a side's orders", "side", side, "plan", plan.Summary)
		return reading.Orders, fmt.Sprintf("the caretaker, the %s bot, planned %s's orders from %s's own view",
			sys.Name(), side, side), nil
	case caretakerStanding:
		return t.standingCaretaker(g, pos, side)
	}
	return nil, "", nil
}

// standingCaretaker repeats a side's last orders of its own (those of a
// round it sent them for), read again against the position now; nil when
// there are none or they no longer read.
func (t roundPlay) standingCaretaker(g *Game, pos engine.Position, side string) (engine.Orders, string, error) {
	for turn := pos.Turn() - 1; turn >= 0 && turn >= pos.Turn()-standingLookBack; turn-- {
		rec, err := t.round(g.ID, turn)
		if err != nil {
			return nil, "", err
		}
		if slices.Contains(rec.Defaulted, side) || rec.Caretaker[side] != "" {
			continue
		}
		before, err := t.positionAt(g, turn)
		if err != nil {
			return nil, "", err
		}
		i := slices.Index(before.Step().Waiting, side)
		if i < 0 || i >= len(rec.Orders) {
			continue
		}
		o, err := before.LoadOrders(side, rec.Orders[i])
		if err != nil {
			return nil, "", fmt.Errorf("game %s: %w", g.ID, err)
		}
		text, err := before.WriteOrders(side, o, g.ID)
		if err != nil {
			return nil, "", fmt.Errorf("game %s: %w", g.ID, err)
		}
		reading := pos.Read(side, text, 0)
		if reading.Orders == nil {
			t.log.Info("the side's standing orders no longer read; it holds", "side", side, "from_round", turn+1)
			return nil, "", nil
		}
		return reading.Orders, fmt.Sprintf("the caretaker played %s's standing orders, those of round %d again", side, turn+1), nil
	}
	return nil, "", nil
}

// countRound counts a round played in each waited seat's reliability: a
// seat whose orders were played kept its deadline; one without missed it,
// when the deadline played the round (deadline) and its player was not
// away. The round's record keeps what was counted, for a ROLLBACK to take
// back. It returns the seats that missed AbandonAfter in a row.
func (t roundPlay) countRound(g *Game, seats []string, sent map[string]bool, rec *roundRecord, deadline bool) []string {
	var abandoned []string
	for _, seat := range seats {
		p := g.Player(seat)
		if p == nil || p.isOpen() {
			continue
		}
		switch {
		case sent[seat]:
			p.OnTime++
			p.InARow = 0
			rec.OnTime = append(rec.OnTime, seat)
		case deadline && !p.absentAt(t.now):
			p.Missed++
			p.InARow++
			rec.Missed = append(rec.Missed, seat)
			if g.AbandonAfter > 0 && p.InARow >= g.AbandonAfter {
				abandoned = append(abandoned, seat)
			}
		}
	}
	return abandoned
}

// abandonSeat declares a seat abandoned after its deadlines were missed:
// it is open, the GM is told, and it is offered to the players, the
// observers and the GM; the caretaker plays it until someone takes it.
func (t seating) abandonSeat(g *Game, side string) error {
	p := g.Player(side)
	missed, old := p.InARow, p.Address
	p.Abandoned = true
	if err := t.handOver(g, p, "", fmt.Sprintf("abandoned after %s in a row", plural(missed, "missed deadline")), false); err != nil {
		return err
	}
	t.log.Warn("seat abandoned", "seat", p.seatName(), "missed_in_a_row", missed)
	if err := t.tellFormerPlayer(g, old, side, fmt.Sprintf("you missed %s in a row, and the game's rules give the seat to another player.",
		plural(missed, "deadline"))); err != nil {
		return err
	}
	return t.offerSeat(g, p, "Seat "+p.seatName()+" abandoned", fmt.Sprintf(
		"Seat %s of game %s missed %s in a row and is abandoned: its player (%s) was told.\n"+
			"To give it to someone: REPLACE %s %s ADDRESS.\n", p.seatName(), g.ID, plural(missed, "deadline"), old, g.ID, p.seatName()))
}

// caretakerNote is what the report says first of the sides the caretaker
// played for.
func (p *played) caretakerNote() string {
	if len(p.caretaker) == 0 {
		return ""
	}
	var b strings.Builder
	for _, side := range slices.Sorted(maps.Keys(p.caretaker)) {
		fmt.Fprintf(&b, "%s sent no orders: %s.\n", side, p.caretaker[side])
	}
	return b.String() + "\n"
}

// uncountRound takes back what countRound counted for a round undone by
// ROLLBACK, in the seats still held by the player who played it.
func uncountRound(g *Game, rec *roundRecord, round int) {
	for _, side := range rec.OnTime {
		if p := g.Player(side); p != nil && !p.isOpen() && max(p.Since, 1) <= round {
			p.OnTime = max(p.OnTime-1, 0)
		}
	}
	for _, side := range rec.Missed {
		if p := g.Player(side); p != nil && !p.isOpen() && max(p.Since, 1) <= round {
			p.Missed, p.InARow = max(p.Missed-1, 0), max(p.InARow-1, 0)
		}
	}
}
