package club_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"fieldpost/mail/club"
)

// The accounts of the test servers, unless a test gives its own.
var testAccounts = []club.Account{
	{Name: "judge", Password: "judge-pw"},
	{Name: "us", Password: "us-pw"},
	{Name: "german", Password: "german-pw"},
}

func password(name string) string { return name + "-pw" }

// startServer starts a club server on 127.0.0.1 with free ports and closes
// it when the test ends. cfg's addresses and logger are overridden; nil
// Accounts are testAccounts, an empty MailFile a new file in t.TempDir().
func startServer(t testing.TB, cfg club.Config) *club.Server {
	t.Helper()
	cfg.IMAPAddr, cfg.SMTPAddr = "127.0.0.1:0", "127.0.0.1:0"
	if cfg.MailFile == "" {
		cfg.MailFile = filepath.Join(t.TempDir(), "mail.db")
	}
	if cfg.Accounts == nil {
		cfg.Accounts = testAccounts
	}
	cfg.Logger = slog.New(slog.DiscardHandler)
	s, err := club.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// smtpLogin connects to the server's SMTP port and authenticates.
func smtpLogin(t testing.TB, s *club.Server, user, pass string) *smtp.Client {
	t.Helper()
	return smtpDial(t, s.SMTPAddr(), user, pass)
}

// smtpDial connects to an SMTP server and authenticates.
func smtpDial(t testing.TB, addr, user, pass string) *smtp.Client {
	t.Helper()
	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Hello("localhost"); err != nil {
		t.Fatal(err)
	}
	if err := c.Auth(sasl.NewPlainClient("", user, pass)); err != nil {
		t.Fatalf("SMTP AUTH as %s: %v", user, err)
	}
	return c
}

// send sends msg over a new authenticated SMTP connection.
func send(t testing.TB, s *club.Server, user, from string, to []string, msg []byte) error {
	t.Helper()
	c := smtpLogin(t, s, user, password(user))
	if err := c.SendMail(from, to, bytes.NewReader(msg)); err != nil {
		return err
	}
	return c.Quit()
}

// imapLogin connects to the server's IMAP port and logs in.
func imapLogin(t testing.TB, s *club.Server, user, pass string, opts *imapclient.Options) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(s.IMAPAddr(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatalf("IMAP login as %s: %v", user, err)
	}
	return c
}

// stored is a message read back over IMAP.
type stored struct {
	flags []imap.Flag
	raw   string
}

// messages reads every message of a mailbox of user without changing
// their flags.
func messages(t testing.TB, s *club.Server, user, mailbox string) []stored {
	t.Helper()
	c := imapLogin(t, s, user, password(user), nil)
	defer c.Logout()
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatalf("selecting %s of %s: %v", mailbox, user, err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	section := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{
		Flags: true, BodySection: []*imap.FetchItemBodySection{section},
	}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var msgs []stored
	for _, buf := range bufs {
		msgs = append(msgs, stored{flags: buf.Flags, raw: string(buf.FindBodySection(section))})
	}
	return msgs
}

// testMessage is a small message with CRLF line ends.
func testMessage(from, to, subject string) []byte {
	return []byte(strings.ReplaceAll(fmt.Sprintf(`From: %s
To: %s
Subject: %s
Message-ID: <%s@test>
Date: Mon, 01 Jun 2026 12:00:00 +0000

Orders for the round.
`, from, to, subject, strings.ReplaceAll(subject, " ", "-")), "\n", "\r\n"))
}

// smtpCode returns the reply code of an SMTP error, or 0.
func smtpCode(err error) int {
	var e *smtp.SMTPError
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func TestSendAndReceive(t *testing.T) {
	s := startServer(t, club.Config{})
	msg := testMessage("us@fieldpost.local", "german@fieldpost.local, judge+T0k3n@fieldpost.local", "hello")
	to := []string{"german@fieldpost.local", "judge+T0k3n@fieldpost.local"}
	if err := send(t, s, "us", "us@fieldpost.local", to, msg); err != nil {
		t.Fatal(err)
	}

	for _, want := range []struct{ user, deliveredTo string }{
		{"german", "german@fieldpost.local"},
		{"judge", "judge+T0k3n@fieldpost.local"}, // the tag keeps its case
	} {
		msgs := messages(t, s, want.user, "INBOX")
		if len(msgs) != 1 {
			t.Fatalf("%s has %d messages, want 1", want.user, len(msgs))
		}
		head := "Return-Path: <us@fieldpost.local>\r\nDelivered-To: " + want.deliveredTo + "\r\n"
		if msgs[0].raw != head+string(msg) {
			t.Errorf("%s got\n%q\nwant\n%q", want.user, msgs[0].raw, head+string(msg))
		}
		if slices.Contains(msgs[0].flags, imap.FlagSeen) {
			t.Errorf("%s: delivered message is \\Seen", want.user)
		}
	}
	if msgs := messages(t, s, "us", "INBOX"); len(msgs) != 0 {
		t.Errorf("the sender's INBOX has %d messages", len(msgs))
	}
}

func TestSenderAddress(t *testing.T) {
	s := startServer(t, club.Config{})
	c := smtpLogin(t, s, "us", "us-pw")
	err := c.Mail("german@fieldpost.local", nil)
	if smtpCode(err) != 553 || !strings.Contains(err.Error(), "send as us@fieldpost.local") {
		t.Errorf("MAIL FROM another account: %v, want 553 naming the right address", err)
	}
	// A tag of one's own address and the null sender are fine.
	for _, from := range []string{"US+club@FieldPost.Local", ""} {
		if err := c.SendMail(from, []string{"german@fieldpost.local"}, bytes.NewReader(testMessage("us", "german", "from "+from))); err != nil {
			t.Errorf("sending from %q: %v", from, err)
		}
	}
	msgs := messages(t, s, "german", "INBOX")
	if len(msgs) != 2 || !strings.HasPrefix(msgs[1].raw, "Return-Path: <>\r\n") {
		t.Errorf("null sender: got %d messages, last %q", len(msgs), msgs[len(msgs)-1].raw)
	}
}

func TestRecipientsRefused(t *testing.T) {
	s := startServer(t, club.Config{})
	c := smtpLogin(t, s, "us", "us-pw")
	for _, tc := range []struct {
		to   string
		code int
		text string
	}{
		{"someone@example.com", 550, "does not relay"},
		{"judge@fieldpost.local.example.com", 550, "does not relay"},
		{"nobody@fieldpost.local", 550, "no such account"},
		{"nobody+tag@fieldpost.local", 550, "no such account"},
	} {
		if err := c.Mail("us@fieldpost.local", nil); err != nil {
			t.Fatal(err)
		}
		err := c.Rcpt(tc.to, nil)
		if smtpCode(err) != tc.code || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("RCPT TO:<%s>: %v, want %d with %q", tc.to, err, tc.code, tc.text)
		}
		if err := c.Reset(); err != nil {
			t.Fatal(err)
		}
	}

	err := s.Deliver("judge@fieldpost.local", []string{"us@fieldpost.local", "player@example.com"}, testMessage("judge", "us", "x"))
	if smtpCode(err) != 550 {
		t.Errorf("Deliver to a non-local address: %v, want 550", err)
	}
	if msgs := messages(t, s, "us", "INBOX"); len(msgs) != 0 {
		t.Errorf("a refused Deliver delivered %d messages to its local recipient", len(msgs))
	}
}

func TestWrongCredentials(t *testing.T) {
	s := startServer(t, club.Config{})
	for _, cred := range [][2]string{{"us", "german-pw"}, {"us", ""}, {"nobody", "us-pw"}, {"us@example.com", "us-pw"}} {
		c, err := imapclient.DialInsecure(s.IMAPAddr(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Login(cred[0], cred[1]).Wait(); err == nil {
			t.Errorf("IMAP login %q with %q succeeded", cred[0], cred[1])
		}
		c.Close()

		sc, err := smtp.Dial(s.SMTPAddr())
		if err != nil {
			t.Fatal(err)
		}
		if err := sc.Auth(sasl.NewPlainClient("", cred[0], cred[1])); smtpCode(err) != 535 {
			t.Errorf("SMTP AUTH %q with %q: %v, want 535", cred[0], cred[1], err)
		}
		sc.Close()
	}

	// Authenticating as someone else's identity is refused too.
	sc, err := smtp.Dial(s.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	if err := sc.Auth(sasl.NewPlainClient("german", "us", "us-pw")); smtpCode(err) != 535 {
		t.Errorf("SMTP AUTH for identity german as us: %v, want 535", err)
	}

	// Without AUTH nothing is sent.
	anon, err := smtp.Dial(s.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer anon.Close()
	if err := anon.Mail("us@fieldpost.local", nil); smtpCode(err) != 530 {
		t.Errorf("sending without AUTH: %v, want 530", err)
	}
}

func TestLoginWithAddress(t *testing.T) {
	s := startServer(t, club.Config{})
	imapLogin(t, s, "US@FieldPost.Local", "us-pw", nil)
	smtpLogin(t, s, "us@fieldpost.local", "us-pw")
}

func TestOversize(t *testing.T) {
	const limit = 4096
	s := startServer(t, club.Config{MaxMessageSize: limit})
	big := append(testMessage("us", "german", "big"), bytes.Repeat([]byte("0123456789abcdef\r\n"), limit/18+1)...)

	err := send(t, s, "us", "us@fieldpost.local", []string{"german@fieldpost.local"}, big)
	if smtpCode(err) != 552 {
		t.Errorf("oversized DATA: %v, want 552", err)
	}
	c := smtpLogin(t, s, "us", "us-pw")
	if err := c.Mail("us@fieldpost.local", &smtp.MailOptions{Size: int64(len(big))}); smtpCode(err) != 552 {
		t.Errorf("MAIL FROM with SIZE=%d: %v, want 552", len(big), err)
	}
	if err := s.Deliver("judge@fieldpost.local", []string{"german@fieldpost.local"}, big); !errors.Is(err, smtp.ErrDataTooLarge) {
		t.Errorf("oversized Deliver: %v, want ErrDataTooLarge", err)
	}
	ic := imapLogin(t, s, "german", "german-pw", nil)
	appendCmd := ic.Append("INBOX", int64(len(big)), nil)
	appendCmd.Write(big)
	appendCmd.Close()
	if _, err := appendCmd.Wait(); err == nil {
		t.Error("oversized APPEND succeeded")
	}

	small := testMessage("us", "german", "small")
	if err := send(t, s, "us", "us@fieldpost.local", []string{"german@fieldpost.local"}, small); err != nil {
		t.Errorf("a message under the limit: %v", err)
	}
	if msgs := messages(t, s, "german", "INBOX"); len(msgs) != 1 {
		t.Errorf("german has %d messages, want only the small one", len(msgs))
	}
}

func TestIdleWakesOnDelivery(t *testing.T) {
	s := startServer(t, club.Config{})
	exists := make(chan uint32, 64)
	c := imapLogin(t, s, "judge", "judge-pw", &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(data *imapclient.UnilateralDataMailbox) {
				if data.NumMessages != nil {
					exists <- *data.NumMessages
				}
			},
		},
	})
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	waitExists := func(n uint32, since time.Time) time.Duration {
		t.Helper()
		for {
			select {
			case got := <-exists:
				if got == n {
					return time.Since(since)
				}
			// The server never polls: an IDLE that missed the wake-up
			// would wait for ever, so this is no timing check.
			case <-time.After(10 * time.Second):
				t.Fatalf("no EXISTS %d: the IDLE missed a wake-up", n)
			}
		}
	}

	// A message delivered between SELECT and IDLE is announced as soon as
	// IDLE starts: imapmemserver's own IDLE kept it for the next change.
	if err := s.Deliver("us@fieldpost.local", []string{"judge+a@fieldpost.local"}, testMessage("us", "judge", "before idle")); err != nil {
		t.Fatal(err)
	}
	idle, err := c.Idle()
	if err != nil {
		t.Fatal(err)
	}
	waitExists(1, time.Now())

	// Deliveries during IDLE, through Deliver and through SMTP (the time
	// includes the whole SMTP transaction up to the delivery).
	sc := smtpLogin(t, s, "us", "us-pw")
	var viaDeliver, viaSMTP []time.Duration
	for i := uint32(2); i < 42; i += 2 {
		start := time.Now()
		if err := s.Deliver("us@fieldpost.local", []string{"judge+a@fieldpost.local"}, testMessage("us", "judge", "deliver")); err != nil {
			t.Fatal(err)
		}
		viaDeliver = append(viaDeliver, waitExists(i, start))

		start = time.Now()
		if err := sc.SendMail("us@fieldpost.local", []string{"judge+a@fieldpost.local"}, bytes.NewReader(testMessage("us", "judge", "smtp"))); err != nil {
			t.Fatal(err)
		}
		viaSMTP = append(viaSMTP, waitExists(i+1, start))
	}
	slices.Sort(viaDeliver)
	slices.Sort(viaSMTP)
	t.Logf("delivery → IDLE EXISTS over %d messages: Deliver median %v max %v; SMTP send median %v max %v",
		2*len(viaDeliver), viaDeliver[len(viaDeliver)/2], viaDeliver[len(viaDeliver)-1], viaSMTP[len(viaSMTP)/2], viaSMTP[len(viaSMTP)-1])

	if err := idle.Close(); err != nil {
		t.Fatal(err)
	}
	if err := idle.Wait(); err != nil {
		t.Fatal(err)
	}
}

func TestIdleSeesOtherSessions(t *testing.T) {
	s := startServer(t, club.Config{})
	if err := s.Deliver("", []string{"judge@fieldpost.local"}, testMessage("us", "judge", "one")); err != nil {
		t.Fatal(err)
	}
	expunged := make(chan uint32, 8)
	watcher := imapLogin(t, s, "judge", "judge-pw", &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Expunge: func(seqNum uint32) { expunged <- seqNum },
		},
	})
	if _, err := watcher.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	idle, err := watcher.Idle()
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()

	// Another connection of the same account moves the message away: the
	// idling one hears of it at once.
	mover := imapLogin(t, s, "judge", "judge-pw", nil)
	if err := mover.Create("Processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := mover.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := mover.Move(imap.SeqSetNum(1), "Processed").Wait(); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-expunged:
		if n != 1 {
			t.Errorf("EXPUNGE %d, want 1", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the idling connection was not told of the MOVE")
	}
}

func TestFolders(t *testing.T) {
	s := startServer(t, club.Config{})
	for i := range 3 {
		if err := s.Deliver("", []string{"judge@fieldpost.local"}, testMessage("us", "judge", fmt.Sprint("m", i))); err != nil {
			t.Fatal(err)
		}
	}
	c := imapLogin(t, s, "judge", "judge-pw", nil)
	if err := c.Create("Processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(imap.UIDSetNum(1, 3), "Processed").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete("INBOX").Wait(); err == nil {
		t.Error("DELETE INBOX succeeded")
	}
	if err := c.Rename("INBOX", "Old", nil).Wait(); err == nil {
		t.Error("RENAME INBOX succeeded")
	}
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range list {
		names = append(names, l.Mailbox)
	}
	if !slices.Equal(names, []string{"INBOX", "Processed"}) {
		t.Errorf("mailboxes %v", names)
	}
	if n := len(messages(t, s, "judge", "INBOX")); n != 1 {
		t.Errorf("INBOX has %d messages, want 1", n)
	}
	if n := len(messages(t, s, "judge", "Processed")); n != 2 {
		t.Errorf("Processed has %d messages, want 2", n)
	}
}

func TestAddAccount(t *testing.T) {
	s := startServer(t, club.Config{})
	a, err := s.AddAccount("Italian", "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "italian" || len(a.Password) < 20 {
		t.Errorf("AddAccount gave %+v, want name italian and a generated password", a)
	}
	imapLogin(t, s, "italian", a.Password, nil)
	if err := send(t, s, "us", "us@fieldpost.local", []string{"italian+x@fieldpost.local"}, testMessage("us", "italian", "benvenuti")); err != nil {
		t.Fatal(err)
	}
	ic := imapLogin(t, s, "italian", a.Password, nil)
	if sel, err := ic.Select("INBOX", nil).Wait(); err != nil || sel.NumMessages != 1 {
		t.Errorf("italian's INBOX: %v, %v", sel, err)
	}

	var names []string
	for _, acc := range s.Accounts() {
		names = append(names, acc.Name)
	}
	if !slices.Equal(names, []string{"german", "italian", "judge", "us"}) {
		t.Errorf("Accounts() names %v", names)
	}
	if b, _ := s.AddAccount("british", ""); b.Password == a.Password {
		t.Error("two generated passwords are equal")
	}
	for _, bad := range []string{"italian", "", "us+x", "a@b", ".dot", "with space", strings.Repeat("x", 65)} {
		if _, err := s.AddAccount(bad, "pw"); err == nil {
			t.Errorf("AddAccount(%q) succeeded", bad)
		}
	}
}

func TestNew(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mail.db")
	for _, cfg := range []club.Config{
		{MailFile: file, Accounts: []club.Account{{Name: "us"}, {Name: "US"}}},
		{MailFile: file, Accounts: []club.Account{{Name: "bad+name"}}},
		{MailFile: file, Domain: "two@domains"},
		{MailFile: file, MaxMessageSize: -1},
		{Accounts: []club.Account{{Name: "judge"}}}, // no mail file
		{MailFile: t.TempDir()},                     // a folder
	} {
		if _, err := club.New(cfg); err == nil {
			t.Errorf("New(%+v) succeeded", cfg)
		}
	}
	s, err := club.New(club.Config{MailFile: file, Accounts: []club.Account{{Name: "judge"}}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Domain() != club.DefaultDomain || s.IMAPAddr() != club.DefaultIMAPAddr || s.SMTPAddr() != club.DefaultSMTPAddr {
		t.Errorf("defaults: %s %s %s", s.Domain(), s.IMAPAddr(), s.SMTPAddr())
	}
	if got := s.Address("Judge"); got != "judge@fieldpost.local" {
		t.Errorf("Address = %q", got)
	}
	if err := s.Close(); err != nil {
		t.Errorf("closing a server never started: %v", err)
	}
	if err := s.Start(); err == nil {
		t.Error("Start after Close succeeded")
	}
}

func TestConnectionInstructions(t *testing.T) {
	s := startServer(t, club.Config{})
	text, err := s.ConnectionInstructions("us")
	if err != nil {
		t.Fatal(err)
	}
	_, imapPort, _ := net.SplitHostPort(s.IMAPAddr())
	_, smtpPort, _ := net.SplitHostPort(s.SMTPAddr())
	for _, want := range []string{
		"Email address:        us@fieldpost.local\n",
		"Incoming mail (IMAP)\n  Server:               127.0.0.1\n  Port:                 " + imapPort + "\n  Username:             us\n  Password:             us-pw\n",
		"Outgoing mail (SMTP)\n  Server:               127.0.0.1\n  Port:                 " + smtpPort + "\n  Username:             us\n  Password:             us-pw\n",
		"Connection security:  none (no SSL/TLS, no STARTTLS)\n",
		"kept on this computer, and across restarts",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("instructions lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "unencrypted") {
		t.Errorf("instructions for loopback warn about the network:\n%s", text)
	}
	if _, err := s.ConnectionInstructions("nobody"); err == nil {
		t.Error("instructions for an unknown account")
	}

	lan, err := club.New(club.Config{MailFile: filepath.Join(t.TempDir(), "mail.db"), IMAPAddr: "0.0.0.0:1143", Hostname: "clubpc.lan", Accounts: testAccounts})
	if err != nil {
		t.Fatal(err)
	}
	defer lan.Close()
	text, err = lan.ConnectionInstructions("german")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "Server:               clubpc.lan\n  Port:                 1143\n") || !strings.Contains(text, "unencrypted") {
		t.Errorf("LAN instructions:\n%s", text)
	}
}

func TestDeliverNormalisesLineEnds(t *testing.T) {
	s := startServer(t, club.Config{})
	if err := s.Deliver("judge@fieldpost.local", []string{"us@fieldpost.local", "US@fieldpost.local"}, []byte("Subject: lf\n\nline\r\nline\n")); err != nil {
		t.Fatal(err)
	}
	msgs := messages(t, s, "us", "INBOX")
	want := "Return-Path: <judge@fieldpost.local>\r\nDelivered-To: us@fieldpost.local\r\nSubject: lf\r\n\r\nline\r\nline\r\n"
	if len(msgs) != 1 || msgs[0].raw != want {
		t.Errorf("got %d messages, first %q; want one %q", len(msgs), msgs[0].raw, want)
	}
	if err := s.Deliver("a\r\nBcc: x", []string{"us@fieldpost.local"}, []byte("x")); err == nil {
		t.Error("Deliver accepted a sender with a line break")
	}
}

func TestConcurrentDeliveries(t *testing.T) {
	s := startServer(t, club.Config{})
	const senders, each = 8, 15
	var wg sync.WaitGroup
	errs := make(chan error, 2*senders)
	for i := range senders {
		wg.Go(func() {
			user := []string{"us", "german"}[i%2]
			c, err := smtp.Dial(s.SMTPAddr())
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			if err := c.Auth(sasl.NewPlainClient("", user, password(user))); err != nil {
				errs <- err
				return
			}
			for j := range each {
				subject := fmt.Sprintf("smtp %d %d", i, j)
				if err := c.SendMail(user+"@fieldpost.local", []string{"judge+t@fieldpost.local"}, bytes.NewReader(testMessage(user, "judge", subject))); err != nil {
					errs <- err
					return
				}
			}
		})
		wg.Go(func() {
			for j := range each {
				subject := fmt.Sprintf("deliver %d %d", i, j)
				if err := s.Deliver("us@fieldpost.local", []string{"judge@fieldpost.local"}, testMessage("us", "judge", subject)); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	msgs := messages(t, s, "judge", "INBOX")
	seen := make(map[string]bool)
	for _, m := range msgs {
		_, rest, _ := strings.Cut(m.raw, "Subject: ")
		subject, _, _ := strings.Cut(rest, "\r\n")
		seen[subject] = true
	}
	if len(msgs) != 2*senders*each || len(seen) != 2*senders*each {
		t.Errorf("judge has %d messages with %d distinct subjects, want %d", len(msgs), len(seen), 2*senders*each)
	}
}

func TestClose(t *testing.T) {
	s := startServer(t, club.Config{})
	imapAddr, smtpAddr := s.IMAPAddr(), s.SMTPAddr()

	// An idling IMAP client and an SMTP client halfway through a
	// transaction must not hold Close up.
	c := imapLogin(t, s, "judge", "judge-pw", nil)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	idle, err := c.Idle()
	if err != nil {
		t.Fatal(err)
	}
	sc := smtpLogin(t, s, "us", "us-pw")
	if err := sc.Mail("us@fieldpost.local", nil); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("Close took %v", took)
	}
	t.Logf("Close took %v", time.Since(start))
	idleDone := make(chan error, 1)
	go func() { idleDone <- idle.Wait() }()
	select {
	case <-idleDone:
	case <-time.After(time.Second):
		t.Error("the idling client's connection stayed open")
	}
	for _, addr := range []string{imapAddr, smtpAddr} {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Errorf("port not freed: %v", err)
			continue
		}
		ln.Close()
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := s.Start(); err == nil {
		t.Error("Start after Close succeeded")
	}
}
