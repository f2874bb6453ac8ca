package mail

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// IntakeConfig configures an [Intake]. Zero fields take the documented
// defaults.
type IntakeConfig struct {
	// Addr is the IMAP server's host:port, e.g. "imap.club.example:993".
	Addr string
	// TLS says how the connection is secured; the zero value is implicit TLS.
	TLS TLSMode
	// TLSConfig optionally customises TLS, e.g. with a private CA in tests.
	// The server name defaults to the host of Addr.
	TLSConfig *tls.Config
	// Username and Password log in with the IMAP LOGIN command.
	Username, Password string
	// Mailbox is watched for new mail; "INBOX" by default.
	Mailbox string
	// ProcessedMailbox receives each handled message; "Processed" by
	// default. It is created when missing.
	ProcessedMailbox string
	// SetAsideMailbox receives the messages set aside: those the handler
	// answered with ErrSetAside and those whose reading or handling
	// panicked. "Unreadable" by default; created when first needed.
	SetAsideMailbox string
	// LeaveSetAside leaves the messages that would be set aside in Mailbox,
	// untouched and not handed over again while the intake runs: for a
	// program that reads a mailbox a person shares (a bot player), which
	// moves only the mail it deals with.
	LeaveSetAside bool
	// PollInterval is the longest time between two checks of Mailbox; one
	// minute by default. With IDLE, new mail is seen at once and polling is
	// only a safety net.
	PollInterval time.Duration
	// DisableIdle makes the intake poll even when the server advertises
	// IDLE, for servers whose IDLE is unreliable.
	DisableIdle bool
	// MaxMessageSize is the size limit passed to Parse; 10 MiB by default.
	// Only this much (plus one byte) of a bigger message is fetched.
	MaxMessageSize int64
	// Limits bound the reading of one message (DefaultLimits by default);
	// a message beyond them comes to the handler Unreadable.
	Limits Limits
	// RetryMin and RetryMax bound the exponential backoff, with jitter,
	// before reconnecting and before retrying a message whose handler
	// failed; 1 s and 5 min by default.
	RetryMin, RetryMax time.Duration
	// ReconnectMax caps the wait before reconnecting (15 s by default, and
	// at most RetryMax), so that the intake reads mail again soon after a
	// long outage of the server ends.
	ReconnectMax time.Duration
	// ProcessedKeep is how long handled messages are kept in
	// ProcessedMailbox (by the date they arrived); older ones are deleted
	// once a day. Zero keeps them for ever.
	ProcessedKeep time.Duration
	// Logger receives the intake's logs; slog.Default() when nil.
	Logger *slog.Logger
}

// Handler handles one inbound mail. Returning nil means the mail is dealt
// with for good and it is moved to the processed mailbox; returning an
// error wrapping ErrSetAside means it is dealt with but moved to the
// set-aside mailbox; one wrapping ErrLeave, that it is not the handler's
// and stays untouched; any other error leaves it in the watched mailbox to be
// handled again later. A handler is therefore called at least once per
// message, and may be called again for a message it handled if the move
// failed and the process restarted: use Inbound.MessageID to recognise
// repeats.
type Handler func(ctx context.Context, msg *Inbound) error

// BatchHandler handles several inbound mails that arrived together, in
// mailbox order, and returns one error per mail, each with a Handler's
// meaning for its own mail: a mail that fails must not change what
// happens to the others.
type BatchHandler func(ctx context.Context, msgs []*Inbound) []error

// fetchBatch is how many messages one FETCH takes at most, and so how
// many mails a BatchHandler is given at once.
const fetchBatch = 50

// ErrSetAside, returned (wrapped) by a Handler, says that the mail cannot be
// read, for instance because it is Unreadable, and must never be handled
// again: the intake moves it to the set-aside mailbox for a human to look
// at. The handler has told the sender, or chosen not to.
var ErrSetAside = errors.New("mail set aside")

// ErrLeave, returned (wrapped) by a Handler, says that the mail is not the
// handler's to deal with (a mail of someone else, in a mailbox shared
// with a person): the intake leaves it in the watched mailbox as it is,
// neither moved nor flagged, and does not hand it over again while it
// runs.
var ErrLeave = errors.New("mail left alone")

// Intake watches an IMAP mailbox and hands each new message to a
// [Handler].
type Intake struct {
	cfg    IntakeConfig
	log    *slog.Logger
	poke   chan struct{}
	passes atomic.Uint64
	// running guards against two concurrent Runs, which would handle each
	// message twice.
	running atomic.Bool
}

// idleRestartInterval is how long one IDLE command may last. RFC 2177 asks
// for less than 29 minutes; much shorter keeps NAT gateways and firewalls
// from silently dropping the idle connection.
const idleRestartInterval = 5 * time.Minute

// NewIntake checks cfg, fills in defaults and returns an Intake.
func NewIntake(cfg IntakeConfig) (*Intake, error) {
	if cfg.Addr == "" || cfg.Username == "" {
		return nil, errors.New("mail: intake: Addr and Username are required")
	}
	cfg.Mailbox = cmp.Or(cfg.Mailbox, "INBOX")
	cfg.ProcessedMailbox = cmp.Or(cfg.ProcessedMailbox, "Processed")
	cfg.SetAsideMailbox = cmp.Or(cfg.SetAsideMailbox, "Unreadable")
	if cfg.Mailbox == cfg.ProcessedMailbox || cfg.Mailbox == cfg.SetAsideMailbox {
		return nil, fmt.Errorf("mail: intake: Mailbox %q is also where handled messages go", cfg.Mailbox)
	}
	cfg.Limits = cfg.Limits.withDefaults()
	cfg.PollInterval = cmp.Or(cfg.PollInterval, time.Minute)
	cfg.MaxMessageSize = cmp.Or(cfg.MaxMessageSize, 10<<20)
	// A floor on RetryMin keeps a misconfiguration from turning retries
	// into a busy loop against the server.
	cfg.RetryMin = max(cmp.Or(cfg.RetryMin, time.Second), 10*time.Millisecond)
	cfg.RetryMax = max(cmp.Or(cfg.RetryMax, 5*time.Minute), cfg.RetryMin)
	cfg.ReconnectMax = max(min(cmp.Or(cfg.ReconnectMax, 15*time.Second), cfg.RetryMax), cfg.RetryMin)
	if cfg.PollInterval < 0 || cfg.MaxMessageSize < 0 || cfg.ProcessedKeep < 0 {
		return nil, errors.New("mail: intake: negative PollInterval, MaxMessageSize or ProcessedKeep")
	}
	if cfg.TLS != TLSNone {
		tlsConfig, err := tlsConfigFor(cfg.Addr, cfg.TLSConfig)
		if err != nil {
			return nil, err
		}
		cfg.TLSConfig = tlsConfig
	}
	logger := cmp.Or(cfg.Logger, slog.Default())
	return &Intake{
		cfg:  cfg,
		log:  logger.With("imap_addr", cfg.Addr, "mailbox", cfg.Mailbox),
		poke: make(chan struct{}, 1),
	}, nil
}

// Poke asks a running intake to check the mailbox now instead of waiting
// for IDLE news or the poll interval. It never blocks.
func (in *Intake) Poke() {
	select {
	case in.poke <- struct{}{}:
	default: // a check is already pending
	}
}

// Passes returns how many complete passes over the mailbox Run has made.
// A pass fetches every new or retry-due message and calls the handler on
// it. At most one pass is under way at any time, so once Passes has grown
// by two after a Poke or an append, a whole pass has begun after it.
func (in *Intake) Passes() uint64 {
	return in.passes.Load()
}

// Run watches the mailbox until ctx is done, then returns nil. It only
// returns an error at once, for a nil handler or when the intake is
// already running.
//
// Each pass fetches the messages that arrived since the last one (tracked
// by UID, reset when the mailbox's UIDVALIDITY changes) with BODY.PEEK, so
// that \Seen is never set, parses them and calls handle. A message is
// moved to the processed mailbox only after handle returns nil; on error
// it stays and is retried after a backoff. Between passes Run waits in
// IDLE when the server has it, else it polls. A lost connection or failed
// login is retried with exponential backoff capped at ReconnectMax.
func (in *Intake) Run(ctx context.Context, handle Handler) error {
	if handle == nil {
		return errors.New("mail: intake: nil handler")
	}
	return in.RunBatch(ctx, func(ctx context.Context, msgs []*Inbound) []error {
		errs := make([]error, len(msgs))
		for i, msg := range msgs {
			if ctx.Err() != nil {
				errs[i] = ctx.Err()
				continue
			}
			errs[i] = handleSafely(ctx, handle, msg)
		}
		return errs
	})
}

// RunBatch is Run with a handler given the mails that arrived together
// (up to 50) at once, fetched in one command and moved in one command per
// destination once handled. A panic of the handler is taken as one of a
// mail of the batch: the mails are then handed over one at a time, and
// the one that panics again is set aside.
func (in *Intake) RunBatch(ctx context.Context, handle BatchHandler) error {
	if handle == nil {
		return errors.New("mail: intake: nil handler")
	}
	if !in.running.CompareAndSwap(false, true) {
		return errors.New("mail: intake: already running")
	}
	defer in.running.Store(false)

	if in.cfg.ProcessedKeep > 0 {
		go in.keepProcessed(ctx)
	}
	st := &mailboxState{retries: make(map[imap.UID]*retryState)}
	failures := 0
	for {
		reachedMailbox, err := in.session(ctx, handle, st)
		if ctx.Err() != nil {
			in.log.Info("mail intake stopped")
			return nil
		}
		if reachedMailbox {
			failures = 0 // the server worked until now: start the backoff over
		}
		failures++
		delay := backoff(failures, in.cfg.RetryMin, in.cfg.ReconnectMax)
		in.log.Warn("imap session ended; reconnecting", "err", err, "attempt", failures, "retry_in", delay)
		select {
		case <-ctx.Done():
			in.log.Info("mail intake stopped")
			return nil
		case <-time.After(delay):
		}
	}
}

// Check connects to the server, logs in and out once, and returns what
// failed: for a program that runs once (from cron, say) and should stop at
// once with the reason, where Run would retry.
func (in *Intake) Check(ctx context.Context) error {
	c, done, err := in.login(ctx)
	if err != nil {
		return err
	}
	defer done()
	return c.Logout().Wait()
}

// login opens a connection of its own and logs in; done closes it.
func (in *Intake) login(ctx context.Context) (c *imapclient.Client, done func(), err error) {
	c, err = in.connect(ctx, make(chan struct{}, 1))
	if err != nil {
		return nil, nil, err
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	done = func() {
		stop()
		c.Close()
	}
	if err := c.WaitGreeting(); err != nil {
		done()
		return nil, nil, fmt.Errorf("imap greeting: %w", err)
	}
	if err := c.Login(in.cfg.Username, in.cfg.Password).Wait(); err != nil {
		done()
		return nil, nil, fmt.Errorf("imap login as %q: %w", in.cfg.Username, err)
	}
	return c, done, nil
}

// session runs one IMAP connection until it fails or ctx is done.
// reachedMailbox reports whether it got as far as selecting the mailbox.
func (in *Intake) session(ctx context.Context, handle BatchHandler, st *mailboxState) (reachedMailbox bool, err error) {
	// EXISTS responses, which announce new mail, arrive on the client's
	// reader goroutine; wake carries them to the waiting loop.
	wake := make(chan struct{}, 1)
	c, err := in.connect(ctx, wake)
	if err != nil {
		return false, err
	}
	defer c.Close()
	// imapclient has no context support: closing the connection is what
	// interrupts a command or IDLE when ctx ends.
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()

	if err := c.WaitGreeting(); err != nil {
		return false, fmt.Errorf("imap greeting: %w", err)
	}
	if err := c.Login(in.cfg.Username, in.cfg.Password).Wait(); err != nil {
		return false, fmt.Errorf("imap login as %q: %w", in.cfg.Username, err)
	}
	if err := in.ensureMailbox(c, in.cfg.ProcessedMailbox); err != nil {
		return false, err
	}
	selected, err := c.Select(in.cfg.Mailbox, nil).Wait()
	if err != nil {
		return false, fmt.Errorf("imap SELECT %q: %w", in.cfg.Mailbox, err)
	}
	if st.useUIDValidity(selected.UIDValidity) {
		in.log.Warn("mailbox UIDVALIDITY changed; rescanning all messages", "uidvalidity", selected.UIDValidity)
	}
	in.log.Info("imap mailbox selected", "messages", selected.NumMessages,
		"idle", !in.cfg.DisableIdle && c.Caps().Has(imap.CapIdle), "move", c.Caps().Has(imap.CapMove))

	for {
		if err := in.pass(ctx, c, handle, st); err != nil {
			return true, err
		}
		in.passes.Add(1)
		if err := in.waitForNews(ctx, c, st, wake); err != nil {
			return true, err
		}
	}
}

// connect opens the connection and, for STARTTLS, secures it.
func (in *Intake) connect(ctx context.Context, wake chan struct{}) (*imapclient.Client, error) {
	conn, err := dial(ctx, in.cfg.Addr, in.cfg.TLS, in.cfg.TLSConfig)
	if err != nil {
		return nil, fmt.Errorf("imap connect: %w", err)
	}
	options := &imapclient.Options{
		TLSConfig: in.cfg.TLSConfig,
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(data *imapclient.UnilateralDataMailbox) {
				if data.NumMessages != nil {
					select {
					case wake <- struct{}{}:
					default: // already signalled
					}
				}
			},
		},
	}
	if in.cfg.TLS != TLSStartTLS {
		return imapclient.New(conn, options), nil
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	c, err := imapclient.NewStartTLS(conn, options)
	if err != nil {
		return nil, fmt.Errorf("imap STARTTLS: %w", err)
	}
	return c, nil
}

// waitForNews waits until the mailbox may have changed: new mail announced
// during IDLE, a Poke, a retry falling due, or the poll interval (at most
// idleRestartInterval) elapsing.
func (in *Intake) waitForNews(ctx context.Context, c *imapclient.Client, st *mailboxState, wake <-chan struct{}) error {
	delay := min(in.cfg.PollInterval, idleRestartInterval)
	if next, ok := st.nextRetry(); ok {
		delay = min(delay, time.Until(next))
	}
	if delay <= 0 {
		return nil
	}
	timer := time.NewTimer(delay)
	defer timer.Stop()

	if in.cfg.DisableIdle || !c.Caps().Has(imap.CapIdle) {
		return in.wait(ctx, c, wake, timer.C)
	}
	idle, err := c.Idle()
	if err != nil {
		return fmt.Errorf("imap IDLE: %w", err)
	}
	if err := in.wait(ctx, c, wake, timer.C); err != nil {
		return err // the connection is closed or being closed: no DONE
	}
	if err := idle.Close(); err != nil {
		return fmt.Errorf("imap IDLE DONE: %w", err)
	}
	if err := idle.Wait(); err != nil {
		return fmt.Errorf("imap IDLE: %w", err)
	}
	return nil
}

func (in *Intake) wait(ctx context.Context, c *imapclient.Client, wake <-chan struct{}, timeout <-chan time.Time) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-c.Closed():
		return errors.New("imap connection closed by the server")
	case <-in.poke:
	case <-wake:
	case <-timeout:
	}
	return nil
}
