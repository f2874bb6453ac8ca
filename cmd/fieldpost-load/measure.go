package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"fieldpost/mail"
	"fieldpost/pbem/player"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// baseline measures the raw fetch and reply: the same mail server, an
// IMAP intake and an SMTP sender answering each mail at once, without
// judging; the mails are the order mails, sent to the responder instead.
func (run *loadRun) baseline(ctx context.Context, orders []plannedOrders) (runFigures, error) {
	echoCtx, stopEcho := context.WithCancel(ctx)
	echoDone, err := run.startEcho(echoCtx)
	if err != nil {
		stopEcho()
		return runFigures{}, err
	}
	f, err := run.measure(ctx, func(i int) (*loadMail, error) {
		o := orders[i%len(orders)]
		return run.mailFrom(o.account, run.srv.Address(echoAccount), o.subject, o.text)
	})
	stopEcho()
	<-echoDone
	if err != nil {
		return runFigures{}, fmt.Errorf("the baseline: %w", err)
	}
	run.progress("baseline %.0f mails/s", f.rate())
	return f, nil
}

// loadMail is a mail the run sends, and to whom.
type loadMail struct {
	from, to string
	id       string
	raw      []byte
}

func (run *loadRun) mailFrom(account, to, subject, text string) (*loadMail, error) {
	from := run.srv.Address(account)
	id := mail.NewMessageID(run.srv.Domain())
	raw, err := mail.Compose(&mail.Outbound{From: mail.Address{Email: from}, To: []mail.Address{{Email: to}},
		Subject: subject, MessageID: id, Date: time.Now(), Text: text, Personal: true})
	if err != nil {
		return nil, err
	}
	return &loadMail{from: from, to: to, id: id, raw: raw}, nil
}

func (run *loadRun) deliver(m *loadMail) error {
	return run.srv.Deliver(m.from, []string{m.to}, m.raw)
}

// measure sends run.opt.mails mails arriving together, then
// run.opt.latency mails one at a time, made by next, and times their
// answers.
func (run *loadRun) measure(ctx context.Context, next func(i int) (*loadMail, error)) (runFigures, error) {
	burst := make([]*loadMail, run.opt.mails)
	for i := range burst {
		m, err := next(i)
		if err != nil {
			return runFigures{}, err
		}
		burst[i] = m
	}
	start, err := run.arriveTogether(burst)
	if err != nil {
		return runFigures{}, err
	}
	ids := make([]string, len(burst))
	for i, m := range burst {
		ids[i] = m.id
	}
	at, err := run.arrivals.wait(ctx, ids, 10*time.Minute)
	if err != nil {
		return runFigures{}, err
	}
	f := runFigures{mails: len(burst), elapsed: slices.MaxFunc(at, func(a, b time.Time) int { return a.Compare(b) }).Sub(start)}

	var lat []time.Duration
	for i := range run.opt.latency {
		m, err := next(len(burst) + i)
		if err != nil {
			return runFigures{}, err
		}
		if err := run.deliver(m); err != nil {
			return runFigures{}, err
		}
		sent := time.Now()
		at, err := run.arrivals.wait(ctx, []string{m.id}, time.Minute)
		if err != nil {
			return runFigures{}, err
		}
		lat = append(lat, at[0].Sub(sent))
	}
	slices.Sort(lat)
	f.p50, f.p99 = lat[len(lat)*50/100], lat[min(len(lat)-1, len(lat)*99/100)]
	return f, nil
}

// arriveTogether puts mails in their recipient's INBOX at once: appended
// to a folder of the account, then moved to the INBOX in one command, as
// when a server delivers a backlog. It returns when the move was made.
func (run *loadRun) arriveTogether(mails []*loadMail) (time.Time, error) {
	account, _, _ := strings.Cut(mails[0].to, "@")
	account, _, _ = strings.Cut(account, "+")
	c, err := imapclient.DialInsecure(run.srv.IMAPAddr(), nil)
	if err != nil {
		return time.Time{}, err
	}
	defer c.Close()
	if err := c.Login(account, run.club.password(account)).Wait(); err != nil {
		return time.Time{}, err
	}
	const folder = "Arriving"
	if err := c.Create(folder, nil).Wait(); err != nil && !isIMAPAlreadyExists(err) {
		return time.Time{}, err
	}
	for _, m := range mails {
		// The trace fields a delivery writes: the judge reads the secret of
		// the recipient address from Delivered-To.
		raw := append([]byte(fmt.Sprintf("Return-Path: <%s>\r\nDelivered-To: %s\r\n", m.from, m.to)), m.raw...)
		cmd := c.Append(folder, int64(len(raw)), nil)
		if _, err := cmd.Write(raw); err != nil {
			return time.Time{}, err
		}
		if err := cmd.Close(); err != nil {
			return time.Time{}, err
		}
		if _, err := cmd.Wait(); err != nil {
			return time.Time{}, err
		}
	}
	if _, err := c.Select(folder, nil).Wait(); err != nil {
		return time.Time{}, err
	}
	start := time.Now()
	if _, err := c.Move(imap.SeqSet{{Start: 1, Stop: 0}}, "INBOX").Wait(); err != nil {
		return time.Time{}, err
	}
	return start, c.Logout().Wait()
}

func isIMAPAlreadyExists(err error) bool {
	var imapErr *imap.Error
	return errors.As(err, &imapErr) && imapErr.Code == imap.ResponseCodeAlreadyExists
}

// startEcho runs the raw baseline's responder on the echo account until
// ctx ends: every mail fetched is answered at once to its sender.
func (run *loadRun) startEcho(ctx context.Context) (<-chan struct{}, error) {
	intake, err := run.club.intake(run.srv, echoAccount)
	if err != nil {
		return nil, err
	}
	sender, err := run.club.sender(run.srv, echoAccount)
	if err != nil {
		return nil, err
	}
	from := run.srv.Address(echoAccount)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer sender.Close()
		_ = intake.Run(ctx, func(ctx context.Context, msg *mail.Inbound) error {
			raw, err := mail.Compose(&mail.Outbound{From: mail.Address{Email: from}, To: []mail.Address{msg.From},
				Subject: "Re: " + msg.Subject, MessageID: mail.NewMessageID(run.srv.Domain()), InReplyTo: msg.MessageID,
				Date: time.Now(), Text: "Received.\n"})
			if err != nil {
				return err
			}
			return sender.Send(ctx, from, []string{msg.From.Email}, raw)
		})
	}()
	return done, nil
}

// playerAccount is the mail account of a side's player in played game
// number game: every game has players of its own, as in a club.
func playerAccount(side string, game int) string {
	return fmt.Sprintf("%s-%d", strings.ToLower(side), game)
}

// plannedOrders is an order mail for a game, planned by the bot.
type plannedOrders struct {
	account, to, subject, text string
}

// planOrders plans, from each welcome of side, orders that move and
// attack, several a game (with different seeds), in an order that goes
// round the games.
func (run *loadRun) planOrders(welcomes map[string][]byte, side string) ([]plannedOrders, error) {
	const perGame = 4
	var out []plannedOrders
	for seed := range uint64(perGame) {
		for game := 1; game <= run.opt.played; game++ {
			id := fmt.Sprintf("g%d", game)
			account := playerAccount(side, game)
			raw, ok := welcomes[id+"/"+account]
			if !ok {
				return nil, fmt.Errorf("no welcome of %s to %s", id, side)
			}
			msg, err := mail.Parse(bytes.NewReader(raw), 10<<20)
			if err != nil {
				return nil, err
			}
			plan, err := player.Plan(run.systems, msg, side, id, seed+1)
			if err != nil {
				return nil, fmt.Errorf("planning %s for %s: %w", id, side, err)
			}
			to, ok := player.JudgeReplyTo(msg)
			if !ok || plan.Orders == "" {
				return nil, fmt.Errorf("the welcome of %s to %s gives nothing to answer", id, side)
			}
			out = append(out, plannedOrders{account: account, to: to, subject: "Re: " + msg.Subject, text: plan.Orders})
		}
	}
	return out, nil
}
