package club

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// newSMTPServer returns the SMTP submission server, which delivers what
// it accepts into local mailboxes and relays nothing.
func (s *Server) newSMTPServer() *smtp.Server {
	log := s.log.With("protocol", "smtp")
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &smtpSession{server: s, log: log.With("remote", c.Conn().RemoteAddr().String())}, nil
	}))
	srv.Domain = s.cfg.Domain
	// There is no TLS at all (see the package documentation): without this
	// no client could authenticate.
	srv.AllowInsecureAuth = true
	srv.MaxMessageBytes = s.cfg.MaxMessageSize
	srv.MaxRecipients = 100
	// RFC 5321 (4.5.3.2.7) asks servers to wait 5 minutes for a command.
	srv.ReadTimeout = 5 * time.Minute
	srv.WriteTimeout = time.Minute
	srv.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	return srv
}

// smtpSession is one SMTP connection and its current transaction.
type smtpSession struct {
	server  *Server
	log     *slog.Logger
	account *account // nil until AUTH succeeds
	from    string
	rcpts   []recipient
}

var _ smtp.AuthSession = (*smtpSession)(nil)

// AuthMechanisms offers PLAIN, which every mail program supports.
func (ss *smtpSession) AuthMechanisms() []string {
	return []string{sasl.Plain}
}

func (ss *smtpSession) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		a := ss.server.authenticate(username, password)
		// A client may only act as the account it logged in with.
		if a == nil || (identity != "" && ss.server.accountName(identity) != a.Name) {
			ss.log.Warn("SMTP login failed", "user", username)
			return smtp.ErrAuthFailed
		}
		ss.account = a
		ss.log.Debug("SMTP login", "account", a.Name)
		return nil
	}), nil
}

// Mail starts a transaction. The envelope sender must be the logged-in
// account's address, with or without a tag, or the null sender.
func (ss *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.Reset()
	if ss.account == nil {
		return &smtp.SMTPError{
			Code:         530,
			EnhancedCode: smtp.EnhancedCode{5, 7, 0},
			Message:      "Authentication required: log in with your club account (user name and password) to send",
		}
	}
	if from != "" && !ss.ownAddress(from) {
		return &smtp.SMTPError{
			Code:         553,
			EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: fmt.Sprintf("<%s>: you are logged in as %s, so send as %s (check the e-mail address your mail program uses)",
				from, ss.account.Name, ss.server.Address(ss.account.Name)),
		}
	}
	ss.from = from
	return nil
}

// ownAddress reports whether addr is an address of the session's account.
func (ss *smtpSession) ownAddress(addr string) bool {
	if !validEnvelopeAddress(addr) {
		return false
	}
	at := strings.LastIndexByte(addr, '@')
	if at < 0 || !strings.EqualFold(addr[at+1:], ss.server.cfg.Domain) {
		return false
	}
	name, _, _ := strings.Cut(addr[:at], "+")
	return strings.EqualFold(name, ss.account.Name)
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	r, err := ss.server.resolveRecipient(to)
	if err != nil {
		ss.log.Info("recipient refused", "account", ss.account.Name, "err", err)
		return err
	}
	ss.rcpts = addRecipient(ss.rcpts, r)
	return nil
}

// Data reads the message and delivers it. Reading fails with go-smtp's
// ErrDataTooLarge (552) past the size limit.
func (ss *smtpSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if err := ss.server.deliver(ss.from, ss.rcpts, raw); err != nil {
		ss.log.Error("delivery failed", "err", err)
		return &smtp.SMTPError{
			Code:         451,
			EnhancedCode: smtp.EnhancedCode{4, 3, 0},
			Message:      "Delivery failed, try again later",
		}
	}
	return nil
}

func (ss *smtpSession) Reset() {
	ss.from, ss.rcpts = "", nil
}

func (ss *smtpSession) Logout() error { return nil }
