package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SenderConfig configures a [Sender].
type SenderConfig struct {
	// Addr is the submission server's host:port, e.g. "smtp.club.example:465".
	Addr string
	// TLS says how the connection is secured; the zero value is implicit TLS.
	TLS TLSMode
	// TLSConfig optionally customises TLS, e.g. with a private CA in tests.
	// The server name defaults to the host of Addr.
	TLSConfig *tls.Config
	// Username and Password, when Username is set, authenticate with SASL
	// PLAIN after TLS is up.
	Username, Password string
	// HeloName is the name given in EHLO; "localhost" when empty.
	HeloName string
	// Timeout bounds one whole Send; one minute when zero.
	Timeout time.Duration
	// IdleTimeout is how long the kept sessions stay open without mail;
	// 30 seconds when zero.
	IdleTimeout time.Duration
	// MaxSessions is how many sessions concurrent sends may open; 1 when
	// zero.
	MaxSessions int
}

// Sender submits messages to an SMTP server. It keeps its sessions open
// for a queue of messages (connect, EHLO and AUTH once per session: a
// strict server such as OpenSMTPD refuses a second EHLO; a kept session is
// checked with NOOP before its next mail; a session whose transaction
// failed midway is closed rather than reset, as go-smtp's RSET would make
// the next MAIL say EHLO again), at most MaxSessions at once, and closes
// them after IdleTimeout without mail. It does not queue or retry a
// message beyond one fresh session when a kept one fails it: see
// [IsPermanent]. Its methods are safe for concurrent use: concurrent sends
// use sessions of their own, up to MaxSessions.
type Sender struct {
	cfg SenderConfig
	// slots holds a token for each session in use, so that at most
	// MaxSessions are.
	slots chan struct{}

	mu sync.Mutex
	// idle are the open sessions not in use.
	idle []*smtpSession
	// lastUse is when the last Send ended, for the idle timer.
	lastUse time.Time
	timer   *time.Timer
}

// smtpSession is an open, authenticated SMTP connection.
type smtpSession struct {
	conn net.Conn
	c    *smtp.Client
}

// NewSender checks cfg and returns a Sender.
func NewSender(cfg SenderConfig) (*Sender, error) {
	if cfg.Addr == "" {
		return nil, errors.New("mail: sender: Addr is required")
	}
	if cfg.HeloName == "" {
		cfg.HeloName = "localhost"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Minute
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 30 * time.Second
	}
	cfg.MaxSessions = max(cfg.MaxSessions, 1)
	if cfg.TLS != TLSNone {
		tlsConfig, err := tlsConfigFor(cfg.Addr, cfg.TLSConfig)
		if err != nil {
			return nil, err
		}
		cfg.TLSConfig = tlsConfig
	}
	return &Sender{cfg: cfg, slots: make(chan struct{}, cfg.MaxSessions)}, nil
}

// permanentError marks a failure that retrying the same message cannot cure.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// IsPermanent reports whether err, returned by [Sender.Send], means the
// message will never be accepted, so that the caller should give up on it
// rather than retry: the server refused a recipient (a 5xx reply to RCPT
// TO) or the message (a 5xx reply to DATA or after its end), or the
// arguments were invalid.
//
// Everything else is temporary: network and TLS failures, timeouts, 4xx
// replies, 5xx replies to the greeting, EHLO, AUTH or MAIL FROM (about the
// server, our configuration or the session, not the message), and 500 to
// 504 at any stage: those say a command was unknown, malformed or out of
// sequence, a mistake of the session and not a refusal of the message.
func IsPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}

// Send submits msg, a complete RFC 5322 message (see [Compose]), with the
// SMTP envelope sender envelopeFrom ("" for the null sender) and envelope
// recipients to. It sends exactly once: all recipients are accepted or the
// message is not sent. The error wraps the server's *smtp.SMTPError when
// there was one. When a kept session fails the message before the server
// could have taken it, in a way that may be the session's (any failure at
// MAIL FROM, a 500 to 504 reply, or a broken connection before the end of
// DATA), the session is closed and the message tried once more on a fresh
// session.
func (s *Sender) Send(ctx context.Context, envelopeFrom string, to []string, msg []byte) error {
	if len(to) == 0 {
		return &permanentError{errors.New("mail: send: no recipients")}
	}
	for _, addr := range append([]string{envelopeFrom}, to...) {
		if strings.ContainsAny(addr, "<>\r\n \t") {
			return &permanentError{fmt.Errorf("mail: send: invalid envelope address %q", addr)}
		}
	}

	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("mail: send via %s: waiting for a session: %w", s.cfg.Addr, ctx.Err())
	}
	defer func() { <-s.slots }()

	sess, reused, err := s.session(ctx)
	if err != nil {
		return err
	}
	retry, err := s.sendOn(ctx, sess, envelopeFrom, to, msg)
	if !retry || !reused {
		return err
	}
	if sess, err = s.open(ctx); err != nil {
		return err
	}
	_, err = s.sendOn(ctx, sess, envelopeFrom, to, msg)
	return err
}

// sendOn makes one transaction on sess. The session is kept for the next
// message when the transaction ended cleanly (sent, or refused by the
// server after the end of DATA, which ends the transaction); any other is
// closed, not reset. retry says whether the message may be tried again at
// once on a fresh session: the server cannot have taken it, and the
// failure may be the session's (any failure at MAIL FROM, a 500 to 504
// reply, or a broken connection before the end of DATA).
func (s *Sender) sendOn(ctx context.Context, sess *smtpSession, envelopeFrom string, to []string, msg []byte) (retry bool, err error) {
	// go-smtp has no context support: closing the connection is what
	// interrupts a stalled exchange when ctx ends.
	stop := context.AfterFunc(ctx, func() { sess.conn.Close() })
	stage, err := transact(sess.c, envelopeFrom, to, msg)
	interrupted := !stop()
	if err == nil && !interrupted {
		s.keep(sess)
		return false, nil
	}
	if interrupted || ctx.Err() != nil {
		sess.c.Close()
		return false, fmt.Errorf("mail: send via %s: %s: %w (%v)", s.cfg.Addr, stage, ctx.Err(), err)
	}
	err = fmt.Errorf("mail: send via %s: %s: %w", s.cfg.Addr, stage, err)
	var smtpErr *smtp.SMTPError
	replied := errors.As(err, &smtpErr)
	sequenceError := replied && smtpErr.Code >= 500 && smtpErr.Code <= 504
	if replied && !sequenceError && stage == stageEndOfData {
		s.keep(sess)
	} else {
		s.quit(sess)
	}
	if replied && smtpErr.Code/100 == 5 && !sequenceError && stage != stageMail {
		return false, &permanentError{err}
	}
	return stage != stageEndOfData && (stage == stageMail || sequenceError || !replied), err
}

// session returns a kept session that answers NOOP (reused), or opens a
// new one when none is kept or the kept ones no longer answer (a server may
// close an idle connection at any time).
func (s *Sender) session(ctx context.Context) (sess *smtpSession, reused bool, err error) {
	for {
		s.mu.Lock()
		var kept *smtpSession
		if n := len(s.idle); n > 0 {
			kept, s.idle = s.idle[n-1], s.idle[:n-1]
		}
		s.mu.Unlock()
		if kept == nil {
			sess, err := s.open(ctx)
			return sess, false, err
		}
		// NOOP, unlike go-smtp's Reset, leaves the session identified: the
		// next MAIL does not say EHLO again.
		stop := context.AfterFunc(ctx, func() { kept.conn.Close() })
		err := kept.c.Noop()
		stop()
		if err == nil && ctx.Err() == nil {
			return kept, true, nil
		}
		kept.c.Close()
		if ctx.Err() != nil {
			return nil, false, fmt.Errorf("mail: send via %s: %w", s.cfg.Addr, ctx.Err())
		}
	}
}

// quit ends a session politely, within a few seconds.
func (s *Sender) quit(sess *smtpSession) {
	sess.conn.SetDeadline(time.Now().Add(5 * time.Second))
	if err := sess.c.Quit(); err != nil {
		sess.c.Close()
	}
}

// keep puts a session back among the idle ones and starts the idle timer.
func (s *Sender) keep(sess *smtpSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.idle = append(s.idle, sess)
	s.lastUse = time.Now()
	if s.timer == nil {
		s.timer = time.AfterFunc(s.cfg.IdleTimeout, s.closeIdle)
		return
	}
	s.timer.Reset(s.cfg.IdleTimeout)
}

// closeIdle ends the kept sessions when no mail has gone for IdleTimeout.
func (s *Sender) closeIdle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.lastUse) < s.cfg.IdleTimeout {
		return // a Send came in between: its own timer runs
	}
	s.quitIdle()
}

// quitIdle ends the idle sessions politely; s.mu is held.
func (s *Sender) quitIdle() {
	for _, sess := range s.idle {
		s.quit(sess)
	}
	s.idle = nil
}

// Close ends the kept sessions. The Sender remains usable: a later Send
// opens a new one.
func (s *Sender) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
	}
	s.quitIdle()
	return nil
}

// open connects, says EHLO and authenticates.
func (s *Sender) open(ctx context.Context) (*smtpSession, error) {
	conn, err := dial(ctx, s.cfg.Addr, s.cfg.TLS, s.cfg.TLSConfig)
	if err != nil {
		return nil, fmt.Errorf("mail: send: connecting to %s: %w", s.cfg.Addr, err)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	var c *smtp.Client
	if s.cfg.TLS == TLSStartTLS {
		c, err = smtp.NewClientStartTLS(conn, s.cfg.TLSConfig)
		if err != nil {
			conn.Close()
			return nil, s.fail(ctx, "STARTTLS", err)
		}
	} else {
		c = smtp.NewClient(conn)
	}
	// ctx bounds each Send; go-smtp's own per-command deadlines are set
	// beyond it so that a timeout is always reported as ctx's.
	c.CommandTimeout = s.cfg.Timeout + time.Second
	c.SubmissionTimeout = s.cfg.Timeout + time.Second
	if err := c.Hello(s.cfg.HeloName); err != nil {
		c.Close()
		return nil, s.fail(ctx, "EHLO", err)
	}
	if s.cfg.Username != "" {
		if err := c.Auth(sasl.NewPlainClient("", s.cfg.Username, s.cfg.Password)); err != nil {
			c.Close()
			return nil, s.fail(ctx, "AUTH as "+s.cfg.Username, err)
		}
	}
	return &smtpSession{conn: conn, c: c}, nil
}

// The stages of a mail transaction, as errors name them.
const (
	stageMail      = "MAIL FROM"
	stageRcpt      = "RCPT TO"
	stageData      = "DATA"
	stageEndOfData = "end of DATA"
)

// transact is one mail transaction: MAIL, RCPT for each recipient, DATA.
// It returns the stage it reached, with the error that stopped it.
func transact(c *smtp.Client, envelopeFrom string, to []string, msg []byte) (stage string, err error) {
	opts := &smtp.MailOptions{Size: int64(len(msg))}
	if !isASCII(envelopeFrom) || !isASCII(strings.Join(to, "")) {
		opts.UTF8 = true
	}
	if err := c.Mail(envelopeFrom, opts); err != nil {
		return stageMail, fmt.Errorf("<%s>: %w", envelopeFrom, err)
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt, nil); err != nil {
			return stageRcpt, fmt.Errorf("<%s>: %w", rcpt, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return stageData, err
	}
	if _, err := w.Write(msg); err != nil {
		return stageData, err
	}
	if err := w.Close(); err != nil {
		return stageEndOfData, err
	}
	return "", nil
}

// fail wraps an error of opening a session at stage. When ctx ended, its
// error is reported, as the closed connection is only a consequence.
func (s *Sender) fail(ctx context.Context, stage string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("mail: send via %s: %s: %w (%v)", s.cfg.Addr, stage, ctxErr, err)
	}
	return fmt.Errorf("mail: send via %s: %s: %w", s.cfg.Addr, stage, err)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
