package mail

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// Deliverer takes one mail handed over by the mail server: raw as
// [ReadMessage] kept it, size its whole size. It returns nil once the
// mail's effects are committed (or the mail is kept aside for a person),
// and an error when nothing was done and the mail server should keep the
// mail and hand it over again later.
type Deliverer func(ctx context.Context, raw []byte, size int64) error

// LMTPConfig configures an [LMTPServer].
type LMTPConfig struct {
	// Address is the judge's address: RCPT TO is taken for it and its
	// plus-addresses (judge+anything@club.example), refused for any other.
	Address string
	// MaxMessageSize is how much of a mail is kept (see ReadMessage);
	// 10 MiB by default.
	MaxMessageSize int64
	// Hostname is the name in the greeting; "localhost" by default.
	Hostname string
	// Logger receives the server's logs; slog.Default() when nil.
	Logger *slog.Logger
}

// LMTPServer takes the judge's mail from a mail server (Postfix's lmtp
// transport, OpenSMTPD's "lmtp" action) over LMTP (RFC 2033): a mail is
// acknowledged (250) only once its Deliverer committed it, and refused for
// now (451, so that the mail server keeps and retries it) when the
// Deliverer could not.
type LMTPServer struct {
	srv     *smtp.Server
	cfg     LMTPConfig
	log     *slog.Logger
	deliver Deliverer

	mu      sync.Mutex
	closing bool
	inHand  sync.WaitGroup
}

// ServeLMTP serves LMTP on ln until Close.
func ServeLMTP(ln net.Listener, cfg LMTPConfig, deliver Deliverer) *LMTPServer {
	if cfg.MaxMessageSize <= 0 {
		cfg.MaxMessageSize = 10 << 20
	}
	if cfg.Hostname == "" {
		cfg.Hostname = "localhost"
	}
	s := &LMTPServer{cfg: cfg, log: cmpLogger(cfg.Logger), deliver: deliver}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &lmtpSession{server: s}, nil
	}))
	s.srv.LMTP = true
	s.srv.Domain = cfg.Hostname
	s.srv.ReadTimeout = 5 * time.Minute
	s.srv.WriteTimeout = time.Minute
	s.srv.EnableSMTPUTF8 = true
	s.srv.ErrorLog = log.New(io.Discard, "", 0) // a mail server hanging up is no news
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, smtp.ErrServerClosed) {
			s.log.Error("lmtp server stopped", "err", err)
		}
	}()
	return s
}

func cmpLogger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.Default()
	}
	return l
}

// Close stops taking mail, waits for the mails in hand to be committed
// (or not) and answered, and closes every connection.
func (s *LMTPServer) Close() error {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.inHand.Wait()
	return s.srv.Close()
}

// take registers a mail in hand; false when the server is closing.
func (s *LMTPServer) take() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.inHand.Add(1)
	return true
}

// isJudge reports whether rcpt is the judge's address or one of its
// plus-addresses.
func (s *LMTPServer) isJudge(rcpt string) bool {
	local, domain, ok := strings.Cut(rcpt, "@")
	judgeLocal, judgeDomain, _ := strings.Cut(s.cfg.Address, "@")
	local, _, _ = strings.Cut(local, "+")
	return ok && strings.EqualFold(local, judgeLocal) && strings.EqualFold(domain, judgeDomain)
}

type lmtpSession struct {
	server *LMTPServer
	to     []string
}

func (ss *lmtpSession) Mail(string, *smtp.MailOptions) error {
	ss.Reset()
	return nil
}

func (ss *lmtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !ss.server.isJudge(to) {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
			Message: fmt.Sprintf("<%s> is not the judge's address (%s)", to, ss.server.cfg.Address)}
	}
	ss.to = append(ss.to, to)
	return nil
}

// Data hands the mail over once, whatever the number of recipients: they
// are all the judge.
func (ss *lmtpSession) Data(r io.Reader) error {
	s := ss.server
	raw, size, err := ReadMessage(r, s.cfg.MaxMessageSize)
	if err != nil {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: err.Error()}
	}
	if !s.take() {
		return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 2}, Message: "the judge is stopping; try again later"}
	}
	defer s.inHand.Done()
	if err := s.deliver(context.Background(), raw, size); err != nil {
		s.log.Warn("lmtp: mail not taken; the mail server will retry", "size", size, "err", err)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0},
			Message: "the judge cannot take the mail now; try again later"}
	}
	return nil
}

func (ss *lmtpSession) Reset()        { ss.to = nil }
func (ss *lmtpSession) Logout() error { return nil }
