package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"fieldpost/engine"
	"fieldpost/engine/systems"
	"fieldpost/mail/club"
	"fieldpost/pbem/config"
	"fieldpost/templates"
)

// loadOptions are load's flags.
type loadOptions struct {
	games, played  int
	scenario       string
	mails, latency int
	longGame       string // "" for none
	longRounds     int
	judge          string // the fieldpost binary to run
	dir            string // "" for a temporary folder
}

func cmdLoad(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fieldpost-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\n%s\n\n", usage, summary)
		fs.PrintDefaults()
	}
	var opt loadOptions
	fs.IntVar(&opt.games, "games", 10000, "games in the database")
	fs.IntVar(&opt.played, "played", 60, "of them, games created by NEWGAME and mailed orders; the rest are copies")
	fs.StringVar(&opt.scenario, "scenario", "tutorial", "the scenario of the games")
	fs.IntVar(&opt.mails, "mails", 2000, "order mails arriving together, for the rate")
	fs.IntVar(&opt.latency, "latency-mails", 300, "order mails sent one at a time, for the latency")
	fs.StringVar(&opt.longGame, "long-game", "foggia", `a scenario two bots play to the end by mail, for the bytes stored per round ("" for none)`)
	fs.IntVar(&opt.longRounds, "long-rounds", 30, "with --long-game: games are played until they make this many rounds")
	fs.StringVar(&opt.judge, "judge", "", "the fieldpost binary to measure (by default fieldpost beside this tool, else in $PATH)")
	fs.StringVar(&opt.dir, "dir", "", "folder for the database, the mail file and the judge's log (a temporary one, removed, by default)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 || opt.played < 1 || opt.games < opt.played || opt.mails < 1 || opt.latency < 1 {
		return errUsage
	}
	if opt.judge == "" {
		judge, err := findJudge()
		if err != nil {
			return err
		}
		opt.judge = judge
	}
	if opt.dir == "" {
		dir, err := os.MkdirTemp("", "fieldpost-load-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		opt.dir = dir
	}
	if err := os.MkdirAll(opt.dir, 0o700); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	r, err := runLoad(ctx, stderr, opt)
	if err != nil {
		return err
	}
	r.write(stdout)
	return nil
}

// summary is what the tool does, for its help.
const summary = "Measure the judge under load (docs/performance.md): build a database of N games, run the real judge\n" +
	"on a club mail server on loopback, mail it orders, and time its answers against a raw fetch-and-reply baseline."

// findJudge finds the fieldpost binary to measure when --judge does not
// name it: the one installed beside this tool, else the one in $PATH.
func findJudge() (string, error) {
	if self, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(self), "fieldpost")
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() {
			return beside, nil
		}
	}
	judge, err := exec.LookPath("fieldpost")
	if err != nil {
		return "", fmt.Errorf("no fieldpost binary beside this tool or in $PATH: build one (go build -o fieldpost ./cmd/fieldpost) and give --judge PATH")
	}
	return judge, nil
}

// loadRun is the state of one run: the club server, its accounts, the
// judge's configuration and what arrives in the mailboxes.
type loadRun struct {
	opt      loadOptions
	log      io.Writer
	srv      *club.Server
	club     *clubAccounts
	conf     string // the judge's configuration file
	cfg      *config.Config
	systems  engine.Systems
	arrivals *arrivals
}

func runLoad(ctx context.Context, logw io.Writer, opt loadOptions) (*loadReport, error) {
	hosted, err := systems.New(templates.FS)
	if err != nil {
		return nil, err
	}
	_, sc, err := hosted.Scenario(opt.scenario)
	if err != nil {
		return nil, err
	}
	run := &loadRun{opt: opt, log: logw, systems: hosted, arrivals: newArrivals()}
	names := []string{judgeAccount, gmAccount, echoAccount}
	for game := 1; game <= opt.played; game++ {
		for _, sd := range sc.Sides {
			names = append(names, playerAccount(sd.Name, game))
		}
	}
	var longSides []string
	if opt.longGame != "" {
		_, lsc, err := hosted.Scenario(opt.longGame)
		if err != nil {
			return nil, err
		}
		for _, sd := range lsc.Sides {
			longSides = append(longSides, sd.Name)
			names = append(names, longPrefix+strings.ToLower(sd.Name))
		}
	}
	run.club = newClubAccounts(names)
	quiet := slog.New(slog.DiscardHandler)
	run.srv, err = club.New(club.Config{MailFile: filepath.Join(opt.dir, "mail.db"), Domain: club.DefaultDomain,
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Accounts: run.club.accounts, Logger: quiet, Delivered: run.arrivals.delivered})
	if err != nil {
		return nil, err
	}
	if err := run.srv.Start(); err != nil {
		return nil, err
	}
	defer run.srv.Close()

	r := &loadReport{opt: opt}
	start := time.Now()
	if err := run.build(ctx, sc); err != nil {
		return nil, fmt.Errorf("building the database: %w", err)
	}
	r.buildTime = time.Since(start)
	if fi, err := os.Stat(run.cfg.Database); err == nil {
		r.fileBytes = fi.Size()
	}
	run.progress("database of %d games built in %.1f s", opt.games, r.buildTime.Seconds())

	// A first start sends the welcome mails: the players' situations and
	// secrets, which the order mails are planned from.
	judge, err := run.startJudge()
	if err != nil {
		return nil, err
	}
	welcomes, err := run.arrivals.welcomes(ctx, opt.played*len(sc.Sides), 5*time.Minute)
	if err != nil {
		judge.kill()
		return nil, err
	}
	if err := judge.stop(); err != nil {
		return nil, err
	}
	orders, err := run.planOrders(welcomes, sc.Sides[0].Name)
	if err != nil {
		return nil, err
	}

	// The measured start: the database out of the page cache, a mail
	// waiting.
	r.cold = dropFromCache(run.cfg.Database)
	probe, err := run.mailFrom(playerAccount(sc.Sides[0].Name, 1), run.srv.Address(judgeAccount), "HELP", "HELP\n")
	if err != nil {
		return nil, err
	}
	if err := run.deliver(probe); err != nil {
		return nil, err
	}
	judge, err = run.startJudge()
	if err != nil {
		return nil, err
	}
	defer judge.kill()
	if r.startSocket, err = judge.waitSocket(ctx, run.cfg.Database); err != nil {
		return nil, err
	}
	at, err := run.arrivals.wait(ctx, []string{probe.id}, time.Minute)
	if err != nil {
		return nil, fmt.Errorf("the first mail after the start: %w", err)
	}
	r.startAnswer = at[0].Sub(judge.started)
	r.rssStart = judge.memory()
	run.progress("judge ready in %v", r.startAnswer.Round(time.Millisecond))
	// The judge reads every page of its database a few seconds after its
	// start: the measures wait for it, to measure the steady state.
	if err := run.waitLog(ctx, judge, "database checked", time.Minute); err != nil {
		return nil, err
	}

	// The raw baseline is measured before and after the judge, the better
	// of the two kept: the reference is then the mail server's best, not
	// a moment the machine was busier.
	first, err := run.baseline(ctx, orders)
	if err != nil {
		return nil, err
	}
	r.judge, err = run.measure(ctx, func(i int) (*loadMail, error) {
		o := orders[i%len(orders)]
		return run.mailFrom(o.account, o.to, o.subject, o.text)
	})
	if err != nil {
		return nil, fmt.Errorf("the order mails: %w", err)
	}
	r.accepted, r.refused = run.arrivals.counts()
	r.rssEnd = judge.memory()
	run.progress("judge %.0f mails/s", r.judge.rate())
	second, err := run.baseline(ctx, orders)
	if err != nil {
		return nil, err
	}
	r.baseline = first
	if second.rate() > first.rate() {
		r.baseline = second
	}
	if err := judge.stop(); err != nil {
		return nil, err
	}
	if opt.longGame != "" {
		if err := run.longGames(ctx, r, longSides); err != nil {
			return nil, fmt.Errorf("the long game: %w", err)
		}
	}
	return r, nil
}

func (run *loadRun) progress(format string, args ...any) {
	fmt.Fprintf(run.log, "fieldpost load: "+format+"\n", args...)
}
