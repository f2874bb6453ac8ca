package pbem

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"fieldpost/engine/systems"
	"fieldpost/mail"
	"fieldpost/mail/mailtest"
	"fieldpost/pbem/config"
)

// The benchmarks run the whole judge (Serve's daemon: IMAP intake with
// IDLE, the Service, the store on disk, the outbox and an SMTP sender) against
// the in-process servers on loopback. Compare their msgs/s with mail's
// BenchmarkPipeline, the same pipeline with the game processing removed:
//
//	go test -run xxx -bench . ./pbem/ ./mail/

// replyWatch is a Sender wrapper that tells, for each inbound Message-ID,
// when the judge's answer to it was accepted by the SMTP server.
type replyWatch struct {
	inner Sender
	mu    sync.Mutex
	wait  map[string]chan struct{}
	sent  int
	any   chan struct{}
}

func (r *replyWatch) Send(ctx context.Context, from string, to []string, raw []byte) error {
	if err := r.inner.Send(ctx, from, to, raw); err != nil {
		return err
	}
	var id string
	if i := bytes.Index(raw, []byte("\r\nIn-Reply-To: <")); i >= 0 {
		rest := raw[i+len("\r\nIn-Reply-To: <"):]
		id = string(rest[:bytes.IndexByte(rest, '>')])
	}
	r.mu.Lock()
	r.sent++
	if c, ok := r.wait[id]; ok {
		close(c)
		delete(r.wait, id)
	}
	r.mu.Unlock()
	select {
	case r.any <- struct{}{}:
	default:
	}
	return nil
}

// expect returns a channel closed when the answer to id is sent.
func (r *replyWatch) expect(id string) <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := make(chan struct{})
	r.wait[id] = c
	return c
}

func (r *replyWatch) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sent
}

// waitSent waits until n mails in all have been sent.
func (r *replyWatch) waitSent(b *testing.B, n int) {
	deadline := time.After(60 * time.Second)
	for r.count() < n {
		select {
		case <-r.any:
		case <-deadline:
			b.Fatalf("only %d of %d mails sent after 60s", r.count(), n)
		}
	}
}

// benchJudge starts a daemon on the system clock and creates games
// tutorial-0... with no deadline, returning each game's welcome mails.
func benchJudge(b *testing.B, games int) (*replyWatch, *mailtest.IMAPServer, []map[string]*sent) {
	imapSrv := mailtest.NewIMAPServer(b, nil)
	smtpSrv := mailtest.NewSMTPServer(b, nil)
	cfg := config.Default()
	cfg.Address, cfg.Database = testJudge, b.TempDir()+"/bench.db"
	cfg.IMAPAddr, cfg.IMAPTLS, cfg.IMAPUsername, cfg.IMAPPassword = imapSrv.Addr, mail.TLSNone, imapSrv.Username, imapSrv.Password
	cfg.SMTPAddr, cfg.SMTPTLS = smtpSrv.Addr, mail.TLSNone
	cfg.GMSecret, cfg.GMAddress, cfg.Deadline = testGMSecret, testGM, 0
	d, err := newDaemon(cfg, Hooks{}, systems.New, slog.New(slog.DiscardHandler), SystemClock())
	if err != nil {
		b.Fatal(err)
	}
	watch := &replyWatch{inner: d.svc.sender, wait: map[string]chan struct{}{}, any: make(chan struct{}, 1)}
	d.svc.sender = watch
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.run(ctx) }()
	b.Cleanup(func() {
		cancel()
		<-done
	})

	for i := range games {
		raw := gmMail(fmt.Sprintf("NEWGAME scenario=tutorial id=tutorial-%d us=%s german=%s", i, alice, bob)).raw()
		if err := imapSrv.Append("INBOX", raw); err != nil {
			b.Fatal(err)
		}
	}
	watch.waitSent(b, 3*games)
	welcomes := make([]map[string]*sent, games)
	for i := range welcomes {
		welcomes[i] = map[string]*sent{}
	}
	for _, r := range smtpSrv.Messages() {
		m := parseSent(b, r.To, r.Data)
		if m.Kind() == kindWelcome {
			var i int
			fmt.Sscanf(m.Game(), "tutorial-%d", &i)
			welcomes[i][m.Side()] = m
		}
	}
	return watch, imapSrv, welcomes
}

// BenchmarkOrderMails: order mails (a side's form, validated, echoed with
// odds, stored, answered) from many games at once; every order replaces
// the side's earlier ones, so no round is played.
func BenchmarkOrderMails(b *testing.B) {
	const games, batch = 20, 100
	watch, imapSrv, welcomes := benchJudge(b, games)
	sent := watch.count()
	n := 0
	b.ResetTimer()
	for b.Loop() {
		for range batch {
			w := welcomes[n%games]["us"]
			n++
			if err := imapSrv.Append("INBOX", w.reply(alice, w.Form()).raw()); err != nil {
				b.Fatal(err)
			}
		}
		sent += batch
		watch.waitSent(b, sent)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkRoundMails: both sides of fresh games send orders, so every
// second mail plays a round and mails two reports (text, HTML, map PNG,
// situation.json).
func BenchmarkRoundMails(b *testing.B) {
	const games = 100
	watch, imapSrv, welcomes := benchJudge(b, games)
	sent := watch.count()
	n := 0
	b.ResetTimer()
	for b.Loop() {
		if n == games {
			b.Fatal("out of games: lower -benchtime")
		}
		for _, side := range []string{"us", "german"} {
			w := welcomes[n][side]
			if err := imapSrv.Append("INBOX", w.reply(w.To(), w.Form()).raw()); err != nil {
				b.Fatal(err)
			}
		}
		n++
		sent += 4 // two accepted, two reports
		watch.waitSent(b, sent)
	}
	b.ReportMetric(float64(2*n)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkOrderLatency: one order mail at a time, from its delivery into
// the INBOX to the SMTP server accepting the answer, with IMAP IDLE.
func BenchmarkOrderLatency(b *testing.B) {
	watch, imapSrv, welcomes := benchJudge(b, 1)
	w := welcomes[0]["us"]
	var took []time.Duration
	b.ResetTimer()
	for b.Loop() {
		m := w.reply(alice, w.Form())
		m.MessageID = fmt.Sprintf("latency-%d@example.org", len(took))
		answered := watch.expect(m.MessageID)
		start := time.Now()
		if err := imapSrv.Append("INBOX", m.raw()); err != nil {
			b.Fatal(err)
		}
		select {
		case <-answered:
		case <-time.After(30 * time.Second):
			b.Fatal("no answer after 30s")
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
}
