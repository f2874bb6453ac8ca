package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"fieldpost/engine/systems"
	"fieldpost/internal/clubjudge"
	"fieldpost/mail"
	"fieldpost/mail/club"
	"fieldpost/pbem"
	"fieldpost/pbem/config"
	"fieldpost/pbem/player"
	"fieldpost/pbem/protocol"
)

// The embedded default: with no configuration, `fieldpost serve` runs a
// small club mail server on loopback with one mailbox per player and one
// for the judge, and the judge on top of it, so that a newcomer can play by
// email without owning a mail server.

// defaultDataDir is where serve keeps its games without a configuration.
const defaultDataDir = "fieldpost-data"

// embeddedDatabase is the judge's database in an embedded data folder.
func embeddedDatabase(dataDir string) string { return filepath.Join(dataDir, "fieldpost.db") }

// embeddedMailFile keeps the club mail server's mailboxes in an embedded
// data folder.
// embeddedProcessedKeep is how long the embedded judge keeps the mails it
// handled in the club server's Processed folder.
const embeddedProcessedKeep = 30 * 24 * time.Hour

func embeddedMailFile(dataDir string) string { return filepath.Join(dataDir, "mail.db") }

// embeddedOptions are serve's flags for the embedded mode.
type embeddedOptions struct {
	dataDir  string
	imapAddr string
	smtpAddr string
	httpAddr string // the game pages', "" for none
	hostname string
	demo     bool
	pace     time.Duration // in a demo, how long a bot thinks before it answers
	verbose  bool
}

// clubFile is what the embedded mode keeps across restarts beside the
// judge's database: the accounts' passwords (so that mail programs keep
// working) and the GM secret. The mailboxes are in the mail file.
type clubFile struct {
	Domain   string         `json:"domain"`
	GMSecret string         `json:"gm_secret"`
	Accounts []club.Account `json:"accounts"`
}

// The embedded club's accounts besides the players': the judge, the game
// master, and the referee that watches demo games as an observer.
const (
	judgeAccount   = clubjudge.JudgeAccount
	gmAccount      = clubjudge.GMAccount
	refereeAccount = "referee"
	demoScenario   = "tutorial"
)

func loadClubFile(path string) (*clubFile, bool, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var cf clubFile
	if err := json.Unmarshal(raw, &cf); err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return &cf, true, nil
}

func saveClubFile(path string, cf *clubFile) error {
	raw, err := json.MarshalIndent(cf, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(raw, '\n'), 0o600) // it holds passwords
}

// newClubFile makes the accounts of a first start: the judge, the GM, the
// referee, and one player per side of the demo scenario.
func newClubFile() (*clubFile, error) {
	_, sc, err := scenarioInfo(demoScenario)
	if err != nil {
		return nil, err
	}
	cf := &clubFile{Domain: club.DefaultDomain, GMSecret: "gm-" + rand.Text()}
	names := []string{judgeAccount, gmAccount, refereeAccount}
	for _, sd := range sc.Sides {
		names = append(names, sd.Name)
	}
	for _, n := range names {
		cf.Accounts = append(cf.Accounts, club.Account{Name: n, Password: rand.Text()[:16]})
	}
	return cf, nil
}

func (cf *clubFile) password(name string) string {
	for _, a := range cf.Accounts {
		if a.Name == name {
			return a.Password
		}
	}
	return ""
}

// serveEmbedded runs the club mail server and the judge until ctx ends
// (Ctrl-C); with --demo, the game played out goes on being served.
func serveEmbedded(ctx context.Context, e *env, opt embeddedOptions) error {
	if err := os.MkdirAll(opt.dataDir, 0o700); err != nil {
		return err
	}
	lock, err := lockDatabase(embeddedDatabase(opt.dataDir), "the data folder "+opt.dataDir)
	if err != nil {
		return err
	}
	defer lock.release()
	logFile, err := os.OpenFile(filepath.Join(opt.dataDir, "fieldpost.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer logFile.Close()
	level := slog.LevelInfo
	logOut := io.Writer(logFile)
	if opt.verbose {
		logOut = io.MultiWriter(logFile, e.stderr)
	}
	log := slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: level}))

	clubPath := filepath.Join(opt.dataDir, "club.json")
	cf, existed, err := loadClubFile(clubPath)
	if err != nil {
		return err
	}
	if !existed {
		if cf, err = newClubFile(); err != nil {
			return err
		}
		if err := saveClubFile(clubPath, cf); err != nil {
			return err
		}
	}
	mailFile := embeddedMailFile(opt.dataDir)
	_, err = os.Stat(mailFile)
	mailKept := err == nil
	srv, err := club.New(club.Config{MailFile: mailFile, Domain: cf.Domain, IMAPAddr: opt.imapAddr, SMTPAddr: opt.smtpAddr,
		Hostname: opt.hostname, Accounts: cf.Accounts, Logger: log.With("part", "club")})
	if err != nil {
		return err
	}
	if err := srv.Start(); err != nil {
		return fmt.Errorf("the club mail server: %w (is another Fieldpost running? use --imap-listen and --smtp-listen)", err)
	}
	defer srv.Close()

	cfg := config.Default()
	cfg.Address = srv.Address(judgeAccount)
	cfg.Name = "Fieldpost judge"
	cfg.Database = embeddedDatabase(opt.dataDir)
	cfg.IMAPAddr, cfg.SMTPAddr = srv.IMAPAddr(), srv.SMTPAddr()
	cfg.IMAPTLS, cfg.SMTPTLS = mail.TLSNone, mail.TLSNone
	cfg.IMAPUsername, cfg.SMTPUsername = judgeAccount, judgeAccount
	cfg.IMAPPassword = cf.password(judgeAccount)
	cfg.SMTPPassword = cfg.IMAPPassword
	cfg.GMSecret = cf.GMSecret
	cfg.GMAddress = srv.Address(gmAccount)
	cfg.SendRetryMin = time.Second // the club server is right here
	// The judge's handled mail would make mail.db grow for ever; what it
	// did is in the judge's database.
	cfg.IMAPProcessedKeep = embeddedProcessedKeep
	bots := &clubBots{srv: srv, cf: cf, path: clubPath}
	hooks := pbem.Hooks{CheckCopy: checkCopyInChild, BotAccount: bots.account, ClubAccount: bots.clubAccount}
	if opt.httpAddr != "" {
		ln, err := net.Listen("tcp", opt.httpAddr)
		if err != nil {
			return fmt.Errorf("the game pages: %w (is another Fieldpost running? use --http-listen)", err)
		}
		hooks.PagesListener = ln
		host, port, _ := net.SplitHostPort(ln.Addr().String())
		cfg.BaseURL = "http://" + net.JoinHostPort(cmp.Or(opt.hostname, host), port)
	}

	if err := writeJudgeConfig(opt.dataDir, srv, cfg); err != nil {
		return err
	}
	// The game is created in the database before the judge starts, so that
	// it exists, committed, before the banner says so; a start interrupted
	// before that creates it at the next.
	created := false
	if !opt.demo {
		args := strings.Fields(newGameCommand("demo", srv))[1:]
		if created, err = pbem.CreateFirstGame(cfg, hooks, systems.New, log.With("part", "judge"), args...); err != nil {
			return fmt.Errorf("creating the game demo: %w", err)
		}
	}

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	var judgeErr error
	wg.Go(func() {
		judgeErr = pbem.Serve(runCtx, cfg, hooks, systems.New, log.With("part", "judge"))
		stop()
	})

	var demoErr error
	switch {
	case opt.demo:
		printPages(e.stdout, cfg)
		demoErr = runDemo(runCtx, e, srv, bots, cf, opt, log)
		if runCtx.Err() != nil {
			demoErr = nil // stopped before the end: a stop like any other
		}
		if demoErr != nil || runCtx.Err() != nil {
			stop()
			break
		}
		// The game is over: its pages and mail stay to be looked at.
		fmt.Fprintln(e.stdout, "\nThe demo game is over. Fieldpost goes on serving it: its pages, and every player's")
		fmt.Fprintln(e.stdout, "mailbox for a mail program (the accounts below). Stop with Ctrl-C.")
		printPages(e.stdout, cfg)
		printAccounts(e.stdout, srv)
	default:
		// The banner waits for the judge's control socket, so that the
		// admin commands it mentions work at once.
		a, err := waitForJudge(runCtx, cfg.Database)
		if err != nil {
			if runCtx.Err() == nil { // else the judge did not start: judgeErr says why
				fmt.Fprintf(e.stdout, "Fieldpost started, but %v: see %s.\n", err, filepath.Join(opt.dataDir, "fieldpost.log"))
			}
			break
		}
		if created {
			a.Close()
			printWelcome(e.stdout, srv, opt)
			printPages(e.stdout, cfg)
			break
		}
		fmt.Fprintf(e.stdout, "Fieldpost is running again (club mail server: IMAP %s, SMTP %s; data in %s).\n", srv.IMAPAddr(), srv.SMTPAddr(), opt.dataDir)
		fmt.Fprintf(e.stdout, "The accounts and passwords are those of the first start, in %s:\n", clubPath)
		printAccounts(e.stdout, srv)
		printPages(e.stdout, cfg)
		if mailKept {
			a.Close()
			fmt.Fprintf(e.stdout, "\nThe mailboxes are as they were (in %s): nobody is mailed again. Stop with Ctrl-C.\n", mailFile)
			break
		}
		n, err := remailAfterRestart(runCtx, a)
		a.Close()
		if err != nil {
			log.Error("mailing the players their forms again", "err", err)
			fmt.Fprintf(e.stdout, "\nCould not mail the players their order forms again (%v): see %s.\n", err, filepath.Join(opt.dataDir, "fieldpost.log"))
		} else {
			fmt.Fprintf(e.stdout, "\nThe mail file %s was missing, so every player of the %s running was mailed\n", mailFile, plural(n, "game"))
			fmt.Fprintln(e.stdout, "its situation and order form again. Stop with Ctrl-C.")
		}
	}
	wg.Wait()
	if err := errors.Join(demoErr, judgeErr); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "\nFieldpost stopped: the judge finished what it had in hand. The games, accounts and mail\n"+
		"are kept in %s; run it again to go on.\n", opt.dataDir)
	return nil
}

// clubBots gives bots mail accounts of their own on the club server (a
// NEWGAME's SIDE=bot), kept in club.json with the others: a bot never
// plays with a person's account.
type clubBots struct {
	mu   sync.Mutex
	srv  *club.Server
	cf   *clubFile
	path string
}

// botAccountName is the club account of the bot that plays a side of a
// game.
func botAccountName(game, side string) string {
	return "bot-" + strings.ToLower(game) + "-" + strings.ToLower(side)
}

// account returns the address of the account of the bot of a side of a
// game, creating the account when there is none.
func (b *clubBots) account(game, side string) (string, error) {
	name := botAccountName(game, side)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cf.password(name) == "" {
		a, err := b.srv.AddAccount(name, "")
		if err != nil {
			return "", err
		}
		b.cf.Accounts = append(b.cf.Accounts, a)
		if err := saveClubFile(b.path, b.cf); err != nil {
			return "", fmt.Errorf("saving the bot's account: %w", err)
		}
	}
	return b.srv.Address(name), nil
}

// waitForJudge waits until the judge of database answers on its control
// socket, and returns the connection to it.
func waitForJudge(ctx context.Context, database string) (*pbem.AdminConn, error) {
	for wait := time.Now().Add(30 * time.Second); ; {
		a, err := pbem.OpenAdmin(pbem.AdminOptions{Database: database, Games: systems.New})
		if err == nil && a.Live() {
			return a, nil
		}
		if a != nil {
			a.Close()
		}
		if ctx.Err() != nil || time.Now().After(wait) {
			return nil, fmt.Errorf("the judge did not answer on its control socket: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// remailAfterRestart gives every player of every running game its
// situation and order form again (the GM's REMAIL), through the judge just
// started: the club server's mailboxes come back empty, and with them the
// mails that carried the players' secrets. It returns the number of games.
func remailAfterRestart(ctx context.Context, a *pbem.AdminConn) (int, error) {
	games, err := a.Games(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, g := range games {
		if g.Ended {
			continue
		}
		if _, err := a.Command(ctx, "REMAIL", g.ID); err != nil {
			return n, fmt.Errorf("game %s: %w", g.ID, err)
		}
		n++
	}
	return n, nil
}

// judgeConfigName is the configuration the embedded mode writes for the
// admin commands, which need it to change games while the judge is stopped.
const judgeConfigName = "judge.conf"

// writeJudgeConfig writes the embedded judge's configuration, without its
// passwords (they stay in club.json), for `fieldpost game` and `backup`.
func writeJudgeConfig(dataDir string, srv *club.Server, cfg *config.Config) error {
	text := `# Written by "fieldpost serve" (the embedded mode) at every start, for the
# administration commands (fieldpost game ..., fieldpost backup) while the judge
# is stopped. The passwords are in club.json, beside this file.
` + clubjudge.Config(srv, cfg.Database, "name = "+cfg.Name)
	return writeFileAtomic(filepath.Join(dataDir, judgeConfigName), []byte(text), 0o600)
}

// newGameCommand is the GM's mail that creates a tutorial game with the
// club's player accounts.
func newGameCommand(id string, srv *club.Server) string {
	return newGameWith(id, srv.Address)
}

// newGameWith is the GM's mail that creates a tutorial game, each side
// played by the address player gives it.
func newGameWith(id string, player func(side string) string) string {
	_, sc, _ := scenarioInfo(demoScenario)
	var b strings.Builder
	fmt.Fprintf(&b, "NEWGAME scenario=%s id=%s deadline=none", demoScenario, id)
	for _, sd := range sc.Sides {
		fmt.Fprintf(&b, " %s=%s", sd.Name, player(sd.Name))
	}
	return b.String()
}

// gmMail delivers a command from the GM's account to the judge, the same
// way a GM's mail program would.
func gmMail(srv *club.Server, cf *clubFile, command string) error {
	return clubjudge.GMMail(srv, cf.GMSecret, command)
}

// printPages says where the game pages are, when served.
func printPages(w io.Writer, cfg *config.Config) {
	if cfg.BaseURL != "" {
		fmt.Fprintf(w, "The game pages are at %s/ (every mail links to the player's own page).\n", cfg.BaseURL)
	}
}

// printWelcome tells a newcomer how to play: one mail account per side.
// The game's line comes first, and the accounts are a table, so that both
// stay on the first screen of a terminal of 24 lines.
func printWelcome(w io.Writer, srv *club.Server, opt embeddedOptions) {
	_, sc, _ := scenarioInfo(demoScenario)
	fmt.Fprintf(w, "Fieldpost is running, with its own small mail server on %s.\n", hostOf(srv.IMAPAddr()))
	fmt.Fprintf(w, "A game of %q (game id demo) has been created, one player a side.\n", sc.Title)
	fmt.Fprintln(w, "Set up a mail program (Thunderbird, mutt, ...) with a player's account below; its")
	fmt.Fprintln(w, "INBOX holds the judge's welcome with your order form. Reply to it with your orders.")
	printAccounts(w, srv)
	fmt.Fprintln(w, "The order language: docs/orders.md; commands: docs/commands.md. GM commands need the")
	fmt.Fprintf(w, "GM secret in %s; fieldpost club add NAME makes another account.\n", filepath.Join(opt.dataDir, "club.json"))
	fmt.Fprintf(w, "Games are kept in %s, mail in %s. Stop with Ctrl-C.\n", embeddedDatabase(opt.dataDir), embeddedMailFile(opt.dataDir))
}

// printAccounts lists the club's mail accounts but the judge's, one line
// each, after the settings they share; the game master's is named so.
func printAccounts(w io.Writer, srv *club.Server) {
	fmt.Fprintf(w, "\nMail accounts: IMAP %s, SMTP %s (no SSL/TLS, normal password;\nthe user name is the account's name):\n",
		srv.IMAPAddr(), srv.SMTPAddr())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, a := range srv.Accounts() {
		if a.Name == judgeAccount {
			continue
		}
		role := ""
		if a.Name == gmAccount {
			role = "\tthe game master"
		}
		fmt.Fprintf(tw, "  %s\t%s\tpassword %s%s\n", a.Name, srv.Address(a.Name), a.Password, role)
	}
	tw.Flush()
	fmt.Fprintln(w)
}

func hostOf(addr string) string {
	if i := strings.LastIndex(addr, ":"); i > 0 {
		return addr[:i]
	}
	return addr
}

// runDemo plays a tutorial game between two bots over the club's mail,
// each with an account of its own: the GM creates it, the referee
// subscribes as an observer and writes every report it receives to a
// folder, and the demo ends with the game.
func runDemo(ctx context.Context, e *env, srv *club.Server, bots *clubBots, cf *clubFile, opt embeddedOptions, log *slog.Logger) error {
	id := "demo-" + time.Now().UTC().Format("20060102-150405")
	reports := filepath.Join(opt.dataDir, "reports", id)
	if err := os.MkdirAll(reports, 0o700); err != nil {
		return err
	}
	_, sc, err := scenarioInfo(demoScenario)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Demo: two bots play %q by mail through the club mail server on %s.\n", sc.Title, hostOf(srv.IMAPAddr()))
	fmt.Fprintf(e.stdout, "Reports are written to %s as the rounds are played.\n", reports)
	// The accounts exist before the bots log in; the game seats them.
	for _, sd := range sc.Sides {
		if _, err := bots.account(id, sd.Name); err != nil {
			return err
		}
	}
	if err := gmMail(srv, cf, newGameWith(id, func(string) string { return "bot" })); err != nil {
		return err
	}
	if err := clubjudge.Mail(srv, refereeAccount, "SUBSCRIBE", "SUBSCRIBE "+id+"\n"); err != nil {
		return err
	}
	demoCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	for i, sd := range sc.Sides {
		b, intake, err := clubBot(srv, cf, botAccountName(id, sd.Name), id, sd.Name, uint64(i+1), log)
		if err != nil {
			return err
		}
		thinking := func(ctx context.Context, msg *mail.Inbound) error {
			select {
			case <-time.After(opt.pace):
			case <-ctx.Done():
				return ctx.Err()
			}
			return b.Handle(ctx, msg)
		}
		wg.Go(func() { _ = intake.Run(demoCtx, thinking) })
	}
	ref := &referee{game: id, dir: reports, out: e.stdout, done: stop}
	refIntake, err := clubIntake(srv, cf, refereeAccount, log)
	if err != nil {
		return err
	}
	wg.Go(func() { _ = refIntake.Run(demoCtx, ref.handle) })
	wg.Wait()
	if !ref.over {
		return ctx.Err()
	}
	return nil
}

func clubIntake(srv *club.Server, cf *clubFile, account string, log *slog.Logger) (*mail.Intake, error) {
	return mail.NewIntake(mail.IntakeConfig{Addr: srv.IMAPAddr(), TLS: mail.TLSNone, Username: account,
		Password: cf.password(account), RetryMin: 100 * time.Millisecond, LeaveSetAside: true, Logger: log.With("part", account)})
}

// clubBot is a bot player on a club account, playing a side of a game
// (every game of the account when game is ""), as `fieldpost bot` would
// run.
func clubBot(srv *club.Server, cf *clubFile, account, game, side string, seed uint64, log *slog.Logger) (*player.Bot, *mail.Intake, error) {
	intake, err := clubIntake(srv, cf, account, log)
	if err != nil {
		return nil, nil, err
	}
	sender, err := mail.NewSender(mail.SenderConfig{Addr: srv.SMTPAddr(), TLS: mail.TLSNone, Username: account, Password: cf.password(account)})
	if err != nil {
		return nil, nil, err
	}
	systems, err := builtinGames()
	if err != nil {
		return nil, nil, err
	}
	b := player.New(player.Config{Side: side, Game: game, From: mail.Address{Email: srv.Address(account)}, Seed: seed,
		Sender: sender, Systems: systems, Log: log.With("part", "bot", "side", side)})
	return b, intake, nil
}

// referee watches a demo game as an observer: it writes every report and
// its map to the folder, prints a line per round, and ends the demo with the game.
type referee struct {
	game string
	dir  string
	out  io.Writer
	done func()
	over bool
}

func (r *referee) handle(_ context.Context, msg *mail.Inbound) error {
	if msg.Header.Get(protocol.HeaderGame) != r.game {
		return nil
	}
	kind := msg.Header.Get(protocol.HeaderKind)
	if kind != protocol.KindReport && kind != protocol.KindGameOver {
		return nil
	}
	// X-Fieldpost-Round names the round a report reports.
	name := "final.txt"
	if round, err := strconv.Atoi(msg.Header.Get(protocol.HeaderRound)); err == nil && kind == protocol.KindReport {
		name = fmt.Sprintf("round-%02d.txt", round)
	}
	if err := os.WriteFile(filepath.Join(r.dir, name), []byte(msg.Text), 0o600); err != nil {
		return err
	}
	for _, a := range msg.Attachments {
		if a.ContentType == "image/png" {
			if err := os.WriteFile(filepath.Join(r.dir, strings.TrimSuffix(name, ".txt")+".png"), a.Data, 0o600); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(r.out, "%s  %s\n", time.Now().Format("15:04:05"), firstLine(msg.Subject))
	if kind == protocol.KindGameOver {
		for _, line := range strings.Split(msg.Text, "\n") {
			if strings.HasPrefix(line, "THE BATTLE IS OVER") {
				fmt.Fprintln(r.out, line)
			}
		}
		fmt.Fprintf(r.out, "The final report is in %s.\n", filepath.Join(r.dir, name))
		r.over = true
		r.done()
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}
