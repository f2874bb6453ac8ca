package club

import (
	"log/slog"
	"math"
	"sync"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// newIMAPServer returns the IMAP server: imapmemserver's sessions behind
// the club's own login, IDLE and mailbox rules.
func (s *Server) newIMAPServer() *imapserver.Server {
	log := s.log.With("protocol", "imap")
	return imapserver.New(&imapserver.Options{
		NewSession: func(conn *imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &imapSession{server: s, log: log.With("remote", conn.NetConn().RemoteAddr().String())}, nil, nil
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

// imapSession is one IMAP connection.
type imapSession struct {
	*imapmemserver.UserSession // nil until Login

	server  *Server
	log     *slog.Logger
	account *account // nil until Login
}

// Login checks the credentials against the club's accounts rather than
// imapmemserver's, so that the address works as user name too.
func (sess *imapSession) Login(username, password string) error {
	a := sess.server.authenticate(username, password)
	if a == nil {
		sess.log.Warn("IMAP login failed", "user", username)
		return imapserver.ErrAuthFailed
	}
	sess.account = a
	sess.UserSession = imapmemserver.NewUserSession(a.user)
	sess.log.Debug("IMAP login", "account", a.Name)
	return nil
}

// AppendLimit applies the message size limit to APPEND as well.
func (sess *imapSession) AppendLimit() uint32 {
	return uint32(min(sess.server.cfg.MaxMessageSize, math.MaxUint32))
}

// Delete refuses to delete INBOX, which RFC 3501 (6.3.4) forbids and
// without which deliveries would fail.
func (sess *imapSession) Delete(mailbox string) error {
	if mailbox == "INBOX" { // the parser writes INBOX in upper case
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be deleted"}
	}
	return sess.UserSession.Delete(mailbox)
}

// Rename refuses to rename INBOX: RFC 3501 (6.3.5) wants its messages
// moved and INBOX left empty, but imapmemserver would rename the mailbox
// itself and leave the account without an INBOX.
func (sess *imapSession) Rename(mailbox, newName string, options *imap.RenameOptions) error {
	if mailbox == "INBOX" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be renamed on this server"}
	}
	return sess.UserSession.Rename(mailbox, newName, options)
}

// Idle reports the account's mailbox changes until stop is closed.
//
// imapmemserver's own IDLE only reports updates that happen after IDLE
// started: a message delivered between a client's last command and its
// IDLE stayed unannounced until the next change, which could be hours for
// the judge. This IDLE first reports what is pending, then waits for the
// account's change signal, which every delivery and every command that
// changes a mailbox raises. The signal is taken before polling, so a
// change during the poll wakes the next round rather than being missed.
func (sess *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for {
		changed := sess.account.changes.next()
		if err := sess.UserSession.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-changed:
		}
	}
}

// The commands below change mailboxes (FETCH of a body without PEEK sets
// \Seen) and so wake the account's other idling connections; these and
// deliveries are the only ways imapmemserver queues mailbox updates.

func (sess *imapSession) Append(mailbox string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	defer sess.account.changes.broadcast()
	return sess.UserSession.Append(mailbox, r, options)
}

func (sess *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	defer sess.account.changes.broadcast()
	return sess.UserSession.Copy(numSet, dest)
}

func (sess *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	defer sess.account.changes.broadcast()
	return sess.UserSession.Move(w, numSet, dest)
}

func (sess *imapSession) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	defer sess.account.changes.broadcast()
	return sess.UserSession.Expunge(w, uids)
}

func (sess *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	defer sess.account.changes.broadcast()
	return sess.UserSession.Store(w, numSet, flags, options)
}

func (sess *imapSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	defer sess.account.changes.broadcast()
	return sess.UserSession.Fetch(w, numSet, options)
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
