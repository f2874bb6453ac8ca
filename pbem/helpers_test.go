package pbem

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-message"

	"fieldpost/mail"
	"fieldpost/pbem/store"
)

// fakeClock is a Clock that moves only when told to.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []fakeWaiter
}

type fakeWaiter struct {
	at time.Time
	c  chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Until(t time.Time) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if !t.After(c.now) {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, fakeWaiter{t, ch})
	return ch
}

// Advance moves the clock on and wakes whoever waits for a time now past.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.c <- c.now
	}
	c.waiters = kept
}

// syncBuffer collects logs written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testLogger logs to buf and, for a failing test's output, to t.
func testLogger(t testing.TB, buf *syncBuffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(writers{buf, t.Output()}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type writers [2]interface{ Write([]byte) (int, error) }

func (w writers) Write(p []byte) (int, error) {
	w[0].Write(p)
	return w[1].Write(p)
}

// clientMail is a mail as a player's mail program sends it.
type clientMail struct {
	From, To, Subject string
	ReplyTo           string
	MessageID         string
	InReplyTo         string
	References        []string
	Body              string
	// ContentType is "text/plain; charset=utf-8" unless set; Encoding the
	// Content-Transfer-Encoding, "8bit" unless set (the body is then
	// written as it is: encode it first for "quoted-printable").
	ContentType, Encoding string
	Extra                 []string // more header lines, e.g. "Auto-Submitted: auto-replied"
}

var mailCounter struct {
	sync.Mutex
	n int
}

// raw writes the mail in RFC 5322 form with CRLF line ends.
func (m clientMail) raw() []byte {
	if m.MessageID == "" {
		mailCounter.Lock()
		mailCounter.n++
		m.MessageID = fmt.Sprintf("client-%d-%d@example.org", time.Now().UnixNano(), mailCounter.n)
		mailCounter.Unlock()
	}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\r\n", args...) }
	w("From: %s", m.From)
	w("To: %s", m.To)
	if m.ReplyTo != "" {
		w("Reply-To: %s", m.ReplyTo)
	}
	w("Subject: %s", mime.QEncoding.Encode("utf-8", m.Subject))
	w("Date: Mon, 02 Mar 2026 18:00:00 +0000")
	w("Message-ID: <%s>", m.MessageID)
	if m.InReplyTo != "" {
		w("In-Reply-To: <%s>", m.InReplyTo)
	}
	if len(m.References) > 0 {
		w("References: <%s>", strings.Join(m.References, "> <"))
	}
	for _, h := range m.Extra {
		w("%s", h)
	}
	w("MIME-Version: 1.0")
	w("Content-Type: %s", or(m.ContentType, "text/plain; charset=utf-8"))
	w("Content-Transfer-Encoding: %s", or(m.Encoding, "8bit"))
	w("")
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\n", "\r\n"))
	return []byte(b.String())
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// sent is a mail the judge sent, parsed as a player's program reads it.
type sent struct {
	*mail.Inbound
	Envelope []string
	Raw      []byte
}

func parseSent(t testing.TB, to []string, raw []byte) *sent {
	t.Helper()
	in, err := mail.Parse(bytes.NewReader(raw), 0)
	if err != nil {
		t.Fatalf("judge's mail does not parse: %v\n%s", err, raw)
	}
	return &sent{Inbound: in, Envelope: to, Raw: raw}
}

func (s *sent) Kind() string  { return s.Header.Get("X-Fieldpost-Kind") }
func (s *sent) Game() string  { return s.Header.Get("X-Fieldpost-Game") }
func (s *sent) Side() string  { return s.Header.Get("X-Fieldpost-Side") }
func (s *sent) Round() string { return s.Header.Get("X-Fieldpost-Round") }
func (s *sent) To() string    { return s.Envelope[0] }

// ReplyAddress is where a reply to this mail goes.
func (s *sent) ReplyAddress() string { return s.ReplyTo[0].Email }

// Form is the order form at the end of the text, "" when there is none.
func (s *sent) Form() string {
	_, form, ok := strings.Cut(s.Text, formMarker+"\n")
	if !ok {
		return ""
	}
	return form
}

// Token is the secret in the Reply-To address.
func (s *sent) Token() string {
	local, _, _ := strings.Cut(s.ReplyAddress(), "@")
	_, token, _ := strings.Cut(local, "+")
	return token
}

func (s *sent) String() string {
	return fmt.Sprintf("%s to %s (game %s side %s round %s): %s", s.Kind(), s.To(), s.Game(), s.Side(), s.Round(), s.Subject)
}

// reply is a player's reply to a judge's mail: to its Reply-To address,
// threaded, with body on top.
func (s *sent) reply(from, body string) clientMail {
	return clientMail{From: from, To: s.ReplyAddress(), Subject: "Re: " + s.Subject,
		InReplyTo: s.MessageID, References: s.ReplyReferences(), Body: body}
}

// quoted is text as a reply quotes it.
func quoted(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "> " + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// byKind finds the one mail of a kind to an address among mails.
func byKind(t testing.TB, mails []*sent, kind, to string) *sent {
	t.Helper()
	var found *sent
	for _, m := range mails {
		if m.Kind() == kind && m.To() == to {
			if found != nil {
				t.Fatalf("two %s mails to %s:\n%s\n%s", kind, to, found, m)
			}
			found = m
		}
	}
	if found == nil {
		t.Fatalf("no %s mail to %s among:\n%s", kind, to, describe(mails))
	}
	return found
}

func describe(mails []*sent) string {
	var lines []string
	for _, m := range mails {
		lines = append(lines, "  "+m.String())
	}
	return strings.Join(lines, "\n")
}

// recordingSender is a Sender that keeps what it is given.
type recordingSender struct {
	mu   sync.Mutex
	sent []*sent
	t    testing.TB
	// fail, when set, decides the error of each attempt.
	fail func() error
}

func (r *recordingSender) Send(_ context.Context, from string, to []string, raw []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		if err := r.fail(); err != nil {
			return err
		}
	}
	r.sent = append(r.sent, parseSent(r.t, to, raw))
	return nil
}

// The game master and the players of the tests.
const (
	testJudge    = "judge@club.example"
	testGM       = "gm@club.example"
	testGMSecret = "gm-Xq7vT2pLw9kR"
	alice        = "alice@example.org" // plays us
	bob          = "bob@example.de"    // plays german
)

var testServerKey = []byte("0123456789abcdef0123456789abcdef-test-key")

// judge is a Service with a recording sender and a fake clock, for tests
// that hand it mails directly.
type judge struct {
	t      testing.TB
	svc    *Service
	store  *Store
	clock  *fakeClock
	sender *recordingSender
	logs   *syncBuffer
	taken  int
}

func newJudge(t testing.TB, opts *Options) *judge {
	t.Helper()
	store, err := OpenStore(t.TempDir() + "/judge.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return newJudgeOn(t, store, opts)
}

// newJudgeOn is a judge on a store already open.
func newJudgeOn(t testing.TB, store *Store, opts *Options) *judge {
	t.Helper()
	var err error
	j := &judge{t: t, store: store, clock: newFakeClock(), sender: &recordingSender{t: t}, logs: &syncBuffer{}}
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.Address, o.ServerKey, o.GMSecret, o.GMAddress = testJudge, testServerKey, testGMSecret, testGM
	o.Clock, o.Logger = j.clock, testLogger(t, j.logs)
	if o.Systems == nil {
		o.Systems = testSystems(t)
	}
	if j.svc, err = NewService(store, j.sender, o); err != nil {
		t.Fatal(err)
	}
	return j
}

// handle gives the judge a mail and sends what it queued.
func (j *judge) handle(m clientMail) {
	j.t.Helper()
	j.handleRaw(m.raw())
}

func (j *judge) handleRaw(raw []byte) {
	j.t.Helper()
	in, err := mail.Parse(bytes.NewReader(raw), 1<<20)
	if err != nil {
		j.t.Fatal(err)
	}
	if err := j.svc.Handle(context.Background(), in); err != nil {
		j.t.Fatalf("Handle: %v", err)
	}
	j.flush()
}

func (j *judge) flush() {
	j.t.Helper()
	if err := j.svc.Flush(context.Background()); err != nil {
		j.t.Fatal(err)
	}
}

// deadlines runs the deadline loop's work once, at the clock's time.
func (j *judge) deadlines() {
	j.t.Helper()
	for {
		now := j.clock.Now()
		next, err := j.svc.deadlinePass(now)
		if err != nil {
			j.t.Fatal(err)
		}
		if !next.Equal(now) {
			break
		}
	}
	j.flush()
}

// take returns the mails sent since the last take.
func (j *judge) take() []*sent {
	j.sender.mu.Lock()
	defer j.sender.mu.Unlock()
	out := j.sender.sent[j.taken:]
	j.taken = len(j.sender.sent)
	return out
}

// takeN returns the mails sent since the last take, failing unless there
// are n.
func (j *judge) takeN(n int) []*sent {
	j.t.Helper()
	got := j.take()
	if len(got) != n {
		j.t.Fatalf("want %d mails, got %d:\n%s", n, len(got), describe(got))
	}
	return got
}

// newGame has the GM create tutorial game id, alice playing us and bob
// german, and returns the welcomes by side.
func (j *judge) newGame(id string, extra string) map[string]*sent {
	j.t.Helper()
	j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=tutorial id=%s us=%s german=%s %s", id, alice, bob, extra)))
	mails := j.takeN(3)
	byKind(j.t, mails, kindGM, testGM)
	return map[string]*sent{"us": byKind(j.t, mails, kindWelcome, alice), "german": byKind(j.t, mails, kindWelcome, bob)}
}

// gmMail is a GM command in a new mail with the GM secret.
func gmMail(command string) clientMail {
	return clientMail{From: "Game Master <" + testGM + ">", To: testJudge, Subject: "command",
		Body: "PASSWORD " + testGMSecret + "\n" + command + "\n"}
}

// storeView reads the store.
func storeView(t testing.TB, s *Store, fn func(t storeTx) error) {
	t.Helper()
	if err := s.db.View(func(tx *store.Tx) error { return fn(storeTx{tx}) }); err != nil {
		t.Fatal(err)
	}
}

// gameRecord reads a game from the store.
func gameRecord(t testing.TB, s *Store, id string) *Game {
	t.Helper()
	var g *Game
	storeView(t, s, func(st storeTx) error {
		var err error
		g, err = st.game(id)
		return err
	})
	if g == nil {
		t.Fatalf("no game %s", id)
	}
	return g
}

// part returns the content of the body part with the given file name.
func (s *sent) part(t testing.TB, filename string) []byte {
	t.Helper()
	entity, err := message.Read(bytes.NewReader(s.Raw))
	if err != nil {
		t.Fatal(err)
	}
	var found []byte
	err = entity.Walk(func(_ []int, e *message.Entity, err error) error {
		if err != nil {
			return err
		}
		if _, params, _ := e.Header.ContentDisposition(); params["filename"] == filename {
			found, err = io.ReadAll(e.Body)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == nil {
		t.Fatalf("%s has no part %s", s, filename)
	}
	return found
}

// docExample returns the example orders docs/orders.md gives for the
// tutorial's US side, for the game tutorial-1.
func docExample(t testing.TB) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/orders.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```orders tutorial us\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("no tutorial example in docs/orders.md")
	}
	return string(m[1])
}

// germanOrders returns the German orders of the offline CLI's tutorial
// game for a round (1 or 2).
func germanOrders(t testing.TB, round int) string {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("../cmd/fieldpost/testdata/tutorial-german-%d.txt", round))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// parseLimited parses a raw mail as the intake does, with a size limit.
func parseLimited(raw []byte, limit int64) (*mail.Inbound, error) {
	return mail.Parse(bytes.NewReader(raw), limit)
}
