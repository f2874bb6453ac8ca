package mailtest

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SMTPOptions tune an SMTPServer. The zero value is a plain-text server
// without authentication.
type SMTPOptions struct {
	// Username and Password, when Username is set, require AUTH PLAIN
	// before MAIL FROM.
	Username, Password string
	// ImplicitTLS serves TLS from the first byte; StartTLS offers STARTTLS.
	// Clients trust the certificate through ClientTLSConfig.
	ImplicitTLS, StartTLS bool
	// Deliver, when set, also appends every accepted message to the INBOX
	// of that IMAP server, once per recipient, with Return-Path and
	// Delivered-To fields as a real delivery agent adds them.
	Deliver *IMAPServer
}

// Received is a message accepted by an SMTPServer.
type Received struct {
	From string   // envelope sender
	To   []string // envelope recipients
	Data []byte   // the message as transmitted
}

// SMTPServer is an in-process SMTP server that records what it accepts.
// It is as strict about the order of commands as OpenSMTPD: a second EHLO
// or HELO in a session is refused with "503 5.5.1 Invalid command: Already
// identified", as are MAIL within a transaction, RCPT or DATA outside one,
// and a second AUTH or STARTTLS; [SMTPServer.Refusals] lists them. It does
// not take pipelined commands.
type SMTPServer struct {
	// Addr is the server's 127.0.0.1:port.
	Addr string

	opts SMTPOptions

	mu        sync.Mutex
	received  []Received
	failCode  int // reply code for rejected transactions
	failCount int // how many more transactions to reject
	// refuse holds, for "MAIL" and "DATA", how many more of those
	// commands to refuse and with which code.
	refuse   map[string]refusal
	refusals []string
	// conns are the client connections open now; connections counts every
	// connection ever greeted.
	conns       map[*smtp.Conn]bool
	connections int
}

// NewSMTPServer starts an SMTP server on 127.0.0.1:0 and closes it when
// the test ends. A nil opts is the zero SMTPOptions.
func NewSMTPServer(t testing.TB, opts *SMTPOptions) *SMTPServer {
	t.Helper()
	s := &SMTPServer{conns: map[*smtp.Conn]bool{}, refuse: map[string]refusal{}}
	if opts != nil {
		s.opts = *opts
	}
	server := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		s.mu.Lock()
		s.conns[c] = true
		s.connections++
		s.mu.Unlock()
		return &smtpSession{server: s, conn: c}, nil
	}))
	server.Domain = "mailtest.localhost"
	server.AllowInsecureAuth = true
	server.ReadTimeout = 10 * time.Second
	server.WriteTimeout = 10 * time.Second
	// Connection errors are expected when clients or tests hang up.
	server.ErrorLog = log.New(io.Discard, "", 0)
	var startTLS *tls.Config
	if s.opts.StartTLS {
		// go-smtp offers STARTTLS; the strict connection does it.
		startTLS = serverTLSConfig()
		server.TLSConfig = startTLS
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mailtest: listening: %v", err)
	}
	s.Addr = ln.Addr().String()
	if s.opts.ImplicitTLS {
		ln = tls.NewListener(ln, serverTLSConfig())
	}
	go server.Serve(&strictListener{Listener: ln, server: s, tlsConfig: startTLS})
	t.Cleanup(func() { server.Close() })
	return s
}

// FailNext makes the server reject the next n transactions (counted at
// MAIL FROM) at every RCPT TO with the given reply code: 4xx for a
// temporary failure (e.g. 451), 5xx for a permanent one (e.g. 550).
func (s *SMTPServer) FailNext(n, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failCount, s.failCode = n, code
}

// refusal is a command to refuse a number of times, with a reply code.
type refusal struct{ count, code int }

// RefuseNext makes the server refuse the next n MAIL FROM commands
// (command "MAIL") or messages at the end of DATA (command "DATA") with
// the given reply code.
func (s *SMTPServer) RefuseNext(command string, n, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse[command] = refusal{n, code}
}

// Refusals returns the commands refused so far as out of sequence, each
// with the reply it got.
func (s *SMTPServer) Refusals() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refusals...)
}

func (s *SMTPServer) refused(command, reply string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusals = append(s.refusals, fmt.Sprintf("%q: %s", command, reply))
}

// Connections returns how many connections clients have opened so far
// (counted at their EHLO), and how many of them are open now.
func (s *SMTPServer) Connections() (total, open int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.connections, len(s.conns)
}

// DropConnections closes every client connection open now, as a server
// does to idle clients, without a word.
func (s *SMTPServer) DropConnections() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.Conn().Close()
	}
}

// Messages returns the messages accepted so far.
func (s *SMTPServer) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// WaitMessages waits until the server has accepted n messages, failing the
// test after 10 seconds, and returns them.
func (s *SMTPServer) WaitMessages(t testing.TB, n int) []Received {
	t.Helper()
	var got []Received
	if !poll(func() bool { got = s.Messages(); return len(got) >= n }) {
		t.Fatalf("mailtest: waiting for %d SMTP messages: have %d", n, len(got))
	}
	return got
}

// refusalOf returns the error the current command must get, or nil.
func (s *SMTPServer) refusalOf(command string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.refuse[command]
	if r.count == 0 {
		return nil
	}
	r.count--
	s.refuse[command] = r
	return &smtp.SMTPError{
		Code:         r.code,
		EnhancedCode: smtp.EnhancedCode{r.code / 100, 0, 0},
		Message:      "mailtest: refused as instructed by RefuseNext",
	}
}

// rejectTransaction reports whether the current transaction must fail, and
// with which code.
func (s *SMTPServer) rejectTransaction() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failCount == 0 {
		return 0, false
	}
	s.failCount--
	return s.failCode, true
}

func (s *SMTPServer) accept(msg Received) error {
	s.mu.Lock()
	s.received = append(s.received, msg)
	s.mu.Unlock()
	if s.opts.Deliver == nil {
		return nil
	}
	for _, rcpt := range msg.To {
		trace := fmt.Sprintf("Return-Path: <%s>\r\nDelivered-To: %s\r\n", msg.From, rcpt)
		if err := s.opts.Deliver.Append("INBOX", append([]byte(trace), msg.Data...)); err != nil {
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: err.Error()}
		}
	}
	return nil
}

// smtpSession is one SMTP connection's transaction state.
type smtpSession struct {
	server        *SMTPServer
	conn          *smtp.Conn
	authenticated bool
	from          string
	to            []string
	failCode      int // non-zero when FailNext condemned this transaction
}

var _ smtp.AuthSession = (*smtpSession)(nil)

func (ss *smtpSession) AuthMechanisms() []string {
	if ss.server.opts.Username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *smtpSession) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain || ss.server.opts.Username == "" {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != ss.server.opts.Username || password != ss.server.opts.Password {
			return smtp.ErrAuthFailed
		}
		ss.authenticated = true
		return nil
	}), nil
}

func (ss *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if ss.server.opts.Username != "" && !ss.authenticated {
		return smtp.ErrAuthRequired
	}
	ss.Reset()
	if err := ss.server.refusalOf("MAIL"); err != nil {
		return err
	}
	ss.from = from
	if code, reject := ss.server.rejectTransaction(); reject {
		ss.failCode = code
	}
	return nil
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if ss.failCode != 0 {
		return &smtp.SMTPError{
			Code:         ss.failCode,
			EnhancedCode: smtp.EnhancedCode{ss.failCode / 100, 0, 0},
			Message:      "mailtest: rejected as instructed by FailNext",
		}
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if len(ss.to) == 0 {
		return errors.New("mailtest: no accepted recipients")
	}
	if err := ss.server.refusalOf("DATA"); err != nil {
		return err
	}
	return ss.server.accept(Received{From: ss.from, To: ss.to, Data: data})
}

func (ss *smtpSession) Reset() {
	ss.from, ss.to, ss.failCode = "", nil, 0
}

func (ss *smtpSession) Logout() error {
	ss.server.mu.Lock()
	delete(ss.server.conns, ss.conn)
	ss.server.mu.Unlock()
	return nil
}
