package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"fieldpost/internal/clubjudge"
	"fieldpost/mail"
)

// killSubject, set in the environment of a judge run as fieldpost by the
// tests, makes it kill itself with SIGKILL, as the kernel's out-of-memory
// killer would, while a mail of that subject is in hand.
const killSubject = "FIELDPOST_TEST_KILL_SUBJECT"

func init() {
	subject := os.Getenv(killSubject)
	if subject == "" {
		return
	}
	testInHand = func(msg *mail.Inbound) error {
		if msg.Subject == subject {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
		return nil
	}
}

// deliveries records the mails a club server delivered, by account.
type deliveries struct {
	mu   sync.Mutex
	mail map[string][]*mail.Inbound
}

func (d *deliveries) record(t *testing.T) func(account string, raw []byte) {
	return func(account string, raw []byte) {
		in, err := mail.Parse(bytes.NewReader(raw), 0)
		if err != nil {
			t.Errorf("a delivered mail does not parse: %v", err)
			return
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		d.mail[account] = append(d.mail[account], in)
	}
}

// count counts the mails delivered to an account with the subject text,
// a copy of one (the same Message-ID) once: a judge killed between the
// SMTP server's taking a mail and its recording that sends it again.
func (d *deliveries) count(account, subject string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	ids := map[string]bool{}
	for _, m := range d.mail[account] {
		if strings.Contains(m.Subject, subject) {
			ids[m.MessageID] = true
		}
	}
	return len(ids)
}

// A mail that kills the judge (SIGKILL, as the out-of-memory killer does)
// every time it is handled is not read for ever: the judge, a child
// process, dies with it in hand at its first two starts, and at the third
// sets it aside in Unreadable and goes on; its sender and the GM are told
// once each. The innocent mail that came in the same batch is answered
// once.
func TestJudgeKilledByAMailSetsItAside(t *testing.T) {
	dir := t.TempDir()
	got := &deliveries{mail: map[string][]*mail.Inbound{}}
	srv, cf := startTestClub(t, dir, []string{"us", "german"}, got.record(t))
	conf := write(t, filepath.Join(dir, "judge.conf"), clubjudge.Config(srv, filepath.Join(dir, "judge.db"), "send_retry_min = 1s"))
	child := newChildJudge(t, dir, conf, append(judgeSecrets(cf, true), killSubject+"=deadly orders"))

	// Both mails wait for the judge: it fetches them in one batch.
	if err := clubjudge.Mail(srv, "us", "help please", "HELP\n"); err != nil {
		t.Fatal(err)
	}
	if err := clubjudge.Mail(srv, "german", "deadly orders", "HELP\n"); err != nil {
		t.Fatal(err)
	}
	for start := 1; start <= 2; start++ {
		judge := child.start()
		exited := make(chan error, 1)
		go func() { exited <- judge.Wait() }()
		select {
		case <-exited:
		case <-time.After(time.Minute):
			judge.Process.Kill()
			<-exited
			t.Fatalf("start %d: the judge did not die on the mail", start)
		}
		if ws, ok := judge.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("start %d: the judge ended with %v, not killed", start, judge.ProcessState)
		}
	}
	judge := child.start()
	waitFor(t, "the notices", time.Minute, func() bool {
		return got.count("us", "how to play") == 1 && got.count("german", "could not be read") == 1 &&
			got.count(gmAccount, "stopped the judge was set aside") == 1
	})
	judgeAcct := account{address: srv.Address(judgeAccount), password: cf.password(judgeAccount), imap: srv.IMAPAddr()}
	waitFor(t, "the mail set aside", 10*time.Second, func() bool {
		aside := mailbox(t, judgeAcct, "Unreadable")
		return len(aside) == 1 && aside[0].Subject == "deadly orders" && len(inbox(t, judgeAcct)) == 0
	})
	if err := judge.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := judge.Wait(); err != nil {
		t.Errorf("the judge's graceful stop: %v", err)
	}
	for _, name := range []string{"us", "german", gmAccount} {
		if n := got.count(name, ""); n != 1 {
			t.Errorf("%s received %d mails, want 1", name, n)
		}
	}
}
