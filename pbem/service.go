package pbem

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"sync"
	texttemplate "text/template"
	"time"

	"fieldpost/engine"
	"fieldpost/mail"
	"fieldpost/pbem/config"
	"fieldpost/pbem/store"
	"fieldpost/templates"
)

// Options configure a Service. Zero fields take the documented defaults.
type Options struct {
	// Address is the judge's mail address, e.g. "judge@club.example". A
	// player's replies go to it extended with the player's secret:
	// "judge+SECRET@club.example". Required.
	Address string
	// Name is the display name of the judge's mails; "Fieldpost".
	Name string
	// ServerKey derives every player's secret (see LoadServerKey); at least
	// 32 bytes. Required.
	ServerKey []byte
	// GMSecret authenticates the game master's commands, GMAddress
	// receives their answers. Without a GMSecret nobody can create games.
	GMSecret, GMAddress string
	// Deadline is how long a round is open in a new game unless NEWGAME
	// says otherwise; zero for no deadline.
	Deadline time.Duration
	// Reminders are sent that long before a deadline to each side that has
	// not sent orders yet, e.g. 24h and 2h.
	Reminders []time.Duration
	// Grace is how long after the deadline orders are still taken before
	// the round is played with default orders for the missing sides.
	Grace time.Duration
	// MaxMessageSize is the size above which a mail is refused, as the
	// intake is configured (10 MiB, its default); only used to tell the
	// sender.
	MaxMessageSize int64
	// MailLimits bound the reading of a mail the mail server hands over
	// itself (Deliver), as the intake's do; mail.DefaultLimits by default.
	MailLimits mail.Limits
	// Systems are the game systems the judge hosts; a game names its own.
	// Required.
	Systems engine.Systems
	// BaseURL is where players reach the game pages, for the links in
	// mails; "" when there are none.
	BaseURL string
	// Limits bound what one mail may cost; DefaultLimits by default.
	Limits Limits
	// Templates holds the mail templates; templates.FS by default.
	Templates fs.FS
	// RetryMin and RetryMax bound the wait between attempts to send a mail
	// the SMTP server did not take (as long as the mail has waited) (1 min and 1 h by
	// default); a mail not sent within GiveUp (3 days) is given up.
	RetryMin, RetryMax, GiveUp time.Duration
	// StrangerAnswers limits the answers (help, errors) to an address that
	// is no player's, observer's or the GM's, 1 a day by default;
	// RefusalNotices the notices to a player, or the GM, that a mail in
	// their name was refused, 3 an hour by default. Answers to players'
	// own mail are never limited.
	StrangerAnswers, RefusalNotices Limit
	// TalkLimit limits each seat's table talk (MESSAGE, TEAM) in a game, and
	// the GM's BROADCAST: 20 a day by default.
	TalkLimit Limit
	// AbsenceDays is how many days a player may be away (ABSENCE) in a
	// game: 14 by default.
	AbsenceDays int
	// SendSessions is how many mails the outbox sends at once, each over
	// a session of the Sender of its own (the mails to one address over
	// one, in order); 1 by default.
	SendSessions int
	// DeadlineStartDelay holds back the deadline loop's first pass, which
	// reads every game, after Run starts: the mails waiting at a start are
	// answered first. None by default.
	DeadlineStartDelay time.Duration
	// BotAccount, when set, gives a bot a mail account of its own for a
	// side of a game, and returns its address: a NEWGAME's SIDE=bot seats
	// that address (the embedded club server's accounts). Without it,
	// SIDE=bot is refused: the GM gives the bot's own address.
	BotAccount func(game, side string) (address string, err error)
	// ClubAccount, when set, makes sure the club mail server has an account
	// for a local address (its local part), creating it when missing, and
	// returns what a mail program needs to use it ("" when it existed):
	// `fieldpost club add`, and a NEWGAME naming a new address of the
	// judge's domain (the embedded club server).
	ClubAccount func(name string) (settings string, err error)
	// InHand, when set, is called with each mail recorded in hand, in the
	// transaction that handles it, before it is read: a test's way to kill
	// the judge there, or to fail the handling with its error (the
	// crash-loop guard's tests).
	InHand func(msg *mail.Inbound) error
	// Clock is the time; SystemClock by default.
	Clock Clock
	// Logger receives the logs; slog.Default() when nil. Secrets are never
	// logged.
	Logger *slog.Logger
}

// Service is the judge: it handles inbound mail (Handle), sends the
// outbox and plays rounds at their deadlines (Run).
type Service struct {
	opts   Options
	store  *Store
	sender Sender
	clock  Clock
	log    *slog.Logger
	domain string
	text   *texttemplate.Template
	html   *htmltemplate.Template

	// The kicks wake the loops when a transaction queued mail or changed
	// a game; buffered, so that a kick never blocks and is never lost.
	outboxKick, deadlineKick chan struct{}
	// due is when each game next needs the deadline loop.
	due dueIndex
	// maps are the latest position maps drawn.
	maps mapCache
}

// NewService checks opts and returns a Service on store, sending through
// sender.
func NewService(store *Store, sender Sender, opts Options) (*Service, error) {
	local, domain, ok := strings.Cut(opts.Address, "@")
	if !ok || local == "" || domain == "" || strings.ContainsAny(opts.Address, "+ <>") {
		return nil, fmt.Errorf("pbem: the judge's address %q must be a plain address such as judge@club.example", opts.Address)
	}
	if len(opts.ServerKey) < 32 {
		return nil, errors.New("pbem: the server key must be at least 32 bytes")
	}
	if len(opts.Systems) == 0 {
		return nil, errors.New("pbem: no game system to host")
	}
	if opts.GMSecret != "" && opts.GMAddress == "" {
		return nil, errors.New("pbem: a GM secret needs a GM address for the answers")
	}
	// A judge built without a file (a test, the load tool) takes the
	// file's defaults: they are written once, in config.Default.
	def := config.Default()
	opts.Name = cmp.Or(opts.Name, def.Name)
	opts.MaxMessageSize = cmp.Or(opts.MaxMessageSize, def.MaxMessageSize)
	opts.Limits = opts.Limits.withDefaults()
	if opts.Templates == nil {
		opts.Templates = templates.FS
	}
	opts.SendSessions = max(opts.SendSessions, 1)
	opts.RetryMin = cmp.Or(opts.RetryMin, def.SendRetryMin)
	opts.RetryMax = max(cmp.Or(opts.RetryMax, def.SendRetryMax), opts.RetryMin)
	opts.GiveUp = cmp.Or(opts.GiveUp, def.SendGiveUp)
	opts.StrangerAnswers = cmp.Or(opts.StrangerAnswers, Limit(def.StrangerAnswers))
	opts.RefusalNotices = cmp.Or(opts.RefusalNotices, Limit(def.RefusalNotices))
	opts.TalkLimit = cmp.Or(opts.TalkLimit, Limit(def.TalkLimit))
	opts.AbsenceDays = cmp.Or(opts.AbsenceDays, def.AbsenceDays)
	if opts.Clock == nil {
		opts.Clock = SystemClock()
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	opts.Reminders = slices.Clone(opts.Reminders)
	for _, r := range opts.Reminders {
		if r <= 0 {
			return nil, fmt.Errorf("pbem: reminder %v: must be before the deadline", r)
		}
	}
	text, html, err := parseTemplates(opts.Templates)
	if err != nil {
		return nil, err
	}
	if err := store.db.CheckKey(keyCheck(opts.ServerKey)); err != nil {
		return nil, err
	}
	return &Service{
		opts: opts, store: store, sender: sender, clock: opts.Clock, log: opts.Logger,
		domain: domain, text: text, html: html,
		outboxKick: make(chan struct{}, 1), deadlineKick: make(chan struct{}, 1),
	}, nil
}

// Run sends the outbox and watches the deadlines until ctx is done. Mail
// queued but not yet sent stays in the outbox; see Flush.
func (s *Service) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() { s.runOutbox(ctx) })
	wg.Go(func() { s.runDeadlines(ctx) })
	wg.Wait()
}

// txn is one transaction of the judge: the store, the time, the inbound
// mail being handled (nil for the deadline loop and the administration),
// and what it queued. Its methods handle the mail and do its commands;
// the round play, the seats, the letters and the rate limits are its
// parts (t.rounds(), t.seats(), t.letters(), t.limits(); doc.go).
type txn struct {
	storeTx
	s      *Service
	now    time.Time
	msg    *mail.Inbound
	log    *slog.Logger
	queued int
	// answer collects what a command given by the administration did
	// (Service.Admin); nil for mail and the deadline loop.
	answer *AdminAnswer
	// positions are the positions read in this transaction, by game and
	// turn: each is read from the store once.
	positions map[positionKey]engine.Position
	// req is what the mail in hand asks, once read.
	req *request
	// changed names the games the transaction wrote.
	changed map[string]bool
	// heard collects the letters queued, for a player's page that asked
	// (nil: not collected); unsent keeps them out of the outbox (a CHECK
	// from the page, answered on the page). reading is what the judge
	// made of the orders in hand, once read.
	heard   *[]*letter
	unsent  bool
	reading *engine.Reading
}

// putGame stores a game and notes it changed.
func (t *txn) putGame(g *Game) error {
	if t.changed == nil {
		t.changed = map[string]bool{}
	}
	t.changed[g.ID] = true
	return t.storeTx.putGame(g)
}

// update runs fn in a write transaction and wakes the loops after it
// committed.
func (s *Service) update(msg *mail.Inbound, log *slog.Logger, fn func(t *txn) error) error {
	return s.updateAll([]step{{msg, log, fn}})
}

// step is the work of one mail (or of the administration, or the
// deadline loop) in a transaction.
type step struct {
	msg *mail.Inbound
	log *slog.Logger
	fn  func(t *txn) error
}

// updateAll runs the steps, in order, in one write transaction, each with
// a txn of its own (its own position cache: a step sees what the steps
// before it wrote), and wakes the loops after the commit. A step's error
// rolls them all back.
func (s *Service) updateAll(steps []step) error {
	now := s.clock.Now()
	var queued int
	changed := map[string]bool{}
	err := s.store.db.Update(func(tx *store.Tx) error {
		queued = 0
		clear(changed)
		for _, st := range steps {
			t := &txn{storeTx: storeTx{tx}, s: s, now: now, msg: st.msg, log: st.log}
			if err := st.fn(t); err != nil {
				return err
			}
			queued += t.queued
			for id := range t.changed {
				changed[id] = true
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if queued > 0 {
		kick(s.outboxKick)
	}
	if len(changed) > 0 {
		if err := s.refreshDue(changed); err != nil {
			// The work is committed: a stale index only delays a deadline
			// until the loop reads every game again.
			s.log.Error("reading the changed games' deadlines", "err", err)
			s.due.mu.Lock()
			s.due.loaded = false
			s.due.mu.Unlock()
		}
		kick(s.deadlineKick)
	}
	return nil
}

func kick(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default: // a wake-up is pending already
	}
}

// Handle handles one inbound mail; it is a mail.Handler. Mail sent by a
// machine is logged and never answered; a bounce of the judge's mail to a
// player marks the player unreachable and tells the game master. Otherwise what the mail does and
// every mail it causes are committed together, once: a mail handled again
// (the same Message-ID) has no effect. An error means nothing was done and
// the mail should be handled again later, except mail.ErrSetAside for an
// Unreadable mail, whose sender has been told.
func (s *Service) Handle(ctx context.Context, msg *mail.Inbound) error {
	return s.HandleBatch(ctx, []*mail.Inbound{msg})[0]
}

// HandleBatch handles mails that arrived together, as Handle does each,
// and returns one error per mail; it is a mail.BatchHandler. The mails
// are handled in order in one transaction, one commit (one disk sync) for
// them all. Each mail's effects stay all or nothing: when one fails, the
// transaction is rolled back, and every mail is handled again alone, so
// that the one that fails fails alone and none is done twice.
//
// The mails are recorded in hand first (inhand.go): when the judge died
// with a mail of the batch in hand, they are handled one at a time, and a
// mail in hand at two deaths is set aside (mail.ErrSetAside).
func (s *Service) HandleBatch(ctx context.Context, msgs []*mail.Inbound) []error {
	errs := make([]error, len(msgs))
	keys := make([]string, len(msgs))
	for i, msg := range msgs {
		keys[i] = dedupeKey(msg)
	}
	records, err := s.store.inHandRecords(keys)
	if err != nil {
		return fill(errs, err)
	}
	if len(msgs) > 1 && slices.ContainsFunc(records, func(r inHand) bool { return r.Deaths > 0 }) {
		s.log.Warn("the judge died with mails of this batch in hand: each is handled alone", "mails", len(msgs))
		for i := range msgs {
			errs[i] = s.HandleBatch(ctx, msgs[i:i+1])[0]
		}
		return errs
	}
	if len(msgs) == 1 && records[0].Deaths >= deathsBeforeSetAside {
		return []error{s.setAsideKiller(msgs[0], keys[0], records[0])}
	}
	if err := s.store.takeInHand(keys, records); err != nil {
		return fill(errs, err)
	}
	errs = s.handleBatch(ctx, msgs, keys)
	if slices.ContainsFunc(errs, func(err error) bool { return err != nil }) {
		// The judge did not die: a mail that failed is as it was before.
		if err := s.store.putBackInHand(keys, records); err != nil {
			s.log.Error("the mails that failed stay recorded in hand", "err", err)
		}
	}
	return errs
}

// fill sets every error to err.
func fill(errs []error, err error) []error {
	for i := range errs {
		errs[i] = err
	}
	return errs
}

// handleBatch is HandleBatch once the mails are recorded in hand (keys are
// their dedupe keys): the transaction of each mail's effects removes its
// record.
func (s *Service) handleBatch(ctx context.Context, msgs []*mail.Inbound, keys []string) []error {
	errs := make([]error, len(msgs))
	var steps []step
	var together []int // the indexes of the mails of steps
	for i, msg := range msgs {
		log := s.log.With("message_id", msg.MessageID)
		key := keys[i]
		if msg.Unreadable != "" {
			errs[i] = fmt.Errorf("%w: %s", mail.ErrSetAside, msg.Unreadable)
		}
		if b, ok := mail.ReadBounce(msg); ok {
			errs[i] = errors.Join(s.handleBounce(msg, b, log), errs[i])
			continue
		}
		fn := func(t *txn) error {
			if t.processed(key) {
				t.log.Info("mail handled before; ignored", "from", t.msg.From.Email)
				return t.doneInHand(key)
			}
			if t.s.opts.InHand != nil {
				if err := t.s.opts.InHand(t.msg); err != nil {
					return err
				}
			}
			if err := t.handle(); err != nil {
				return err
			}
			if err := t.markProcessed(key, t.now); err != nil {
				return err
			}
			return t.doneInHand(key)
		}
		if reason, auto := mail.DetectAutomatic(msg, []string{s.opts.Address}); auto {
			fn = func(t *txn) error {
				t.log.Info("automatic mail ignored", "reason", reason, "from", t.msg.From.Email)
				return t.doneInHand(key)
			}
		}
		steps = append(steps, step{msg, log, fn})
		together = append(together, i)
	}
	if len(steps) == 0 {
		return errs
	}
	err := s.updateAll(steps)
	if err != nil && len(steps) > 1 {
		s.log.Warn("a mail of a batch failed; each is handled alone", "mails", len(steps), "err", err)
		for _, i := range together {
			errs[i] = s.handleBatch(ctx, msgs[i:i+1], keys[i:i+1])[0]
		}
		return errs
	}
	if err != nil {
		i := together[0]
		errs[i] = fmt.Errorf("handling mail %s: %w", msgs[i].MessageID, err)
	}
	return errs
}

// dedupeKey names an inbound mail: its Message-ID, or for the rare mail
// without one a hash of what identifies it.
func dedupeKey(msg *mail.Inbound) string {
	if msg.MessageID != "" {
		return "id:" + msg.MessageID
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", msg.From.Email, msg.Date.UTC().Format(time.RFC3339), msg.Subject, msg.Text)
	return "sum:" + hex.EncodeToString(h.Sum(nil))
}

// replyAddress is where an answer to the sender goes.
func replyAddress(msg *mail.Inbound) string {
	if len(msg.ReplyTo) > 0 && msg.ReplyTo[0].Email != "" {
		return msg.ReplyTo[0].Email
	}
	return msg.From.Email
}

// handle reads the mail in hand and does what it asks.
func (t *txn) handle() error {
	msg := t.msg
	if msg.Oversized {
		t.log.Info("oversized mail refused", "size", msg.Size, "from", msg.From.Email)
		return t.answerSender(kindError, "Your mail was too large",
			fmt.Sprintf("Your mail (%s) was larger than the judge reads (%s) and was not read.\n"+
				"Orders and commands are plain text: send them without attachments or pictures.",
				byteSize(msg.Size), byteSize(t.s.opts.MaxMessageSize)))
	}
	if msg.Unreadable != "" {
		t.log.Info("unreadable mail set aside", "why", msg.Unreadable, "from", msg.From.Email)
		return t.answerSender(kindError, "Your mail could not be read",
			fmt.Sprintf("Your mail had %s and was not read; it is kept aside for the club's administrator.\n"+
				"Orders and commands are plain text: send them in a plain mail, without attachments.", msg.Unreadable))
	}
	own := mail.StripQuoted(msg.Text)
	if n, limit := lineCount(own), t.s.opts.Limits.MaxLines; n > limit {
		t.log.Info("overlong mail refused", "lines", n, "from", msg.From.Email)
		return t.answerSender(kindError, "Your mail was too long",
			fmt.Sprintf("Your mail has %d lines of text besides quotes; the judge reads at most %d and did\n"+
				"nothing with it. Send only the orders or the command.", n, limit))
	}
	if done, err := t.seats().confirmAddress(); done || err != nil {
		return err
	}
	req := readStripped(msg, own)
	t.req = req
	if req.Empty {
		if strings.TrimSpace(msg.Text) != "" {
			t.log.Info("mail with only quoted text; help sent", "from", msg.From.Email)
			return t.help(onlyQuotedText)
		}
		t.log.Info("mail without text; help sent", "from", msg.From.Email)
		return t.help(noReadableText)
	}
	t.log.Info("mail received", "command", cmp.Or(req.Command, "orders"), "from", msg.From.Email)
	if !gmCommands[req.Command] && req.Command != cmdTimezone || !t.isGM(req) {
		return t.dispatch(req)
	}
	// The game master's mail: every command in it, in order, each
	// answered, each answer naming its line.
	for _, r := range readGMCommands(req.Text, msg.Subject) {
		t.req = r
		if err := t.dispatch(r); err != nil {
			return err
		}
	}
	return nil
}

// dispatch does what a read request asks.
func (t *txn) dispatch(req *request) error {
	switch {
	case req.Command == cmdHelp:
		return t.help("")
	case req.Command == cmdSubscribe || req.Command == cmdUnsubscribe:
		return t.subscribe(req)
	case req.Command == cmdJoin:
		return t.seats().join(req)
	case gmCommands[req.Command], req.Command == cmdTimezone && t.isGM(req):
		return t.gmCommand(req)
	default:
		return t.playerRequest(req)
	}
}

// answerSender answers the sender of the mail in hand about no game (help
// and errors for strangers). A mail without a usable sender address is
// only logged.
//
// A mail that carries a player's secret is answered as the judge answers
// that player: at the player's address, with the Reply-To that carries the
// secret and in the game's thread, so that the player can simply reply.
func (t *txn) answerSender(kind, subject, body string) error {
	id, err := t.knownSender()
	if err != nil {
		return err
	}
	if id != nil {
		text, err := t.s.render(kind, &mailData{Body: body})
		if err != nil {
			return err
		}
		return t.letters().queue(&letter{kind: kind, game: id.game, side: id.side, to: id.game.Player(id.side).Address,
			subject: "[" + id.game.ID + "] " + subject, text: text})
	}
	to, note, err := t.strangerAnswer()
	if to == "" || err != nil {
		return err
	}
	text, err := t.s.render(kind, &mailData{Body: joinNote(body, note)})
	if err != nil {
		return err
	}
	return t.letters().queue(&letter{kind: kind, to: to, subject: "Fieldpost: " + subject, text: text})
}

func (t *txn) help(intro string) error {
	return t.answerSender(kindHelp, "how to play by mail", intro)
}

// knownSender returns the player whose secret the mail in hand carries
// (in a PASSWORD line or its reply address), nil for anyone else.
func (t *txn) knownSender() (*identity, error) {
	req := t.req
	if req == nil {
		req = &request{}
	}
	for _, secret := range t.secrets(req) {
		gameID, side, ok := t.tokenOwner(hashSecret(secret))
		if !ok {
			continue
		}
		g, err := t.game(gameID)
		if err != nil {
			return nil, err
		}
		if g != nil && g.Player(side) != nil {
			return &identity{g, side}, nil
		}
	}
	return nil, nil
}

// strangerAnswer is where an answer to the sender of the mail in hand
// goes, "" when there is none or when the StrangerAnswers limit holds it
// back (a sender who is no player, observer or GM), with the note on the
// answers held back before.
func (t *txn) strangerAnswer() (to, note string, err error) {
	to = t.senderAddress()
	if to == "" {
		return "", "", nil
	}
	known, err := t.knownAddress(to, t.s.opts.GMAddress)
	if err != nil || known {
		return to, "", err
	}
	ok, note, err := t.limits().allow(limitStranger, to, t.s.opts.StrangerAnswers)
	if !ok || err != nil {
		return "", "", err
	}
	return to, note, nil
}

// joinNote puts a limit's note after a mail's text.
func joinNote(body, note string) string {
	if note == "" {
		return body
	}
	if body == "" {
		return note
	}
	return body + "\n\n" + note
}

// senderAddress is where an answer to the sender of the mail in hand
// goes, "" (logged) when there is no address mail can be sent to: such a
// mail would fail to compose at every retry.
func (t *txn) senderAddress() string {
	to := replyAddress(t.msg)
	if !sendable(to) {
		t.log.Info("no address to answer", "address", to)
		return ""
	}
	return to
}

// sendable reports whether mail can be sent to addr: an addr-spec without
// spaces, brackets or commas, as mail.Compose requires.
func sendable(addr string) bool {
	local, domain, ok := strings.Cut(addr, "@")
	return ok && local != "" && domain != "" && !strings.ContainsAny(addr, "<> \t\r\n,\"")
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
