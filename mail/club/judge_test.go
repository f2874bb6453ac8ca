package club_test

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"fieldpost/mail"
	"fieldpost/mail/club"
)

// TestJudgeMailStack runs the judge's own mail code, mail.Intake and
// mail.Sender, against the club server: a player's orders to
// judge+TOKEN reach the judge through IDLE (polling is off) with the token
// in Delivered-To, are moved to Processed, and the judge's answer reaches
// the player.
func TestJudgeMailStack(t *testing.T) {
	s := startServer(t, club.Config{})
	quiet := slog.New(slog.DiscardHandler)
	intake, err := mail.NewIntake(mail.IntakeConfig{
		Addr: s.IMAPAddr(), TLS: mail.TLSNone, Username: "judge", Password: "judge-pw",
		PollInterval: time.Hour, Logger: quiet,
	})
	if err != nil {
		t.Fatal(err)
	}
	sender, err := mail.NewSender(mail.SenderConfig{
		Addr: s.SMTPAddr(), TLS: mail.TLSNone, Username: "judge", Password: "judge-pw", Timeout: 5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}

	received := make(chan *mail.Inbound, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- intake.Run(ctx, func(ctx context.Context, msg *mail.Inbound) error {
			answer, err := mail.Compose(&mail.Outbound{
				From:      mail.Address{Name: "Fieldpost", Email: "judge@fieldpost.local"},
				To:        []mail.Address{msg.From},
				Subject:   "Re: " + msg.Subject,
				MessageID: mail.NewMessageID("fieldpost.local"),
				InReplyTo: msg.MessageID,
				Text:      "Orders accepted.\n",
			})
			if err != nil {
				return err
			}
			if err := sender.Send(ctx, "", []string{msg.From.Email}, answer); err != nil {
				return err
			}
			received <- msg
			return nil
		})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()

	// Let the intake reach IDLE, so that the orders arrive while it idles.
	for intake.Passes() == 0 {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	orders := testMessage("us@fieldpost.local", "judge+T0k3n@fieldpost.local", "orders round 1")
	if err := send(t, s, "us", "us@fieldpost.local", []string{"judge+T0k3n@fieldpost.local"}, orders); err != nil {
		t.Fatal(err)
	}
	select {
	case msg := <-received:
		t.Logf("orders sent → judge answered in %v", time.Since(start))
		if !slices.Equal(msg.DeliveredTo, []string{"judge+T0k3n@fieldpost.local"}) {
			t.Errorf("Delivered-To %v", msg.DeliveredTo)
		}
		if msg.From.Email != "us@fieldpost.local" || msg.Subject != "orders round 1" {
			t.Errorf("the judge read From %q, Subject %q", msg.From.Email, msg.Subject)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the judge never saw the orders")
	}

	deadline := time.Now().Add(5 * time.Second)
	for len(messages(t, s, "judge", "Processed")) != 1 || len(messages(t, s, "us", "INBOX")) != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the orders were not moved to Processed, or the answer did not arrive")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(messages(t, s, "judge", "INBOX")); n != 0 {
		t.Errorf("judge's INBOX still has %d messages", n)
	}
	answer := messages(t, s, "us", "INBOX")[0].raw
	if !strings.HasPrefix(answer, "Return-Path: <>\r\nDelivered-To: us@fieldpost.local\r\n") || !strings.Contains(answer, "Orders accepted.") {
		t.Errorf("the player got %q", answer)
	}
}
