package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"strings"
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
}

// Sender submits messages to an SMTP server, one connection per message.
// It does not queue or retry: see [IsPermanent].
type Sender struct {
	cfg SenderConfig
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
	if cfg.TLS != TLSNone {
		tlsConfig, err := tlsConfigFor(cfg.Addr, cfg.TLSConfig)
		if err != nil {
			return nil, err
		}
		cfg.TLSConfig = tlsConfig
	}
	return &Sender{cfg: cfg}, nil
}

// permanentError marks a failure that retrying the same message cannot cure.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// IsPermanent reports whether err, returned by [Sender.Send], means the
// message will never be accepted, so that the caller should give up on it
// rather than retry: the server rejected the sender, a recipient or the
// content with a 5xx reply, or the arguments were invalid.
//
// Everything else is temporary: network and TLS failures, timeouts, 4xx
// replies, and also 5xx replies to the greeting, EHLO or AUTH, since those
// are about the server or our configuration and not about the message.
func IsPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}

// Send submits msg, a complete RFC 5322 message (see [Compose]), with the
// SMTP envelope sender envelopeFrom ("" for the null sender) and envelope
// recipients to. It sends exactly once: all recipients are accepted or the
// message is not sent. The error wraps the server's *smtp.SMTPError when
// there was one.
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
	conn, err := dial(ctx, s.cfg.Addr, s.cfg.TLS, s.cfg.TLSConfig)
	if err != nil {
		return fmt.Errorf("mail: send: connecting to %s: %w", s.cfg.Addr, err)
	}
	// go-smtp has no context support: closing the connection is what
	// interrupts a stalled exchange when ctx ends.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	var c *smtp.Client
	if s.cfg.TLS == TLSStartTLS {
		c, err = smtp.NewClientStartTLS(conn, s.cfg.TLSConfig)
		if err != nil {
			return s.fail(ctx, "STARTTLS", false, err)
		}
	} else {
		c = smtp.NewClient(conn)
	}
	defer c.Close()
	// ctx bounds the whole exchange; go-smtp's own per-command deadlines are
	// set beyond it so that a timeout is always reported as ctx's.
	c.CommandTimeout = s.cfg.Timeout + time.Second
	c.SubmissionTimeout = s.cfg.Timeout + time.Second

	if err := c.Hello(s.cfg.HeloName); err != nil {
		return s.fail(ctx, "EHLO", false, err)
	}
	if s.cfg.Username != "" {
		if err := c.Auth(sasl.NewPlainClient("", s.cfg.Username, s.cfg.Password)); err != nil {
			return s.fail(ctx, "AUTH as "+s.cfg.Username, false, err)
		}
	}
	opts := &smtp.MailOptions{Size: int64(len(msg))}
	if !isASCII(envelopeFrom) || !isASCII(strings.Join(to, "")) {
		opts.UTF8 = true
	}
	if err := c.Mail(envelopeFrom, opts); err != nil {
		return s.fail(ctx, "MAIL FROM:<"+envelopeFrom+">", true, err)
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt, nil); err != nil {
			return s.fail(ctx, "RCPT TO:<"+rcpt+">", true, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return s.fail(ctx, "DATA", true, err)
	}
	if _, err := w.Write(msg); err != nil {
		return s.fail(ctx, "DATA", true, err)
	}
	if err := w.Close(); err != nil {
		return s.fail(ctx, "end of DATA", true, err)
	}
	// The message is accepted; a failing QUIT changes nothing.
	_ = c.Quit()
	return nil
}

// fail wraps an error of the SMTP exchange at stage. A 5xx reply is
// permanent when messageStage says the stage concerns this message. When
// ctx ended, its error is reported, as the closed connection is only a
// consequence.
func (s *Sender) fail(ctx context.Context, stage string, messageStage bool, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("mail: send via %s: %s: %w (%v)", s.cfg.Addr, stage, ctxErr, err)
	}
	err = fmt.Errorf("mail: send via %s: %s: %w", s.cfg.Addr, stage, err)
	var smtpErr *smtp.SMTPError
	if messageStage && errors.As(err, &smtpErr) && smtpErr.Code/100 == 5 {
		return &permanentError{err}
	}
	return err
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
