package main

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"fieldpost/mail"
	"fieldpost/pbem/config"
	"fieldpost/pbem/player"
)

func init() {
	commands["bot"] = command{
		"bot --side SIDE [--game ID] [--imap HOST:PORT --smtp HOST:PORT --user U [--password P] [--address ADDR] [--tls none|starttls|implicit]] [--data DIR] [--once] [--seed N]",
		"Play a side by mail as a player would: answer the judge's order forms with the bot's orders.\n" +
			"Without --imap, --smtp and --user it plays game ID of the judge that fieldpost serve runs without\n" +
			"--config, with the account of its own the game gave the bot (NEWGAME ... SIDE=bot; in DIR/club.json).\n" +
			"It only reads the judge's mails of its side (and game): every other mail stays in the INBOX untouched.",
		cmdBot}
}

// onceTimeout bounds a --once run that cannot get through its mailbox (a
// server down, a wrong password): the intake keeps trying, the log says why.
const onceTimeout = 2 * time.Minute

func cmdBot(e *env, args []string) error {
	fs := newFlags(e, "bot")
	side := fs.String("side", "", "the side the bot plays, as the judge's mails name it")
	game := fs.String("game", "", "the game the bot plays (required with the embedded judge); every game of the account when not given")
	imapAddr := fs.String("imap", "", "the IMAP server of the bot's mailbox, HOST:PORT")
	smtpAddr := fs.String("smtp", "", "the SMTP submission server, HOST:PORT")
	user := fs.String("user", "", "the user name on both servers")
	password := fs.String("password", "", "the password on both servers; better in $FIELDPOST_BOT_PASSWORD")
	address := fs.String("address", "", "the bot's mail address (default: the user name)")
	tlsName := fs.String("tls", "implicit", "how connections are secured: none, starttls or implicit")
	relay := fs.Bool("smtp-relay", false, "send through a relay that takes the club's mail from this host without TLS or login (OpenSMTPD on loopback)")
	once := fs.Bool("once", false, "handle the mail in the mailbox, then exit (for cron)")
	seed := fs.Uint64("seed", 0, "varies the bot's plans")
	dataDir := fs.String("data", defaultDataDir, "without --imap, --smtp and --user: the data folder of the embedded judge")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *side == "" {
		return errUsage
	}
	if *imapAddr == "" && *smtpAddr == "" && *user == "" {
		acct, err := embeddedBotAccount(*dataDir, *game, *side)
		if err != nil {
			return err
		}
		*imapAddr, *smtpAddr, *user, *tlsName = acct.imap, acct.smtp, acct.user, "none"
		if *password == "" {
			*password = acct.password
		}
		if *address == "" {
			*address = acct.address
		}
	}
	if *imapAddr == "" || *smtpAddr == "" || *user == "" {
		return errUsage
	}
	pw := *password
	if pw == "" {
		pw = os.Getenv("FIELDPOST_BOT_PASSWORD")
	}
	if pw == "" {
		return errors.New("no password: give --password or set FIELDPOST_BOT_PASSWORD")
	}
	from := *address
	if from == "" {
		from = *user
	}
	if !strings.Contains(from, "@") {
		return fmt.Errorf("the bot's address %q is not a mail address: give --address", from)
	}
	mode, err := tlsMode(*tlsName)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(e.stderr, nil))
	intake, err := mail.NewIntake(mail.IntakeConfig{Addr: *imapAddr, TLS: mode, Username: *user, Password: pw, LeaveSetAside: true, Logger: log})
	if err != nil {
		return err
	}
	senderConfig := mail.SenderConfig{Addr: *smtpAddr, TLS: mode, Username: *user, Password: pw}
	if *relay {
		senderConfig = mail.SenderConfig{Addr: *smtpAddr, TLS: mail.TLSNone}
	}
	sender, err := mail.NewSender(senderConfig)
	if err != nil {
		return err
	}
	systems, err := builtinGames()
	if err != nil {
		return err
	}
	b := player.New(player.Config{Side: *side, Game: *game, From: mail.Address{Email: from}, Seed: *seed,
		Sender: sender, Systems: systems, Log: log})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Info("bot started", "side", *side, "game", cmp.Or(strings.ToLower(*game), "every game"), "address", from, "imap", *imapAddr, "smtp", *smtpAddr, "once", *once)
	if *once {
		return runOnce(ctx, intake, b.Handle)
	}
	return intake.Run(ctx, b.Handle)
}

// clubAccount is an account of the embedded judge's club mail server.
type clubAccount struct {
	imap, smtp, user, password, address string
}

// embeddedBotAccount finds the account of the bot of a side of a game of
// the embedded judge of a data folder, as `fieldpost game` finds its
// database: the servers from the judge.conf it writes, the password from
// club.json. The account is the one the game gave the bot (NEWGAME's
// SIDE=bot), never a person's.
func embeddedBotAccount(dataDir, game, side string) (*clubAccount, error) {
	if game == "" {
		return nil, errors.New("give --game: with the embedded judge, the bot plays one game, with the account of its own " +
			"the game gave it (make the game with SIDE=bot, e.g. fieldpost game new --scenario tutorial --id solo " +
			"--player us=us@fieldpost.local --player german=bot)")
	}
	conf := filepath.Join(dataDir, judgeConfigName)
	cfg, err := config.Load(conf, func(string) string { return "" })
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no --imap, --smtp and --user, and no embedded judge in %s (start it with fieldpost serve, or give --data)", dataDir)
	}
	if err != nil {
		return nil, err
	}
	cf, found, err := loadClubFile(filepath.Join(dataDir, "club.json"))
	if err != nil {
		return nil, err
	}
	name := botAccountName(game, side)
	if !found || cf.password(name) == "" {
		return nil, fmt.Errorf("the embedded judge in %s has no bot account for side %q of game %q: make the game with %s=bot",
			dataDir, side, game, strings.ToLower(side))
	}
	return &clubAccount{imap: cfg.IMAPAddr, smtp: cfg.SMTPAddr, user: name, password: cf.password(name),
		address: name + "@" + cf.Domain}, nil
}

func tlsMode(s string) (mail.TLSMode, error) {
	switch s {
	case "none":
		return mail.TLSNone, nil
	case "starttls":
		return mail.TLSStartTLS, nil
	case "implicit":
		return mail.TLSImplicit, nil
	}
	return 0, fmt.Errorf("--tls %q: want none, starttls or implicit", s)
}

// runOnce handles the mail in the mailbox now: it runs the intake until it
// has made one whole pass over the mailbox. Mail it could not handle
// stays there for the next run. An interrupt ends it cleanly.
func runOnce(ctx context.Context, in *mail.Intake, handle mail.Handler) error {
	runCtx, cancel := context.WithTimeout(ctx, onceTimeout)
	defer cancel()
	// Run would retry a server it cannot use: once, the reason is the
	// answer.
	if err := in.Check(runCtx); err != nil {
		var notTLS tls.RecordHeaderError
		if errors.As(err, &notTLS) {
			return fmt.Errorf("the IMAP server does not speak TLS on this port (%w): try --tls starttls or --tls none", err)
		}
		return err
	}
	done := make(chan error, 1)
	go func() { done <- in.Run(runCtx, handle) }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for in.Passes() == 0 {
		select {
		case <-runCtx.Done():
			<-done
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("no pass over the mailbox within %v: see the log", onceTimeout)
		case <-tick.C:
		}
	}
	cancel()
	return <-done
}
