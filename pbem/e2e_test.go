package pbem

import (
	"fieldpost/engine"

	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"mime/quotedprintable"
	"strconv"
	"strings"
	"testing"
	"time"

	"fieldpost/engine/systems"
	"fieldpost/mail"
	"fieldpost/mail/mailtest"
	"fieldpost/pbem/config"
)

// world is the judge's daemon between in-process IMAP and SMTP servers, on
// a fake clock: mails are appended to the judge's INBOX as a mail server
// delivers them, and read back from what the SMTP server accepted.
type world struct {
	t     *testing.T
	imap  *mailtest.IMAPServer
	smtp  *mailtest.SMTPServer
	clock *fakeClock
	logs  *syncBuffer
	cfg   *config.Config

	d      *daemon
	cancel context.CancelFunc
	done   chan error

	delivered int // mails appended to the INBOX
	taken     int // SMTP messages read
}

const testSMTPPassword = "smtp-Pw-98765-x"

func newWorld(t *testing.T) *world {
	w := &world{t: t, imap: mailtest.NewIMAPServer(t, nil), clock: newFakeClock(), logs: &syncBuffer{}}
	w.smtp = mailtest.NewSMTPServer(t, &mailtest.SMTPOptions{Username: "judge", Password: testSMTPPassword})
	cfg := config.Default()
	cfg.Address, cfg.Database = testJudge, t.TempDir()+"/fieldpost.db"
	cfg.IMAPAddr, cfg.IMAPTLS, cfg.IMAPUsername, cfg.IMAPPassword = w.imap.Addr, mail.TLSNone, w.imap.Username, w.imap.Password
	cfg.SMTPAddr, cfg.SMTPTLS, cfg.SMTPUsername, cfg.SMTPPassword = w.smtp.Addr, mail.TLSNone, "judge", testSMTPPassword
	cfg.GMSecret, cfg.GMAddress = testGMSecret, testGM
	cfg.Deadline, cfg.Reminders, cfg.Grace = 48*time.Hour, []time.Duration{24 * time.Hour, 2 * time.Hour}, time.Hour
	w.cfg = cfg
	t.Cleanup(w.stop)
	return w
}

func (w *world) start() {
	w.t.Helper()
	d, err := newDaemon(w.cfg, Hooks{}, systems.New, testLogger(w.t, w.logs), w.clock)
	if err != nil {
		w.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.d, w.cancel, w.done = d, cancel, make(chan error, 1)
	go func() { w.done <- d.run(ctx) }()
}

func (w *world) stop() {
	if w.d == nil {
		return
	}
	w.cancel()
	select {
	case err := <-w.done:
		if err != nil {
			w.t.Errorf("daemon: %v", err)
		}
	case <-time.After(20 * time.Second):
		w.t.Fatal("the daemon did not stop")
	}
	w.d = nil
}

func (w *world) deliver(m clientMail) {
	w.t.Helper()
	w.deliverRaw(m.raw())
}

func (w *world) deliverRaw(raw []byte) {
	w.t.Helper()
	if err := w.imap.Append("INBOX", raw); err != nil {
		w.t.Fatal(err)
	}
	w.delivered++
}

// settle waits until the judge has handled every mail delivered and sent
// every mail due.
func (w *world) settle() {
	w.t.Helper()
	w.imap.WaitCount(w.t, "Processed", w.delivered)
	waitFor(w.t, "the outbox to empty", func() bool { return len(w.due()) == 0 })
}

// due lists the outbox's mails due now.
func (w *world) due() []outgoing {
	var due []outgoing
	for _, o := range outboxRecords(w.t, w.d.store) {
		if !o.Failed && !o.NextTry.After(w.clock.Now()) {
			due = append(due, o)
		}
	}
	return due
}

// take returns the mails sent since the last take, failing unless there
// are n.
func (w *world) take(n int) []*sent {
	w.t.Helper()
	all := w.smtp.WaitMessages(w.t, w.taken+n)
	if len(all) != w.taken+n {
		w.t.Fatalf("want %d mails, got %d", n, len(all)-w.taken)
	}
	var out []*sent
	for _, r := range all[w.taken:] {
		out = append(out, parseSent(w.t, r.To, r.Data))
	}
	w.taken = len(all)
	return out
}

// exchange delivers a mail and returns the n mails the judge sends for it.
func (w *world) exchange(m clientMail, n int) []*sent {
	w.t.Helper()
	w.deliver(m)
	w.settle()
	return w.take(n)
}

func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// latin1QP is a mail body as an old mail program sends it: ISO-8859-1,
// quoted-printable.
func latin1QP(text string) string {
	var latin1 []byte
	for _, r := range text {
		latin1 = append(latin1, byte(r))
	}
	var b bytes.Buffer
	qp := quotedprintable.NewWriter(&b)
	qp.Write(latin1)
	qp.Close()
	return b.String()
}

// htmlOnly is a mail body as a webmail writes it with plain text off.
func htmlOnly(text string) string {
	var b strings.Builder
	b.WriteString("<html><head><style>p { margin: 0 }</style></head><body><p>My orders:</p><div>")
	for _, line := range strings.Split(text, "\n") {
		b.WriteString(html.EscapeString(line) + "<br>\n")
	}
	b.WriteString("</div><p>Regards, Alice</p></body></html>\n")
	return b.String()
}

// The tutorial played entirely by mail through real IMAP and SMTP: the GM
// creates the game, both sides send orders from all kinds of mail
// programs, rounds are played when both have sent and at the deadline,
// CHECK, HISTORY and orders for a finished round, FORCE to the end. No
// secret ever reaches the log.
func TestTutorialByMail(t *testing.T) {
	w := newWorld(t)
	w.start()
	mails := w.exchange(gmMail("NEWGAME scenario=tutorial id=tutorial-1 us="+alice+" german="+bob+" deadline=48h"), 3)
	welcome := map[string]*sent{"us": byKind(t, mails, kindWelcome, alice), "german": byKind(t, mails, kindWelcome, bob)}
	byKind(t, mails, kindGM, testGM)

	// Round 1. Alice replies to the welcome, top-posting above the whole
	// welcome quoted; Bob writes a new mail, from an old program.
	mails = w.exchange(welcome["us"].reply(alice, docExample(t)+"\n-- \nAlice\n\nOn Mon, 2 Mar 2026 at 18:00, Fieldpost <judge@club.example> wrote:\n"+quoted(welcome["us"].Text)), 1)
	byKind(t, mails, kindAccepted, alice)
	bobMail := clientMail{From: "Bob Müller <" + bob + ">", To: testJudge, Subject: "Züge Runde 1",
		ContentType: "text/plain; charset=ISO-8859-1", Encoding: "quoted-printable",
		Body: latin1QP("Grüße vom Gefechtsstand!\n\nGAME tutorial-1 SIDE german ROUND 1\nPASSWORD " + welcome["german"].Token() + "\n" +
			germanOrders(t, 1) + "END\nBob Müller\n")}
	mails = w.exchange(bobMail, 3)
	byKind(t, mails, kindAccepted, bob)
	report := map[string]*sent{"us": byKind(t, mails, kindReport, alice), "german": byKind(t, mails, kindReport, bob)}
	for side, r := range report {
		if r.Round() != "1" || engine.SeedCommitment(revealedSeed(t, r)) != commitment(t, welcome[side]) {
			t.Errorf("%s: round %s, the seed does not match the welcome's commitment", r, r.Round())
		}
		if r.References[0] != welcome[side].References[0] || r.Header.Get("List-Id") != "<tutorial-1.club.example>" {
			t.Errorf("%s is not in the game's thread", r)
		}
	}

	// CHECK stores nothing.
	mails = w.exchange(report["us"].reply(alice, "CHECK\n"+strings.Replace(report["us"].Form(), "ROUND 2", "ROUND 2\nBN 9/99 M", 1)), 1)
	if m := mails[0]; m.Kind() != kindCheck || !strings.Contains(m.Text, `"9/99" is not a unit of us`) {
		t.Errorf("got %s:\n%s", m, m.Text)
	}

	// Round 2. Alice's webmail sends HTML only; Bob replies to the report.
	usForm := report["us"].Form()
	mails = w.exchange(clientMail{From: alice, To: report["us"].ReplyAddress(), Subject: "Re: " + report["us"].Subject,
		ContentType: "text/html; charset=utf-8", Body: htmlOnly(usForm)}, 1)
	byKind(t, mails, kindAccepted, alice)
	mails = w.exchange(report["german"].reply(bob, "GAME tutorial-1 SIDE german ROUND 2\n"+germanOrders(t, 2)), 3)
	report = map[string]*sent{"us": byKind(t, mails, kindReport, alice), "german": byKind(t, mails, kindReport, bob)}

	// HISTORY, and orders for the round just played.
	mails = w.exchange(report["german"].reply(bob, "HISTORY 1"), 1)
	if m := mails[0]; m.Kind() != kindHistory || !strings.Contains(m.Text, "day 1 of 1, round 1 of 5") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
	mails = w.exchange(report["german"].reply(bob, "GAME tutorial-1 SIDE german ROUND 2\n"+germanOrders(t, 2)), 1)
	if m := mails[0]; m.Kind() != kindRejected || !strings.Contains(m.Text, "round 2, which has been played already") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}

	// Round 3. Bob sends nothing: a reminder a day before the deadline,
	// then, after the grace period, the default orders.
	w.exchange(report["us"].reply(alice, report["us"].Form()), 1)
	w.clock.Advance(24 * time.Hour)
	if m := w.take(1)[0]; m.Kind() != kindReminder || m.To() != bob {
		t.Errorf("got %s", m)
	}
	w.clock.Advance(25 * time.Hour)
	mails = w.take(3)
	byKind(t, mails, kindDefaulted, bob)
	report = map[string]*sent{"us": byKind(t, mails, kindReport, alice), "german": byKind(t, mails, kindReport, bob)}
	if !strings.Contains(report["us"].Text, "german sent no orders") || report["us"].Round() != "3" {
		t.Errorf("%s:\n%s", report["us"], report["us"].Text)
	}

	// Round 4 by both; round 5 forced by the GM: the end.
	w.exchange(report["us"].reply(alice, report["us"].Form()), 1)
	mails = w.exchange(report["german"].reply(bob, report["german"].Form()), 3)
	byKind(t, mails, kindReport, bob)
	mails = w.exchange(gmMail("FORCE tutorial-1"), 5)
	over := byKind(t, mails, kindGameOver, alice)
	if !strings.Contains(over.Text, "is over") || over.Form() != "" {
		t.Errorf("%s:\n%s", over, over.Text)
	}

	// Every mail the judge sent has its own Message-ID.
	ids := map[string]bool{}
	for _, r := range w.smtp.Messages() {
		id := parseSent(t, r.To, r.Data).MessageID
		if ids[id] {
			t.Errorf("mail %s sent twice", id)
		}
		ids[id] = true
	}

	// No secret in the log: players' secrets, the GM's, the passwords, the
	// server key, the game's seed.
	g := gameRecord(t, w.d.store, "tutorial-1")
	w.stop()
	logs := w.logs.String()
	for what, secret := range map[string]string{
		"us secret": welcome["us"].Token(), "german secret": welcome["german"].Token(), "GM secret": testGMSecret,
		"IMAP password": w.imap.Password, "SMTP password": testSMTPPassword, "game seed": strconv.FormatUint(g.Seed, 10),
	} {
		if strings.Contains(strings.ToLower(logs), strings.ToLower(secret)) {
			t.Errorf("the %s (%s) is in the log", what, secret)
		}
	}
	key, err := LoadServerKey(w.cfg.Database + ".key")
	if err != nil || strings.Contains(logs, string(key)) {
		t.Errorf("the server key is in the log (%v)", err)
	}
	if !strings.Contains(logs, "round played") {
		t.Error("the log is empty")
	}
}

// Mail that must not count, through the real servers: a wrong secret, a
// forged From, an unknown game, an auto-reply, and a mail delivered twice.
func TestBadMailByMail(t *testing.T) {
	w := newWorld(t)
	w.start()
	mails := w.exchange(gmMail("NEWGAME scenario=tutorial id=tutorial-1 us="+alice+" german="+bob), 3)
	welcome := byKind(t, mails, kindWelcome, alice)
	form := welcome.Form()

	mails = w.exchange(clientMail{From: "mallory@evil.example", To: testJudge, Subject: "orders", Body: "PASSWORD wrongwrongwrong1\n" + form}, 1)
	if m := mails[0]; m.Kind() != kindAuthFailed || m.To() != alice {
		t.Errorf("wrong secret: got %s", m)
	}
	mails = w.exchange(clientMail{From: alice, ReplyTo: "mallory@evil.example", To: testJudge, Subject: "orders", Body: form}, 1)
	if m := mails[0]; m.Kind() != kindAuthFailed || m.To() != alice {
		t.Errorf("forged From: got %s", m)
	}
	mails = w.exchange(clientMail{From: "carol@example.net", To: testJudge, Subject: "orders", Body: "GAME nosuch\nPASSWORD x\n" + form}, 1)
	if m := mails[0]; m.Kind() != kindError || m.To() != "carol@example.net" {
		t.Errorf("unknown game: got %s", m)
	}
	vacation := welcome.reply(alice, "I am away until Monday.\n")
	vacation.Extra = []string{"Auto-Submitted: auto-replied"}
	w.exchange(vacation, 0)
	if !strings.Contains(w.logs.String(), "automatic mail ignored") {
		t.Error("the auto-reply is not logged")
	}

	orders := welcome.reply(alice, form).raw()
	w.deliverRaw(orders)
	w.deliverRaw(orders)
	w.settle()
	if m := w.take(1)[0]; m.Kind() != kindAccepted {
		t.Errorf("got %s", m)
	}
	for _, r := range w.smtp.Messages() {
		if strings.Contains(strings.Join(r.To, " "), "mallory") {
			t.Errorf("a mail went to the forger: %s", parseSent(t, r.To, r.Data))
		}
	}
}

// The daemon dies after committing a mail's effects but before sending
// their mails or moving the mail out of the INBOX. Restarted on the same
// database, it handles the mail again without a second effect and sends
// the mails it had queued, once.
func TestRestartBetweenCommitAndSend(t *testing.T) {
	w := newWorld(t)
	w.start()
	mails := w.exchange(gmMail("NEWGAME scenario=tutorial id=tutorial-1 us="+alice+" german="+bob), 3)
	welcome := map[string]*sent{"us": byKind(t, mails, kindWelcome, alice), "german": byKind(t, mails, kindWelcome, bob)}
	w.exchange(welcome["us"].reply(alice, welcome["us"].Form()), 1)
	w.stop()

	// A daemon with no outbox loop, whose process is killed as soon as the
	// handler's transaction has committed.
	d, err := newDaemon(w.cfg, Hooks{}, systems.New, testLogger(t, w.logs), w.clock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, kill := context.WithCancel(context.Background())
	committed := make(chan struct{})
	killed := func(ctx context.Context, msg *mail.Inbound) error {
		if err := d.svc.Handle(ctx, msg); err != nil {
			t.Error(err)
		}
		kill()
		close(committed)
		return errors.New("killed")
	}
	stopped := make(chan error, 1)
	go func() { stopped <- d.intake.Run(ctx, killed) }()
	w.deliver(welcome["german"].reply(bob, welcome["german"].Form()))
	<-committed
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	queued := len(outboxRecords(t, d.store))
	d.store.Close()
	if n, _ := w.imap.Count("INBOX"); n != 1 || queued != 3 || len(w.smtp.Messages()) != w.taken {
		t.Fatalf("after the kill: %d in the INBOX, %d queued, %d sent", n, queued, len(w.smtp.Messages())-w.taken)
	}

	w.start()
	w.settle()
	mails = w.take(3)
	byKind(t, mails, kindAccepted, bob)
	byKind(t, mails, kindReport, alice)
	byKind(t, mails, kindReport, bob)
	if g := gameRecord(t, w.d.store, "tutorial-1"); g.Turn != 1 {
		t.Errorf("turn %d", g.Turn)
	}
	if !strings.Contains(w.logs.String(), "mail handled before; ignored") {
		t.Error("the mail was not recognised")
	}
	w.stop()
	if got := len(w.smtp.Messages()); got != w.taken {
		t.Errorf("%d more mails after the restart", got-w.taken)
	}
}

// The SMTP server refuses everything for a while: the mails wait in the
// outbox and go out, once each, when it is back.
func TestSMTPDownMailsSentLaterOnce(t *testing.T) {
	w := newWorld(t)
	w.start()
	mails := w.exchange(gmMail("NEWGAME scenario=tutorial id=tutorial-1 us="+alice+" german="+bob), 3)
	welcome := map[string]*sent{"us": byKind(t, mails, kindWelcome, alice), "german": byKind(t, mails, kindWelcome, bob)}

	w.smtp.FailNext(1000, 451)
	w.deliver(welcome["us"].reply(alice, welcome["us"].Form()))
	w.deliver(welcome["german"].reply(bob, welcome["german"].Form()))
	w.imap.WaitCount(t, "Processed", w.delivered)
	waitFor(t, "four failed attempts", func() bool {
		o := outboxRecords(t, w.d.store)
		return len(o) == 4 && o[0].Attempts > 0 && o[1].Attempts > 0 && o[2].Attempts > 0 && o[3].Attempts > 0
	})
	if len(w.smtp.Messages()) != w.taken {
		t.Fatal("mail sent while the server refuses it")
	}
	w.smtp.FailNext(0, 0)
	w.clock.Advance(w.cfg.SendRetryMin)
	mails = w.take(4)
	byKind(t, mails, kindAccepted, alice)
	byKind(t, mails, kindReport, bob)
	w.settle()
	w.clock.Advance(time.Hour)
	w.stop()
	if got := len(w.smtp.Messages()); got != w.taken {
		t.Errorf("%d mails sent twice", got-w.taken)
	}
}

// Serve runs from a configuration file and stops on cancel, closing the
// database.
func TestServeFromConfigFile(t *testing.T) {
	imapSrv := mailtest.NewIMAPServer(t, nil)
	smtpSrv := mailtest.NewSMTPServer(t, nil)
	dir := t.TempDir()
	conf := fmt.Sprintf("address = %s\ndatabase = %s/f.db\nimap_addr = %s\nimap_tls = none\nimap_username = judge\n"+
		"smtp_addr = %s\nsmtp_tls = none\ngm_address = %s\n", testJudge, dir, imapSrv.Addr, smtpSrv.Addr, testGM)
	cfg, err := config.Parse(strings.NewReader(conf), func(k string) string {
		return map[string]string{config.EnvIMAPPassword: imapSrv.Password, config.EnvGMSecret: testGMSecret}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	logs := &syncBuffer{}
	go func() { done <- Serve(ctx, cfg, Hooks{}, systems.New, testLogger(t, logs)) }()
	imapSrv.Append("INBOX", gmMail("NEWGAME scenario=tutorial id=t1 us="+alice+" german="+bob).raw())
	smtpSrv.WaitMessages(t, 3)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not stop")
	}
	s, err := OpenStore(dir + "/f.db")
	if err != nil {
		t.Fatalf("the database was not closed: %v", err)
	}
	s.Close()
	if !strings.Contains(logs.String(), "judge stopped") {
		t.Error("no stop in the log")
	}
}
