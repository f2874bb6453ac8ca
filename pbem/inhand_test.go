package pbem

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"fieldpost/mail"
)

// died runs a handling the test's InHand hook kills: a panic that leaves
// the transaction uncommitted, as a death of the judge does. It reports
// whether the handling died.
func died(svc *Service, msgs []*mail.Inbound) (errs []error, dead bool) {
	defer func() {
		if p := recover(); p != nil {
			if p != errKilled {
				panic(p)
			}
			dead = true
		}
	}()
	return svc.HandleBatch(context.Background(), msgs), false
}

var errKilled = errors.New("killed while the mail was in hand")

// A mail in hand at two deaths of the judge is set aside at the third
// start, its sender and the GM told; a mail of the same batch that did not
// kill the judge is handled once. Moved back to the inbox by a person, the
// mail is read again. (The real kill: cmd/fieldpost's
// TestJudgeKilledByAMailSetsItAside.)
func TestMailInHandAtTwoDeathsIsSetAside(t *testing.T) {
	killer := func(msg *mail.Inbound) error {
		if msg.Subject == "killer" {
			panic(errKilled)
		}
		return nil
	}
	j := newJudge(t, &Options{InHand: killer})
	innocent := helpRequest(t, "dave@example.net")
	deadly, err := parseLimited(clientMail{From: "erin@example.net", To: testJudge, Subject: "killer", Body: "HELP"}.raw(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	batch := []*mail.Inbound{innocent, deadly}
	for start := 1; start <= 2; start++ {
		if _, dead := died(j.svc, batch); !dead {
			t.Fatalf("start %d: the judge did not die", start)
		}
		j.flush()
	}
	if help := j.takeN(1)[0]; help.To() != "dave@example.net" {
		t.Fatalf("the innocent mail's answer: %s", help)
	}
	errs, dead := died(j.svc, batch)
	if dead || errs[0] != nil || !errors.Is(errs[1], mail.ErrSetAside) {
		t.Fatalf("dead %v, errors %v", dead, errs)
	}
	j.flush()
	mails := j.takeN(2)
	toSender := byKind(t, mails, kindError, "erin@example.net")
	toGM := byKind(t, mails, kindGM, testGM)
	if !strings.Contains(toSender.Subject, "could not be read") || !strings.Contains(toGM.Text, "erin@example.net") ||
		!strings.Contains(toGM.Text, "at its last 2 starts") {
		t.Errorf("the notices:\n%s\n%s", toSender.Text, toGM.Text)
	}
	// Moved back to the inbox by a person, the mail is read again.
	j.svc.opts.InHand = nil
	j.clock.Advance(25 * time.Hour) // a stranger is answered once a day
	if errs := j.svc.HandleBatch(context.Background(), batch[1:]); errs[0] != nil {
		t.Fatal(errs[0])
	}
	j.flush()
	if help := j.takeN(1)[0]; help.To() != "erin@example.net" || help.Kind() != kindHelp {
		t.Errorf("the answer to the mail read again: %s", help)
	}
}

// A handling that fails with an error, the judge alive, is no death: the
// mail is handled again as often as it fails, and not set aside.
func TestFailedHandlingIsNoDeath(t *testing.T) {
	var outcomes []error // of the handlings to come; nil: handled
	j := newJudge(t, &Options{InHand: func(*mail.Inbound) error {
		next := outcomes[0]
		outcomes = outcomes[1:]
		if next == errKilled {
			panic(errKilled)
		}
		return next
	}})
	msg := helpRequest(t, "dave@example.net")
	failed := errors.New("the disk is full")
	outcomes = []error{errKilled, failed, failed, failed, nil}
	if _, dead := died(j.svc, []*mail.Inbound{msg}); !dead {
		t.Fatal("no death")
	}
	for range 3 {
		if errs := j.svc.HandleBatch(context.Background(), []*mail.Inbound{msg}); !errors.Is(errs[0], failed) {
			t.Fatalf("want the failure, got %v", errs[0])
		}
	}
	if errs := j.svc.HandleBatch(context.Background(), []*mail.Inbound{msg}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	j.flush()
	if help := j.takeN(1)[0]; help.Kind() != kindHelp {
		t.Errorf("the answer: %s", help)
	}
	records, err := j.store.inHandRecords([]string{dedupeKey(msg)})
	if err != nil || records[0] != (inHand{}) {
		t.Fatalf("the record after the mail was handled: %+v, %v", records, err)
	}
}
