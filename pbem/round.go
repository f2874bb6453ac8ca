package pbem

import (
	"fmt"
	"slices"
	"time"

	"fieldpost/engine"
	"fieldpost/mail"
)

// roundPlay is the round play of a transaction: opening a round, playing
// it (with the caretaker's orders for the seats that sent none) when its
// orders are in or its deadline passed, counting the seats' reliability,
// the reports and welcomes, and rating a finished game.
type roundPlay struct{ *txn }

func (t *txn) rounds() roundPlay { return roundPlay{t} }

// openRound starts the clock of the round the game is now at: its
// deadline, and the reminders counted from now.
func (t roundPlay) openRound(g *Game) {
	g.Deadline = time.Time{}
	if g.Period > 0 {
		g.Deadline = g.pastAbsences(t.now.Add(g.Period))
	}
	g.Remaining = g.Period
	g.RemindedUntil = t.now
}

// playRound plays the game's current round with the orders sent and the
// default orders for a side that sent none, which is told so with notice
// (a format of the round number), and mails the report to everyone.
func (t roundPlay) playRound(g *Game, notice string) error {
	pos, err := t.position(g)
	if err != nil {
		return err
	}
	turn := pos.Turn()
	rec := &roundRecord{Seed: engine.RoundSeed(g.Seed, turn), Played: t.now}
	orders := map[string]engine.Orders{}
	var seatsDefaulted, waitedSeats []string
	sentSeats := map[string]bool{}
	for _, side := range pos.Step().Waiting {
		o, sent, err := t.sideOrders(g, pos, side, nil)
		if err != nil {
			return fmt.Errorf("game %s, orders of %s: %w", g.ID, side, err)
		}
		if o == nil {
			planned, how, err := t.caretakerOrders(g, pos, side, rec.Seed)
			if err != nil {
				return err
			}
			if planned != nil {
				o = planned
				if rec.Caretaker == nil {
					rec.Caretaker = map[string]string{}
				}
				rec.Caretaker[side] = how
			} else {
				rec.Defaulted = append(rec.Defaulted, side)
				o = pos.Default(side)
			}
		}
		for _, seat := range seatsWaitedFor(g, pos, side) {
			waitedSeats = append(waitedSeats, seat)
			if slices.Contains(sent, seat) {
				sentSeats[seat] = true
				continue
			}
			seatsDefaulted = append(seatsDefaulted, seat)
			if sent != nil {
				rec.DefaultedSeats = append(rec.DefaultedSeats, seat)
			}
		}
		raw, err := o.Marshal()
		if err != nil {
			return fmt.Errorf("game %s: storing the orders of %s: %w", g.ID, side, err)
		}
		rec.Orders = append(rec.Orders, raw)
		orders[side] = o
	}
	next, round, err := pos.Play(orders, engine.NewSeededDice(rec.Seed))
	if err != nil {
		return fmt.Errorf("playing round %d of %s: %w", turn+1, g.ID, err)
	}
	if rec.Events, err = round.Marshal(); err != nil {
		return fmt.Errorf("game %s: storing round %d: %w", g.ID, turn+1, err)
	}
	abandoned := t.countRound(g, waitedSeats, sentSeats, rec, notice == deadlineNotice)
	if err := t.putPosition(g, next); err != nil {
		return err
	}
	if err := t.putRound(g.ID, turn, rec); err != nil {
		return err
	}
	g.Turn = next.Turn()
	step := next.Step()
	if step.Over {
		g.Ended, g.Result, g.Deadline = true, step.Result, time.Time{}
	} else {
		t.openRound(g)
	}
	if err := t.putGame(g); err != nil {
		return err
	}
	t.log.Info("round played", "round", turn+1, "defaulted", rec.Defaulted, "caretaker", rec.Caretaker, "ended", g.Ended)
	for _, seat := range seatsDefaulted {
		if how := rec.Caretaker[seatSide(seat)]; how != "" {
			err := t.letters().mailPlayer(g, seat, kindDefaulted, fmt.Sprintf("No orders from you: the caretaker played round %d", turn+1),
				fmt.Sprintf("No orders from you arrived for round %d: %s.\nThe report follows in its own mail.", turn+1, how), false)
			if err != nil {
				return err
			}
			continue
		}
		err := t.letters().mailPlayer(g, seat, kindDefaulted, fmt.Sprintf("No orders from you: default orders played in round %d", turn+1),
			fmt.Sprintf(notice, turn+1), false)
		if err != nil {
			return err
		}
	}
	if err := t.reportMails(g, turn, nil); err != nil {
		return err
	}
	if step.Over {
		if err := t.rateGame(g, step); err != nil {
			return err
		}
	}
	for _, side := range abandoned {
		if g.Ended {
			break
		}
		if err := t.seats().abandonSeat(g, side); err != nil {
			return err
		}
	}
	return nil
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

// played is a round played, ready to be mailed: its report and map are
// written once for each view (one for all where the system hides nothing).
type played struct {
	before, after engine.Position
	round         engine.Round
	meta          engine.RoundMeta
	texts         map[string]string
	pngs          map[string]mail.Part
	// caretaker says how the caretaker gave each side's orders that sent
	// none, where it did.
	caretaker map[string]string
}

// playedRound reads back the round played from a turn.
func (t roundPlay) playedRound(g *Game, turn int) (*played, error) {
	rec, err := t.round(g.ID, turn)
	if err != nil {
		return nil, err
	}
	before, err := t.positionAt(g, turn)
	if err != nil {
		return nil, err
	}
	after, err := t.positionAt(g, turn+1)
	if err != nil {
		return nil, err
	}
	return newPlayed(g, rec, before, after)
}

// newPlayed makes a round played from its record and the positions before
// and after it.
func newPlayed(g *Game, rec *roundRecord, before, after engine.Position) (*played, error) {
	round, err := before.LoadRound(after, rec.Events)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", g.ID, err)
	}
	meta := engine.RoundMeta{Game: g.ID, Seed: rec.Seed, Defaulted: rec.Defaulted, DefaultedSeats: rec.DefaultedSeats, Orders: map[string]engine.Orders{}}
	for i, side := range before.Step().Waiting {
		if i >= len(rec.Orders) {
			break
		}
		if meta.Orders[side], err = before.LoadOrders(side, rec.Orders[i]); err != nil {
			return nil, fmt.Errorf("game %s: %w", g.ID, err)
		}
	}
	return &played{before: before, after: after, round: round, meta: meta, caretaker: rec.Caretaker,
		texts: map[string]string{}, pngs: map[string]mail.Part{}}, nil
}

// report is the round's report as a side reads it, without an order form.
func (p *played) report(side string) (string, error) {
	view := viewOf(p.after, side)
	if text, ok := p.texts[view]; ok {
		return text, nil
	}
	text, err := p.round.Report(side, p.meta)
	if err != nil {
		return "", fmt.Errorf("writing the report of game %s: %w", p.meta.Game, err)
	}
	p.texts[view] = text
	return text, nil
}

// png is the map after the round, with what happened, as a side sees it.
func (p *played) png(side string) (mail.Part, error) {
	view := viewOf(p.after, side)
	if part, ok := p.pngs[view]; ok {
		return part, nil
	}
	part, err := mapPart(p.round.Map, side)
	if err != nil {
		return mail.Part{}, err
	}
	p.pngs[view] = part
	return part, nil
}

// viewOf names what a side sees of a position: its own view where the
// system hides things, one view for everybody where it hides nothing.
func viewOf(p engine.Position, side string) string {
	if p.HidesInformation() {
		return side
	}
	return ""
}

// reportMails mails the report of the round played from a turn (the
// game's latest) to every player and observer, or only to one player.
// Players get the next order form; when the game is over it is the final
// report.
func (t roundPlay) reportMails(g *Game, turn int, only *Player) error {
	p, err := t.playedRound(g, turn)
	if err != nil {
		return err
	}
	kind, subject := kindReport, fmt.Sprintf("[%s] Report of round %d (%s)", g.ID, turn+1, p.before.Step().Name)
	if g.Ended {
		kind, subject = kindGameOver, fmt.Sprintf("[%s] Game over: report of round %d", g.ID, turn+1)
	}
	// send mails seat's report (its side's; an observer's: seat "", the
	// public's view) to an address.
	send := func(seat, to string) error {
		side := seatSide(seat)
		view := side
		if side == "" {
			view = publicView(g)
		}
		d := t.letters().gameData(g, seat, p.after)
		var err error
		if d.Body, err = p.report(view); err != nil {
			return err
		}
		d.Body = p.caretakerNote() + d.Body
		png, err := p.png(view)
		if err != nil {
			return err
		}
		attachment, err := situationPart(p.after, view)
		if err != nil {
			return err
		}
		l := &letter{kind: kind, game: g, side: seat, reported: turn + 1, to: to, subject: subject,
			inline: []mail.Part{png}, attachments: []mail.Part{attachment}, calendar: true}
		if l.textMap, err = textMap(p.after, side); err != nil {
			return err
		}
		if side != "" && !g.Ended {
			l.form = formOf(p.after, seat, g.ID)
		}
		if l.text, err = t.s.render("round", d); err != nil {
			return err
		}
		return t.letters().queue(l)
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
// first order form. png is the opening map, when already drawn for a
// position that hides nothing.
func (t roundPlay) welcome(g *Game, seat string, png *mail.Part) error {
	side := seatSide(seat)
	pos, err := t.position(g)
	if err != nil {
		return err
	}
	if png == nil || pos.HidesInformation() {
		p, err := t.s.positionMap(pos, side)
		if err != nil {
			return err
		}
		png = &p
	}
	attachment, err := situationPart(pos, side)
	if err != nil {
		return err
	}
	secret := deriveSecret(t.s.opts.ServerKey, g, seat)
	d := t.letters().gameData(g, seat, pos)
	d.Secret, d.ReplyTo = secret, t.s.tokenAddress(secret)
	d.Briefing = pos.Briefing(side).Text()
	if d.Situation, err = pos.Situation(side); err != nil {
		return err
	}
	l := &letter{kind: kindWelcome, game: g, side: seat, to: g.Player(seat).Address,
		subject: fmt.Sprintf("[%s] Welcome: you play %s in %s", g.ID, d.SideTitle, g.Title),
		form:    formOf(pos, seat, g.ID), inline: []mail.Part{*png}, attachments: []mail.Part{attachment}, calendar: true}
	if l.textMap, err = textMap(pos, side); err != nil {
		return err
	}
	if l.text, err = t.s.render(kindWelcome, d); err != nil {
		return err
	}
	return t.letters().queue(l)
}

// missingSides lists the seats the current round waits for that have sent
// no orders yet: the waiting sides, or their players' seats in a team.
func (t roundPlay) missingSides(g *Game) ([]string, error) {
	pos, err := t.position(g)
	if err != nil {
		return nil, err
	}
	missing, err := t.sidesWithoutOrders(g, pos, pos.Step().Waiting)
	// An open seat waits for nobody: the caretaker plays it.
	return slices.DeleteFunc(missing, func(seat string) bool {
		p := g.Player(seat)
		return p != nil && p.isOpen()
	}), err
}

// playIfComplete plays the round when no seated side's orders are missing
// any more: an open seat waits for nobody.
func (t roundPlay) playIfComplete(g *Game) error {
	if g.Ended || g.Paused {
		return nil
	}
	missing, err := t.missingSides(g)
	if err != nil || len(missing) > 0 {
		return err
	}
	return t.playRound(g, "")
}
