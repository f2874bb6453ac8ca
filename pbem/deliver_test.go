package pbem

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"fieldpost/mail"
	"fieldpost/mail/mailtest"
)

// lmtpJudge serves a judge's Deliver over LMTP on loopback.
func lmtpJudge(t *testing.T, j *judge, deliver mail.Deliverer) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := mail.ServeLMTP(ln, mail.LMTPConfig{Address: testJudge, Logger: j.svc.log}, deliver)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// A mail taken over LMTP has its effects once however often the mail
// server hands it over; plus-addresses of the judge are taken, other
// addresses refused.
func TestLMTPDeliversOnce(t *testing.T) {
	j := newJudge(t, nil)
	addr := lmtpJudge(t, j, j.svc.Deliver)
	raw := clientMail{From: "dave@example.net", To: testJudge, Subject: "help", Body: "HELP"}.raw()
	local, domain, _ := strings.Cut(testJudge, "@")
	for range 3 {
		if err := mailtest.SendLMTP(addr, "dave@example.net", []string{local + "+abc@" + domain}, raw); err != nil {
			t.Fatal(err)
		}
	}
	j.flush()
	if got := j.takeN(1); !strings.Contains(got[0].Text, "HELP") {
		t.Errorf("the answer is not the help:\n%s", got[0].Text)
	}
	err := mailtest.SendLMTP(addr, "dave@example.net", []string{"someone@" + domain}, raw)
	if err == nil || !strings.Contains(err.Error(), "550") {
		t.Errorf("a mail for another address: err = %v, want a 550", err)
	}
}

// A mail the judge cannot take now is refused with a 451 (the mail server
// keeps it); once the judge can, it is taken.
func TestLMTPTemporaryFailure(t *testing.T) {
	j := newJudge(t, nil)
	var failing atomic.Bool
	failing.Store(true)
	addr := lmtpJudge(t, j, func(ctx context.Context, raw []byte, size int64) error {
		if failing.Load() {
			return errors.New("the database is busy")
		}
		return j.svc.Deliver(ctx, raw, size)
	})
	raw := clientMail{From: "dave@example.net", To: testJudge, Subject: "help", Body: "HELP"}.raw()
	err := mailtest.SendLMTP(addr, "dave@example.net", []string{testJudge}, raw)
	if err == nil || !strings.Contains(err.Error(), "451") {
		t.Fatalf("err = %v, want a 451", err)
	}
	j.flush()
	j.takeN(0)
	failing.Store(false)
	if err := mailtest.SendLMTP(addr, "dave@example.net", []string{testJudge}, raw); err != nil {
		t.Fatal(err)
	}
	j.flush()
	j.takeN(1)
}

// A delivered mail that cannot be read is acknowledged and set aside in
// the database, once however often it is delivered; its sender, when
// known, is told once.
func TestLMTPSetsAsideUnreadableMail(t *testing.T) {
	j := newJudge(t, nil)
	addr := lmtpJudge(t, j, j.svc.Deliver)
	var many strings.Builder
	for range 1100 {
		many.WriteString("X-Filler: x\r\n")
	}
	unreadable := append([]byte(many.String()), clientMail{From: "dave@example.net", To: testJudge, Subject: "help", Body: "HELP"}.raw()...)
	broken := []byte("From: erin@example.net\r\nSubject: broken\r\nthis line is no header field\r\n")
	for range 2 {
		for _, raw := range [][]byte{unreadable, broken} {
			if err := mailtest.SendLMTP(addr, "dave@example.net", []string{testJudge}, raw); err != nil {
				t.Fatal(err)
			}
		}
	}
	j.flush()
	if got := j.takeN(1); got[0].To() != "dave@example.net" || !strings.Contains(got[0].Subject, "could not be read") {
		t.Errorf("the answer to the unreadable mail: to %s:\n%s", got[0].To(), got[0].Text)
	}
	aside, err := j.store.SetAside()
	if err != nil {
		t.Fatal(err)
	}
	if len(aside) != 2 {
		t.Fatalf("set aside: %+v, want the 2 mails once each", aside)
	}
	for _, m := range aside {
		raw, err := j.store.SetAsideRaw(m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool][]byte{true: unreadable, false: broken}[m.From == "dave@example.net"]; strings.TrimRight(string(raw), "\r\n") != strings.TrimRight(string(want), "\r\n") {
			t.Errorf("mail %s (from %q, %s) kept as %.60q", m.ID, m.From, m.Reason, raw)
		}
	}
}

// A mail over the size limit taken over LMTP is answered as over IMAP: its
// sender is told it was too large, once, and the mail is acknowledged.
func TestLMTPOversizedMail(t *testing.T) {
	j := newJudge(t, &Options{MaxMessageSize: 4096})
	addr := lmtpJudge(t, j, j.svc.Deliver)
	raw := clientMail{From: "dave@example.net", To: testJudge, Subject: "help", Body: "HELP\n" + strings.Repeat("padding line\n", 1000)}.raw()
	for range 2 {
		if err := mailtest.SendLMTP(addr, "dave@example.net", []string{testJudge}, raw); err != nil {
			t.Fatal(err)
		}
	}
	j.flush()
	if got := j.takeN(1); !strings.Contains(got[0].Subject, "too large") {
		t.Errorf("the answer: %q", got[0].Subject)
	}
}
