package pbem

import (
	"cmp"
	"context"
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
