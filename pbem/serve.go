package pbem

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"sync"
	"time"

	"fieldpost/mail"
)

// shutdownFlush bounds the last sending of the outbox at shutdown, well
// within the 30 s a service manager grants (deploy/fieldpost.service).
const shutdownFlush = 15 * time.Second

// Serve runs the judge of cfg until ctx is done: the IMAP intake hands
// each mail to the Service, the outbox is sent over SMTP, deadlines are
// watched and the administration is served on the control socket
// (ControlSocket). At the end it finishes the mail in hand, sends what it can of
// the outbox and closes the database.
func Serve(ctx context.Context, cfg *Config, logger *slog.Logger) error {
	d, err := newDaemon(cfg, logger, SystemClock())
	if err != nil {
		return err
	}
	return d.run(ctx)
}

// daemon is a Service wired to its mail servers.
type daemon struct {
	cfg    *Config
	store  *Store
	svc    *Service
	intake *mail.Intake
	log    *slog.Logger
}

func newDaemon(cfg *Config, logger *slog.Logger, clock Clock) (*daemon, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	opts, err := serviceOptions(cfg, logger, clock, true)
	if err != nil {
		return nil, err
	}
	sender, err := mail.NewSender(mail.SenderConfig{Addr: cfg.SMTPAddr, TLS: cfg.SMTPTLS,
		Username: cfg.SMTPUsername, Password: cfg.SMTPPassword, HeloName: cfg.SMTPHelo})
	if err != nil {
		return nil, err
	}
	intake, err := mail.NewIntake(mail.IntakeConfig{
		Addr: cfg.IMAPAddr, TLS: cfg.IMAPTLS, Username: cfg.IMAPUsername, Password: cfg.IMAPPassword,
		Mailbox: cfg.IMAPMailbox, ProcessedMailbox: cfg.IMAPProcessedMailbox, SetAsideMailbox: cfg.IMAPSetAsideMailbox,
		PollInterval: cfg.IMAPPollInterval, DisableIdle: !cfg.IMAPIdle, MaxMessageSize: cfg.MaxMessageSize,
		Limits: mail.Limits{MaxHeaderFields: cfg.MaxHeaderFields, MaxParts: cfg.MaxMIMEParts}, Logger: logger,
	})
	if err != nil {
		return nil, err
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
	return &daemon{cfg: cfg, store: store, svc: svc, intake: intake, log: logger}, nil
}

// run runs the daemon until ctx is done, then shuts it down in order: the
// intake finishes the mail in hand, the control socket the request in
// hand, the outbox is flushed, the database closed.
func (d *daemon) run(ctx context.Context) error {
	d.log.Info("judge started", "address", d.cfg.Address, "imap", d.cfg.IMAPAddr, "smtp", d.cfg.SMTPAddr, "database", d.cfg.Database)
	control := d.startControl()
	var wg sync.WaitGroup
	var intakeErr error
	wg.Go(func() { intakeErr = d.intake.Run(ctx, d.svc.Handle) })
	wg.Go(func() { d.svc.Run(ctx) })
	wg.Wait()
	control.stop()

	flushCtx, cancel := context.WithTimeout(context.Background(), shutdownFlush)
	flushErr := d.svc.Flush(flushCtx)
	cancel()
	err := errors.Join(intakeErr, flushErr, d.store.Close())
	d.log.Info("judge stopped")
	return err
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
