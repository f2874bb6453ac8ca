package pbem

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"fieldpost/mail"
	"fieldpost/mail/mailtest"
)

func outboxRecords(t testing.TB, s *Store) []outgoing {
	var out []outgoing
	storeView(t, s, func(tx storeTx) error {
		return tx.tx.Bucket(bucketOutbox).ForEach(func(k, v []byte) error {
			var o outgoing
			_, err := getJSON(tx.tx.Bucket(bucketOutbox), k, &o)
			out = append(out, o)
			return err
		})
	})
	return out
}

// A temporary failure is retried with a growing wait, and the mail is sent
// once.
func TestOutboxRetriesTemporaryFailures(t *testing.T) {
	j := newJudge(t, &Options{RetryMin: time.Minute, RetryMax: 4 * time.Minute})
	failures := 3
	j.sender.fail = func() error {
		if failures > 0 {
			failures--
			return errors.New("connection refused")
		}
		return nil
	}
	j.handle(clientMail{From: "dave@example.net", To: testJudge, Subject: "help", Body: "HELP"})
	for _, wait := range []time.Duration{time.Minute, 2 * time.Minute} {
		o := outboxRecords(t, j.store)
		if len(o) != 1 || !o[0].NextTry.Equal(j.clock.Now().Add(wait)) {
			t.Fatalf("want a retry in %v: %+v", wait, o)
		}
		j.clock.Advance(wait - time.Second)
		j.flush()
		j.clock.Advance(time.Second)
		j.flush()
	}
	if o := outboxRecords(t, j.store); len(o) != 1 || o[0].Attempts != 3 || !o[0].NextTry.Equal(j.clock.Now().Add(4*time.Minute)) {
		t.Fatalf("%+v", o)
	}
	j.takeN(0)
	j.clock.Advance(4 * time.Minute)
	j.flush()
	j.takeN(1)
	if o := outboxRecords(t, j.store); len(o) != 0 {
		t.Errorf("left in the outbox: %+v", o)
	}
}

// A pass over the outbox in which every mail fails says when to try
// again, or the outbox would sleep until other mail is queued: with its
// SMTP server down, the judge kept a round's reports for ever (found by the
// interoperability test against Postfix).
func TestOutboxPassOfFailuresSaysWhenToRetry(t *testing.T) {
	j := newJudge(t, &Options{RetryMin: time.Minute, RetryMax: 4 * time.Minute})
	j.sender.fail = func() error { return errors.New("connection refused") }
	j.handle(clientMail{From: "dave@example.net", To: testJudge, Subject: "help", Body: "HELP"})
	j.handle(clientMail{From: "erin@example.net", To: testJudge, Subject: "help", Body: "HELP"})
	j.clock.Advance(time.Minute)
	next, err := j.svc.sendDue(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o := outboxRecords(t, j.store)
	if len(o) != 2 || o[0].Attempts != 2 || o[1].Attempts != 2 {
		t.Fatalf("want both mails tried twice: %+v", o)
	}
	if want := j.clock.Now().Add(2 * time.Minute); !next.Equal(want) {
		t.Errorf("after a pass of failures the next try is at %v, want %v", next, want)
	}
}

// A mail the server refuses for good, or that cannot be sent for longer
// than GiveUp, is given up, kept and logged.
func TestOutboxGivesUp(t *testing.T) {
	srv := mailtest.NewSMTPServer(t, nil)
	sender, err := mail.NewSender(mail.SenderConfig{Addr: srv.Addr, TLS: mail.TLSNone, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	j := newJudge(t, &Options{RetryMin: time.Hour, GiveUp: 3 * time.Hour})
	j.svc.sender = sender
	srv.FailNext(1, 550)
	j.handle(clientMail{From: "dave@example.net", To: testJudge, Subject: "help", Body: "HELP"})
	if o := outboxRecords(t, j.store); len(o) != 1 || !o[0].Failed || o[0].Attempts != 1 || !strings.Contains(o[0].LastError, "550") {
		t.Fatalf("after a 550: %+v", o)
	}
	srv.FailNext(10, 451)
	j.handle(clientMail{From: "erin@example.net", To: testJudge, Subject: "help", Body: "HELP"})
	for range 3 {
		j.clock.Advance(2 * time.Hour)
		j.flush()
	}
	o := outboxRecords(t, j.store)
	if len(o) != 2 || !o[1].Failed || o[1].Attempts != 3 || len(srv.Messages()) != 0 {
		t.Fatalf("after 451s for 4 hours: %+v", o)
	}
	if next, err := j.svc.sendDue(context.Background()); err != nil || !next.IsZero() {
		t.Errorf("mail given up is still due: %v %v", next, err)
	}
	if !strings.Contains(j.logs.String(), "given up") {
		t.Error("not logged")
	}
}

func TestBackoff(t *testing.T) {
	for n, want := range map[int]time.Duration{1: time.Minute, 2: 2 * time.Minute, 3: 4 * time.Minute, 4: 5 * time.Minute, 40: 5 * time.Minute} {
		if got := backoff(n, time.Minute, 5*time.Minute); got != want {
			t.Errorf("backoff(%d) = %v", n, got)
		}
	}
}
