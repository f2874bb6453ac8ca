package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"fieldpost/mail"
)

// lockedBuffer is an io.Writer the test can read while the server writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func waitFor(t *testing.T, what string, timeout time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// account is a player's mail account as the server printed it.
type account struct {
	address, password, imap, smtp string
}

// printedAccount reads a player's account from serve's banner: the
// servers' line, then one line per account.
func printedAccount(t *testing.T, out, name string) account {
	t.Helper()
	servers := regexp.MustCompile(`Mail accounts: IMAP (\S+), SMTP (\S+) `).FindStringSubmatch(out)
	line := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + ` +(\S+@\S+) +password (\S+)`).FindStringSubmatch(out)
	if servers == nil || line == nil {
		t.Fatalf("no account %s in:\n%s", name, out)
	}
	return account{address: line[1], password: line[2], imap: servers[1], smtp: servers[2]}
}

// inbox fetches the messages of a player's INBOX with go-imap's client.
func inbox(t *testing.T, a account) []*mail.Inbound { return mailbox(t, a, "INBOX") }

// received is every mail an account received: in its INBOX, or moved to
// Processed by the program that read it (the bot).
func received(t *testing.T, a account) []*mail.Inbound {
	return append(inbox(t, a), mailbox(t, a, "Processed")...)
}

// mailbox reads an account's mailbox; one that does not exist is empty.
func mailbox(t *testing.T, a account, name string) []*mail.Inbound {
	t.Helper()
	c, err := imapclient.DialInsecure(a.imap, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	user, _, _ := strings.Cut(a.address, "@")
	if err := c.Login(user, a.password).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select(name, nil).Wait()
	if err != nil && name != "INBOX" {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	var seq imap.SeqSet
	seq.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(seq, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []*mail.Inbound
	for _, m := range msgs {
		for _, body := range m.BodySection {
			in, err := mail.Parse(bytes.NewReader(body.Bytes), 0)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, in)
		}
	}
	return out
}

// replyWithForm sends the player's orders, form, in a reply to the
// judge's mail to, as a mail program does: to the Reply-To address, which
// carries the player's token.
func replyWithForm(t *testing.T, ctx context.Context, a account, to *mail.Inbound, form string) {
	t.Helper()
	replyTo := to.ReplyTo[0].Email
	if !strings.Contains(replyTo, "+") {
		t.Fatalf("the Reply-To %q of %q carries no token", replyTo, to.Subject)
	}
	user, _, _ := strings.Cut(a.address, "@")
	sender, err := mail.NewSender(mail.SenderConfig{Addr: a.smtp, TLS: mail.TLSNone, Username: user, Password: a.password})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := mail.Compose(&mail.Outbound{From: mail.Address{Email: a.address}, To: []mail.Address{{Email: replyTo}},
		Subject: "Re: " + to.Subject, MessageID: mail.NewMessageID("player.test"), InReplyTo: to.MessageID,
		Date: time.Now(), Text: "My orders, the form as it is:\n\n" + form, Personal: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sender.Send(ctx, a.address, []string{replyTo}, raw); err != nil {
		t.Fatal(err)
	}
}

// ofKinds returns the messages of the kind (X-Fieldpost-Kind).
func ofKinds(msgs []*mail.Inbound, kind string) []*mail.Inbound {
	var out []*mail.Inbound
	for _, m := range msgs {
		if m.Header.Get("X-Fieldpost-Kind") == kind {
			out = append(out, m)
		}
	}
	return out
}

// ofKind returns the first message of the kind, or nil.
func ofKind(msgs []*mail.Inbound, kind string) *mail.Inbound {
	if found := ofKinds(msgs, kind); len(found) > 0 {
		return found[0]
	}
	return nil
}

// With no configuration, serve runs a club mail server with a game ready:
// each player connects as the printed instructions say, finds the welcome
// and the form in its INBOX, replies with orders over SMTP, and receives the
// round report.
func TestEmbeddedServePlayersByMail(t *testing.T) {
	dir := t.TempDir()
	var out lockedBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	e := &env{stdout: &out, stderr: &out}
	go func() {
		done <- serveEmbedded(ctx, e, embeddedOptions{dataDir: dir, imapAddr: "127.0.0.1:0", smtpAddr: "127.0.0.1:0"})
	}()
	waitFor(t, "the instructions", 10*time.Second, func() bool { return strings.Contains(out.String(), "Stop with Ctrl-C") })
	for _, side := range []string{"us", "german"} {
		a := printedAccount(t, out.String(), side)
		var welcome *mail.Inbound
		waitFor(t, side+"'s welcome", 10*time.Second, func() bool {
			welcome = ofKind(inbox(t, a), "welcome")
			return welcome != nil
		})
		_, form, ok := strings.Cut(welcome.Text, "--- ORDER FORM ---")
		if !ok || !strings.Contains(form, "SIDE "+side) {
			t.Fatalf("%s's welcome has no order form:\n%s", side, welcome.Text)
		}
		replyWithForm(t, ctx, a, welcome, form)
	}
	us := printedAccount(t, out.String(), "us")
	var report *mail.Inbound
	waitFor(t, "the round report", 20*time.Second, func() bool {
		report = ofKind(inbox(t, us), "report")
		return report != nil
	})
	if !strings.Contains(report.Text, "Activation 1") || !strings.Contains(report.Text, "Dice seed for this round") {
		t.Fatalf("the report:\n%s", report.Text)
	}
	_, form, ok := strings.Cut(report.Text, "--- ORDER FORM ---")
	if !ok || !strings.Contains(form, "ROUND 2") {
		t.Fatal("the report carries no form for round 2")
	}
	before := inbox(t, us)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}

	// A second start keeps the accounts, the game and the mailboxes: the
	// player still has every mail, replies to the report with the next
	// orders and has them accepted, and gets no other mail: nobody is
	// mailed again.
	cf, existed, err := loadClubFile(filepath.Join(dir, "club.json"))
	if err != nil || !existed || cf.password("us") != us.password {
		t.Fatalf("club accounts not kept: %v %v", existed, err)
	}
	restart := func(what string) (*lockedBuffer, context.CancelFunc) {
		t.Helper()
		var again lockedBuffer
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		go func() {
			done <- serveEmbedded(ctx, &env{stdout: &again, stderr: &again}, embeddedOptions{dataDir: dir, imapAddr: "127.0.0.1:0", smtpAddr: "127.0.0.1:0"})
		}()
		waitFor(t, what, 20*time.Second, func() bool { return strings.Contains(again.String(), "Stop with Ctrl-C") })
		ports := regexp.MustCompile(`IMAP (\S+), SMTP (\S+);`).FindStringSubmatch(again.String())
		us.imap, us.smtp = ports[1], ports[2]
		return &again, cancel
	}
	again, cancel2 := restart("the restart")
	defer cancel2()
	if !strings.Contains(again.String(), "nobody is mailed again") {
		t.Fatalf("after the restart:\n%s", again.String())
	}
	kept := inbox(t, us)
	if len(kept) != len(before) {
		t.Fatalf("after the restart the player has %d mails, before %d", len(kept), len(before))
	}
	for i := range kept {
		if kept[i].MessageID != before[i].MessageID {
			t.Errorf("mail %d after the restart is %q, before %q", i+1, kept[i].Subject, before[i].Subject)
		}
	}
	accepted := len(ofKinds(kept, "accepted"))
	replyWithForm(t, context.Background(), us, report, form)
	var now []*mail.Inbound
	waitFor(t, "the round 2 orders accepted", 20*time.Second, func() bool {
		now = inbox(t, us)
		return len(ofKinds(now, "accepted")) > accepted
	})
	for _, m := range now[len(before):] {
		if kind := m.Header.Get("X-Fieldpost-Kind"); kind != "accepted" {
			t.Errorf("after the restart the player got a %q mail: %q", kind, m.Subject)
		}
	}
	cancel2()
	if err := <-done; err != nil {
		t.Fatalf("serve after the restart: %v", err)
	}

	// Without the mail file the mailboxes are empty: each player is
	// mailed its situation and form again, its secret in the reply address.
	if err := os.Remove(embeddedMailFile(dir)); err != nil {
		t.Fatal(err)
	}
	again, cancel3 := restart("the start without the mail file")
	defer cancel3()
	if !strings.Contains(again.String(), "every player of the 1 game running was mailed") {
		t.Fatalf("after the restart without the mail file:\n%s", again.String())
	}
	var status *mail.Inbound
	waitFor(t, "the form mailed again", 10*time.Second, func() bool {
		status = ofKind(inbox(t, us), "status")
		return status != nil
	})
	if _, form, ok := strings.Cut(status.Text, "--- ORDER FORM ---"); !ok || !strings.Contains(form, "ROUND 2") || !strings.Contains(status.ReplyTo[0].Email, "+") {
		t.Fatalf("the mail after the restart:\n%s", status.Text)
	}
	cancel3()
	if err := <-done; err != nil {
		t.Fatalf("serve after the restart without the mail file: %v", err)
	}
}

// serve --demo: two bots play the tutorial by mail to the end, and the
// reports land in a folder; the game's pages are then served on until
// Ctrl-C, which says the data is kept.
func TestServeDemoPlaysToTheEnd(t *testing.T) {
	dir := t.TempDir()
	var out lockedBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e := &env{stdout: &out, stderr: &out}
	done := make(chan error, 1)
	go func() {
		done <- serveEmbedded(ctx, e, embeddedOptions{dataDir: dir, imapAddr: "127.0.0.1:0", smtpAddr: "127.0.0.1:0",
			httpAddr: "127.0.0.1:0", demo: true, pace: time.Millisecond})
	}()
	for !strings.Contains(out.String(), "The demo game is over") {
		select {
		case err := <-done:
			t.Fatalf("the demo ended the judge: %v\n%s", err, out.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	// The pages of the game played stay served.
	base := regexp.MustCompile(`The game pages are at (http://\S+)/ `).FindStringSubmatch(out.String())
	if base == nil {
		t.Fatalf("no pages announced:\n%s", out.String())
	}
	resp, err := http.Get(base[1] + "/")
	if err != nil {
		t.Fatalf("the pages are no longer served after the game: %v", err)
	}
	index, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(index), "/g/demo-") {
		t.Errorf("the index after the game: %d\n%s", resp.StatusCode, index)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	got := out.String()
	if !strings.Contains(got, "Fieldpost stopped") || !strings.Contains(got, "kept in "+dir) {
		t.Errorf("the stop is not said:\n%s", got)
	}
	if !regexp.MustCompile(`THE BATTLE IS OVER\. .*(wins|draw)`).MatchString(got) {
		t.Fatalf("no victory line:\n%s", got)
	}
	finals, _ := filepath.Glob(filepath.Join(dir, "reports", "*", "final.txt"))
	if len(finals) != 1 {
		t.Fatalf("final reports: %v", finals)
	}
	final, _ := os.ReadFile(finals[0])
	if !strings.Contains(string(final), "THE BATTLE IS OVER") {
		t.Fatalf("final report:\n%s", final)
	}
	rounds, _ := filepath.Glob(filepath.Join(filepath.Dir(finals[0]), "round-*.txt"))
	if len(rounds) != 4 {
		t.Fatalf("want the reports of rounds 1-4 beside the final one, got %v", rounds)
	}
	maps, _ := filepath.Glob(filepath.Join(filepath.Dir(finals[0]), "*.png"))
	if len(maps) != 5 {
		t.Fatalf("want the maps of rounds 1-4 and the final one, got %v", maps)
	}
	if png, _ := os.ReadFile(maps[0]); !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("%s is no PNG", maps[0])
	}
}

// With the embedded judge stopped, the admin commands change its games
// through the configuration it wrote; the mails wait for its next start.
func TestAdminWithTheEmbeddedJudgeStopped(t *testing.T) {
	dir := t.TempDir()
	var out lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serveEmbedded(ctx, &env{stdout: &out, stderr: &out}, embeddedOptions{dataDir: dir, imapAddr: "127.0.0.1:0", smtpAddr: "127.0.0.1:0"})
	}()
	waitFor(t, "the start", 10*time.Second, func() bool { return strings.Contains(out.String(), "Stop with Ctrl-C") })
	// The judge may create the game after the banner (issue 15, item 4):
	// the welcome mail shows that it exists.
	us := printedAccount(t, out.String(), "us")
	waitFor(t, "the welcome", 10*time.Second, func() bool { return ofKind(inbox(t, us), "welcome") != nil })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, judgeConfigName)
	got := mustRun(t, "game", "pause", "demo", "--config", conf)
	if !strings.Contains(got, "sent when it next starts") && !strings.Contains(got, "next starts") {
		t.Fatalf("game pause with the judge stopped:\n%s", got)
	}
	if show := mustRun(t, "game", "show", "demo", "--config", conf); !strings.Contains(show, "paused") {
		t.Fatalf("game show:\n%s", show)
	}
}

// startEmbedded runs serveEmbedded on dir until the test ends, waiting for
// its banner; it returns the output and a function that stops it.
func startEmbedded(t *testing.T, dir string) (out *lockedBuffer, stop func()) {
	t.Helper()
	out = &lockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serveEmbedded(ctx, &env{stdout: out, stderr: out}, embeddedOptions{dataDir: dir, imapAddr: "127.0.0.1:0", smtpAddr: "127.0.0.1:0"})
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	waitFor(t, "the start", 10*time.Second, func() bool { return strings.Contains(out.String(), "Stop with Ctrl-C") })
	return out, stop
}

// When the banner says the game is ready, it is in the database: the
// admin commands see it at once, even with the judge stopped right after.
func TestEmbeddedGameExistsWhenTheBannerSaysSo(t *testing.T) {
	dir := t.TempDir()
	out, stop := startEmbedded(t, dir)
	if !strings.Contains(out.String(), "(game id demo) has been created") {
		t.Fatalf("no welcome banner:\n%s", out.String())
	}
	if list := mustRun(t, "game", "list", "--database", embeddedDatabase(dir)); !strings.Contains(list, "demo") {
		t.Fatalf("game list right after the banner:\n%s", list)
	}
	stop()
	if list := mustRun(t, "game", "list", "--database", embeddedDatabase(dir)); !strings.Contains(list, "demo") {
		t.Fatalf("game list after a stop right after the banner:\n%s", list)
	}
}

// A first start interrupted after it saved the accounts but before the game
// was created creates the game at the next start, with the welcome banner.
func TestEmbeddedInterruptedFirstStartCreatesTheGameNext(t *testing.T) {
	dir := t.TempDir()
	cf, err := newClubFile()
	if err != nil {
		t.Fatal(err)
	}
	if err := saveClubFile(filepath.Join(dir, "club.json"), cf); err != nil {
		t.Fatal(err)
	}
	out, _ := startEmbedded(t, dir)
	if !strings.Contains(out.String(), "(game id demo) has been created") {
		t.Fatalf("no welcome banner:\n%s", out.String())
	}
	us := printedAccount(t, out.String(), "us")
	if us.password != cf.password("us") {
		t.Error("the accounts of the interrupted start were not kept")
	}
	waitFor(t, "the welcome", 10*time.Second, func() bool { return ofKind(inbox(t, us), "welcome") != nil })
}

// A second serve in a data folder in use refuses before doing anything,
// and names the process that holds the folder; the running judge mails
// nobody because of it. A restart prints the accounts again.
func TestEmbeddedSecondServeRefuses(t *testing.T) {
	dir := t.TempDir()
	out, stop := startEmbedded(t, dir)
	us := printedAccount(t, out.String(), "us")
	waitFor(t, "the welcome", 10*time.Second, func() bool { return len(inbox(t, us)) == 1 })

	var second lockedBuffer
	err := serveEmbedded(context.Background(), &env{stdout: &second, stderr: &second},
		embeddedOptions{dataDir: dir, imapAddr: "127.0.0.1:0", smtpAddr: "127.0.0.1:0"})
	if err == nil || !strings.Contains(err.Error(), "in use by another fieldpost serve, process "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("second serve: %v", err)
	}
	if second.String() != "" {
		t.Errorf("the second serve printed:\n%s", second.String())
	}
	if n := len(inbox(t, us)); n != 1 {
		t.Errorf("the second serve had %d mails sent to the player", n-1)
	}
	stop()

	again, _ := startEmbedded(t, dir)
	if a := printedAccount(t, again.String(), "us"); a.password != us.password {
		t.Errorf("the restart printed other accounts:\n%s", again.String())
	}
}

// serve --config takes the lock of its database before anything else.
func TestServeConfigRefusesADatabaseInUse(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "judge.db")
	lock, err := lockDatabase(db, "the database "+db)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.release()
	conf := write(t, filepath.Join(dir, "f.conf"), "address = judge@club.example\ndatabase = "+db+
		"\nimap_addr = 127.0.0.1:1\nimap_tls = none\nimap_username = judge\nsmtp_addr = 127.0.0.1:1\nsmtp_tls = none\n")
	code, _, errOut := fieldpost(t, "serve", "--config", conf)
	if code != 1 || !strings.Contains(errOut, "in use by another fieldpost serve, process "+strconv.Itoa(os.Getpid())) {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("the refused serve opened the database: %v", err)
	}
}
