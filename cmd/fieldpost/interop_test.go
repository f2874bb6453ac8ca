//go:build interop

package main

// The interoperability test: the real fieldpost binary, as a judge and as
// two bot players, plays a whole tutorial game by mail through real mail
// servers from Debian's packages (Dovecot and Postfix, or Dovecot and
// OpenSMTPD delivering the judge's mail by LMTP, started by
// test/interop/servers.sh), each of which is restarted mid-game. See the
// README, "Interoperability test".

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"fieldpost/mail"
)

const (
	interopGame = "interop-1"
	// interopWait bounds every wait for the mail servers and the judge: long
	// enough for a reconnection after a restart (the intake's backoff) and
	// a deferred delivery, short enough that a stuck game fails in CI.
	interopWait = 2 * time.Minute
)

var interopSides = []string{"us", "german"}

// interopServers are the servers servers.sh started, as its servers.env
// describes them.
type interopServers struct {
	script string
	dir    string
	env    map[string]string
	roots  *x509.CertPool
}

func startedServers(t *testing.T) *interopServers {
	t.Helper()
	dir := os.Getenv("FIELDPOST_INTEROP_DIR")
	if dir == "" {
		dir = "/tmp/fieldpost-interop"
	}
	script, err := filepath.Abs("../../test/interop/servers.sh")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "servers.env"))
	if err != nil {
		t.Fatalf("no test mail servers (%v): start them first, as root: test/interop/servers.sh start", err)
	}
	defer f.Close()
	s := &interopServers{script: script, dir: dir, env: map[string]string{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok && !strings.HasPrefix(k, "#") {
			s.env[k] = v
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	pem, err := os.ReadFile(s.get(t, "CA_FILE"))
	if err != nil {
		t.Fatal(err)
	}
	s.roots = x509.NewCertPool()
	if !s.roots.AppendCertsFromPEM(pem) {
		t.Fatal("the servers' certificate cannot be read")
	}
	return s
}

func (s *interopServers) get(t *testing.T, key string) string {
	t.Helper()
	v := s.env[key]
	if v == "" {
		t.Fatalf("servers.env has no %s", key)
	}
	return v
}

func (s *interopServers) password(t *testing.T, user string) string {
	return s.get(t, "PASSWORD_"+strings.ToUpper(user))
}

func (s *interopServers) address(t *testing.T, user string) string {
	return user + "@" + s.get(t, "DOMAIN")
}

// do runs a command of servers.sh: stop-imap, start-mta, ...
func (s *interopServers) do(t *testing.T, command string) {
	t.Helper()
	cmd := exec.Command(s.script, command)
	cmd.Env = append(os.Environ(), "FIELDPOST_INTEROP_DIR="+s.dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("servers.sh %s: %v\n%s", command, err, out)
	}
	t.Logf("servers.sh %s", command)
}

// kick has the MTA try its deferred mail now (servers.sh flush). It may
// fail, the MTA stopped by the test: the wait then goes on without it.
func (s *interopServers) kick() {
	cmd := exec.Command(s.script, "flush")
	cmd.Env = append(os.Environ(), "FIELDPOST_INTEROP_DIR="+s.dir)
	cmd.Run()
}

// opensmtpd reports whether the stack is Dovecot and OpenSMTPD, the
// judge taking its mail by LMTP; otherwise it is Dovecot and Postfix, the
// judge reading its mail over IMAP.
func (s *interopServers) opensmtpd() bool { return s.env["MTA"] == "opensmtpd" }

// mtaLog is the MTA's log.
func (s *interopServers) mtaLog(t *testing.T) string {
	t.Helper()
	name := "postfix.log"
	if s.opensmtpd() {
		name = "opensmtpd.log"
	}
	b, err := os.ReadFile(filepath.Join(s.dir, "log", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitDeferred waits until the MTA has deferred n deliveries since its log
// was before bytes long, because their destination refused the connection:
// Postfix logs each; OpenSMTPD logs its attempts, and keeps the mails in
// its queue.
func (s *interopServers) waitDeferred(t *testing.T, what string, before, n int) {
	t.Helper()
	if !s.opensmtpd() {
		refused := regexp.MustCompile(`status=deferred .*Connection refused`)
		interopWaitFor(t, what, func() bool {
			return len(refused.FindAllString(s.mtaLog(t)[before:], -1)) >= n
		})
		return
	}
	interopWaitFor(t, what, func() bool {
		if !strings.Contains(s.mtaLog(t)[before:], "Connection refused") {
			return false
		}
		cmd := exec.Command(s.script, "queue")
		cmd.Env = append(os.Environ(), "FIELDPOST_INTEROP_DIR="+s.dir)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("servers.sh queue: %v", err)
		}
		return strings.Count(string(out), "|judge+") >= n
	})
}

// mails returns every message in user's INBOX and Processed folders,
// read over IMAPS as a mail program would, without marking them read.
func (s *interopServers) mails(t *testing.T, user string) (inbox, processed []*mail.Inbound) {
	t.Helper()
	c, err := imapclient.DialTLS(s.get(t, "IMAPS_ADDR"), &imapclient.Options{TLSConfig: &tls.Config{RootCAs: s.roots}})
	if err != nil {
		t.Fatalf("IMAP: %v", err)
	}
	defer c.Close()
	if err := c.Login(user, s.password(t, user)).Wait(); err != nil {
		t.Fatalf("IMAP login %s: %v", user, err)
	}
	folders, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatalf("IMAP list: %v", err)
	}
	inbox = s.folder(t, c, "INBOX")
	// Processed is made by the first mail handled.
	if slices.ContainsFunc(folders, func(f *imap.ListData) bool { return f.Mailbox == "Processed" }) {
		processed = s.folder(t, c, "Processed")
	}
	return inbox, processed
}

// emptyMailboxes deletes every mail of the accounts, so that the test
// counts its own game's mails only, however often it runs on the same
// servers.
func (s *interopServers) emptyMailboxes(t *testing.T, users ...string) {
	t.Helper()
	for _, user := range users {
		c, err := imapclient.DialTLS(s.get(t, "IMAPS_ADDR"), &imapclient.Options{TLSConfig: &tls.Config{RootCAs: s.roots}})
		if err != nil {
			t.Fatalf("IMAP: %v", err)
		}
		if err := c.Login(user, s.password(t, user)).Wait(); err != nil {
			t.Fatalf("IMAP login %s: %v", user, err)
		}
		folders, err := c.List("", "*", nil).Collect()
		if err != nil {
			t.Fatalf("IMAP list: %v", err)
		}
		for _, f := range folders {
			if f.Mailbox != "INBOX" {
				if err := c.Delete(f.Mailbox).Wait(); err != nil {
					t.Fatalf("IMAP delete %s of %s: %v", f.Mailbox, user, err)
				}
				continue
			}
			sel, err := c.Select("INBOX", nil).Wait()
			if err != nil {
				t.Fatalf("IMAP select INBOX of %s: %v", user, err)
			}
			if sel.NumMessages == 0 {
				continue
			}
			var all imap.SeqSet
			all.AddRange(1, sel.NumMessages)
			deleted := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}
			if err := c.Store(all, deleted, nil).Close(); err != nil {
				t.Fatalf("IMAP store of %s: %v", user, err)
			}
			if err := c.Expunge().Close(); err != nil {
				t.Fatalf("IMAP expunge of %s: %v", user, err)
			}
		}
		c.Close()
	}
}

func (s *interopServers) folder(t *testing.T, c *imapclient.Client, name string) []*mail.Inbound {
	t.Helper()
	sel, err := c.Select(name, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatalf("IMAP select %s: %v", name, err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	var seq imap.SeqSet
	seq.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(seq, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		t.Fatalf("IMAP fetch %s: %v", name, err)
	}
	var out []*mail.Inbound
	for _, m := range msgs {
		for _, body := range m.BodySection {
			in, err := mail.Parse(bytes.NewReader(body.Bytes), 0)
			if err != nil {
				t.Fatalf("a mail in %s cannot be read: %v", name, err)
			}
			out = append(out, in)
		}
	}
	return out
}

// waitFor polls until ok, or fails the test after interopWait.
func interopWaitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(interopWait)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", interopWait, what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitForJudgeMail waits until each side has the judge's mail of the kind
// for the round (X-Fieldpost-Round: the round a report reports, else the
// round the next orders are for).
//
// While it waits it has the MTA retry its deferred mail every few seconds,
// as a mail server's own schedule would in minutes: a delivery deferred by
// a restart of Dovecot (OpenSMTPD keeps an LMTP session to the lmtp process
// of the Dovecot that stops, which answers 421) is retried at once.
func (s *interopServers) waitForJudgeMail(t *testing.T, kind string, round int) {
	t.Helper()
	lastKick := time.Now()
	for _, side := range interopSides {
		interopWaitFor(t, fmt.Sprintf("%s's %s mail of round %d", side, kind, round), func() bool {
			if time.Since(lastKick) > 5*time.Second {
				s.kick()
				lastKick = time.Now()
			}
			inbox, processed := s.mails(t, side)
			return slices.ContainsFunc(append(inbox, processed...), func(m *mail.Inbound) bool {
				return m.Header.Get("X-Fieldpost-Kind") == kind && m.Header.Get("X-Fieldpost-Round") == fmt.Sprint(round)
			})
		})
	}
}

// process is a fieldpost command running as a child process, its output
// in a log file.
type process struct {
	name   string
	cmd    *exec.Cmd
	log    string
	exited chan struct{} // closed when it has exited, with err
	err    error
}

func startProcess(t *testing.T, name, bin, logDir string, env []string, args ...string) *process {
	t.Helper()
	logPath := filepath.Join(logDir, name+".log")
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, f, f
	// Should the test binary die (go test's -timeout), so does the child.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{name: name, cmd: cmd, log: logPath, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
			return
		default:
		}
		// Left running by a failure: SIGQUIT makes Go write every
		// goroutine's stack to the log, which shows where it was stuck.
		cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// stop ends the process with SIGTERM, as a service manager would, and
// checks that it stopped cleanly.
func (p *process) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("%s: %v", p.name, err)
	}
	select {
	case <-p.exited:
		if p.err != nil {
			t.Fatalf("%s stopped with %v: see %s", p.name, p.err, p.log)
		}
	case <-time.After(time.Minute):
		t.Fatalf("%s did not stop within a minute of SIGTERM", p.name)
	}
}

// interopGameInfo is what `fieldpost game show --json` tells of a game.
type interopGameInfo struct {
	RoundsPlayed int  `json:"rounds_played"`
	Ended        bool `json:"ended"`
	MailWaiting  int  `json:"mail_waiting"`
	MailFailed   int  `json:"mail_failed"`
}

// interopWorld is the whole test setup: servers, the binary, the judge's
// configuration and the processes' environment.
type interopWorld struct {
	srv    *interopServers
	bin    string
	dir    string // the judge's database and configuration, every log
	conf   string
	env    []string // SSL_CERT_FILE: the children trust the servers' certificate
	judge  *process
	starts int
}

func (w *interopWorld) startJudge(t *testing.T) {
	t.Helper()
	w.starts++
	w.judge = startProcess(t, "judge", w.bin, w.dir, w.env, "serve", "--config", w.conf)
	if w.srv.opensmtpd() {
		// OpenSMTPD, refused, waits minutes before it tries again.
		w.waitLMTP(t)
	}
}

// game shows the game with `fieldpost game show`, through the judge's
// control socket when it runs.
func (w *interopWorld) game(t *testing.T) interopGameInfo {
	t.Helper()
	g, err := w.tryGame()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func (w *interopWorld) tryGame() (interopGameInfo, error) {
	var g interopGameInfo
	cmd := exec.Command(w.bin, "game", "show", interopGame, "--json", "--config", w.conf)
	cmd.Env = w.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return g, fmt.Errorf("fieldpost game show: %v\n%s", err, stderr.Bytes())
	}
	if err := json.Unmarshal(out, &g); err != nil {
		return g, fmt.Errorf("fieldpost game show: %v\n%s", err, out)
	}
	return g, nil
}

// botArgs are `fieldpost bot`'s arguments for a side: IMAP and SMTP with
// STARTTLS (the judge uses implicit TLS), as a player's mail program.
func (w *interopWorld) botArgs(t *testing.T, side string, seed int) []string {
	args := []string{"bot", "--side", side, "--user", side, "--address", w.srv.address(t, side),
		"--imap", w.srv.get(t, "IMAP_STARTTLS_ADDR"), "--tls", "starttls", "--seed", fmt.Sprint(seed)}
	if w.srv.opensmtpd() {
		return append(args, "--smtp", w.srv.get(t, "RELAY_ADDR"), "--smtp-relay")
	}
	return append(args, "--smtp", w.srv.get(t, "SUBMISSION_STARTTLS_ADDR"))
}

func (w *interopWorld) botEnv(t *testing.T, side string) []string {
	return append(slices.Clone(w.env), "FIELDPOST_BOT_PASSWORD="+w.srv.password(t, side))
}

// botsOnce has each bot handle its mailbox once (`fieldpost bot --once`,
// as from cron): it answers the judge's latest mail with its orders, and
// returns when the submission server has taken them.
func (w *interopWorld) botsOnce(t *testing.T) {
	t.Helper()
	for i, side := range interopSides {
		cmd := exec.Command(w.bin, append(w.botArgs(t, side, i+1), "--once")...)
		cmd.Env = w.botEnv(t, side)
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		out, err := cmd.CombinedOutput()
		appendLog(t, filepath.Join(w.dir, "bot-"+side+".log"), out)
		if err != nil || !strings.Contains(string(out), "orders sent") {
			t.Fatalf("fieldpost bot --side %s --once: %v, no orders sent:\n%s", side, err, out)
		}
	}
}

func appendLog(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// The tutorial, played to its end by two bots through Dovecot and Postfix
// (or OpenSMTPD) with the judge running as a service would: every round is
// played once, both players get every mail of the game once and nothing
// else, and nothing is lost when each server is restarted mid-game:
//   - round 1: everything up;
//   - round 2: Dovecot restarts (under the judge waiting in IDLE, with
//     Postfix);
//   - round 3: the orders wait in the MTA's queue through a restart of
//     the MTA, and Dovecot (with OpenSMTPD: the judge, who takes them by
//     LMTP) is down when it delivers them;
//   - round 4: the judge restarts, and sends its reports while Postfix is
//     down; with OpenSMTPD, the orders wait in its queue while the judge
//     is down, through a restart of OpenSMTPD;
//   - round 5: the bots run as daemons, as a player's would.
func TestInteropTutorialByMail(t *testing.T) {
	srv := startedServers(t)
	srv.do(t, "wait-delivered")
	srv.emptyMailboxes(t, "judge", "gm", "us", "german")
	// The judge's database and configuration, the judge's and the bots'
	// logs: kept when the test fails.
	dir, err := os.MkdirTemp("", "fieldpost-interop-test-")
	if err != nil {
		t.Fatal(err)
	}
	w := &interopWorld{srv: srv, dir: dir, bin: buildFieldpost(t, dir), conf: filepath.Join(dir, "judge.conf"),
		env: append(os.Environ(), "SSL_CERT_FILE="+srv.get(t, "CA_FILE"))}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the logs: %s (judge, bots) and %s", dir, filepath.Join(srv.dir, "log"))
		} else {
			os.RemoveAll(dir)
		}
	})
	gmSecret := "interop-gm-secret"
	// With Postfix, the judge reads its mail from Dovecot over IMAP and
	// submits with TLS and AUTH; with OpenSMTPD, it takes its mail by LMTP
	// and relays from loopback.
	var mailLines string
	var gmSubmission mail.SenderConfig
	if srv.opensmtpd() {
		mailLines = fmt.Sprintf("lmtp_listen = %s\nsmtp_addr = %s\nsmtp_tls = none\n", srv.get(t, "JUDGE_LMTP_ADDR"), srv.get(t, "RELAY_ADDR"))
		gmSubmission = mail.SenderConfig{Addr: srv.get(t, "RELAY_ADDR"), TLS: mail.TLSNone}
	} else {
		mailLines = fmt.Sprintf(`imap_addr = %s
imap_tls = tls
imap_username = judge
smtp_addr = %s
smtp_tls = tls
smtp_username = judge
`, srv.get(t, "IMAPS_ADDR"), srv.get(t, "SUBMISSIONS_ADDR"))
		gmSubmission = mail.SenderConfig{Addr: srv.get(t, "SUBMISSION_STARTTLS_ADDR"), TLS: mail.TLSStartTLS,
			TLSConfig: &tls.Config{RootCAs: srv.roots}, Username: "gm", Password: srv.password(t, "gm")}
	}
	write(t, w.conf, fmt.Sprintf(`address = %s
database = %s
%sgm_address = %s
deadline = none
# A mail the MTA did not take is tried again within seconds (the test waits).
send_retry_min = 1s
send_retry_max = 5s
`, srv.address(t, "judge"), filepath.Join(dir, "judge.db"), mailLines, srv.address(t, "gm")))
	w.env = append(w.env, "FIELDPOST_IMAP_PASSWORD="+srv.password(t, "judge"),
		"FIELDPOST_SMTP_PASSWORD="+srv.password(t, "judge"), "FIELDPOST_GM_SECRET="+gmSecret)
	w.startJudge(t)

	// The game master creates the game by mail, from a mail program.
	gm, err := mail.NewSender(gmSubmission)
	if err != nil {
		t.Fatal(err)
	}
	newGame := fmt.Sprintf("PASSWORD %s\nNEWGAME scenario=tutorial id=%s us=%s german=%s deadline=none\n",
		gmSecret, interopGame, srv.address(t, "us"), srv.address(t, "german"))
	raw, err := mail.Compose(&mail.Outbound{From: mail.Address{Email: srv.address(t, "gm")},
		To: []mail.Address{{Email: srv.address(t, "judge")}}, Subject: "NEWGAME", Date: time.Now(),
		MessageID: mail.NewMessageID(srv.get(t, "DOMAIN")), Text: newGame, Personal: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := gm.Send(t.Context(), srv.address(t, "gm"), []string{srv.address(t, "judge")}, raw); err != nil {
		t.Fatal(err)
	}
	srv.waitForJudgeMail(t, "welcome", 1)

	// Round 1.
	w.botsOnce(t)
	srv.waitForJudgeMail(t, "report", 1)

	// Round 2: Dovecot restarts while the judge waits for mail in IDLE.
	srv.do(t, "stop-imap")
	srv.do(t, "start-imap")
	w.botsOnce(t)
	srv.waitForJudgeMail(t, "report", 2)

	// Round 3: the MTA takes the orders but holds them; it is restarted
	// with them in its queue while Dovecot (with OpenSMTPD: the judge, who
	// takes them) is down, so that its first delivery fails and is
	// deferred; then Dovecot (and the judge) come back.
	srv.do(t, "hold-delivery")
	w.botsOnce(t)
	srv.do(t, "stop-imap")
	if srv.opensmtpd() {
		w.judge.stop(t)
	}
	srv.do(t, "stop-mta")
	before := len(srv.mtaLog(t))
	srv.do(t, "start-mta")
	srv.waitDeferred(t, "the MTA to defer the held orders while their destination is down", before, len(interopSides))
	srv.do(t, "start-imap")
	if srv.opensmtpd() {
		w.startJudge(t)
		srv.do(t, "wait-delivered") // sooner than OpenSMTPD's backoff
	}
	srv.waitForJudgeMail(t, "report", 3)

	if srv.opensmtpd() {
		// Round 4: with the judge stopped, the orders wait in OpenSMTPD's
		// queue, through a restart of OpenSMTPD; the judge starts again and
		// takes them.
		w.judge.stop(t)
		before := len(srv.mtaLog(t))
		w.botsOnce(t)
		srv.waitDeferred(t, "OpenSMTPD to defer the orders while the judge is down", before, len(interopSides))
		srv.do(t, "stop-mta")
		srv.do(t, "start-mta")
		w.startJudge(t)
		srv.do(t, "wait-delivered")
		srv.waitForJudgeMail(t, "report", 4)
	} else {
		w.round4WithPostfixDown(t)
	}

	// Round 5: the bots run as daemons and wait for the judge's mail in
	// IDLE, as a player's would; the game ends.
	w.lastRound(t)
	checkInteropGame(t, w)
}

// round4WithPostfixDown: with the judge stopped, the orders arrive in its
// INBOX; Postfix goes down; the judge starts again, plays the round and
// keeps its reports in its outbox until Postfix is back.
func (w *interopWorld) round4WithPostfixDown(t *testing.T) {
	t.Helper()
	srv := w.srv
	w.judge.stop(t)
	w.botsOnce(t)
	interopWaitFor(t, "both orders in the judge's INBOX", func() bool {
		inbox, _ := srv.mails(t, "judge")
		return len(inbox) == len(interopSides)
	})
	srv.do(t, "stop-mta")
	w.startJudge(t)
	interopWaitFor(t, "the judge to play round 4 with Postfix down", func() bool {
		// The judge just started: its control socket may not be up yet.
		g, err := w.tryGame()
		return err == nil && g.RoundsPlayed == 4 && g.MailWaiting > 0
	})
	srv.do(t, "start-mta")
	srv.waitForJudgeMail(t, "report", 4)
}

// lastRound: the bots run as daemons until the game ends, and every mail
// of the game is sent, delivered and handled.
func (w *interopWorld) lastRound(t *testing.T) {
	t.Helper()
	srv, dir := w.srv, w.dir
	var bots []*process
	for i, side := range interopSides {
		bots = append(bots, startProcess(t, "bot-"+side, w.bin, dir, w.botEnv(t, side), w.botArgs(t, side, i+1)...))
	}
	for _, side := range interopSides {
		interopWaitFor(t, side+"'s game-over mail", func() bool {
			inbox, processed := srv.mails(t, side)
			return slices.ContainsFunc(append(inbox, processed...), func(m *mail.Inbound) bool {
				return m.Header.Get("X-Fieldpost-Kind") == "game-over"
			})
		})
	}
	// Every mail of the game is sent, delivered and handled.
	interopWaitFor(t, "the judge's outbox to empty", func() bool { return w.game(t).MailWaiting == 0 })
	srv.do(t, "wait-delivered")
	for _, side := range interopSides {
		interopWaitFor(t, "the "+side+" bot to handle all its mail", func() bool {
			inbox, _ := srv.mails(t, side)
			return len(inbox) == 0
		})
	}
	for _, b := range bots {
		b.stop(t)
	}
	w.judge.stop(t)
}

// waitLMTP waits until the judge takes mail by LMTP.
func (w *interopWorld) waitLMTP(t *testing.T) {
	t.Helper()
	interopWaitFor(t, "the judge to listen for LMTP", func() bool {
		conn, err := net.Dial("tcp", w.srv.get(t, "JUDGE_LMTP_ADDR"))
		if err == nil {
			conn.Close()
		}
		return err == nil
	})
}

// checkInteropGame checks the game's end and every mail of it: each round
// played once, each player's mails (the welcome, the acceptance of each
// round's orders, the reports of rounds 1-4, the final report) each
// delivered once and nothing else, and the judge's mailbox holding the
// GM's mail and each side's five orders once, all handled.
func checkInteropGame(t *testing.T, w *interopWorld) {
	t.Helper()
	srv := w.srv
	g := w.game(t)
	if !g.Ended || g.RoundsPlayed != 5 || g.MailWaiting != 0 || g.MailFailed != 0 {
		t.Errorf("the game at the end: %+v; want ended after 5 rounds, its outbox empty", g)
	}

	judgeLog, err := os.ReadFile(w.judge.log)
	if err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 5; round++ {
		played := regexp.MustCompile(fmt.Sprintf(`(?m)msg="round played" .*game=%s .*round=%d `, interopGame, round))
		if n := len(played.FindAll(judgeLog, -1)); n != 1 {
			t.Errorf("round %d played %d times (the judge's log, over its %d starts)", round, n, w.starts)
		}
	}

	for _, side := range interopSides {
		inbox, processed := srv.mails(t, side)
		// Each mail counts by its kind and the round it asks orders for;
		// the game-over mail asks none.
		got := map[string]int{}
		var ids []string
		for _, m := range append(inbox, processed...) {
			key := m.Header.Get("X-Fieldpost-Kind")
			if key != "game-over" {
				key += " " + m.Header.Get("X-Fieldpost-Round")
			}
			got[key]++
			ids = append(ids, m.MessageID)
			if m.Header.Get("X-Fieldpost-Game") != interopGame || len(m.ReplyTo) != 1 || !strings.Contains(m.ReplyTo[0].Email, "+") {
				t.Errorf("%s's mail %q: game %q, Reply-To %v; want game %s and the player's secret address",
					side, m.Subject, m.Header.Get("X-Fieldpost-Game"), m.ReplyTo, interopGame)
			}
		}
		want := map[string]int{"welcome 1": 1, "report 1": 1, "report 2": 1, "report 3": 1, "report 4": 1, "game-over": 1}
		for round := 1; round <= 5; round++ {
			want[fmt.Sprintf("accepted %d", round)] = 1
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s received, by kind and round: %v; want %v", side, got, want)
		}
		if dup := duplicates(ids); len(dup) > 0 {
			t.Errorf("%s received the same mail twice: %v", side, dup)
		}
	}

	if inbox, _ := srv.mails(t, "gm"); len(inbox) != 1 || inbox[0].Header.Get("X-Fieldpost-Kind") != "gm" {
		t.Errorf("the game master received %d mails; want the judge's one answer to NEWGAME", len(inbox))
	}

	inbox, processed := srv.mails(t, "judge")
	if len(inbox) > 0 {
		t.Errorf("the judge's INBOX still holds %d mails", len(inbox))
	}
	from := map[string]int{}
	var ids []string
	for _, m := range processed {
		from[m.From.Email]++
		ids = append(ids, m.MessageID)
	}
	if srv.opensmtpd() {
		// Taken by LMTP, the judge's mail is in no mailbox: its log says
		// which it handled.
		if len(processed) > 0 {
			t.Errorf("the judge's Dovecot mailbox holds %d mails; want none, all taken by LMTP", len(processed))
		}
		received := regexp.MustCompile(`(?m)msg="mail received" message_id=(\S+) .*from=(\S+)$`)
		for _, m := range received.FindAllSubmatch(judgeLog, -1) {
			from[string(m[2])]++
			ids = append(ids, string(m[1]))
		}
	}
	want := map[string]int{srv.address(t, "gm"): 1, srv.address(t, "us"): 5, srv.address(t, "german"): 5}
	if !maps.Equal(from, want) {
		t.Errorf("the judge handled mails from %v, want %v", from, want)
	}
	if dup := duplicates(ids); len(dup) > 0 {
		t.Errorf("the judge received the same mail twice: %v", dup)
	}
}

func duplicates(ids []string) []string {
	seen := map[string]bool{}
	var dup []string
	for _, id := range ids {
		if seen[id] {
			dup = append(dup, id)
		}
		seen[id] = true
	}
	return dup
}
