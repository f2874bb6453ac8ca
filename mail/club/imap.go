package club

import (
	"log/slog"
	"math"
	"sync"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

// newIMAPServer returns the IMAP server over the mail file.
func (s *Server) newIMAPServer() *imapserver.Server {
	log := s.log.With("protocol", "imap")
	return imapserver.New(&imapserver.Options{
		NewSession: func(conn *imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &imapSession{server: s, store: s.store, log: log.With("remote", conn.NetConn().RemoteAddr().String())}, nil, nil
		},
		// The set the judge's intake and common mail programs use; MOVE and
		// UIDPLUS spare the judge a COPY, STORE and EXPUNGE per message.
		Caps: imap.CapSet{
			imap.CapIMAP4rev1: {},
			imap.CapNamespace: {},
			imap.CapMove:      {},
			imap.CapUIDPlus:   {},
		},
		// There is no TLS at all (see the package documentation): without
		// this no client could log in.
		InsecureAuth: true,
		Logger:       slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	})
}

// imapSession is one IMAP connection. Its commands read and change the
// mail file (see mailStore); every change is committed before the command
// is answered, and wakes the account's idling connections.
type imapSession struct {
	server   *Server
	store    *mailStore
	log      *slog.Logger
	account  *account   // nil until Login
	selected *selection // nil unless a mailbox is selected
}

var (
	_ imapserver.SessionIMAP4rev2   = (*imapSession)(nil)
	_ imapserver.SessionAppendLimit = (*imapSession)(nil)
)

// selection is the selected mailbox of a session.
type selection struct {
	id        uint32 // the mailbox's id, which a RENAME keeps
	readOnly  bool
	tracker   *imapserver.SessionTracker
	searchRes imap.UIDSet // the saved result of SEARCH ... RETURN (SAVE)
}

// match is a message of the selected mailbox that a command names, with
// the sequence number its session knows it by (0 if the session has not
// been told of it yet).
type match struct {
	stored
	clientSeq uint32
}

// Login checks the credentials against the club's accounts, by name or
// address.
func (sess *imapSession) Login(username, password string) error {
	a := sess.server.authenticate(username, password)
	if a == nil {
		sess.log.Warn("IMAP login failed", "user", username)
		return imapserver.ErrAuthFailed
	}
	sess.account = a
	sess.log.Debug("IMAP login", "account", a.Name)
	return nil
}

// Close ends the session. It leaves selected as it is: an IDLE still
// winding down on its own goroutine may read it (the tracker is safe to
// close under it).
func (sess *imapSession) Close() error {
	if sess.selected != nil {
		sess.selected.tracker.Close()
	}
	return nil
}

// AppendLimit applies the message size limit to APPEND as well.
func (sess *imapSession) AppendLimit() uint32 {
	return uint32(min(sess.server.cfg.MaxMessageSize, math.MaxUint32))
}

func (sess *imapSession) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Delim: mailboxDelim}}}, nil
}

func (sess *imapSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	if sess.selected == nil {
		return nil
	}
	return sess.selected.tracker.Poll(w, allowExpunge)
}

// Idle reports the selected mailbox's changes until stop is closed.
//
// It first reports what is pending, so that a message delivered between a
// client's last command and its IDLE is announced at once, then waits for
// the account's change signal, which every delivery and every command that
// changes a mailbox raises. The signal is taken before polling, so a
// change during the poll wakes the next round rather than being missed.
func (sess *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for {
		changed := sess.account.changes.next()
		if err := sess.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-changed:
		}
	}
}

// changeSignal wakes the IDLE commands of one account when one of its
// mailboxes may have changed. Waiters take the current channel with next;
// broadcast closes it, waking them all, and the next call to next makes a
// new one.
type changeSignal struct {
	mu sync.Mutex
	ch chan struct{}
}

func (c *changeSignal) next() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ch == nil {
		c.ch = make(chan struct{})
	}
	return c.ch
}

func (c *changeSignal) broadcast() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ch != nil {
		close(c.ch)
		c.ch = nil
	}
}
