// Package player is a player's mail client: a bot that reads the judge's
// mails to its side in a mailbox and answers them with orders, as a player
// would (fieldpost bot, the embedded mode's bots, the load tool). It reads
// the judge's mails through pbem/protocol, the definition the judge writes
// them with.
package player

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"strconv"
	"strings"

	"fieldpost/engine"
	"fieldpost/mail"
	"fieldpost/pbem/protocol"
)

// Config is what a bot plays and how it mails.
type Config struct {
	// Side is the side (or team seat) the bot plays, as the judge's mails
	// name it.
	Side string
	// Game is the one game the bot plays; "" for every game of its side.
	Game string
	// From is the bot's own address.
	From mail.Address
	// Seed varies the bot's plans.
	Seed uint64
	// Sender sends the bot's answers.
	Sender *mail.Sender
	// Systems are the game systems the bot can plan for.
	Systems engine.Systems
	Log     *slog.Logger
}

// Bot answers the judge's mails for one side, as a player would.
type Bot struct {
	cfg   Config
	games map[string]*gameMemory // by game id
}

// New makes a bot; its Handle is an intake's handler (mail.Intake.Run).
func New(cfg Config) *Bot {
	cfg.Game = strings.ToLower(cfg.Game)
	return &Bot{cfg: cfg, games: map[string]*gameMemory{}}
}

// gameMemory is what the bot keeps of a game for a rejection: the round it
// last answered and that round's order form, and whether it has sent the
// form back unchanged already (it does so once a round, so that a judge
// and a bot can never answer each other for ever).
type gameMemory struct {
	round    int
	form     string
	fellBack bool
}

// Handle is the intake's handler: it answers the welcome, report and status
// mails of its side's games with orders, and a rejection with the unchanged
// order form; the other mails of its side's games from the judge are
// logged and moved along with them. Every other mail is not the bot's: it
// is left in the mailbox untouched (mail.ErrLeave). An error (a failed
// send) leaves the mail in the mailbox, to be handled again.
func (b *Bot) Handle(ctx context.Context, msg *mail.Inbound) error {
	kind := strings.TrimSpace(msg.Header.Get(protocol.HeaderKind))
	game := strings.TrimSpace(msg.Header.Get(protocol.HeaderGame))
	log := b.cfg.Log.With("message_id", msg.MessageID, "kind", kind, "game", game)
	leave := func(why string, args ...any) error {
		log.Info("left alone: "+why, args...)
		return fmt.Errorf("%s: %w", why, mail.ErrLeave)
	}
	if kind == "" || game == "" {
		return leave("not a judge's mail about a game", "from", msg.From.Email)
	}
	if b.cfg.Game != "" && !strings.EqualFold(game, b.cfg.Game) {
		return leave("not our game")
	}
	if reason, auto := b.automatic(msg); auto {
		return leave("automatic mail", "reason", reason, "from", msg.From.Email)
	}
	if side := strings.TrimSpace(msg.Header.Get(protocol.HeaderSide)); !strings.EqualFold(side, b.cfg.Side) {
		return leave("not for our side", "side", side)
	}
	to, ok := JudgeReplyTo(msg)
	if !ok {
		log.Warn("the reply address is not the judge's", "from", msg.From.Email)
		return leave("not the judge's")
	}
	round, err := strconv.Atoi(strings.TrimSpace(msg.Header.Get(protocol.HeaderRound)))
	if err != nil {
		log.Warn("ignored: the mail names no round", "err", err)
		return nil
	}
	if kind == protocol.KindReport {
		round++ // a report names the round it reports; its form is for the next
	}
	log = log.With("round", round)
	switch kind {
	case protocol.KindWelcome, protocol.KindReport:
		return b.play(ctx, msg, log, game, round, to, false)
	case protocol.KindStatus:
		// A status mail carries the form and the position too: the judge's
		// answer to STATUS (the embedded server's mail is gone after a
		// restart) and its notice of a rollback, which opens a round the
		// bot may have answered already.
		return b.play(ctx, msg, log, game, round, to, true)
	case protocol.KindRejected:
		return b.fallBack(ctx, msg, log, game, round, to)
	}
	log.Info("nothing to answer")
	return nil
}

// automatic says whether a mail is one a machine sent that must not be
// answered (mail.DetectAutomatic): a bounce, an auto-reply, our own mail
// come back. The judge marks all its mail Auto-Submitted: auto-generated,
// and its mail is what the bot answers, so that mark alone does not count.
func (b *Bot) automatic(msg *mail.Inbound) (string, bool) {
	m := *msg
	m.Header = maps.Clone(msg.Header)
	if strings.EqualFold(strings.TrimSpace(m.Header.Get("Auto-Submitted")), "auto-generated") {
		m.Header.Del("Auto-Submitted")
	}
	return mail.DetectAutomatic(&m, []string{b.cfg.From.Email})
}

// JudgeReplyTo is where an answer goes: the Reply-To address, which
// carries the player's token, provided it is the judge's own address
// (docs/mail-format.md), so that a forged mail cannot make the bot send its
// orders elsewhere.
func JudgeReplyTo(msg *mail.Inbound) (string, bool) {
	to := msg.From.Email
	if len(msg.ReplyTo) > 0 {
		to = msg.ReplyTo[0].Email
	}
	return to, to != "" && protocol.WithoutToken(to) == protocol.WithoutToken(msg.From.Email)
}

// play answers a welcome, report or status mail with the bot's orders for
// the round; again answers a round the bot has answered already.
func (b *Bot) play(ctx context.Context, msg *mail.Inbound, log *slog.Logger, game string, round int, to string, again bool) error {
	plan, err := Plan(b.cfg.Systems, msg, b.cfg.Side, game, b.cfg.Seed)
	switch {
	case err != nil:
		log.Error("ignored: the situation cannot be read", "err", err)
		return nil
	case plan.Over:
		log.Info("the game is over: nothing to answer")
		return nil
	case plan.Turn+1 != round:
		log.Error("ignored: the situation is not the position of the round the mail names", "situation_round", plan.Turn+1)
		return nil
	case plan.Orders == "":
		log.Info("ignored: the side gives no orders this round")
		return nil
	}
	if mem := b.games[game]; mem != nil && mem.round >= round && !again {
		log.Info("ignored: this round is answered already")
		return nil
	}
	form := orderForm(msg.Text)
	if form == "" {
		form = plan.Orders
	}
	sent, err := b.reply(ctx, msg, log, to, plan.Orders)
	if err != nil || !sent {
		return err
	}
	b.games[game] = &gameMemory{round: round, form: form}
	log.Info("orders sent", "to", protocol.WithoutToken(to), "orders", plan.Summary)
	return nil
}

// fallBack answers a rejection of the bot's orders: the errors go to the
// log, and the order form of the round goes back unchanged, once.
func (b *Bot) fallBack(ctx context.Context, msg *mail.Inbound, log *slog.Logger, game string, round int, to string) error {
	errs, _, _ := strings.Cut(msg.Text, protocol.FormMarker)
	log.Warn("orders rejected", "errors", strings.TrimSpace(errs))
	mem := b.games[game]
	switch {
	case mem == nil || mem.round != round:
		log.Warn("no order form of this round to fall back on: not answering")
		return nil
	case mem.fellBack:
		log.Warn("the round's form went back once already: not answering again")
		return nil
	}
	sent, err := b.reply(ctx, msg, log, to, mem.form)
	if err != nil || !sent {
		return err
	}
	mem.fellBack = true
	log.Info("sent the order form back unchanged", "to", protocol.WithoutToken(to))
	return nil
}

// reply sends text in answer to msg, in its thread. An error is a failure
// worth another try later; a mail that can never be sent is logged and
// given up, with sent false.
func (b *Bot) reply(ctx context.Context, msg *mail.Inbound, log *slog.Logger, to, text string) (sent bool, err error) {
	subject := msg.Subject
	if !strings.HasPrefix(strings.ToLower(subject), "re:") {
		subject = "Re: " + subject
	}
	_, domain, _ := strings.Cut(b.cfg.From.Email, "@")
	raw, err := mail.Compose(&mail.Outbound{
		From:       b.cfg.From,
		To:         []mail.Address{{Email: to}},
		Subject:    subject,
		MessageID:  mail.NewMessageID(domain),
		InReplyTo:  msg.MessageID,
		References: msg.ReplyReferences(),
		Text:       text,
		// Orders are the player's: the judge leaves automatic mail unread.
		Personal: true,
	})
	if err != nil {
		log.Error("the answer cannot be written: given up", "err", err)
		return false, nil
	}
	if err := b.cfg.Sender.Send(ctx, b.cfg.From.Email, []string{to}, raw); err != nil {
		if mail.IsPermanent(err) {
			log.Error("the answer was refused for good: given up", "err", err)
			return false, nil
		}
		return false, fmt.Errorf("sending the answer: %w", err)
	}
	return true, nil
}

// Plan plans a side's orders from the situation.json attachment of a
// judge's mail, with the planner of the game's system among systems
// (X-Fieldpost-System; Star General when a judge did not name it).
func Plan(systems engine.Systems, msg *mail.Inbound, side, game string, seed uint64) (engine.Plan, error) {
	sys, err := systems.Lookup(cmp.Or(strings.TrimSpace(msg.Header.Get(protocol.HeaderSystem)), protocol.LegacySystem))
	if err != nil {
		return engine.Plan{}, err
	}
	planner, ok := sys.(engine.Planner)
	if !ok {
		return engine.Plan{}, fmt.Errorf("no bot plays %s", sys.Title())
	}
	for _, a := range msg.Attachments {
		if a.Filename == protocol.SituationFile {
			plan, err := planner.Plan(a.Data, side, game, seed)
			if err != nil {
				return engine.Plan{}, fmt.Errorf("%s: %w", protocol.SituationFile, err)
			}
			return plan, nil
		}
	}
	return engine.Plan{}, fmt.Errorf("no %s attached", protocol.SituationFile)
}

// orderForm is the order form at the end of a judge's mail: the lines
// after the marker up to the form's END line (docs/mail-format.md); "" when
// there is none.
func orderForm(text string) string {
	_, after, ok := strings.Cut(text, protocol.FormMarker+"\n")
	if !ok {
		return ""
	}
	var form strings.Builder
	for line := range strings.Lines(after) {
		form.WriteString(line)
		if strings.EqualFold(strings.TrimSpace(line), "END") {
			return form.String()
		}
	}
	return ""
}
