package pbem

import (
	"fmt"

	"fieldpost/engine"
	"fieldpost/mail"
)

// letters is the mail a transaction sends: composed from the templates,
// queued in the outbox in the transaction (sent after the commit), and
// collected for the page or the administration that asked. Its methods
// are here and in compose.go (queue) and outbox.go (enqueue).
type letters struct{ *txn }

func (t *txn) letters() letters { return letters{t} }

// gameData fills what every mail about a game shows, to a seat's player
// (side is a seat id) or to an observer ("").
func (t letters) gameData(g *Game, seat string, pos engine.Position) *mailData {
	side := seatSide(seat)
	d := &mailData{
		Game: g.ID, Title: g.Title, Side: side, Round: g.Round(), RoundName: pos.Step().Name,
		Paused: g.Paused, Ended: g.Ended, Result: g.Result,
		Commitment: engine.SeedCommitment(engine.RoundSeed(g.Seed, g.Turn)),
		SideTitle:  sideTitle(pos, side),
		Due:        pos.Step().Waiting,
	}
	if seat != side {
		d.SideTitle += ", seat " + seatLine(pos, seat)
	}
	if !g.Deadline.IsZero() {
		d.Deadline = formatTimeIn(g.Deadline, zoneOf(g, seat))
	}
	if base := t.s.opts.BaseURL; base != "" {
		d.GameURL = base + "/g/" + g.ID
		if seat != "" {
			d.PageURL = base + "/p/" + deriveSecret(t.s.opts.ServerKey, g, seat)
		}
	}
	return d
}

// mailPlayer sends a side's player a mail about its game, written by the
// kind's template around body. withForm adds the situation, the order form
// and situation.json, while the game is on.
func (t letters) mailPlayer(g *Game, side, kind, subject, body string, withForm bool) error {
	return t.mailPlayerForm(g, side, kind, subject, body, withForm, "", withForm)
}

// mailPlayerCalendar is mailPlayer, with the deadline as a calendar event
// when calendar is set (a mail that sets or changes a deadline).
func (t letters) mailPlayerCalendar(g *Game, side, kind, subject, body string, withForm, calendar bool) error {
	return t.mailPlayerForm(g, side, kind, subject, body, withForm, "", calendar)
}

// mailPlayerForm is mailPlayer with form, when not "", as the mail's form
// in place of the order form, and with the deadline as a calendar event
// when calendar is set.
func (t letters) mailPlayerForm(g *Game, side, kind, subject, body string, withForm bool, form string, calendar bool) error {
	p := g.Player(side)
	if p == nil {
		return fmt.Errorf("game %s has no side %q", g.ID, side)
	}
	pos, err := t.position(g)
	if err != nil {
		return err
	}
	d := t.gameData(g, side, pos)
	d.Body = body
	l := &letter{kind: kind, game: g, side: side, to: p.Address, subject: "[" + g.ID + "] " + subject, calendar: calendar}
	if withForm && !g.Ended {
		if d.Waiting, err = t.rounds().missingSides(g); err != nil {
			return err
		}
		if d.Situation, err = pos.Situation(seatSide(side)); err != nil {
			return err
		}
		l.form = formOf(pos, side, g.ID)
		attachment, err := situationPart(pos, seatSide(side))
		if err != nil {
			return err
		}
		l.attachments = []mail.Part{attachment}
	}
	if form != "" {
		l.form = form
	}
	if l.text, err = t.s.render(kind, d); err != nil {
		return err
	}
	return t.queue(l)
}

// refuse answers orders with problems (a refusal, or a CHECK's errors):
// the problems, and as the form to correct and send back, the player's
// own orders, text, with each problem written under its line.
func (t letters) refuse(g *Game, side, kind, subject, body, text string, problems []engine.Problem) error {
	form := refusalForm(text, problems, t.s.opts.Limits.MaxAnswerSize/2)
	if form != "" {
		body += "\nYour orders are below the line " + formMarker + ", each error written under its line:\n" +
			"correct them there and reply to this mail. Lines starting with # are not read.\n"
	}
	return t.mailPlayerForm(g, side, kind, subject, body, false, form, false)
}

// answerGM mails the game master. A command given by the administration
// also gets the answer back, and mails the GM only when there is one.
func (t letters) answerGM(kind string, g *Game, subject, body string) error {
	if t.answer != nil {
		t.answer.Subject, t.answer.Text = subject, body
		if t.s.opts.GMAddress == "" {
			return nil
		}
	}
	text, err := t.s.render(kind, &mailData{Body: body})
	if err != nil {
		return err
	}
	prefix := "Fieldpost GM: "
	if g != nil {
		prefix = "[" + g.ID + "] GM: "
	}
	return t.queue(&letter{kind: kind, game: g, to: t.s.opts.GMAddress, subject: prefix + subject, text: text})
}

// notifyPlayers mails every player of a game a message from the GM.
func (t letters) notifyPlayers(g *Game, subject, body string) error {
	for _, p := range g.Players {
		if err := t.mailPlayerCalendar(g, p.Side, kindGM, subject, body, false, true); err != nil {
			return err
		}
	}
	return nil
}

// mailObservers mails a game's observers a message.
func (t letters) mailObservers(g *Game, kind, subject, body string) error {
	for _, addr := range g.Observers {
		text, err := t.s.render(kind, &mailData{Game: g.ID, Title: g.Title, Body: body})
		if err != nil {
			return err
		}
		if err := t.queue(&letter{kind: kind, game: g, to: addr, subject: "[" + g.ID + "] " + subject, text: text}); err != nil {
			return err
		}
	}
	return nil
}
