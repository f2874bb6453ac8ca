package pbem

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"fieldpost/mail"
	"fieldpost/mail/club"
)

// clubJudge is a judge sending through a club mail server, a real SMTP
// server that refuses mail to an account it does not have (550).
type clubJudge struct {
	svc   *Service
	store *Store
	clock *fakeClock
	mu    sync.Mutex
	inbox map[string][]*mail.Inbound // by account, the mails delivered
}

func newClubJudge(t *testing.T, accounts ...string) *clubJudge {
	t.Helper()
	cj := &clubJudge{clock: newFakeClock(), inbox: map[string][]*mail.Inbound{}}
	var list []club.Account
	for _, name := range append([]string{"judge", "gm"}, accounts...) {
		list = append(list, club.Account{Name: name, Password: "pw-" + name})
	}
	logs := &syncBuffer{}
	srv, err := club.New(club.Config{MailFile: t.TempDir() + "/mail.db", IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
		Accounts: list, Logger: testLogger(t, logs), Delivered: func(account string, raw []byte) {
			in, err := mail.Parse(bytes.NewReader(raw), 0)
			if err != nil {
				t.Errorf("a delivered mail does not parse: %v", err)
				return
			}
			cj.mu.Lock()
			defer cj.mu.Unlock()
			cj.inbox[account] = append(cj.inbox[account], in)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	sender, err := mail.NewSender(mail.SenderConfig{Addr: srv.SMTPAddr(), TLS: mail.TLSNone, Username: "judge", Password: "pw-judge"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sender.Close() })
	if cj.store, err = OpenStore(t.TempDir() + "/judge.db"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cj.store.Close() })
	cj.svc, err = NewService(cj.store, sender, Options{Address: srv.Address("judge"), ServerKey: testServerKey,
		GMSecret: testGMSecret, GMAddress: srv.Address("gm"), Systems: testSystems(t), Clock: cj.clock, Logger: testLogger(t, logs)})
	if err != nil {
		t.Fatal(err)
	}
	return cj
}

// gm has the GM mail a command to the judge, and sends what it queued
// (twice: the mails queued by the sending, the GM's notices, too).
func (cj *clubJudge) gm(t *testing.T, command string) {
	t.Helper()
	raw := clientMail{From: "gm@fieldpost.local", To: "judge@fieldpost.local", Subject: "command",
		Body: "PASSWORD " + testGMSecret + "\n" + command + "\n"}.raw()
	in, err := mail.Parse(bytes.NewReader(raw), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := cj.svc.Handle(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := cj.svc.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// received returns the mails delivered to an account whose subject holds
// the text.
func (cj *clubJudge) received(account, subject string) []*mail.Inbound {
	cj.mu.Lock()
	defer cj.mu.Unlock()
	var out []*mail.Inbound
	for _, m := range cj.inbox[account] {
		if strings.Contains(m.Subject, subject) {
			out = append(out, m)
		}
	}
	return out
}

// A game made with an address the mail server does not have (issue 19):
// the welcome is refused with 550 and given up, the GM is told at once with
// the server's reason, the seat and the way out, game show names the seat
// unreachable, and the later mails refused to that player are not told
// again.
func TestRefusedWelcomeTellsTheGMOnce(t *testing.T) {
	cj := newClubJudge(t, "us")
	cj.gm(t, "NEWGAME scenario=tutorial id=t1 us=us@fieldpost.local german=robot@fieldpost.local")
	if len(cj.received("us", "")) != 1 || len(cj.received("gm", "Game created")) != 1 {
		t.Fatalf("us: %d mails, gm: %d", len(cj.received("us", "")), len(cj.received("gm", "")))
	}
	notices := cj.received("gm", "german player cannot be reached")
	if len(notices) != 1 {
		t.Fatalf("%d notices to the GM", len(notices))
	}
	text := notices[0].Text
	for _, want := range []string{"welcome mail to robot@fieldpost.local", "plays german in game t1", "refused by the mail server",
		"550", "no such account", "REPLACE t1 german ADDRESS", "OPEN t1 german", "told once"} {
		if !strings.Contains(text, want) {
			t.Errorf("the notice lacks %q:\n%s", want, text)
		}
	}
	g := gameRecord(t, cj.store, "t1")
	if u := g.Player("german").Unreachable; u == nil || !strings.Contains(u.Reason, "550") || !u.Since.Equal(cj.clock.Now()) {
		t.Fatalf("german: %+v", g.Player("german"))
	}
	if g.Player("us").Unreachable != nil {
		t.Error("us is marked unreachable too")
	}

	cj.gm(t, "REMAIL t1") // mails each player again: refused again for german
	if n := len(cj.received("us", "")); n != 2 {
		t.Fatalf("us got %d mails, want the welcome and the REMAIL", n)
	}
	if n := len(cj.received("gm", "cannot be reached")); n != 1 {
		t.Errorf("the GM was told %d times", n)
	}
	info, err := cj.store.Game(testSystems(t), "t1")
	if err != nil {
		t.Fatal(err)
	}
	var show strings.Builder
	if err := WriteGame(&show, info, cj.clock.Now()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"UNREACHABLE: german (robot@fieldpost.local)", "550", formatTime(cj.clock.Now()), "REPLACE t1 german ADDRESS", "2 given up on"} {
		if !strings.Contains(show.String(), want) {
			t.Errorf("game show lacks %q:\n%s", want, show.String())
		}
	}
}

// A player marked unreachable is not told about again when other mails
// to it bounce; it is reachable again once it mails the judge from its
// address, and a later bounce is told to the GM again.
func TestUnreachablePlayerReachableAgain(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.handleRaw(bounceOf(t, "bounce-postfix-dsn.eml", w["german"].MessageID))
	j.takeN(1) // the GM's notice

	j.handle(gmMail("REMAIL tutorial-1"))
	status := byKind(t, j.takeN(3), kindStatus, bob)
	j.handleRaw(bounceOf(t, "bounce-exim.eml", status.MessageID))
	j.takeN(0)

	j.handle(w["german"].reply(bob, "STATUS"))
	status = j.takeN(1)[0]
	if u := gameRecord(t, j.store, "tutorial-1").Player("german").Unreachable; u != nil {
		t.Fatalf("german still unreachable after mailing from its address: %+v", u)
	}
	j.handleRaw(bounceOf(t, "bounce-qmail.eml", status.MessageID))
	if gm := j.takeN(1)[0]; !strings.Contains(gm.Subject, "german player cannot be reached") {
		t.Errorf("the second notice: %s", gm)
	}
}
