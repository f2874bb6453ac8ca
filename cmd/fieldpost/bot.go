package main

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"fieldpost/engine"
	"fieldpost/mail"
	"fieldpost/pbem"
)

func init() {
	commands["bot"] = command{
		"bot --side SIDE [--game ID] [--imap HOST:PORT --smtp HOST:PORT --user U [--password P] [--address ADDR] [--tls none|starttls|implicit]] [--data DIR] [--once] [--seed N]",
		"Play a side by mail as a player would: answer the judge's order forms with the bot's orders.\n" +
			"Without --imap, --smtp and --user it plays game ID of the judge that fieldpost serve runs without\n" +
			"--config, with the account of its own the game gave the bot (NEWGAME ... SIDE=bot; in DIR/club.json).\n" +
			"It only reads the judge's mails of its side (and game): every other mail stays in the INBOX untouched.",
		cmdBot}
}

// The judge's mails (docs/mail-format.md).
const (
	formMarker    = "--- ORDER FORM ---"
	situationFile = "situation.json"
)

// onceTimeout bounds a --once run that cannot get through its mailbox (a
// server down, a wrong password): the intake keeps trying, the log says why.
const onceTimeout = 2 * time.Minute

func cmdBot(e *env, args []string) error {
	fs := newFlags(e, "bot")
	side := fs.String("side", "", "the side the bot plays, as the judge's mails name it")
	game := fs.String("game", "", "the game the bot plays (required with the embedded judge); every game of the account when not given")
	imapAddr := fs.String("imap", "", "the IMAP server of the bot's mailbox, HOST:PORT")
	smtpAddr := fs.String("smtp", "", "the SMTP submission server, HOST:PORT")
	user := fs.String("user", "", "the user name on both servers")
	password := fs.String("password", "", "the password on both servers; better in $FIELDPOST_BOT_PASSWORD")
	address := fs.String("address", "", "the bot's mail address (default: the user name)")
	tlsName := fs.String("tls", "implicit", "how connections are secured: none, starttls or implicit")
	relay := fs.Bool("smtp-relay", false, "send through a relay that takes the club's mail from this host without TLS or login (OpenSMTPD on loopback)")
	once := fs.Bool("once", false, "handle the mail in the mailbox, then exit (for cron)")
	seed := fs.Uint64("seed", 0, "varies the bot's plans")
	dataDir := fs.String("data", defaultDataDir, "without --imap, --smtp and --user: the data folder of the embedded judge")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *side == "" {
		return errUsage
	}
	if *imapAddr == "" && *smtpAddr == "" && *user == "" {
		acct, err := embeddedBotAccount(*dataDir, *game, *side)
		if err != nil {
			return err
		}
		*imapAddr, *smtpAddr, *user, *tlsName = acct.imap, acct.smtp, acct.user, "none"
		if *password == "" {
			*password = acct.password
		}
		if *address == "" {
			*address = acct.address
		}
	}
	if *imapAddr == "" || *smtpAddr == "" || *user == "" {
		return errUsage
	}
	pw := *password
	if pw == "" {
		pw = os.Getenv("FIELDPOST_BOT_PASSWORD")
	}
	if pw == "" {
		return errors.New("no password: give --password or set FIELDPOST_BOT_PASSWORD")
	}
	from := *address
	if from == "" {
		from = *user
	}
	if !strings.Contains(from, "@") {
		return fmt.Errorf("the bot's address %q is not a mail address: give --address", from)
	}
	mode, err := tlsMode(*tlsName)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(e.stderr, nil))
	intake, err := mail.NewIntake(mail.IntakeConfig{Addr: *imapAddr, TLS: mode, Username: *user, Password: pw, LeaveSetAside: true, Logger: log})
	if err != nil {
		return err
	}
	senderConfig := mail.SenderConfig{Addr: *smtpAddr, TLS: mode, Username: *user, Password: pw}
	if *relay {
		senderConfig = mail.SenderConfig{Addr: *smtpAddr, TLS: mail.TLSNone}
	}
	sender, err := mail.NewSender(senderConfig)
	if err != nil {
		return err
	}
	b := &mailBot{side: *side, game: strings.ToLower(*game), from: mail.Address{Email: from}, seed: *seed, sender: sender, log: log, games: map[string]*gameMemory{}}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Info("bot started", "side", *side, "game", cmp.Or(b.game, "every game"), "address", from, "imap", *imapAddr, "smtp", *smtpAddr, "once", *once)
	if *once {
		return runOnce(ctx, intake, b.handle)
	}
	return intake.Run(ctx, b.handle)
}

// clubAccount is an account of the embedded judge's club mail server.
type clubAccount struct {
	imap, smtp, user, password, address string
}

// embeddedBotAccount finds the account of the bot of a side of a game of
// the embedded judge of a data folder, as `fieldpost game` finds its
// database: the servers from the judge.conf it writes, the password from
// club.json. The account is the one the game gave the bot (NEWGAME's
// SIDE=bot), never a person's.
func embeddedBotAccount(dataDir, game, side string) (*clubAccount, error) {
	if game == "" {
		return nil, errors.New("give --game: with the embedded judge, the bot plays one game, with the account of its own " +
			"the game gave it (make the game with SIDE=bot, e.g. fieldpost game new --scenario tutorial --id solo " +
			"--player us=us@fieldpost.local --player german=bot)")
	}
	conf := filepath.Join(dataDir, judgeConfigName)
	cfg, err := pbem.LoadConfig(conf, func(string) string { return "" })
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no --imap, --smtp and --user, and no embedded judge in %s (start it with fieldpost serve, or give --data)", dataDir)
	}
	if err != nil {
		return nil, err
	}
	cf, found, err := loadClubFile(filepath.Join(dataDir, "club.json"))
	if err != nil {
		return nil, err
	}
	name := botAccountName(game, side)
	if !found || cf.password(name) == "" {
		return nil, fmt.Errorf("the embedded judge in %s has no bot account for side %q of game %q: make the game with %s=bot",
			dataDir, side, game, strings.ToLower(side))
	}
	return &clubAccount{imap: cfg.IMAPAddr, smtp: cfg.SMTPAddr, user: name, password: cf.password(name),
		address: name + "@" + cf.Domain}, nil
}

func tlsMode(s string) (mail.TLSMode, error) {
	switch s {
	case "none":
		return mail.TLSNone, nil
	case "starttls":
		return mail.TLSStartTLS, nil
	case "implicit":
		return mail.TLSImplicit, nil
	}
	return 0, fmt.Errorf("--tls %q: want none, starttls or implicit", s)
}

// runOnce handles the mail in the mailbox now: it runs the intake until it
// has made one whole pass over the mailbox. Mail it could not handle
// stays there for the next run. An interrupt ends it cleanly.
func runOnce(ctx context.Context, in *mail.Intake, handle mail.Handler) error {
	runCtx, cancel := context.WithTimeout(ctx, onceTimeout)
	defer cancel()
	// Run would retry a server it cannot use: once, the reason is the
	// answer.
	if err := in.Check(runCtx); err != nil {
		var notTLS tls.RecordHeaderError
		if errors.As(err, &notTLS) {
			return fmt.Errorf("the IMAP server does not speak TLS on this port (%w): try --tls starttls or --tls none", err)
		}
		return err
	}
	done := make(chan error, 1)
	go func() { done <- in.Run(runCtx, handle) }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for in.Passes() == 0 {
		select {
		case <-runCtx.Done():
			<-done
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("no pass over the mailbox within %v: see the log", onceTimeout)
		case <-tick.C:
		}
	}
	cancel()
	return <-done
}

// mailBot answers the judge's mails for one side, as a player would.
type mailBot struct {
	side string
	// game is the one game the bot plays; "" for every game of its side.
	game   string
	from   mail.Address
	seed   uint64
	sender *mail.Sender
	log    *slog.Logger
	games  map[string]*gameMemory // by game id
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

// handle is the intake's handler: it answers the welcome, report and status
// mails of its side's games with orders, and a rejection with the unchanged
// order form; the other mails of its side's games from the judge are
// logged and moved along with them. Every other mail is not the bot's: it
// is left in the mailbox untouched (mail.ErrLeave). An error (a failed
// send) leaves the mail in the mailbox, to be handled again.
func (b *mailBot) handle(ctx context.Context, msg *mail.Inbound) error {
	kind := strings.TrimSpace(msg.Header.Get("X-Fieldpost-Kind"))
	game := strings.TrimSpace(msg.Header.Get("X-Fieldpost-Game"))
	log := b.log.With("message_id", msg.MessageID, "kind", kind, "game", game)
	leave := func(why string, args ...any) error {
		log.Info("left alone: "+why, args...)
		return fmt.Errorf("%s: %w", why, mail.ErrLeave)
	}
	if kind == "" || game == "" {
		return leave("not a judge's mail about a game", "from", msg.From.Email)
	}
	if b.game != "" && !strings.EqualFold(game, b.game) {
		return leave("not our game")
	}
	if reason, auto := b.automatic(msg); auto {
		return leave("automatic mail", "reason", reason, "from", msg.From.Email)
	}
	if side := strings.TrimSpace(msg.Header.Get("X-Fieldpost-Side")); !strings.EqualFold(side, b.side) {
		return leave("not for our side", "side", side)
	}
	to, ok := judgeReplyTo(msg)
	if !ok {
		log.Warn("the reply address is not the judge's", "from", msg.From.Email)
		return leave("not the judge's")
	}
	round, err := strconv.Atoi(strings.TrimSpace(msg.Header.Get("X-Fieldpost-Round")))
	if err != nil {
		log.Warn("ignored: the mail names no round", "err", err)
		return nil
	}
	if kind == "report" {
		round++ // a report names the round it reports; its form is for the next
	}
	log = log.With("round", round)
	switch kind {
	case "welcome", "report":
		return b.play(ctx, msg, log, game, round, to, false)
	case "status":
		// A status mail carries the form and the position too: the judge's
		// answer to STATUS (the embedded server's mail is gone after a
		// restart) and its notice of a rollback, which opens a round the
		// bot may have answered already.
		return b.play(ctx, msg, log, game, round, to, true)
	case "rejected":
		return b.fallBack(ctx, msg, log, game, round, to)
	}
	log.Info("nothing to answer")
	return nil
}

// automatic says whether a mail is one a machine sent that must not be
// answered (mail.DetectAutomatic): a bounce, an auto-reply, our own mail
// come back. The judge marks all its mail Auto-Submitted: auto-generated,
// and its mail is what the bot answers, so that mark alone does not count.
func (b *mailBot) automatic(msg *mail.Inbound) (string, bool) {
	m := *msg
	m.Header = maps.Clone(msg.Header)
	if strings.EqualFold(strings.TrimSpace(m.Header.Get("Auto-Submitted")), "auto-generated") {
		m.Header.Del("Auto-Submitted")
	}
	return mail.DetectAutomatic(&m, []string{b.from.Email})
}

// judgeReplyTo is where an answer goes: the Reply-To address, which
// carries the player's token, provided it is the judge's own address
// (docs/mail-format.md), so that a forged mail cannot make the bot send its
// orders elsewhere.
func judgeReplyTo(msg *mail.Inbound) (string, bool) {
	to := msg.From.Email
	if len(msg.ReplyTo) > 0 {
		to = msg.ReplyTo[0].Email
	}
	return to, to != "" && bareAddress(to) == bareAddress(msg.From.Email)
}

// bareAddress is an address without its +tag, lowercased: the judge's
// address without the token, fit for logs.
func bareAddress(addr string) string {
	local, domain, _ := strings.Cut(strings.ToLower(addr), "@")
	local, _, _ = strings.Cut(local, "+")
	return local + "@" + domain
}

// play answers a welcome, report or status mail with the bot's orders for
// the round; again answers a round the bot has answered already.
func (b *mailBot) play(ctx context.Context, msg *mail.Inbound, log *slog.Logger, game string, round int, to string, again bool) error {
	plan, err := planFromMail(msg, b.side, game, b.seed)
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
	log.Info("orders sent", "to", bareAddress(to), "orders", plan.Summary)
	return nil
}

// fallBack answers a rejection of the bot's orders: the errors go to the
// log, and the order form of the round goes back unchanged, once.
func (b *mailBot) fallBack(ctx context.Context, msg *mail.Inbound, log *slog.Logger, game string, round int, to string) error {
	errs, _, _ := strings.Cut(msg.Text, formMarker)
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
	log.Info("sent the order form back unchanged", "to", bareAddress(to))
	return nil
}

// reply sends text in answer to msg, in its thread. An error is a failure
// worth another try later; a mail that can never be sent is logged and
// given up, with sent false.
func (b *mailBot) reply(ctx context.Context, msg *mail.Inbound, log *slog.Logger, to, text string) (sent bool, err error) {
	subject := msg.Subject
	if !strings.HasPrefix(strings.ToLower(subject), "re:") {
		subject = "Re: " + subject
	}
	_, domain, _ := strings.Cut(b.from.Email, "@")
	raw, err := mail.Compose(&mail.Outbound{
		From:       b.from,
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
	if err := b.sender.Send(ctx, b.from.Email, []string{to}, raw); err != nil {
		if mail.IsPermanent(err) {
			log.Error("the answer was refused for good: given up", "err", err)
			return false, nil
		}
		return false, fmt.Errorf("sending the answer: %w", err)
	}
	return true, nil
}

// planFromMail plans a side's orders from the situation.json attachment
// of a judge's mail, with the planner of the game's system
// (X-Fieldpost-System; Star General when a judge did not name it).
func planFromMail(msg *mail.Inbound, side, game string, seed uint64) (engine.Plan, error) {
	systems, err := builtinGames()
	if err != nil {
		return engine.Plan{}, err
	}
	sys, err := systems.Lookup(cmp.Or(strings.TrimSpace(msg.Header.Get("X-Fieldpost-System")), pbem.LegacySystem))
	if err != nil {
		return engine.Plan{}, err
	}
	planner, ok := sys.(engine.Planner)
	if !ok {
		return engine.Plan{}, fmt.Errorf("no bot plays %s", sys.Title())
	}
	for _, a := range msg.Attachments {
		if a.Filename == situationFile {
			plan, err := planner.Plan(a.Data, side, game, seed)
			if err != nil {
				return engine.Plan{}, fmt.Errorf("%s: %w", situationFile, err)
			}
			return plan, nil
		}
	}
	return engine.Plan{}, fmt.Errorf("no %s attached", situationFile)
}

// orderForm is the order form at the end of a judge's mail: the lines
// after the marker up to the form's END line (docs/mail-format.md); "" when
// there is none.
func orderForm(text string) string {
	_, after, ok := strings.Cut(text, formMarker+"\n")
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
