// Package mailtest runs in-process IMAP and SMTP servers on 127.0.0.1 for
// tests of code that sends or receives mail. Servers are closed through
// t.Cleanup.
package mailtest

import (
	"bytes"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// IMAPOptions tune an IMAPServer. The zero value is a plain-text server
// with IMAP4rev1, IDLE, MOVE and UIDPLUS.
type IMAPOptions struct {
	// NoMove hides MOVE and UIDPLUS, so that clients must fall back to
	// COPY, STORE \Deleted and EXPUNGE.
	NoMove bool
	// ImplicitTLS serves TLS from the first byte; StartTLS offers STARTTLS.
	// Clients trust the certificate through ClientTLSConfig.
	ImplicitTLS, StartTLS bool
}

// IMAPServer is an in-memory IMAP server with one user, whose INBOX
// exists from the start.
type IMAPServer struct {
	// Addr is the server's 127.0.0.1:port.
	Addr string
	// Username and Password log in as the server's only user.
	Username, Password string

	opts IMAPOptions
	user *imapmemserver.User
	mem  *imapmemserver.Server

	mu     sync.Mutex
	server *imapserver.Server // the current incarnation, replaced by Restart
}

// NewIMAPServer starts an IMAP server on 127.0.0.1:0 with user "judge",
// password "secret", and closes it when the test ends. A nil opts is the
// zero IMAPOptions.
func NewIMAPServer(t testing.TB, opts *IMAPOptions) *IMAPServer {
	t.Helper()
	s := &IMAPServer{Username: "judge", Password: "secret", mem: imapmemserver.New()}
	if opts != nil {
		s.opts = *opts
	}
	s.user = imapmemserver.NewUser(s.Username, s.Password)
	if err := s.user.Create("INBOX", nil); err != nil {
		t.Fatalf("mailtest: creating INBOX: %v", err)
	}
	s.mem.AddUser(s.user)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mailtest: listening: %v", err)
	}
	s.Addr = ln.Addr().String()
	s.serve(ln)
	t.Cleanup(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.server.Close()
	})
	return s
}

// serve starts a new imapserver incarnation on ln.
func (s *IMAPServer) serve(ln net.Listener) {
	caps := imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapNamespace: {}}
	if !s.opts.NoMove {
		caps[imap.CapMove] = struct{}{}
		caps[imap.CapUIDPlus] = struct{}{}
	}
	options := &imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return pollingIdleSession{s.mem.NewSession().(imapserver.SessionIMAP4rev2)}, nil, nil
		},
		Caps:         caps,
		InsecureAuth: true,
		// Connection errors are expected when tests close servers.
		Logger: log.New(io.Discard, "", 0),
	}
	if s.opts.StartTLS {
		options.TLSConfig = serverTLSConfig()
	}
	if s.opts.ImplicitTLS {
		ln = tls.NewListener(ln, serverTLSConfig())
	}
	server := imapserver.New(options)
	s.mu.Lock()
	s.server = server
	s.mu.Unlock()
	go server.Serve(ln)
}

// pollingIdleSession works around a race in imapmemserver's IDLE, which
// only reports updates that happen after IDLE started: a message appended
// between a client's last command and its IDLE stayed unannounced until the
// next change. Real servers report pending changes when IDLE starts; this
// IDLE polls for them, so every append reaches an idling client promptly.
type pollingIdleSession struct {
	imapserver.SessionIMAP4rev2
}

func (sess pollingIdleSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	ticker := time.NewTicker(5 * time.Millisecond)
	defer ticker.Stop()
	for {
		if err := sess.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-ticker.C:
		}
	}
}

// Restart closes the server with all its connections and serves again on
// the same address, like a server process restarting. Mailboxes survive.
func (s *IMAPServer) Restart() error {
	if err := s.Stop(); err != nil {
		return err
	}
	return s.Start()
}

// Stop closes the server with all its connections, as in an outage: until
// Start, connections to its address are refused. Mailboxes survive.
func (s *IMAPServer) Stop() error {
	s.mu.Lock()
	err := s.server.Close()
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("mailtest: closing IMAP server: %w", err)
	}
	return nil
}

// Start serves again on the address of the server, after Stop.
func (s *IMAPServer) Start() error {
	ln, err := net.Listen("tcp", s.Addr)
	if err != nil {
		return fmt.Errorf("mailtest: listening again on %s: %w", s.Addr, err)
	}
	s.serve(ln)
	return nil
}

// Append adds a raw message to a mailbox of the user, as a mail delivery
// would. The message is unseen.
func (s *IMAPServer) Append(mailbox string, raw []byte) error {
	return s.AppendAt(mailbox, raw, time.Now())
}

// Create creates a mailbox of the user.
func (s *IMAPServer) Create(mailbox string) error {
	if err := s.user.Create(mailbox, nil); err != nil {
		return fmt.Errorf("mailtest: creating %q: %w", mailbox, err)
	}
	return nil
}

// AppendAt is Append of a message that arrived at t (its internal date).
func (s *IMAPServer) AppendAt(mailbox string, raw []byte, t time.Time) error {
	_, err := s.user.Append(mailbox, literal{bytes.NewReader(raw)}, &imap.AppendOptions{Time: t})
	if err != nil {
		return fmt.Errorf("mailtest: appending to %q: %w", mailbox, err)
	}
	return nil
}

// literal adapts a bytes.Reader to imap.LiteralReader.
type literal struct{ *bytes.Reader }

// Count returns the number of messages in a mailbox.
func (s *IMAPServer) Count(mailbox string) (int, error) {
	data, err := s.user.Status(mailbox, &imap.StatusOptions{NumMessages: true})
	if err != nil {
		return 0, fmt.Errorf("mailtest: status of %q: %w", mailbox, err)
	}
	return int(*data.NumMessages), nil
}

// Message is a message stored in a mailbox.
type Message struct {
	UID   imap.UID
	Flags []imap.Flag // e.g. \Seen once a client has read the message
	Raw   []byte      // the whole message
}

// Messages returns the messages of a mailbox, read over IMAP without
// changing their flags. It returns an error if the mailbox does not exist.
func (s *IMAPServer) Messages(mailbox string) ([]Message, error) {
	var c *imapclient.Client
	var err error
	if s.opts.ImplicitTLS {
		c, err = imapclient.DialTLS(s.Addr, &imapclient.Options{TLSConfig: ClientTLSConfig()})
	} else {
		c, err = imapclient.DialInsecure(s.Addr, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("mailtest: connecting: %w", err)
	}
	defer c.Close()
	if err := c.Login(s.Username, s.Password).Wait(); err != nil {
		return nil, fmt.Errorf("mailtest: login: %w", err)
	}
	selected, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, fmt.Errorf("mailtest: examining %q: %w", mailbox, err)
	}
	if selected.NumMessages == 0 {
		return nil, nil
	}
	bodySection := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{ // 1:*
		UID:         true,
		Flags:       true,
		BodySection: []*imap.FetchItemBodySection{bodySection},
	}).Collect()
	if err != nil {
		return nil, fmt.Errorf("mailtest: fetching %q: %w", mailbox, err)
	}
	msgs := make([]Message, 0, len(bufs))
	for _, buf := range bufs {
		msgs = append(msgs, Message{UID: buf.UID, Flags: buf.Flags, Raw: buf.FindBodySection(bodySection)})
	}
	return msgs, nil
}

// WaitCount waits until mailbox exists and holds n messages, failing the
// test after 10 seconds.
func (s *IMAPServer) WaitCount(t testing.TB, mailbox string, n int) {
	t.Helper()
	var got int
	var err error
	ok := poll(func() bool {
		got, err = s.Count(mailbox)
		return err == nil && got == n
	})
	if !ok {
		t.Fatalf("mailtest: waiting for %d messages in %q: have %d (last error: %v)", n, mailbox, got, err)
	}
}

// poll calls cond every few milliseconds until it returns true, for at
// most 10 seconds, and reports whether it did.
func poll(cond func() bool) bool {
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}
