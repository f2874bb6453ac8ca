package pbem

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"fieldpost/mail"
	"fieldpost/pbem/config"
	"fieldpost/pbem/store"
)

// shutdownFlush bounds the last sending of the outbox at shutdown, well
// within the 30 s a service manager grants (deploy/fieldpost.service).
const shutdownFlush = 15 * time.Second

// deadlineStartDelay holds back the deadline loop at the start; a round
// due meanwhile is played that much later.
const deadlineStartDelay = 2 * time.Second

// checkDelay is how long after its start the judge checks every page of
// its database: after the mails waiting at the start are answered.
const checkDelay = 10 * time.Second

// Serve runs the judge of cfg until ctx is done: the IMAP intake hands
// each mail to the Service, the outbox is sent over SMTP, deadlines are
// watched and the administration is served on the control socket
// (ControlSocket). At the end it finishes the mail in hand, sends what it can of
// the outbox and closes the database. The hooks are what the program gives
// beside the configuration (the zero Hooks for a file's judge).
func Serve(ctx context.Context, cfg *config.Config, hooks Hooks, games Games, logger *slog.Logger) error {
	d, err := newDaemon(cfg, hooks, games, logger, SystemClock())
	if err != nil {
		return err
	}
	return d.run(ctx)
}

// daemon is a Service wired to its mail servers.
type daemon struct {
	cfg    *config.Config
	hooks  Hooks
	store  *Store
	svc    *Service
	sender *mail.Sender
	intake *mail.Intake // nil when the mail server hands every mail over by LMTP
	log    *slog.Logger
}

func newDaemon(cfg *config.Config, hooks Hooks, games Games, logger *slog.Logger, clock Clock) (*daemon, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	opts, err := serviceOptions(cfg, hooks, games, logger, clock, true)
	if err != nil {
		return nil, err
	}
	// With thousands of games, the first pass of the deadline loop reads
	// for a second from a cold disk: the mails waiting go first.
	opts.DeadlineStartDelay = deadlineStartDelay
	opts.SendSessions = cfg.SMTPSessions
	sender, err := mail.NewSender(mail.SenderConfig{Addr: cfg.SMTPAddr, TLS: cfg.SMTPTLS,
		Username: cfg.SMTPUsername, Password: cfg.SMTPPassword, HeloName: cfg.SMTPHelo, MaxSessions: cfg.SMTPSessions})
	if err != nil {
		return nil, err
	}
	var intake *mail.Intake
	if cfg.IMAPAddr != "" {
		intake, err = mail.NewIntake(mail.IntakeConfig{
			Addr: cfg.IMAPAddr, TLS: cfg.IMAPTLS, Username: cfg.IMAPUsername, Password: cfg.IMAPPassword,
			Mailbox: cfg.IMAPMailbox, ProcessedMailbox: cfg.IMAPProcessedMailbox, SetAsideMailbox: cfg.IMAPSetAsideMailbox, ProcessedKeep: cfg.IMAPProcessedKeep,
			PollInterval: cfg.IMAPPollInterval, DisableIdle: !cfg.IMAPIdle, MaxMessageSize: cfg.MaxMessageSize,
			Limits: mail.Limits{MaxHeaderFields: cfg.MaxHeaderFields, MaxParts: cfg.MaxMIMEParts}, Logger: logger,
		})
		if err != nil {
			return nil, err
		}
	}
	store, err := OpenStore(cfg.Database)
	if err != nil {
		return nil, err
	}
	svc, err := NewService(store, sender, opts)
	if err != nil {
		store.Close()
		return nil, err
	}
	return &daemon{cfg: cfg, hooks: hooks, store: store, svc: svc, sender: sender, intake: intake, log: logger}, nil
}

// run runs the daemon until ctx is done, then shuts it down in order: the
// intake finishes the mail in hand, the control socket the request in
// hand, the outbox is flushed, the database closed.
func (d *daemon) run(ctx context.Context) error {
	d.log.Info("judge started", "address", d.cfg.Address, "imap", d.cfg.IMAPAddr, "lmtp", d.cfg.LMTPListen, "smtp", d.cfg.SMTPAddr, "database", d.cfg.Database)
	ctx, stopDamaged := context.WithCancelCause(ctx)
	defer stopDamaged(nil)
	go func() {
		// Every page is read once, a while after the start (so that the
		// reading of the whole file does not slow the first mails): a
		// damaged file stops the judge before a read in the middle of its
		// work meets the damage.
		select {
		case <-ctx.Done():
			return
		case <-time.After(checkDelay):
		}
		err := d.store.Check(ctx, d.hooks.CheckCopy)
		if ctx.Err() != nil {
			return // the judge stops anyway: the check was cut off
		}
		if _, damaged := errors.AsType[*store.DamagedError](err); damaged {
			d.log.Error("the database is damaged: the judge stops", "err", err)
			stopDamaged(err)
			return
		}
		if err != nil {
			// Nothing is known to be wrong with the file: the judge goes on,
			// and check-db can be run by hand.
			d.log.Error("the database could not be checked; the judge goes on (run fieldpost check-db)", "err", err)
			return
		}
		d.log.Info("database checked")
	}()
	for _, m := range d.cfg.MissingSecrets() {
		d.log.Warn(m)
	}
	control := d.startControl()
	pages, err := d.startPages()
	if err != nil {
		control.stop()
		return errors.Join(err, d.store.Close())
	}
	lmtp, err := d.startLMTP()
	if err != nil {
		control.stop()
		pages.stop()
		return errors.Join(err, d.store.Close())
	}
	var wg sync.WaitGroup
	var intakeErr error
	if d.intake != nil {
		wg.Go(func() { intakeErr = d.intake.RunBatch(ctx, d.svc.HandleBatch) })
	}
	wg.Go(func() { d.svc.Run(ctx) })
	wg.Wait()
	if lmtp != nil {
		lmtp.Close() // after the mails in hand are committed and answered
	}
	control.stop()
	pages.stop()

	flushCtx, cancel := context.WithTimeout(context.Background(), shutdownFlush)
	flushErr := d.svc.Flush(flushCtx)
	cancel()
	err = errors.Join(intakeErr, flushErr, d.sender.Close(), d.store.Close())
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) {
		err = errors.Join(cause, err)
	}
	d.log.Info("judge stopped")
	return err
}

// startLMTP takes mail over LMTP on lmtp_listen (host:port, or a unix
// socket path); nothing without it.
func (d *daemon) startLMTP() (*mail.LMTPServer, error) {
	addr := d.cfg.LMTPListen
	if addr == "" {
		return nil, nil
	}
	network := "tcp"
	if strings.HasPrefix(addr, "/") {
		network = "unix"
		if fi, err := os.Lstat(addr); err == nil && fi.Mode().Type() == fs.ModeSocket {
			os.Remove(addr) // left by a judge that was killed
		}
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, fmt.Errorf("lmtp_listen: %w", err)
	}
	if network == "unix" {
		// The mail server's delivery agent, often another user, connects.
		if err := os.Chmod(addr, 0o666); err != nil {
			ln.Close()
			return nil, fmt.Errorf("lmtp_listen: %w", err)
		}
	}
	d.log.Info("taking mail over lmtp", "listen", ln.Addr().String())
	return mail.ServeLMTP(ln, mail.LMTPConfig{Address: d.cfg.Address, MaxMessageSize: d.cfg.MaxMessageSize,
		Logger: d.log.With("part", "lmtp")}, d.svc.Deliver), nil
}

// overlayFS serves the files of top, falling back to base: a club's
// template folder need only hold the templates it changes.
type overlayFS struct {
	top, base fs.FS
}

func (o overlayFS) Open(name string) (fs.File, error) {
	f, err := o.top.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return o.base.Open(name)
	}
	return f, err
}

// pagesServer is the HTTP server of the game pages, when configured.
type pagesServer struct{ srv *http.Server }

// startPages serves the game pages on http_listen; nothing without it.
func (d *daemon) startPages() (*pagesServer, error) {
	ln := d.hooks.PagesListener
	if ln == nil && d.cfg.HTTPListen == "" {
		return &pagesServer{}, nil
	}
	pages, err := newWebPages(d.svc, d.log.With("part", "web"))
	if err != nil {
		return nil, err
	}
	if ln == nil {
		if ln, err = net.Listen("tcp", d.cfg.HTTPListen); err != nil {
			return nil, fmt.Errorf("game pages: %w", err)
		}
	}
	srv := &http.Server{Handler: pages.Handler(), ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(d.log.Handler(), slog.LevelWarn)}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.log.Error("game pages stopped", "err", err)
		}
	}()
	d.log.Info("game pages served", "listen", ln.Addr().String(), "url", d.cfg.PagesURL())
	return &pagesServer{srv: srv}, nil
}

func (p *pagesServer) stop() {
	if p.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p.srv.Shutdown(ctx)
}
