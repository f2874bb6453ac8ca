package pbem

import (
	"fmt"
	"time"
)

// Absence is a time a player announced it is away: From the start of its
// first day to To the end of its last (UTC).
type Absence struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// absentAt reports whether the player is away at a time.
func (p *Player) absentAt(at time.Time) bool {
	for _, a := range p.Absences {
		if !at.Before(a.From) && at.Before(a.To) {
			return true
		}
	}
	return false
}

// absenceGrace is how long after an absence a deadline moved past it
// falls: the player has a day back.
const absenceGrace = 24 * time.Hour

// pastAbsences moves a deadline that falls in a player's absence to a day
// after it, when the game's policy is to extend.
func (g *Game) pastAbsences(deadline time.Time) time.Time {
	if deadline.IsZero() || g.Absence == absenceCaretaker {
		return deadline
	}
	for moved := true; moved; {
		moved = false
		for _, p := range g.Players {
			for _, a := range p.Absences {
				if !deadline.Before(a.From) && deadline.Before(a.To.Add(absenceGrace)) {
					deadline, moved = a.To.Add(absenceGrace), true
				}
			}
		}
	}
	return deadline
}

// absence handles ABSENCE FROM TO (dates, both days included): the game's
// policy moves the deadlines past it or lets the caretaker play; the
// club's limit bounds the days a player may be away in a game. Everyone
// in the game is told the dates, never a reason written after them.
func (t seating) absence(id *identity, req *request) error {
	g, p := id.game, id.game.Player(id.side)
	refuse := func(why string) error {
		return t.letters().mailPlayer(g, id.side, kindError, "ABSENCE not taken", why+
			"\n\nThe command: ABSENCE 2026-12-20 2027-01-03 (the first and the last day away, both included).", false)
	}
	if g.Ended {
		return refuse("Game " + g.ID + " is over.")
	}
	if len(req.Args) < 2 {
		return refuse("ABSENCE needs the first and the last day away.")
	}
	from, err1 := time.Parse(time.DateOnly, req.Args[0])
	last, err2 := time.Parse(time.DateOnly, req.Args[1])
	switch {
	case err1 != nil:
		return refuse(fmt.Sprintf("%q is not a date such as 2026-12-20.", req.Args[0]))
	case err2 != nil:
		return refuse(fmt.Sprintf("%q is not a date such as 2027-01-03.", req.Args[1]))
	case last.Before(from):
		return refuse(fmt.Sprintf("The last day (%s) is before the first (%s).", req.Args[1], req.Args[0]))
	}
	to := last.Add(24 * time.Hour)
	if !to.After(t.now) {
		return refuse(fmt.Sprintf("%s is past already.", req.Args[1]))
	}
	counted := from
	if today := t.now.UTC().Truncate(24 * time.Hour); today.After(from) {
		counted = today
	}
	days := int(to.Sub(counted) / (24 * time.Hour))
	if limit := t.s.opts.AbsenceDays; p.AbsenceDays+days > limit {
		return refuse(fmt.Sprintf("The club allows %s of absence in a game; you have used %d and ask for %d more.",
			plural(limit, "day"), p.AbsenceDays, days))
	}
	p.Absences = append(p.Absences, Absence{From: from, To: to})
	p.AbsenceDays += days
	moved := false
	effect := "The caretaker plays the seat's rounds whose deadline falls in it; they do not count as missed."
	if g.Absence != absenceCaretaker {
		effect = "Deadlines that fall in it move to a day after it."
		if later := g.pastAbsences(g.Deadline); !later.Equal(g.Deadline) && !g.Paused {
			g.Deadline, g.RemindedUntil, moved = later, t.now, true
			effect += fmt.Sprintf(" The deadline for round %d is now %s.", g.Round(), formatTime(later))
		}
	}
	if err := t.putGame(g); err != nil {
		return err
	}
	t.log.Info("absence announced", "seat", p.seatName(), "days", days)
	body := fmt.Sprintf("Seat %s of game %s will be away from %s to %s (%s). %s",
		p.seatName(), g.ID, req.Args[0], req.Args[1], plural(days, "day"), effect)
	for _, other := range g.Players {
		if other.isOpen() {
			continue
		}
		if err := t.letters().mailPlayerCalendar(g, other.Side, kindAbsence, "Seat "+p.seatName()+" away "+req.Args[0]+" to "+req.Args[1], body, false, moved); err != nil {
			return err
		}
	}
	if err := t.letters().mailObservers(g, kindAbsence, "Seat "+p.seatName()+" away", body); err != nil {
		return err
	}
	return t.letters().answerGM(kindGM, g, "Seat "+p.seatName()+" away", body)
}
