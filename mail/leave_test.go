package mail

import (
	"fmt"
	"strings"
	"testing"

	"fieldpost/mail/mailtest"
)

// A mail the handler leaves (ErrLeave) stays in the mailbox, neither moved
// nor flagged, and is not handed over again while the intake runs; the
// others are moved as ever.
func TestIntakeLeavesMailTheHandlerLeaves(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	for _, id := range []string{"mine-1@example.de", "other-1@example.de", "mine-2@example.de"} {
		appendMail(t, srv, id)
	}
	rec := recorder{fail: func(msg *Inbound, _ int) error {
		if strings.HasPrefix(msg.MessageID, "other-") {
			return fmt.Errorf("not mine: %w", ErrLeave)
		}
		return nil
	}}
	in, _ := startIntake(t, srv, IntakeConfig{}, rec.handle)
	srv.WaitCount(t, "Processed", 2)
	passes := in.Passes()
	appendMail(t, srv, "mine-3@example.de")
	srv.WaitCount(t, "Processed", 3)
	in.Poke()
	waitFor(t, "two more passes", func() bool { return in.Passes() >= passes+2 })

	_, calls := rec.snapshot()
	if calls["other-1@example.de"] != 1 {
		t.Errorf("the mail left was handed over %d times, want once", calls["other-1@example.de"])
	}
	left, err := srv.Messages("INBOX")
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || !strings.Contains(string(left[0].Raw), "other-1@example.de") {
		t.Fatalf("the INBOX holds %d mails, want the one left", len(left))
	}
	if flags := left[0].Flags; len(flags) != 0 {
		t.Errorf("the mail left is flagged %v", flags)
	}
}

// With LeaveSetAside, a mail that would be set aside (its handling
// panicked, or the handler set it aside) stays in the mailbox untouched
// instead, and is not handed over again while the intake runs.
func TestIntakeLeavesWhatItWouldSetAside(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	for _, id := range []string{"crash@example.de", "aside@example.de", "fine@example.de"} {
		appendMail(t, srv, id)
	}
	rec := recorder{fail: func(msg *Inbound, _ int) error {
		switch msg.MessageID {
		case "crash@example.de":
			panic("the handler met a bug")
		case "aside@example.de":
			return fmt.Errorf("not readable: %w", ErrSetAside)
		}
		return nil
	}}
	in, _ := startIntake(t, srv, IntakeConfig{LeaveSetAside: true}, rec.handle)
	srv.WaitCount(t, "Processed", 1)
	for range 2 {
		passes := in.Passes()
		in.Poke()
		waitFor(t, "a pass", func() bool { return in.Passes() > passes })
	}
	if _, calls := rec.snapshot(); calls["crash@example.de"] != 1 || calls["aside@example.de"] != 1 {
		t.Errorf("handler calls = %v, want one each", calls)
	}
	left, err := srv.Messages("INBOX")
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 2 {
		t.Fatalf("the INBOX holds %d mails, want the two left", len(left))
	}
	for _, m := range left {
		if len(m.Flags) != 0 {
			t.Errorf("a mail left is flagged %v", m.Flags)
		}
	}
	if n, err := srv.Count("Unreadable"); err == nil && n > 0 {
		t.Errorf("%d mails set aside", n)
	}
}
