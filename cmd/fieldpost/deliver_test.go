package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	mathrand "math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"fieldpost/mail"
	"fieldpost/mail/mailtest"
	"fieldpost/pbem"
)

// Mail handed over by the mail server, over LMTP to the judge or by
// `fieldpost deliver` (through the running judge or into its database),
// while the judge, a child process, is killed with SIGKILL at random
// points and started again (and, for deliver, the deliver processes are
// killed too): a mail not acknowledged is handed over again, as a mail
// server does. In the end every mail is acknowledged and has had its
// effect once: one answer (one Message-ID) to each.
func TestDeliverySurvivesJudgeKills(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a judge process many times")
	}
	for _, way := range []string{"lmtp", "deliver"} {
		t.Run(way, func(t *testing.T) { testDeliveryUnderKills(t, way) })
	}
}

func testDeliveryUnderKills(t *testing.T, way string) {
	const mails, kills = 24, 6
	seed := uint64(time.Now().UnixNano())
	t.Logf("FIELDPOST_KILL_SEED=%d", seed)
	rng := mathrand.New(mathrand.NewPCG(seed, 1))
	dir := t.TempDir()
	quiet := slog.New(slog.DiscardHandler)
	srv, cf := startTestClub(t, dir, []string{"us"}, nil)
	lmtpAddr := freeAddr(t)
	conf := write(t, filepath.Join(dir, "judge.conf"), fmt.Sprintf(`address = %s
database = %s
lmtp_listen = %s
smtp_addr = %s
smtp_tls = none
smtp_username = %s
gm_address = %s
stranger_answers = 1000/1h
send_retry_min = 1s
`, srv.Address(judgeAccount), filepath.Join(dir, "judge.db"), lmtpAddr, srv.SMTPAddr(), judgeAccount, srv.Address(gmAccount)))
	child := newChildJudge(t, dir, conf, judgeSecrets(cf, false))

	// The mail server: hands each mail over until it is acknowledged.
	ids := make([]string, mails)
	var acked sync.WaitGroup
	acked.Add(1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		defer acked.Done()
		rng := mathrand.New(mathrand.NewPCG(seed, 2)) // the kill loop's is its own
		for i := range mails {
			ids[i] = fmt.Sprintf("kill-%d-%d@club.test", seed, i)
			raw := []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: help %d\r\nMessage-ID: <%s>\r\nDate: %s\r\n\r\nHELP\r\n",
				srv.Address("us"), srv.Address(judgeAccount), i, ids[i], time.Now().Format(time.RFC1123Z)))
			for ctx.Err() == nil && handOver(way, conf, child.env, lmtpAddr, srv.Address(judgeAccount), raw, rng.Int64N(3) == 0) != nil {
				time.Sleep(20 * time.Millisecond)
			}
		}
	}()

	for range kills {
		judge := child.start()
		time.Sleep(time.Duration(rng.Int64N(int64(1500 * time.Millisecond))))
		if err := judge.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = judge.Wait()
		// A while without a judge: deliver takes the mail into the database.
		time.Sleep(time.Duration(rng.Int64N(int64(300 * time.Millisecond))))
	}
	judge := child.start()
	// Up (its signal handler set) before it is asked to stop.
	waitFor(t, "the judge to listen", time.Minute, func() bool {
		conn, err := net.Dial("tcp", lmtpAddr)
		if err == nil {
			conn.Close()
		}
		return err == nil
	})
	done := make(chan struct{})
	go func() { acked.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the mails were not all acknowledged within 2 minutes")
	}

	// Every mail answered once: one answer Message-ID for each.
	intake, err := clubIntake(srv, cf, "us", quiet)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	answers := map[string]map[string]bool{}
	readCtx, stopReading := context.WithCancel(context.Background())
	go intake.Run(readCtx, func(_ context.Context, msg *mail.Inbound) error {
		mu.Lock()
		defer mu.Unlock()
		for _, id := range msg.InReplyTo {
			if answers[id] == nil {
				answers[id] = map[string]bool{}
			}
			answers[id][msg.MessageID] = true
		}
		return nil
	})
	waitFor(t, "an answer to every mail", time.Minute, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(answers) >= mails
	})
	stopReading()
	if err := judge.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := judge.Wait(); err != nil {
		t.Errorf("the judge's graceful stop: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, id := range ids {
		if n := len(answers[id]); n != 1 {
			t.Errorf("mail %s: %d different answers, want 1", id, n)
		}
	}
	if len(answers) != mails {
		t.Errorf("answers to %d mails, want %d", len(answers), mails)
	}
}

// handOver hands raw to the judge once, over LMTP or with fieldpost
// deliver (killed midway when kill is set): nil only when acknowledged.
func handOver(way, conf string, env []string, lmtpAddr, judge string, raw []byte, kill bool) error {
	if way == "lmtp" {
		return mailtest.SendLMTP(lmtpAddr, "us@club.test", []string{judge}, raw)
	}
	cmd := exec.Command(os.Args[0], "deliver", "--config", conf)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(raw)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	if kill {
		time.AfterFunc(time.Duration(mathrand.Int64N(int64(50*time.Millisecond))), func() { cmd.Process.Kill() })
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("%w: %s", err, stderr.String())
	}
	return nil
}

// freeAddr is a loopback address with a port free now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// fieldpost deliver without a judge takes the mail into the database; a
// mail it cannot read is kept aside there (exit 0: the mail server forgets
// it), once, and fieldpost unreadable lists it and writes it out; a mail
// that cannot be taken now (no database yet) exits 75 and is kept by the
// mail server.
func TestDeliverWithoutJudgeAndUnreadable(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "judge.db")
	conf := write(t, filepath.Join(dir, "judge.conf"), fmt.Sprintf("address = judge@club.test\ndatabase = %s\nlmtp_listen = 127.0.0.1:1\nsmtp_addr = 127.0.0.1:1\nsmtp_tls = none\n", db))
	fieldpost := func(stdin string, args ...string) (int, string, string) {
		var stdout, stderr strings.Builder
		code := run(&env{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr}, args)
		return code, stdout.String(), stderr.String()
	}
	help := "From: dave@example.net\r\nTo: judge@club.test\r\nSubject: help\r\nMessage-ID: <help-1@example.net>\r\n\r\nHELP\r\n"
	if code, _, stderr := fieldpost(help, "deliver", "--config", conf); code != 75 || !strings.Contains(stderr, "there is no database") {
		t.Fatalf("deliver before the judge ever ran: exit %d, %q; want 75 saying why", code, stderr)
	}
	store, err := pbem.OpenStore(db)
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	if _, err := pbem.LoadServerKey(db + ".key"); err != nil {
		t.Fatal(err)
	}
	broken := "From: erin@example.net\r\nSubject: broken\r\nthis line is no header field\r\n"
	for _, raw := range []string{help, help, broken, broken} {
		if code, _, stderr := fieldpost(raw, "deliver", "--config", conf); code != 0 {
			t.Fatalf("deliver: exit %d: %s", code, stderr)
		}
	}
	code, list, stderr := fieldpost("", "unreadable", "--config", conf)
	if code != 0 || strings.Count(list, "\n") != 2 || !strings.Contains(list, "malformed MIME header line") {
		t.Fatalf("unreadable: exit %d, %q %s; want a heading and the broken mail once", code, list, stderr)
	}
	id := strings.Fields(strings.Split(list, "\n")[1])[0]
	if code, raw, stderr := fieldpost("", "unreadable", "--config", conf, id); code != 0 || raw != broken {
		t.Errorf("unreadable %s: exit %d, %q %s; want the mail as delivered", id, code, raw, stderr)
	}
}
