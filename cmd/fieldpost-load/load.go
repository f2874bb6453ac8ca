package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	netmail "net/mail"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"golang.org/x/sys/unix"

	"fieldpost/engine"
	"fieldpost/engine/systems"
	"fieldpost/internal/clubjudge"
	"fieldpost/mail"
	"fieldpost/mail/club"
	"fieldpost/pbem"
	"fieldpost/pbem/config"
	"fieldpost/pbem/player"
	"fieldpost/pbem/protocol"
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

// loadReport is what a load run measured.
type loadReport struct {
	opt       loadOptions
	fileBytes int64
	buildTime time.Duration
	// cold says how the database was taken out of the page cache.
	cold              string
	startSocket       time.Duration // process start to the control socket answering
	startAnswer       time.Duration // process start to the answer of a mail waiting in the INBOX
	rssStart          procMemory
	rssEnd            procMemory
	baseline, judge   runFigures
	accepted, refused int
	longGames         int
	longRounds        int
	perRound          int64    // bytes stored per round, all buckets
	roundBytes        []string // each long game's positions and records, by turn
}

// runFigures are one side of the comparison: the rate of a burst and the
// latency of single mails.
type runFigures struct {
	mails    int
	elapsed  time.Duration
	p50, p99 time.Duration
}

func (f runFigures) rate() float64 { return float64(f.mails) / f.elapsed.Seconds() }

// procMemory is a process's memory from /proc/PID/status, in kB.
type procMemory struct{ rss, peak, anon, file int }

func (r *loadReport) write(w io.Writer) {
	o := r.opt
	mb := func(kb int) string { return fmt.Sprintf("%.0f MB", float64(kb)/1024) }
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	fmt.Fprintf(w, "fieldpost load: %d games of %s (%d played, %d copies); database %.0f MB, built in %.1f s\n",
		o.games, o.scenario, o.played, o.games-o.played, float64(r.fileBytes)/1e6, r.buildTime.Seconds())
	fmt.Fprintln(w, "| measure | figure |")
	fmt.Fprintln(w, "|---|---|")
	fmt.Fprintf(w, "| raw fetch + reply baseline, %d mails together | %.0f /s |\n", r.baseline.mails, r.baseline.rate())
	fmt.Fprintf(w, "| order mails answered, %d together | %.0f /s = %.2f x baseline |\n",
		r.judge.mails, r.judge.rate(), r.judge.rate()/r.baseline.rate())
	fmt.Fprintf(w, "| mail -> answer, one at a time (%d mails) | judge p50 %s, p99 %s; baseline p50 %s, p99 %s |\n",
		o.latency, ms(r.judge.p50), ms(r.judge.p99), ms(r.baseline.p50), ms(r.baseline.p99))
	fmt.Fprintf(w, "| order mails accepted / refused | %d / %d |\n", r.accepted, r.refused)
	fmt.Fprintf(w, "| start (%s) | control socket %s, first mail answered %s |\n", r.cold, ms(r.startSocket), ms(r.startAnswer))
	fmt.Fprintf(w, "| judge's resident memory | after start %s (anon %s, file %s); after the mails %s; peak (the page check's time included) %s |\n",
		mb(r.rssStart.rss), mb(r.rssStart.anon), mb(r.rssStart.file), mb(r.rssEnd.rss), mb(r.rssEnd.peak))
	if r.longRounds > 0 {
		fmt.Fprintf(w, "| stored per round, %d %s games played to the end by two bots, %d rounds | %.1f KB |\n",
			r.longGames, o.longGame, r.longRounds, float64(r.perRound)/1000)
		fmt.Fprintf(w, "| position + record of each round, KB | %s |\n", strings.Join(r.roundBytes, "; "))
	}
}

// roundSizes shows a game's rounds' sizes in KB, to see whether they grow.
func roundSizes(b []int) string {
	var parts []string
	for _, n := range b {
		parts = append(parts, fmt.Sprintf("%.0f", float64(n)/1000))
	}
	return strings.Join(parts, " ")
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

// baseline measures the raw fetch and reply: the same mail server, an
// IMAP intake and an SMTP sender answering each mail at once, without
// judging; the mails are the order mails, sent to the responder instead.
func (run *loadRun) baseline(ctx context.Context, orders []plannedOrders) (runFigures, error) {
	echoCtx, stopEcho := context.WithCancel(ctx)
	echoDone, err := run.startEcho(echoCtx)
	if err != nil {
		stopEcho()
		return runFigures{}, err
	}
	f, err := run.measure(ctx, func(i int) (*loadMail, error) {
		o := orders[i%len(orders)]
		return run.mailFrom(o.account, run.srv.Address(echoAccount), o.subject, o.text)
	})
	stopEcho()
	<-echoDone
	if err != nil {
		return runFigures{}, fmt.Errorf("the baseline: %w", err)
	}
	run.progress("baseline %.0f mails/s", f.rate())
	return f, nil
}

func (run *loadRun) progress(format string, args ...any) {
	fmt.Fprintf(run.log, "fieldpost load: "+format+"\n", args...)
}

// build writes the judge's configuration and the database: the played
// games created by NEWGAME through the administration, the rest copies of
// the first.
func (run *loadRun) build(ctx context.Context, sc engine.ScenarioInfo) error {
	db := filepath.Join(run.opt.dir, "judge.db")
	run.conf = filepath.Join(run.opt.dir, "judge.conf")
	text := clubjudge.Config(run.srv, db, "deadline = 48h", "send_retry_min = 1s")
	if err := os.WriteFile(run.conf, []byte(text), 0o600); err != nil {
		return err
	}
	cfg, err := config.Load(run.conf, run.getenv)
	if err != nil {
		return err
	}
	run.cfg = cfg
	store, err := pbem.OpenStore(db)
	if err != nil {
		return err
	}
	if err := store.Close(); err != nil {
		return err
	}
	if _, err := pbem.LoadServerKey(db + ".key"); err != nil {
		return err
	}
	a, err := pbem.OpenAdmin(pbem.AdminOptions{Config: cfg, Write: true, Games: systems.New})
	if err != nil {
		return err
	}
	defer a.Close()
	for i := 1; i <= run.opt.played; i++ {
		args := []string{"scenario=" + run.opt.scenario, fmt.Sprintf("id=g%d", i)}
		for _, sd := range sc.Sides {
			args = append(args, sd.Name+"="+run.srv.Address(playerAccount(sd.Name, i)))
		}
		answer, err := a.Command(ctx, "NEWGAME", args...)
		if err != nil {
			return err
		}
		if answer.Refused {
			return fmt.Errorf("NEWGAME %s refused: %s", strings.Join(args, " "), answer.Text)
		}
	}
	return a.CopyGame("g1", run.opt.games-run.opt.played)
}

// getenv gives the judge's secrets to its configuration, as the
// environment gives them to the judge's process.
func (run *loadRun) getenv(name string) string {
	switch name {
	case config.EnvIMAPPassword, config.EnvSMTPPassword:
		return run.club.password(judgeAccount)
	case config.EnvGMSecret:
		return run.club.gmSecret
	}
	return ""
}

// judgeProcess is the judge under measure: the real binary, serving.
type judgeProcess struct {
	cmd     *exec.Cmd
	started time.Time
	done    chan error
	// logStart is the size of the log when this judge started.
	logStart int64
}

func (run *loadRun) startJudge() (*judgeProcess, error) {
	logFile, err := os.OpenFile(filepath.Join(run.opt.dir, "judge.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(run.opt.judge, "serve", "--config", run.conf)
	cmd.Env = os.Environ()
	for _, name := range []string{config.EnvIMAPPassword, config.EnvSMTPPassword, config.EnvGMSecret} {
		cmd.Env = append(cmd.Env, name+"="+run.getenv(name))
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	j := &judgeProcess{cmd: cmd, done: make(chan error, 1)}
	if fi, err := logFile.Stat(); err == nil {
		j.logStart = fi.Size()
	}
	j.started = time.Now()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("starting the judge %s: %w", run.opt.judge, err)
	}
	go func() {
		j.done <- cmd.Wait()
		logFile.Close()
	}()
	return j, nil
}

// waitLog waits until the judge's log, since this judge started, has a
// line with msg="what".
func (run *loadRun) waitLog(ctx context.Context, j *judgeProcess, what string, timeout time.Duration) error {
	limit := time.Now().Add(timeout)
	for {
		raw, err := os.ReadFile(filepath.Join(run.opt.dir, "judge.log"))
		if err != nil {
			return err
		}
		if bytes.Contains(raw[min(j.logStart, int64(len(raw))):], []byte(`msg="`+what+`"`)) {
			return nil
		}
		if time.Now().After(limit) {
			return fmt.Errorf("the judge's log did not say %q within %v", what, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-j.done:
			j.done <- err
			return fmt.Errorf("the judge ended (%v): see its log", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// waitSocket waits for the judge's control socket to answer and returns
// how long after the process started it did.
func (j *judgeProcess) waitSocket(ctx context.Context, database string) (time.Duration, error) {
	for ctx.Err() == nil {
		if conn, err := net.Dial("unix", pbem.ControlSocket(database)); err == nil {
			conn.Close()
			return time.Since(j.started), nil
		}
		select {
		case err := <-j.done:
			j.done <- err
			return 0, fmt.Errorf("the judge ended at its start (%v): see its log", err)
		case <-time.After(time.Millisecond):
		}
	}
	return 0, ctx.Err()
}

// memory reads the judge's resident memory from /proc.
func (j *judgeProcess) memory() procMemory {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", j.cmd.Process.Pid))
	if err != nil {
		return procMemory{}
	}
	var m procMemory
	for line := range strings.Lines(string(raw)) {
		key, val, _ := strings.Cut(line, ":")
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(val), " kB"))
		switch key {
		case "VmRSS":
			m.rss = n
		case "VmHWM":
			m.peak = n
		case "RssAnon":
			m.anon = n
		case "RssFile":
			m.file = n
		}
	}
	return m
}

// stop ends the judge gracefully and waits for it.
func (j *judgeProcess) stop() error {
	if err := j.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case err := <-j.done:
		j.done <- err
		if err != nil {
			return fmt.Errorf("the judge's stop: %w", err)
		}
		return nil
	case <-time.After(time.Minute):
		j.kill()
		return errors.New("the judge did not stop within a minute")
	}
}

// kill ends the judge at once, when it still runs.
func (j *judgeProcess) kill() {
	select {
	case err := <-j.done:
		j.done <- err
	default:
		j.cmd.Process.Kill()
		j.done <- <-j.done
	}
}

// dropFromCache takes the database file out of the page cache, so that
// the start reads it from the disk, and says how: posix_fadvise, which the
// file's owner may ask without root and which leaves the other programs'
// caches alone.
func dropFromCache(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "warm: " + err.Error()
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return "warm: " + err.Error()
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return "warm: fadvise: " + err.Error()
	}
	return "database file not in the page cache (fadvise DONTNEED)"
}

// loadMail is a mail the run sends, and to whom.
type loadMail struct {
	from, to string
	id       string
	raw      []byte
}

func (run *loadRun) mailFrom(account, to, subject, text string) (*loadMail, error) {
	from := run.srv.Address(account)
	id := mail.NewMessageID(run.srv.Domain())
	raw, err := mail.Compose(&mail.Outbound{From: mail.Address{Email: from}, To: []mail.Address{{Email: to}},
		Subject: subject, MessageID: id, Date: time.Now(), Text: text, Personal: true})
	if err != nil {
		return nil, err
	}
	return &loadMail{from: from, to: to, id: id, raw: raw}, nil
}

func (run *loadRun) deliver(m *loadMail) error {
	return run.srv.Deliver(m.from, []string{m.to}, m.raw)
}

// measure sends run.opt.mails mails arriving together, then
// run.opt.latency mails one at a time, made by next, and times their
// answers.
func (run *loadRun) measure(ctx context.Context, next func(i int) (*loadMail, error)) (runFigures, error) {
	burst := make([]*loadMail, run.opt.mails)
	for i := range burst {
		m, err := next(i)
		if err != nil {
			return runFigures{}, err
		}
		burst[i] = m
	}
	start, err := run.arriveTogether(burst)
	if err != nil {
		return runFigures{}, err
	}
	ids := make([]string, len(burst))
	for i, m := range burst {
		ids[i] = m.id
	}
	at, err := run.arrivals.wait(ctx, ids, 10*time.Minute)
	if err != nil {
		return runFigures{}, err
	}
	f := runFigures{mails: len(burst), elapsed: slices.MaxFunc(at, func(a, b time.Time) int { return a.Compare(b) }).Sub(start)}

	var lat []time.Duration
	for i := range run.opt.latency {
		m, err := next(len(burst) + i)
		if err != nil {
			return runFigures{}, err
		}
		if err := run.deliver(m); err != nil {
			return runFigures{}, err
		}
		sent := time.Now()
		at, err := run.arrivals.wait(ctx, []string{m.id}, time.Minute)
		if err != nil {
			return runFigures{}, err
		}
		lat = append(lat, at[0].Sub(sent))
	}
	slices.Sort(lat)
	f.p50, f.p99 = lat[len(lat)*50/100], lat[min(len(lat)-1, len(lat)*99/100)]
	return f, nil
}

// arriveTogether puts mails in their recipient's INBOX at once: appended
// to a folder of the account, then moved to the INBOX in one command, as
// when a server delivers a backlog. It returns when the move was made.
func (run *loadRun) arriveTogether(mails []*loadMail) (time.Time, error) {
	account, _, _ := strings.Cut(mails[0].to, "@")
	account, _, _ = strings.Cut(account, "+")
	c, err := imapclient.DialInsecure(run.srv.IMAPAddr(), nil)
	if err != nil {
		return time.Time{}, err
	}
	defer c.Close()
	if err := c.Login(account, run.club.password(account)).Wait(); err != nil {
		return time.Time{}, err
	}
	const folder = "Arriving"
	if err := c.Create(folder, nil).Wait(); err != nil && !isIMAPAlreadyExists(err) {
		return time.Time{}, err
	}
	for _, m := range mails {
		// The trace fields a delivery writes: the judge reads the secret of
		// the recipient address from Delivered-To.
		raw := append([]byte(fmt.Sprintf("Return-Path: <%s>\r\nDelivered-To: %s\r\n", m.from, m.to)), m.raw...)
		cmd := c.Append(folder, int64(len(raw)), nil)
		if _, err := cmd.Write(raw); err != nil {
			return time.Time{}, err
		}
		if err := cmd.Close(); err != nil {
			return time.Time{}, err
		}
		if _, err := cmd.Wait(); err != nil {
			return time.Time{}, err
		}
	}
	if _, err := c.Select(folder, nil).Wait(); err != nil {
		return time.Time{}, err
	}
	start := time.Now()
	if _, err := c.Move(imap.SeqSet{{Start: 1, Stop: 0}}, "INBOX").Wait(); err != nil {
		return time.Time{}, err
	}
	return start, c.Logout().Wait()
}

func isIMAPAlreadyExists(err error) bool {
	var imapErr *imap.Error
	return errors.As(err, &imapErr) && imapErr.Code == imap.ResponseCodeAlreadyExists
}

// startEcho runs the raw baseline's responder on the echo account until
// ctx ends: every mail fetched is answered at once to its sender.
func (run *loadRun) startEcho(ctx context.Context) (<-chan struct{}, error) {
	intake, err := run.club.intake(run.srv, echoAccount)
	if err != nil {
		return nil, err
	}
	sender, err := run.club.sender(run.srv, echoAccount)
	if err != nil {
		return nil, err
	}
	from := run.srv.Address(echoAccount)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer sender.Close()
		_ = intake.Run(ctx, func(ctx context.Context, msg *mail.Inbound) error {
			raw, err := mail.Compose(&mail.Outbound{From: mail.Address{Email: from}, To: []mail.Address{msg.From},
				Subject: "Re: " + msg.Subject, MessageID: mail.NewMessageID(run.srv.Domain()), InReplyTo: msg.MessageID,
				Date: time.Now(), Text: "Received.\n"})
			if err != nil {
				return err
			}
			return sender.Send(ctx, from, []string{msg.From.Email}, raw)
		})
	}()
	return done, nil
}

// playerAccount is the mail account of a side's player in played game
// number game: every game has players of its own, as in a club.
func playerAccount(side string, game int) string {
	return fmt.Sprintf("%s-%d", strings.ToLower(side), game)
}

// plannedOrders is an order mail for a game, planned by the bot.
type plannedOrders struct {
	account, to, subject, text string
}

// planOrders plans, from each welcome of side, orders that move and
// attack, several a game (with different seeds), in an order that goes
// round the games.
func (run *loadRun) planOrders(welcomes map[string][]byte, side string) ([]plannedOrders, error) {
	const perGame = 4
	var out []plannedOrders
	for seed := range uint64(perGame) {
		for game := 1; game <= run.opt.played; game++ {
			id := fmt.Sprintf("g%d", game)
			account := playerAccount(side, game)
			raw, ok := welcomes[id+"/"+account]
			if !ok {
				return nil, fmt.Errorf("no welcome of %s to %s", id, side)
			}
			msg, err := mail.Parse(bytes.NewReader(raw), 10<<20)
			if err != nil {
				return nil, err
			}
			plan, err := player.Plan(run.systems, msg, side, id, seed+1)
			if err != nil {
				return nil, fmt.Errorf("planning %s for %s: %w", id, side, err)
			}
			to, ok := player.JudgeReplyTo(msg)
			if !ok || plan.Orders == "" {
				return nil, fmt.Errorf("the welcome of %s to %s gives nothing to answer", id, side)
			}
			out = append(out, plannedOrders{account: account, to: to, subject: "Re: " + msg.Subject, text: plan.Orders})
		}
	}
	return out, nil
}

// longGames plays games of the long scenario to their end between two
// bots, one after the other, until they have played run.opt.longRounds
// rounds, the judge running, and measures what each round stored: the
// database is measured with the judge stopped before and after.
func (run *loadRun) longGames(ctx context.Context, r *loadReport, sides []string) error {
	before, err := pbem.MeasureStorage(run.cfg.Database, "")
	if err != nil {
		return err
	}
	judge, err := run.startJudge()
	if err != nil {
		return err
	}
	defer judge.kill()
	quiet := slog.New(slog.DiscardHandler)
	var players string
	for i, side := range sides {
		account := longPrefix + strings.ToLower(side)
		players += fmt.Sprintf(" %s=%s", side, run.srv.Address(account))
		sender, err := run.club.sender(run.srv, account)
		if err != nil {
			return err
		}
		defer sender.Close()
		b := player.New(player.Config{Side: side, From: mail.Address{Email: run.srv.Address(account)}, Seed: uint64(i + 1),
			Sender: sender, Systems: run.systems, Log: quiet})
		run.arrivals.bot(account, b)
	}
	var games []string
	for rounds := 0; rounds < run.opt.longRounds; {
		id := fmt.Sprintf("long-%d", len(games)+1)
		games = append(games, id)
		if err := clubjudge.GMMail(run.srv, run.club.gmSecret, fmt.Sprintf("NEWGAME scenario=%s id=%s deadline=none%s", run.opt.longGame, id, players)); err != nil {
			return err
		}
		turns, err := run.arrivals.waitOver(ctx, id, len(sides), 10*time.Minute)
		if err != nil {
			return err
		}
		rounds += turns
	}
	if err := judge.stop(); err != nil {
		return err
	}
	after, err := pbem.MeasureStorage(run.cfg.Database, "")
	if err != nil {
		return err
	}
	for _, id := range games {
		g, err := pbem.MeasureStorage(run.cfg.Database, id)
		if err != nil {
			return err
		}
		r.longRounds += len(g.Rounds) - 1 // the last position is the end's, with no round after it
		r.roundBytes = append(r.roundBytes, roundSizes(g.Rounds[:len(g.Rounds)-1]))
	}
	if r.longRounds > 0 {
		r.perRound = (after.Total - before.Total) / int64(r.longRounds)
	}
	r.longGames = len(games)
	run.progress("%d games of %s played to the end: %d rounds", len(games), run.opt.longGame, r.longRounds)
	return nil
}

// arrivals records what the club server delivers: when each answer (by
// the id it answers) arrived, the welcomes of the loaded games, and the
// long game's mails, handed to its bots.
type arrivals struct {
	mu       sync.Mutex
	answered map[string]time.Time
	kinds    map[string]int // answers by their kind (protocol.HeaderKind)
	welcome  map[string][]byte
	over     map[string]int // final reports of each long game received
	rounds   map[string]int // the round each long game's final report names
	bots     map[string]chan []byte
	news     chan struct{}
}

func newArrivals() *arrivals {
	return &arrivals{answered: map[string]time.Time{}, kinds: map[string]int{}, welcome: map[string][]byte{},
		bots: map[string]chan []byte{}, over: map[string]int{}, rounds: map[string]int{}, news: make(chan struct{}, 1)}
}

// delivered is the club server's hook: it reads only the header.
func (a *arrivals) delivered(account string, raw []byte) {
	now := time.Now()
	m, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return
	}
	h := m.Header
	kind, game := h.Get(protocol.HeaderKind), h.Get(protocol.HeaderGame)
	a.mu.Lock()
	if id := h.Get("In-Reply-To"); id != "" && (kind != protocol.KindWelcome && kind != protocol.KindReport) {
		a.answered[strings.Trim(id, "<>")] = now
		a.kinds[kind]++
	}
	switch {
	case kind == protocol.KindWelcome && !strings.HasPrefix(account, longPrefix):
		a.welcome[game+"/"+account] = raw
	case kind == protocol.KindGameOver && strings.HasPrefix(account, longPrefix):
		a.over[game]++
		a.rounds[game], _ = strconv.Atoi(h.Get(protocol.HeaderRound))
	}
	bot := a.bots[account]
	a.mu.Unlock()
	if bot != nil {
		bot <- raw
	}
	select {
	case a.news <- struct{}{}:
	default:
	}
}

// bot hands the mails of an account to a bot from now on.
func (a *arrivals) bot(account string, b *player.Bot) {
	c := make(chan []byte, 1000)
	a.mu.Lock()
	a.bots[account] = c
	a.mu.Unlock()
	go func() {
		for raw := range c {
			msg, err := mail.Parse(bytes.NewReader(raw), 10<<20)
			if err == nil {
				_ = b.Handle(context.Background(), msg)
			}
		}
	}()
}

// until waits for cond, checked at every delivery, for at most timeout.
func (a *arrivals) until(ctx context.Context, timeout time.Duration, what string, cond func() bool) error {
	limit := time.After(timeout)
	for {
		a.mu.Lock()
		ok := cond()
		a.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-a.news:
		case <-ctx.Done():
			return ctx.Err()
		case <-limit:
			return fmt.Errorf("waited %v for %s", timeout, what)
		}
	}
}

// wait waits for the answers to the mails ids and returns when each came.
func (a *arrivals) wait(ctx context.Context, ids []string, timeout time.Duration) ([]time.Time, error) {
	err := a.until(ctx, timeout, fmt.Sprintf("the answers to %d mails", len(ids)), func() bool {
		for _, id := range ids {
			if _, ok := a.answered[strings.Trim(id, "<>")]; !ok {
				return false
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]time.Time, len(ids))
	for i, id := range ids {
		out[i] = a.answered[strings.Trim(id, "<>")]
	}
	return out, nil
}

// welcomes waits for n welcome mails and returns them by game/side.
func (a *arrivals) welcomes(ctx context.Context, n int, timeout time.Duration) (map[string][]byte, error) {
	err := a.until(ctx, timeout, fmt.Sprintf("%d welcome mails", n), func() bool { return len(a.welcome) >= n })
	a.mu.Lock()
	defer a.mu.Unlock()
	return maps.Clone(a.welcome), err
}

// waitOver waits until every side of a long game has its final report,
// and returns the number of rounds it played.
func (a *arrivals) waitOver(ctx context.Context, game string, sides int, timeout time.Duration) (int, error) {
	err := a.until(ctx, timeout, "the end of "+game, func() bool { return a.over[game] >= sides })
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.rounds[game], err
}

// counts returns the order mails accepted and refused so far.
func (a *arrivals) counts() (accepted, refused int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.kinds[protocol.KindAccepted], a.kinds[protocol.KindRejected]
}
