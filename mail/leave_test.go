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
