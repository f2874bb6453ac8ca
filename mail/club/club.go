package club

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"

	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-smtp"
)

// Defaults of Config. The ports are above 1024 so that an ordinary user
// can run the server.
const (
	DefaultDomain         = "fieldpost.local"
	DefaultIMAPAddr       = "127.0.0.1:1143"
	DefaultSMTPAddr       = "127.0.0.1:1587"
	DefaultMaxMessageSize = 10 << 20 // 10 MiB
)

// Config configures a Server. Only MailFile is required: the rest has
// defaults, for fieldpost.local on loopback with no accounts.
type Config struct {
	// MailFile is the file that keeps every account's mailboxes, created
	// if missing. One server at a time can use it.
	MailFile string
	// Domain is the domain of every address; DefaultDomain when empty.
	Domain string
	// IMAPAddr and SMTPAddr are the listen addresses, host:port;
	// DefaultIMAPAddr and DefaultSMTPAddr when empty. Port 0 picks a free
	// port: see Server.IMAPAddr and Server.SMTPAddr after Start.
	IMAPAddr, SMTPAddr string
	// Hostname is what mail clients connect to, as printed by
	// ConnectionInstructions. When empty it is the listen host, or this
	// computer's host name when listening on all interfaces.
	Hostname string
	// Accounts are created by New; an empty Password is generated.
	Accounts []Account
	// MaxMessageSize is the largest message accepted by SMTP, IMAP APPEND
	// and Deliver, in bytes; DefaultMaxMessageSize when zero.
	MaxMessageSize int64
	// Logger receives the server's logs; slog.Default() when nil.
	Logger *slog.Logger
	// Delivered, when set, is called after each message is stored in an
	// account's INBOX, with the account and the message as received (for
	// the load tool's timing); it must not block.
	Delivered func(account string, raw []byte)
}

// Account is a mail account: the address Name@Domain and its password,
// which logs in to both IMAP and SMTP.
type Account struct {
	// Name is the local part of the address: lowercase ASCII letters,
	// digits, '.', '-' and '_', starting with a letter or digit. Upper
	// case is accepted and lowered.
	Name string
	// Password logs in to IMAP and SMTP. Left empty in Config.Accounts or
	// AddAccount, it is generated with crypto/rand.
	Password string
}

// Server is the club mail server. Its methods are safe for concurrent use.
type Server struct {
	cfg   Config
	log   *slog.Logger
	store *mailStore

	mu       sync.Mutex
	accounts map[string]*account
	started  bool
	closed   bool
	imapLn   net.Listener
	smtpLn   net.Listener
	imapSrv  *imapserver.Server
	smtpSrv  *smtp.Server
	serving  sync.WaitGroup // the Serve goroutines
}

// account is an Account and the signal of changes to its mailboxes.
type account struct {
	Account
	changes changeSignal
}

// New checks cfg, fills in its defaults, opens the mail file and creates
// the accounts' mailboxes there unless the file has them already. It does
// not listen yet: see Start. Close closes the mail file.
func New(cfg Config) (*Server, error) {
	if cfg.MailFile == "" {
		return nil, errors.New("club: no mail file for the mailboxes")
	}
	if cfg.Domain == "" {
		cfg.Domain = DefaultDomain
	}
	cfg.Domain = strings.ToLower(cfg.Domain)
	if strings.ContainsAny(cfg.Domain, "@+<>\"\\ \t\r\n") || strings.Trim(cfg.Domain, ".") != cfg.Domain {
		return nil, fmt.Errorf("club: invalid domain %q", cfg.Domain)
	}
	if cfg.IMAPAddr == "" {
		cfg.IMAPAddr = DefaultIMAPAddr
	}
	if cfg.SMTPAddr == "" {
		cfg.SMTPAddr = DefaultSMTPAddr
	}
	if cfg.MaxMessageSize == 0 {
		cfg.MaxMessageSize = DefaultMaxMessageSize
	}
	if cfg.MaxMessageSize < 0 {
		return nil, fmt.Errorf("club: negative MaxMessageSize %d", cfg.MaxMessageSize)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	store, err := openMailStore(cfg.MailFile)
	if err != nil {
		return nil, err
	}
	s := &Server{
		log:      cfg.Logger.With("component", "club-mail"),
		store:    store,
		accounts: make(map[string]*account),
	}
	for _, a := range cfg.Accounts {
		if _, err := s.addAccount(a.Name, a.Password); err != nil {
			store.close()
			return nil, err
		}
	}
	cfg.Accounts = nil // s.accounts is the truth from now on
	s.cfg = cfg
	return s, nil
}

// AddAccount creates an account and returns it. Its mailboxes are those
// the mail file has for its name, or an empty INBOX. An empty password is
// generated. It works before and after Start.
func (s *Server) AddAccount(name, password string) (Account, error) {
	a, err := s.addAccount(name, password)
	if err != nil {
		return Account{}, err
	}
	s.log.Info("account added", "account", a.Name)
	return a, nil
}

func (s *Server) addAccount(name, password string) (Account, error) {
	name = strings.ToLower(name)
	if err := checkName(name); err != nil {
		return Account{}, err
	}
	if password == "" {
		// 26 base32 characters from crypto/rand: 130 bits, lowered so that
		// it is easier to type.
		password = strings.ToLower(rand.Text())
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.accounts[name]; dup {
		return Account{}, fmt.Errorf("club: account %q already exists", name)
	}
	if err := s.store.ensureAccount(name); err != nil {
		return Account{}, err
	}
	a := &account{Account: Account{Name: name, Password: password}}
	s.accounts[name] = a
	return a.Account, nil
}

// checkName reports whether name, already lowered, can be an account name.
// '+' is excluded because it starts a tag, '@' because it ends the local
// part.
func checkName(name string) error {
	if name == "" {
		return errors.New("club: empty account name")
	}
	if len(name) > 64 {
		return fmt.Errorf("club: account name %q longer than 64 characters", name)
	}
	for i, r := range name {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
		case (r == '.' || r == '-' || r == '_') && i > 0:
		default:
			return fmt.Errorf("club: invalid account name %q: use letters, digits, '.', '-' and '_', starting with a letter or digit", name)
		}
	}
	return nil
}

// Accounts returns every account, sorted by name.
func (s *Server) Accounts() []Account {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := make([]Account, 0, len(s.accounts))
	for _, a := range s.accounts {
		list = append(list, a.Account)
	}
	slices.SortFunc(list, func(a, b Account) int { return strings.Compare(a.Name, b.Name) })
	return list
}

// Address returns the e-mail address of the account name, e.g.
// "judge@fieldpost.local". It does not check that the account exists.
func (s *Server) Address(name string) string {
	return strings.ToLower(name) + "@" + s.cfg.Domain
}

// Domain returns the domain of the server's addresses.
func (s *Server) Domain() string { return s.cfg.Domain }

// lookup returns the account called name (lowercase), or nil.
func (s *Server) lookup(name string) *account {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.accounts[name]
}

// accountName returns the account name a mail program gives as user
// name: the name or the address, in any case, since programs offer either.
// It is "" for an address of another domain.
func (s *Server) accountName(username string) string {
	name := strings.ToLower(strings.TrimSpace(username))
	if local, domain, ok := strings.Cut(name, "@"); ok {
		if domain != s.cfg.Domain {
			return ""
		}
		name = local
	}
	return name
}

// authenticate returns the account whose credentials these are, or nil.
func (s *Server) authenticate(username, password string) *account {
	a := s.lookup(s.accountName(username))
	if a == nil || subtle.ConstantTimeCompare([]byte(password), []byte(a.Password)) != 1 {
		return nil
	}
	return a
}

// Start listens on the IMAP and SMTP addresses and serves them in the
// background until Close. IMAPAddr and SMTPAddr then return the actual
// addresses.
func (s *Server) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("club: server closed")
	}
	if s.started {
		return errors.New("club: server already started")
	}

	imapLn, err := net.Listen("tcp", s.cfg.IMAPAddr)
	if err != nil {
		return fmt.Errorf("club: IMAP: %w", err)
	}
	smtpLn, err := net.Listen("tcp", s.cfg.SMTPAddr)
	if err != nil {
		imapLn.Close()
		return fmt.Errorf("club: SMTP: %w", err)
	}
	s.started = true
	s.imapLn, s.smtpLn = imapLn, smtpLn
	s.imapSrv = s.newIMAPServer()
	s.smtpSrv = s.newSMTPServer()
	s.serving.Go(func() {
		if err := s.imapSrv.Serve(imapLn); err != nil {
			s.log.Error("IMAP server stopped", "err", err)
		}
	})
	s.serving.Go(func() {
		if err := s.smtpSrv.Serve(smtpLn); err != nil {
			s.log.Error("SMTP server stopped", "err", err)
		}
	})

	s.log.Info("club mail server started", "domain", s.cfg.Domain,
		"imap", imapLn.Addr().String(), "smtp", smtpLn.Addr().String())
	if !isLoopbackAddr(imapLn.Addr().String()) || !isLoopbackAddr(smtpLn.Addr().String()) {
		s.log.Warn("club mail server reachable from the network: passwords and mail travel unencrypted, use it only on a trusted LAN")
	}
	return nil
}

// IMAPAddr returns the IMAP listen address: the actual one after Start
// (with the port chosen for ":0"), the configured one before.
func (s *Server) IMAPAddr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.imapLn != nil {
		return s.imapLn.Addr().String()
	}
	return s.cfg.IMAPAddr
}

// SMTPAddr returns the SMTP listen address, like IMAPAddr.
func (s *Server) SMTPAddr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.smtpLn != nil {
		return s.smtpLn.Addr().String()
	}
	return s.cfg.SMTPAddr
}

// Close stops listening, closes every connection at once, then the mail
// file, and returns when both ports are free. A closed server cannot be
// started again.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	started := s.started
	s.mu.Unlock()
	if !started {
		return s.closeStore()
	}

	// The servers close the listeners they serve and every connection.
	// The listeners are also closed here because a server that was closed
	// before its Serve goroutine registered the listener would leave it
	// open.
	errs := []error{s.imapSrv.Close(), s.smtpSrv.Close(), s.imapLn.Close(), s.smtpLn.Close()}
	s.serving.Wait()
	errs = append(errs, s.closeStore())
	var failed []error
	for _, err := range errs {
		if err != nil && !errors.Is(err, net.ErrClosed) && !errors.Is(err, smtp.ErrServerClosed) {
			failed = append(failed, err)
		}
	}
	s.log.Info("club mail server closed")
	if len(failed) > 0 {
		return fmt.Errorf("club: closing: %w", errors.Join(failed...))
	}
	return nil
}

func (s *Server) closeStore() error {
	if err := s.store.close(); err != nil {
		return fmt.Errorf("club: closing the mail file: %w", err)
	}
	return nil
}
