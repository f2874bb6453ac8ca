package pbem

import (
	"fmt"
	"time"

	"fieldpost/data"
	"fieldpost/engine/stargeneral/ordertext"
	"fieldpost/engine/stargeneral/report"
	"fieldpost/engine/stargeneral/rules"
	"fieldpost/mail"
)

// openRound starts the clock of the round the game is now at: its
// deadline, and the reminders counted from now.
func (t *txn) openRound(g *Game) {
	g.Deadline = time.Time{}
	if g.Period > 0 {
		g.Deadline = t.now.Add(g.Period)
	}
	g.Remaining = g.Period
	g.RemindedUntil = t.now
}

// playRound plays the game's current round with the orders sent and the
// default orders for a side that sent none, which is told so with notice
// (a format of the round number), and mails the report to everyone.
func (t *txn) playRound(g *Game, notice string) error {
	st, rs, err := t.position(g)
	if err != nil {
		return err
	}
	rec := &roundRecord{Seed: rules.RoundSeed(g.Seed, st.Turn), Played: t.now}
	for _, sd := range st.Sides {
		sub, err := t.submission(g.ID, st.Turn, sd.Name)
		if err != nil {
			return err
		}
		if sub == nil {
			rec.Defaulted = append(rec.Defaulted, sd.Name)
			rec.Orders = append(rec.Orders, rules.DefaultOrders(rs, st, sd.Name))
			continue
		}
		rec.Orders = append(rec.Orders, sub.Orders)
	}
	next, events, err := rules.Resolve(rs, st, rec.Orders, rules.NewSeededDice(rec.Seed))
	if err != nil {
		return fmt.Errorf("playing round %d of %s: %w", st.Turn+1, g.ID, err)
	}
	rec.Events = events
	if err := t.putState(g.ID, next); err != nil {
		return err
	}
	if err := t.putRound(g.ID, st.Turn, rec); err != nil {
		return err
	}
	g.Turn = next.Turn
	if next.Ended {
		g.Ended, g.Result, g.Deadline = true, next.Result, time.Time{}
	} else {
		t.openRound(g)
	}
	if err := t.putGame(g); err != nil {
		return err
	}
	t.log.Info("round played", "game", g.ID, "round", st.Turn+1, "defaulted", rec.Defaulted, "ended", next.Ended)
	for _, side := range rec.Defaulted {
		err := t.mailPlayer(g, side, kindDefaulted, fmt.Sprintf("No orders from you: default orders played in round %d", st.Turn+1),
			fmt.Sprintf(notice, st.Turn+1), false)
		if err != nil {
			return err
		}
	}
	return t.reportMails(g, st.Turn, nil)
}

// The notices of a side that sent no orders, by why the round was played.
var (
	deadlineNotice = "The deadline for round %d passed before orders from you arrived, so your units\n" +
		"played the default orders: each held where it stood, nobody moved or attacked.\n" +
		"The report follows in its own mail."
	forcedNotice = "The game master played round %d before orders from you arrived, so your units\n" +
		"played the default orders: each held where it stood, nobody moved or attacked.\n" +
		"The report follows in its own mail."
)

// played is a round played, ready to be mailed.
type played struct {
	rs            *rules.Ruleset
	before, after *rules.State
	rec           *roundRecord
	text          string // the report, without an order form
	png           mail.Part
}

// playedRound reads back the round played from a turn and writes its
// report and map.
func (t *txn) playedRound(g *Game, turn int) (*played, error) {
	rec, err := t.round(g.ID, turn)
	if err != nil {
		return nil, err
	}
	before, err := t.state(g.ID, turn)
	if err != nil {
		return nil, err
	}
	after, err := t.state(g.ID, turn+1)
	if err != nil {
		return nil, err
	}
	rs, err := data.Ruleset(after.Ruleset)
	if err != nil {
		return nil, err
	}
	text, err := report.Text(t.s.opts.Templates, report.Round{Ruleset: rs, Before: before, After: after,
		Events: rec.Events, Seed: rec.Seed, Game: g.ID, Defaulted: rec.Defaulted, Orders: rec.Orders})
	if err != nil {
		return nil, err
	}
	png, err := mapPart(rs, after, rec.Events)
	if err != nil {
		return nil, err
	}
	return &played{rs: rs, before: before, after: after, rec: rec, text: text, png: png}, nil
}

// reportMails mails the report of the round played from a turn (the
// game's latest) to every player and observer, or only to one player.
// Players get the next order form; when the game is over it is the final
// report.
func (t *txn) reportMails(g *Game, turn int, only *Player) error {
	p, err := t.playedRound(g, turn)
	if err != nil {
		return err
	}
	kind, subject := kindReport, fmt.Sprintf("[%s] Report of round %d (%s)", g.ID, turn+1, ordertext.RoundName(p.rs, p.before))
	if g.Ended {
		kind, subject = kindGameOver, fmt.Sprintf("[%s] Game over: report of round %d", g.ID, turn+1)
	}
	attachment, err := situationPart(p.after)
	if err != nil {
		return err
	}
	send := func(side, to string) error {
		d := t.gameData(g, side, p.after, p.rs)
		d.Body = p.text
		l := &letter{kind: kind, game: g, side: side, reported: turn + 1, to: to, subject: subject,
			inline: []mail.Part{p.png}, attachments: []mail.Part{attachment}}
		if side != "" && !g.Ended {
			l.form = ordertext.Form(p.rs, p.after, side, g.ID)
		}
		var err error
		if l.text, err = t.s.render("round", d); err != nil {
			return err
		}
		return t.queue(l)
	}
	if only != nil {
		return send(only.Side, only.Address)
	}
	for _, pl := range g.Players {
		if err := send(pl.Side, pl.Address); err != nil {
			return err
		}
	}
	for _, addr := range g.Observers {
		if err := send("", addr); err != nil {
			return err
		}
	}
	return nil
}

// welcome mails a player its secret, the scenario, the situation and the
// first order form. png is the opening map, when already drawn.
func (t *txn) welcome(g *Game, side string, png *mail.Part) error {
	st, rs, err := t.position(g)
	if err != nil {
		return err
	}
	if png == nil {
		p, err := mapPart(rs, st, nil)
		if err != nil {
			return err
		}
		png = &p
	}
	sc, err := data.Scenario(g.Scenario)
	if err != nil {
		return err
	}
	attachment, err := situationPart(st)
	if err != nil {
		return err
	}
	secret := deriveSecret(t.s.opts.ServerKey, g, side)
	d := t.gameData(g, side, st, rs)
	d.Secret, d.ReplyTo = secret, t.s.tokenAddress(secret)
	d.Situation, d.Description = situation(rs, st), sc.Description
	l := &letter{kind: kindWelcome, game: g, side: side, to: g.Player(side).Address,
		subject: fmt.Sprintf("[%s] Welcome: you play %s in %s", g.ID, d.SideTitle, g.Title),
		form:    ordertext.Form(rs, st, side, g.ID), inline: []mail.Part{*png}, attachments: []mail.Part{attachment}}
	if l.text, err = t.s.render(kindWelcome, d); err != nil {
		return err
	}
	return t.queue(l)
}
