package mail

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"slices"
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

// purgeInterval is how often the handled messages older than
// ProcessedKeep are deleted; purgeRetry the wait after a failed purge.
const (
	purgeInterval = 24 * time.Hour
	purgeRetry    = time.Hour
)

// keepProcessed deletes the handled messages older than ProcessedKeep at
// the start and once a day, over a connection of its own, so that the
// processed mailbox does not grow for ever.
func (in *Intake) keepProcessed(ctx context.Context) {
	for {
		wait := purgeInterval
		n, err := in.PurgeProcessed(ctx, time.Now().Add(-in.cfg.ProcessedKeep))
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			in.log.Warn("deleting old handled messages failed; will retry", "mailbox", in.cfg.ProcessedMailbox, "retry_in", purgeRetry, "err", err)
			wait = purgeRetry
		case n > 0:
			in.log.Info("old handled messages deleted", "mailbox", in.cfg.ProcessedMailbox, "messages", n, "kept", in.cfg.ProcessedKeep)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// PurgeProcessed deletes the messages of the processed mailbox that
// arrived before the given time, and returns how many it deleted.
func (in *Intake) PurgeProcessed(ctx context.Context, before time.Time) (int, error) {
	c, done, err := in.login(ctx)
	if err != nil {
		return 0, err
	}
	defer done()
	if _, err := c.Select(in.cfg.ProcessedMailbox, nil).Wait(); err != nil {
		if noMailbox(err) {
			// Made by the first message handled: nothing to delete yet.
			return 0, c.Logout().Wait()
		}
		return 0, fmt.Errorf("imap SELECT %q: %w", in.cfg.ProcessedMailbox, err)
	}
	// IMAP's BEFORE compares dates only: a message of the day before is
	// the newest deleted.
	data, err := c.UIDSearch(&imap.SearchCriteria{Before: before}, nil).Wait()
	if err != nil {
		return 0, fmt.Errorf("imap UID SEARCH BEFORE in %q: %w", in.cfg.ProcessedMailbox, err)
	}
	uids := data.AllUIDs()
	if len(uids) == 0 {
		return 0, c.Logout().Wait()
	}
	if err := deleteMessages(c, imap.UIDSetNum(uids...)); err != nil {
		return 0, fmt.Errorf("in %q: %w", in.cfg.ProcessedMailbox, err)
	}
	return len(uids), c.Logout().Wait()
}

// noMailbox reports whether err is a server's answer that a mailbox does
// not exist (NONEXISTENT, or TRYCREATE as some servers answer).
func noMailbox(err error) bool {
	var ie *imap.Error
	return errors.As(err, &ie) && (ie.Code == imap.ResponseCodeNonExistent || ie.Code == imap.ResponseCodeTryCreate)
}

// mailboxState is what Run remembers about the watched mailbox across
// connections.
type mailboxState struct {
	uidValidity uint32
	// lastUID is the highest UID fetched; newer messages have higher UIDs.
	lastUID imap.UID
	// retries holds the messages at or below lastUID still in the mailbox
	// because handling or moving them failed.
	retries map[imap.UID]*retryState
}

type retryState struct {
	attempts  int
	notBefore time.Time
	// handled is set once the handler succeeded: only the move to the
	// mailbox moveTo is left to do, the handler is not called again.
	handled bool
	moveTo  string
}

// useUIDValidity records the UIDVALIDITY of a newly selected mailbox. When
// it changed, the UIDs remembered are meaningless and are forgotten, so
// that every message in the mailbox is fetched again.
func (st *mailboxState) useUIDValidity(v uint32) (changed bool) {
	changed = st.uidValidity != 0 && st.uidValidity != v
	if changed {
		st.lastUID = 0
		clear(st.retries)
	}
	st.uidValidity = v
	return changed
}

// fail records a failed attempt on uid and schedules the next one.
func (st *mailboxState) fail(uid imap.UID, first, last time.Duration) *retryState {
	r := st.retries[uid]
	if r == nil {
		r = &retryState{}
		st.retries[uid] = r
	}
	r.attempts++
	r.notBefore = time.Now().Add(backoff(r.attempts, first, last))
	return r
}

// due returns the UIDs whose retry time has come, in ascending order.
func (st *mailboxState) due(now time.Time) []imap.UID {
	var uids []imap.UID
	for uid, r := range st.retries {
		if !r.notBefore.After(now) {
			uids = append(uids, uid)
		}
	}
	slices.Sort(uids)
	return uids
}

// nextRetry returns the earliest scheduled retry.
func (st *mailboxState) nextRetry() (time.Time, bool) {
	var next time.Time
	for _, r := range st.retries {
		if next.IsZero() || r.notBefore.Before(next) {
			next = r.notBefore
		}
	}
	return next, !next.IsZero()
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

// ensureMailbox creates the named mailbox unless it exists.
func (in *Intake) ensureMailbox(c *imapclient.Client, name string) error {
	list, err := c.List("", name, nil).Collect()
	if err != nil {
		return fmt.Errorf("imap LIST %q: %w", name, err)
	}
	if len(list) > 0 {
		return nil
	}
	if err := c.Create(name, nil).Wait(); err != nil {
		return fmt.Errorf("imap CREATE %q: %w", name, err)
	}
	in.log.Info("created mailbox", "name", name)
	return nil
}

// pass handles the retry-due messages, then the new ones, a batch at a
// time. It returns an error only when the connection is no longer usable.
func (in *Intake) pass(ctx context.Context, c *imapclient.Client, handle BatchHandler, st *mailboxState) error {
	fresh, err := newUIDs(c, st.lastUID)
	if err != nil {
		return err
	}
	uids := append(st.due(time.Now()), fresh...)
	for len(uids) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(len(uids), fetchBatch)
		if err := in.processBatch(ctx, c, handle, st, uids[:n]); err != nil {
			return err
		}
		uids = uids[n:]
	}
	return nil
}

// newUIDs returns the UIDs above last of the messages not flagged \Deleted.
func newUIDs(c *imapclient.Client, last imap.UID) ([]imap.UID, error) {
	data, err := c.UIDSearch(&imap.SearchCriteria{
		UID:     []imap.UIDSet{{{Start: last + 1, Stop: 0}}}, // last+1:*
		NotFlag: []imap.Flag{imap.FlagDeleted},
	}, nil).Wait()
	if err != nil {
		return nil, fmt.Errorf("imap UID SEARCH: %w", err)
	}
	var uids []imap.UID
	for _, uid := range data.AllUIDs() {
		// "n:*" always includes the highest UID, even when it is below n.
		if uid > last {
			uids = append(uids, uid)
		}
	}
	slices.Sort(uids)
	return uids, nil
}

// processBatch fetches, parses and handles messages and moves them to
// the processed mailbox. Failures that concern only some messages are
// logged and scheduled for retry; the error return is for a connection
// that is no longer usable.
func (in *Intake) processBatch(ctx context.Context, c *imapclient.Client, handle BatchHandler, st *mailboxState, uids []imap.UID) error {
	var toFetch, handled []imap.UID
	for _, uid := range uids {
		if r := st.retries[uid]; r != nil && r.handled {
			handled = append(handled, uid)
			continue
		}
		toFetch = append(toFetch, uid)
	}
	if err := in.moveHandledAgain(c, st, handled); err != nil {
		return err
	}
	if len(toFetch) == 0 {
		return nil
	}
	fetched, err := in.fetch(c, toFetch)
	if err != nil {
		if !isCommandError(err) {
			return err
		}
		for _, uid := range toFetch {
			r := st.fail(uid, in.cfg.RetryMin, in.cfg.RetryMax)
			in.log.Warn("imap server refused to fetch message; will retry", "uid", uid, "attempt", r.attempts, "err", err)
		}
		return nil
	}
	var msgs []*Inbound
	var msgUIDs []imap.UID
	moves := map[string][]imap.UID{}
	for _, uid := range toFetch {
		log := in.log.With("uid", uid)
		st.lastUID = max(st.lastUID, uid)
		f, found := fetched[uid]
		if !found {
			delete(st.retries, uid) // expunged by someone else meanwhile
			continue
		}
		msg, err := parseSafely(f.raw, in.cfg.MaxMessageSize, in.cfg.Limits)
		if errors.Is(err, ErrSetAside) && in.cfg.LeaveSetAside {
			delete(st.retries, uid)
			log.Error("message that cannot be read left in the mailbox", "size", f.size, "err", err)
			continue
		}
		if errors.Is(err, ErrSetAside) {
			log.Error("message set aside", "size", f.size, "moved_to", in.cfg.SetAsideMailbox, "err", err)
			st.retries[uid] = &retryState{handled: true, moveTo: in.cfg.SetAsideMailbox}
			moves[in.cfg.SetAsideMailbox] = append(moves[in.cfg.SetAsideMailbox], uid)
			continue
		}
		if err != nil {
			// Retrying cannot make an unreadable message readable; it stays in
			// the mailbox for a human and is tried again after a restart.
			delete(st.retries, uid)
			log.Error("unreadable message left in mailbox", "size", f.size, "err", err)
			continue
		}
		msg.Size = max(msg.Size, f.size)
		msgs = append(msgs, msg)
		msgUIDs = append(msgUIDs, uid)
	}
	if len(msgs) > 0 {
		errs := handleBatchSafely(ctx, handle, msgs)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		for i, err := range errs {
			uid, msg := msgUIDs[i], msgs[i]
			moveTo := in.cfg.ProcessedMailbox
			if err != nil {
				log := in.log.With("uid", uid, "message_id", msg.MessageID, "from", msg.From.Email)
				if errors.Is(err, ErrLeave) || errors.Is(err, ErrSetAside) && in.cfg.LeaveSetAside {
					delete(st.retries, uid)
					log.Info("message left in the mailbox", "reason", err)
					continue
				}
				if !errors.Is(err, ErrSetAside) {
					r := st.fail(uid, in.cfg.RetryMin, in.cfg.RetryMax)
					log.Warn("handler failed; message stays in mailbox", "attempt", r.attempts,
						"retry_in", time.Until(r.notBefore).Round(time.Millisecond), "err", err)
					continue
				}
				log.Error("message set aside", "size", msg.Size, "moved_to", in.cfg.SetAsideMailbox, "err", err)
				moveTo = in.cfg.SetAsideMailbox
			}
			st.retries[uid] = &retryState{handled: true, moveTo: moveTo}
			moves[moveTo] = append(moves[moveTo], uid)
		}
	}
	return in.moveAllHandled(c, st, moves)
}

// handleBatchSafely calls handle on msgs. A panic is taken as one of a
// single mail: the mails are handed over again one at a time, and the one
// that panics then is set aside (ErrSetAside), as it would crash the
// handler at every retry and after every restart.
func handleBatchSafely(ctx context.Context, handle BatchHandler, msgs []*Inbound) []error {
	var failure error
	errs := func() (errs []error) {
		defer func() {
			if p := recover(); p != nil {
				errs, failure = nil, fmt.Errorf("%w: the handler panicked: %v\n%s", ErrSetAside, p, debug.Stack())
			}
		}()
		return handle(ctx, msgs)
	}()
	if failure == nil && len(errs) != len(msgs) {
		failure = fmt.Errorf("%w: the handler gave %d answers for %d mails", ErrSetAside, len(errs), len(msgs))
	}
	switch {
	case failure == nil:
		return errs
	case len(msgs) == 1:
		return []error{failure}
	}
	errs = make([]error, len(msgs))
	for i, msg := range msgs {
		errs[i] = handleBatchSafely(ctx, handle, []*Inbound{msg})[0]
	}
	return errs
}

// parseSafely parses a fetched message, turning a panic into ErrSetAside.
func parseSafely(raw []byte, limit int64, limits Limits) (msg *Inbound, err error) {
	defer func() {
		if p := recover(); p != nil {
			msg, err = nil, fmt.Errorf("%w: reading it panicked: %v\n%s", ErrSetAside, p, debug.Stack())
		}
	}()
	return parseBytes(raw, limit, limits)
}

// handleSafely calls handle, turning a panic into ErrSetAside: a message
// that crashed the handler once would crash it again at every retry and
// after every restart.
func handleSafely(ctx context.Context, handle Handler, msg *Inbound) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: the handler panicked: %v\n%s", ErrSetAside, p, debug.Stack())
		}
	}()
	return handle(ctx, msg)
}

// fetched is a message fetched: at most MaxMessageSize+1 bytes of it,
// which is enough for Parse to tell it is oversized, and its real size.
type fetched struct {
	raw  []byte
	size int64
}

// fetch fetches the messages with the given UIDs in one command; a UID
// missing from the result names a message that no longer exists.
func (in *Intake) fetch(c *imapclient.Client, uids []imap.UID) (map[imap.UID]fetched, error) {
	limit := in.cfg.MaxMessageSize
	cmd := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{
		UID:        true,
		RFC822Size: true,
		// PEEK leaves \Seen alone, so that a human looking at the mailbox
		// sees what is still unread; the partial range keeps an oversized
		// message from being transferred whole.
		BodySection: []*imap.FetchItemBodySection{{
			Peek:    true,
			Partial: &imap.SectionPartial{Offset: 0, Size: limit + 1},
		}},
	})
	defer cmd.Close()
	out := map[imap.UID]fetched{}
	for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
		var uid imap.UID
		var f fetched
		found := false
		for item := msg.Next(); item != nil; item = msg.Next() {
			switch item := item.(type) {
			case imapclient.FetchItemDataUID:
				uid = item.UID
			case imapclient.FetchItemDataRFC822Size:
				f.size = item.Size
			case imapclient.FetchItemDataBodySection:
				if item.Literal == nil {
					continue
				}
				// The server may ignore the partial range: read no more
				// than the limit needs either way.
				raw, err := io.ReadAll(io.LimitReader(item.Literal, limit+1))
				if err != nil {
					return nil, fmt.Errorf("imap UID FETCH %d: reading body: %w", uid, err)
				}
				f.raw, found = raw, true
			}
		}
		if found && uid != 0 {
			out[uid] = f
		}
	}
	if err := cmd.Close(); err != nil {
		return nil, fmt.Errorf("imap UID FETCH %v: %w", uids, err)
	}
	return out, nil
}

// moveHandledAgain moves handled messages whose move did not complete,
// those still in the mailbox: a move cut off with the connection may have
// been done by the server, and a UID MOVE of messages gone is an empty
// move, which some servers answer badly.
func (in *Intake) moveHandledAgain(c *imapclient.Client, st *mailboxState, uids []imap.UID) error {
	if len(uids) == 0 {
		return nil
	}
	data, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{imap.UIDSetNum(uids...)}}, nil).Wait()
	if err != nil {
		return fmt.Errorf("imap UID SEARCH of messages to move: %w", err)
	}
	present := data.AllUIDs()
	moves := map[string][]imap.UID{}
	for _, uid := range uids {
		if !slices.Contains(present, uid) {
			delete(st.retries, uid)
			in.log.Info("handled message already moved before the connection was lost", "uid", uid)
			continue
		}
		dest := st.retries[uid].moveTo
		moves[dest] = append(moves[dest], uid)
	}
	return in.moveAllHandled(c, st, moves)
}

// moveAllHandled moves handled messages to their mailboxes, one command
// per mailbox.
func (in *Intake) moveAllHandled(c *imapclient.Client, st *mailboxState, moves map[string][]imap.UID) error {
	for _, dest := range []string{in.cfg.ProcessedMailbox, in.cfg.SetAsideMailbox} {
		if len(moves[dest]) == 0 {
			continue
		}
		if err := in.moveHandled(c, st, moves[dest], dest); err != nil {
			return err
		}
	}
	return nil
}

// moveHandled moves handled messages to the mailbox dest, in one
// command. A refused move is logged and retried later without calling the
// handler again.
func (in *Intake) moveHandled(c *imapclient.Client, st *mailboxState, uids []imap.UID, dest string) error {
	var err error
	if dest == in.cfg.SetAsideMailbox {
		// Created only when needed: most accounts never see such a mail.
		err = in.ensureMailbox(c, dest)
	}
	if err == nil {
		err = moveMessages(c, uids, dest)
	}
	if err != nil {
		if !isCommandError(err) {
			return err
		}
		for _, uid := range uids {
			r := st.fail(uid, in.cfg.RetryMin, in.cfg.RetryMax)
			in.log.Warn("imap server refused to move handled message; will retry the move", "uid", uid, "attempt", r.attempts, "err", err)
		}
		return nil
	}
	for _, uid := range uids {
		delete(st.retries, uid)
		in.log.Info("message handled", "uid", uid, "moved_to", dest)
	}
	return nil
}

// moveMessages moves messages with UID MOVE when the server has it, else
// with UID COPY, \Deleted and UID EXPUNGE (plain EXPUNGE without UIDPLUS,
// which also removes other messages already flagged \Deleted).
func moveMessages(c *imapclient.Client, list []imap.UID, dest string) error {
	uids := imap.UIDSetNum(list...)
	if c.Caps().Has(imap.CapMove) {
		if _, err := c.Move(uids, dest).Wait(); err != nil {
			return fmt.Errorf("imap UID MOVE %v to %q: %w", uids, dest, err)
		}
		return nil
	}
	// imapclient's Move has the same fallback, but it pipelines the three
	// commands, so it would delete the messages even if the COPY failed.
	if _, err := c.Copy(uids, dest).Wait(); err != nil {
		return fmt.Errorf("imap UID COPY %v to %q: %w", uids, dest, err)
	}
	return deleteMessages(c, uids)
}

// deleteMessages flags messages \Deleted and expunges them: with UID
// EXPUNGE when the server has it, else with EXPUNGE, which also removes
// the other messages of the mailbox already flagged \Deleted.
func deleteMessages(c *imapclient.Client, uids imap.UIDSet) error {
	deleted := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}
	if err := c.Store(uids, deleted, nil).Close(); err != nil {
		return fmt.Errorf("imap UID STORE %v +FLAGS (\\Deleted): %w", uids, err)
	}
	var err error
	if c.Caps().Has(imap.CapUIDPlus) {
		err = c.UIDExpunge(uids).Close()
	} else {
		err = c.Expunge().Close()
	}
	if err != nil {
		return fmt.Errorf("imap EXPUNGE of UID %v: %w", uids, err)
	}
	return nil
}

// isCommandError reports whether err is the server's NO or BAD answer to
// one command, after which the connection is still usable.
func isCommandError(err error) bool {
	var imapErr *imap.Error
	return errors.As(err, &imapErr)
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
