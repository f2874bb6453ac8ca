package mail

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"fieldpost/mail/mailtest"
)

// orderMail returns a small player mail with the given Message-ID.
func orderMail(id string) []byte {
	return fmt.Appendf(nil, "From: Hans <hans@example.de>\r\nTo: judge+t0k3n@club.example\r\n"+
		"Subject: orders %s\r\nMessage-ID: <%s>\r\nDate: Tue, 4 Mar 2025 19:02:07 +0100\r\n\r\nMOVE 1/12SS 0612 0714\r\n", id, id)
}

// recorder is a Handler that records the Message-IDs it handled and can
// be told to fail.
type recorder struct {
	mu      sync.Mutex
	handled []string
	calls   map[string]int
	fail    func(msg *Inbound, call int) error // nil: never fail
}

func (r *recorder) handle(_ context.Context, msg *Inbound) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls = make(map[string]int)
	}
	r.calls[msg.MessageID]++
	if r.fail != nil {
		if err := r.fail(msg, r.calls[msg.MessageID]); err != nil {
			return err
		}
	}
	r.handled = append(r.handled, msg.MessageID)
	return nil
}

func (r *recorder) snapshot() (handled []string, calls map[string]int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.handled), maps.Clone(r.calls)
}

func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// startIntake runs an intake against srv until stop is called or the test
// ends. stop cancels Run and checks that it returns promptly.
func startIntake(t *testing.T, srv *mailtest.IMAPServer, cfg IntakeConfig, handle Handler) (in *Intake, stop func()) {
	t.Helper()
	cfg.Addr = srv.Addr
	cfg.Username, cfg.Password = srv.Username, srv.Password
	if cfg.TLSConfig == nil {
		cfg.TLS = TLSNone
	}
	cfg.RetryMin, cfg.RetryMax = 10*time.Millisecond, 50*time.Millisecond
	cfg.PollInterval = cmp.Or(cfg.PollInterval, time.Hour) // only IDLE or Poke can wake it
	cfg.Logger = testLogger(t)
	in, err := NewIntake(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx, handle) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run returned %v, want nil after cancellation", err)
				}
			case <-time.After(2 * time.Second):
				t.Error("Run did not return within 2s of cancellation")
			}
		})
	}
	t.Cleanup(stop)
	return in, stop
}

func appendMail(t *testing.T, srv *mailtest.IMAPServer, id string) {
	t.Helper()
	if err := srv.Append("INBOX", orderMail(id)); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond until it holds, failing the test after 10 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestIntakeHandlesEachMessageOnce(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	appendMail(t, srv, "before-1@example.de")
	appendMail(t, srv, "before-2@example.de")

	var rec recorder
	startIntake(t, srv, IntakeConfig{}, rec.handle)
	srv.WaitCount(t, "Processed", 2)

	// New mail during Run arrives through IDLE: the poll interval is an hour.
	appendMail(t, srv, "during-1@example.de")
	appendMail(t, srv, "during-2@example.de")
	srv.WaitCount(t, "Processed", 4)
	srv.WaitCount(t, "INBOX", 0)

	handled, calls := rec.snapshot()
	want := []string{"before-1@example.de", "before-2@example.de", "during-1@example.de", "during-2@example.de"}
	if !slices.Equal(handled, want) {
		t.Errorf("handled %q, want %q in order", handled, want)
	}
	for id, n := range calls {
		if n != 1 {
			t.Errorf("%s handled %d times, want once", id, n)
		}
	}

	processed, err := srv.Messages("Processed")
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range processed {
		if slices.Contains(msg.Flags, imap.FlagSeen) {
			t.Errorf("processed message UID %d is \\Seen: the intake must fetch with BODY.PEEK", msg.UID)
		}
	}
}

func TestIntakePollingAndCopyFallback(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, &mailtest.IMAPOptions{NoMove: true})
	var rec recorder
	in, _ := startIntake(t, srv, IntakeConfig{DisableIdle: true, ProcessedMailbox: "Archive/Fieldpost"}, rec.handle)
	waitFor(t, "the first pass", func() bool { return in.Passes() >= 1 })

	appendMail(t, srv, "polled@example.de")
	in.Poke()
	srv.WaitCount(t, "Archive/Fieldpost", 1)
	srv.WaitCount(t, "INBOX", 0)
	if handled, _ := rec.snapshot(); !slices.Equal(handled, []string{"polled@example.de"}) {
		t.Errorf("handled %q", handled)
	}
}

func TestIntakeRetriesAfterHandlerError(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	failed := make(chan struct{}, 10)
	rec := recorder{fail: func(msg *Inbound, call int) error {
		if msg.MessageID == "flaky@example.de" && call <= 2 {
			failed <- struct{}{}
			return errors.New("database is locked")
		}
		return nil
	}}
	appendMail(t, srv, "flaky@example.de")
	appendMail(t, srv, "fine@example.de")
	startIntake(t, srv, IntakeConfig{}, rec.handle)

	<-failed
	// After a failure the message is still in INBOX, unseen. The other
	// message is not held up by it.
	srv.WaitCount(t, "Processed", 1)
	inbox, err := srv.Messages("INBOX")
	if err != nil {
		t.Fatal(err)
	}
	if len(inbox) > 1 || (len(inbox) == 1 && slices.Contains(inbox[0].Flags, imap.FlagSeen)) {
		t.Errorf("INBOX after a failed handling = %+v, want the failed message, unseen", inbox)
	}

	srv.WaitCount(t, "Processed", 2)
	srv.WaitCount(t, "INBOX", 0)
	_, calls := rec.snapshot()
	if calls["flaky@example.de"] != 3 || calls["fine@example.de"] != 1 {
		t.Errorf("handler calls = %v, want flaky 3 (two failures) and fine 1", calls)
	}
}

func TestIntakeStopsPromptly(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	entered := make(chan struct{})
	handle := func(ctx context.Context, msg *Inbound) error {
		close(entered)
		<-ctx.Done() // a handler stuck until shutdown
		return ctx.Err()
	}
	appendMail(t, srv, "stuck@example.de")
	_, stop := startIntake(t, srv, IntakeConfig{}, handle)
	<-entered
	stop()
	if n, err := srv.Count("INBOX"); err != nil || n != 1 {
		t.Errorf("INBOX holds %d messages (%v), want the interrupted one", n, err)
	}
}

func TestIntakeStopsPromptlyWhileIdle(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	var rec recorder
	in, stop := startIntake(t, srv, IntakeConfig{}, rec.handle)
	waitFor(t, "the first pass", func() bool { return in.Passes() >= 1 })
	stop()
}

func TestIntakeReconnectsAfterServerRestart(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	var rec recorder
	appendMail(t, srv, "first@example.de")
	in, _ := startIntake(t, srv, IntakeConfig{}, rec.handle)
	srv.WaitCount(t, "Processed", 1)
	waitFor(t, "an idle wait", func() bool { return in.Passes() >= 1 })

	for i := range 3 {
		if err := srv.Restart(); err != nil {
			t.Fatal(err)
		}
		appendMail(t, srv, fmt.Sprintf("after-restart-%d@example.de", i))
		srv.WaitCount(t, "Processed", 2+i)
	}
	srv.WaitCount(t, "INBOX", 0)
	_, calls := rec.snapshot()
	for id, n := range calls {
		if n != 1 {
			t.Errorf("%s handled %d times, want once", id, n)
		}
	}
}

// After a long outage of the server the intake reconnects within
// ReconnectMax, however many attempts failed: the backoff of messages
// (RetryMax) does not apply to reconnecting.
func TestIntakeReconnectsWithinTheCapAfterAnOutage(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	var rec recorder
	var logs countingHandler
	in, err := NewIntake(IntakeConfig{Addr: srv.Addr, TLS: TLSNone, Username: srv.Username, Password: srv.Password,
		RetryMin: 10 * time.Millisecond, RetryMax: time.Hour, ReconnectMax: 50 * time.Millisecond,
		PollInterval: time.Hour, Logger: slog.New(&logs)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx, rec.handle) }()
	t.Cleanup(func() { cancel(); <-done })
	waitFor(t, "the first pass", func() bool { return in.Passes() >= 1 })

	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	// Uncapped, the 14th wait alone would be 40 to 80 s.
	waitFor(t, "14 failed reconnections", func() bool { return logs.count("imap session ended; reconnecting") >= 15 })
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	appendMail(t, srv, "after-outage@example.de")
	waitFor(t, "the mail read after the outage", func() bool { handled, _ := rec.snapshot(); return len(handled) == 1 })
}

// countingHandler is a slog.Handler that counts the messages logged.
type countingHandler struct {
	mu       sync.Mutex
	messages map[string]int
}

func (h *countingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *countingHandler) WithGroup(string) slog.Handler            { return h }
func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.messages == nil {
		h.messages = make(map[string]int)
	}
	h.messages[r.Message]++
	return nil
}

func (h *countingHandler) count(msg string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.messages[msg]
}

func TestIntakeSurvivesFailedLogin(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	appendMail(t, srv, "never@example.de")
	var rec recorder
	cfg := IntakeConfig{
		Addr: srv.Addr, TLS: TLSNone, Username: srv.Username, Password: "wrong",
		RetryMin: 10 * time.Millisecond, RetryMax: 40 * time.Millisecond, Logger: testLogger(t),
	}
	in, err := NewIntake(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := in.Run(ctx, rec.handle); err != nil {
		t.Fatalf("Run = %v", err)
	}
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("Run returned %v after its context ended", elapsed-300*time.Millisecond)
	}
	if handled, _ := rec.snapshot(); len(handled) != 0 || in.Passes() != 0 {
		t.Errorf("handled %q in %d passes without logging in", handled, in.Passes())
	}
}

func TestIntakeTLS(t *testing.T) {
	for name, opts := range map[string]*mailtest.IMAPOptions{
		"implicit": {ImplicitTLS: true},
		"starttls": {StartTLS: true},
	} {
		t.Run(name, func(t *testing.T) {
			srv := mailtest.NewIMAPServer(t, opts)
			appendMail(t, srv, "tls@example.de")
			mode := TLSImplicit
			if opts.StartTLS {
				mode = TLSStartTLS
			}
			var rec recorder
			startIntake(t, srv, IntakeConfig{TLS: mode, TLSConfig: mailtest.ClientTLSConfig()}, rec.handle)
			srv.WaitCount(t, "Processed", 1)
		})
	}
}

func TestIntakeOversizedMessage(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	raw := readTestdata(t, "oversized.eml")
	if err := srv.Append("INBOX", raw); err != nil {
		t.Fatal(err)
	}
	got := make(chan *Inbound, 1)
	startIntake(t, srv, IntakeConfig{MaxMessageSize: 2048}, func(_ context.Context, msg *Inbound) error {
		got <- msg
		return nil
	})
	msg := <-got
	if !msg.Oversized || msg.Size != int64(len(raw)) || msg.From.Email != "big@example.com" {
		t.Errorf("Oversized, Size, From = %v, %d, %q; want true, %d, big@example.com", msg.Oversized, msg.Size, msg.From.Email, len(raw))
	}
	srv.WaitCount(t, "Processed", 1)
}

func TestMailboxStateUIDValidity(t *testing.T) {
	st := &mailboxState{retries: make(map[imap.UID]*retryState)}
	if st.useUIDValidity(7) {
		t.Error("first UIDVALIDITY reported as a change")
	}
	st.lastUID = 42
	st.fail(40, time.Millisecond, time.Millisecond)
	if st.useUIDValidity(7) || st.lastUID != 42 {
		t.Error("same UIDVALIDITY reset the state")
	}
	if !st.useUIDValidity(8) || st.lastUID != 0 || len(st.retries) != 0 {
		t.Errorf("new UIDVALIDITY kept lastUID %d and %d retries", st.lastUID, len(st.retries))
	}
}

func TestBackoff(t *testing.T) {
	for attempt, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 10: time.Minute, 1000: time.Minute} {
		for range 100 {
			if d := backoff(attempt, time.Second, time.Minute); d < want/2 || d > want {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", attempt, d, want/2, want)
			}
		}
	}
}

// TestSendDeliverIntake runs the whole loop: a composed mail is sent over
// SMTP, delivered into the IMAP INBOX, and comes back through the intake
// with the trace fields a delivery agent adds.
func TestSendDeliverIntake(t *testing.T) {
	imapSrv := mailtest.NewIMAPServer(t, nil)
	smtpSrv := mailtest.NewSMTPServer(t, &mailtest.SMTPOptions{Deliver: imapSrv})
	sender, err := NewSender(SenderConfig{Addr: smtpSrv.Addr, TLS: TLSNone, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	msg := composeTestMail(t, "judge+t0k3n@club.example")
	if err := sender.Send(context.Background(), "judge@club.example", []string{"judge+t0k3n@club.example"}, msg); err != nil {
		t.Fatal(err)
	}

	got := make(chan *Inbound, 1)
	startIntake(t, imapSrv, IntakeConfig{}, func(_ context.Context, in *Inbound) error {
		got <- in
		return nil
	})
	in := <-got
	if !slices.Equal(in.DeliveredTo, []string{"judge+t0k3n@club.example"}) || in.Header.Get("Return-Path") != "<judge@club.example>" {
		t.Errorf("DeliveredTo %q, Return-Path %q", in.DeliveredTo, in.Header.Get("Return-Path"))
	}
	if in.Subject != "Turn 6 – your move" || !strings.Contains(in.Text, "A line with a lone dot above") {
		t.Errorf("Subject %q, Text %q", in.Subject, in.Text)
	}
	if _, auto := DetectAutomatic(in, []string{"judge@club.example"}); !auto {
		t.Error("our own mail, delivered back to us, not detected as automatic")
	}
}

// Mails that arrive together are handed over together and moved
// together; a mail that fails stays for a retry, one whose batch panics
// is found by handing the mails over one at a time, and set aside.
func TestIntakeBatches(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	for i := 1; i <= 5; i++ {
		appendMail(t, srv, fmt.Sprintf("m%d@example.de", i))
	}
	var mu sync.Mutex
	var batches [][]string
	failedOnce := false
	handle := func(_ context.Context, msgs []*Inbound) []error {
		mu.Lock()
		defer mu.Unlock()
		var ids []string
		for _, m := range msgs {
			ids = append(ids, m.MessageID)
		}
		batches = append(batches, ids)
		if slices.Contains(ids, "m4@example.de") {
			panic("m4 crashes the handler")
		}
		errs := make([]error, len(msgs))
		for i, id := range ids {
			if id == "m3@example.de" && !failedOnce {
				failedOnce = true
				errs[i] = errors.New("m3 fails once")
			}
		}
		return errs
	}
	in, err := NewIntake(IntakeConfig{Addr: srv.Addr, TLS: TLSNone, Username: srv.Username, Password: srv.Password,
		RetryMin: 10 * time.Millisecond, RetryMax: 50 * time.Millisecond, PollInterval: 20 * time.Millisecond, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.RunBatch(ctx, handle) }()
	defer func() {
		cancel()
		<-done
	}()
	waitFor(t, "every mail moved out of the INBOX", func() bool {
		processed, _ := srv.Count("Processed")
		aside, _ := srv.Count("Unreadable")
		return processed == 4 && aside == 1
	})
	mu.Lock()
	defer mu.Unlock()
	if len(batches[0]) != 5 {
		t.Errorf("the first batch had %d mails, want the 5 waiting: %v", len(batches[0]), batches)
	}
	if n, _ := srv.Count("INBOX"); n != 0 {
		t.Errorf("%d mails left in the INBOX", n)
	}
}

// With ProcessedKeep, the handled messages older than it are deleted from
// the processed mailbox when the intake starts; newer ones and the mail it
// handles stay.
func TestIntakeDeletesOldHandledMessages(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	if err := srv.Create("Processed"); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i, age := range []time.Duration{40 * 24 * time.Hour, 31 * 24 * time.Hour, 24 * time.Hour} {
		if err := srv.AppendAt("Processed", orderMail(fmt.Sprintf("old-%d@example.de", i)), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	appendMail(t, srv, "new@example.de")
	var rec recorder
	startIntake(t, srv, IntakeConfig{ProcessedKeep: 30 * 24 * time.Hour}, rec.handle)
	waitFor(t, "the old messages deleted", func() bool {
		msgs, err := srv.Messages("Processed")
		if err != nil || len(msgs) != 2 {
			return false
		}
		for _, m := range msgs {
			if bytes.Contains(m.Raw, []byte("old-0@")) || bytes.Contains(m.Raw, []byte("old-1@")) {
				return false
			}
		}
		return true
	})
}

// Without ProcessedKeep nothing handled is ever deleted.
func TestIntakeKeepsHandledMessagesByDefault(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	if err := srv.Create("Processed"); err != nil {
		t.Fatal(err)
	}
	if err := srv.AppendAt("Processed", orderMail("old@example.de"), time.Now().Add(-400*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	appendMail(t, srv, "new@example.de")
	var rec recorder
	startIntake(t, srv, IntakeConfig{}, rec.handle)
	srv.WaitCount(t, "Processed", 2)
}

// Before the first message is handled there is no processed mailbox:
// purging it deletes nothing and is no error (issue 25: the first start
// warned "No such mailbox Processed").
func TestPurgeProcessedBeforeTheMailboxExists(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	in, err := NewIntake(IntakeConfig{Addr: srv.Addr, TLS: TLSNone, Username: srv.Username, Password: srv.Password})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := in.PurgeProcessed(context.Background(), time.Now()); n != 0 || err != nil {
		t.Fatalf("PurgeProcessed = %d, %v; want 0, nil", n, err)
	}
}
