package mail

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"fieldpost/mail/mailtest"
)

// BenchmarkPipeline measures the raw mail pipeline with all game
// processing removed: messages appended to the in-process IMAP server are
// fetched and parsed by an Intake whose handler only composes a reply and
// sends it through a Sender to the in-process SMTP server. One iteration is
// a batch of messages; msgs/s is the end-to-end throughput.
func BenchmarkPipeline(b *testing.B) {
	const batch = 50
	imapSrv := mailtest.NewIMAPServer(b, nil)
	smtpSrv := mailtest.NewSMTPServer(b, nil)
	sender, err := NewSender(SenderConfig{Addr: smtpSrv.Addr, TLS: TLSNone, Timeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}

	var replied atomic.Int64
	progress := make(chan struct{}, 1)
	handle := func(ctx context.Context, msg *Inbound) error {
		raw, err := Compose(&Outbound{
			From:       Address{Name: "Fieldpost Judge", Email: "judge@club.example"},
			To:         []Address{msg.From},
			Subject:    "Re: " + msg.Subject,
			MessageID:  NewMessageID("club.example"),
			InReplyTo:  msg.MessageID,
			References: msg.ReplyReferences(),
			Text:       "Orders received.\n",
		})
		if err != nil {
			return err
		}
		if err := sender.Send(ctx, "judge@club.example", []string{msg.From.Email}, raw); err != nil {
			return err
		}
		replied.Add(1)
		select {
		case progress <- struct{}{}:
		default:
		}
		return nil
	}

	intake, err := NewIntake(IntakeConfig{
		Addr: imapSrv.Addr, TLS: TLSNone, Username: imapSrv.Username, Password: imapSrv.Password,
		PollInterval: time.Hour, Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- intake.Run(ctx, handle) }()
	defer func() {
		cancel()
		<-done
	}()

	var batches, next int
	b.ResetTimer()
	for b.Loop() {
		target := replied.Load() + batch
		for range batch {
			next++
			if err := imapSrv.Append("INBOX", orderMail(fmt.Sprintf("bench-%d@example.de", next))); err != nil {
				b.Fatal(err)
			}
		}
		intake.Poke()
		deadline := time.After(30 * time.Second)
		for replied.Load() < target {
			select {
			case <-progress:
			case <-deadline:
				b.Fatalf("only %d of %d replies after 30s", replied.Load(), target)
			}
		}
		batches++
	}
	b.ReportMetric(float64(batches*batch)/b.Elapsed().Seconds(), "msgs/s")
}
