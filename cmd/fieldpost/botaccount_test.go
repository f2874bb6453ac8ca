package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"fieldpost/mail"
)

// flagsOf reads the flags of the messages of an account's mailbox.
func flagsOf(t *testing.T, a account, name string) [][]imap.Flag {
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
	sel, err := c.Select(name, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{Flags: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]imap.Flag
	for _, m := range msgs {
		out = append(out, m.Flags)
	}
	return out
}

// sendAs sends a plain mail from a club account over SMTP, as a mail
// program does.
func sendAs(t *testing.T, from account, to, subject, text string) {
	t.Helper()
	user, _, _ := strings.Cut(from.address, "@")
	sender, err := mail.NewSender(mail.SenderConfig{Addr: from.smtp, TLS: mail.TLSNone, Username: user, Password: from.password})
	if err != nil {
		t.Fatal(err)
	}
	defer sender.Close()
	raw, err := mail.Compose(&mail.Outbound{From: mail.Address{Email: from.address}, To: []mail.Address{{Email: to}},
		Subject: subject, MessageID: mail.NewMessageID("player.test"), Date: time.Now(), Text: text, Personal: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sender.Send(t.Context(), from.address, []string{to}, raw); err != nil {
		t.Fatal(err)
	}
}

// A bot never plays a person's mailbox (issue 19): the GM makes a game
// with german=bot through the running embedded judge, which gives the bot
// an account of its own on the club server; `fieldpost bot --game solo
// --side german` plays that game with that account, and leaves a mail that
// is not the judge's untouched in its INBOX. The human German player's
// mailbox (its welcome of game demo) is never touched, and game demo gets
// no orders.
func TestBotPlaysWithAnAccountOfItsOwn(t *testing.T) {
	dir := t.TempDir()
	out, stop := startEmbedded(t, dir)
	german, us := printedAccount(t, out.String(), "german"), printedAccount(t, out.String(), "us")
	waitFor(t, "the welcome", 10*time.Second, func() bool { return ofKind(inbox(t, german), "welcome") != nil })

	made := mustRun(t, "game", "new", "--database", embeddedDatabase(dir), "--scenario", "tutorial", "--id", "solo",
		"--player", "us="+us.address, "--player", "german=bot")
	if !strings.Contains(made, "bot-solo-german@fieldpost.local") {
		t.Fatalf("game new does not name the bot's account:\n%s", made)
	}
	cf, _, err := loadClubFile(filepath.Join(dir, "club.json"))
	if err != nil {
		t.Fatal(err)
	}
	bot := account{address: "bot-solo-german@fieldpost.local", password: cf.password("bot-solo-german"), imap: german.imap, smtp: german.smtp}
	if bot.password == "" {
		t.Fatal("club.json keeps no account for the bot")
	}
	sendAs(t, us, bot.address, "a word", "Good luck, machine.")
	waitFor(t, "the bot's welcome and the word", 10*time.Second, func() bool { return len(inbox(t, bot)) == 2 })

	mustRun(t, "bot", "--game", "solo", "--side", "german", "--once", "--data", dir)
	waitFor(t, "the bot's orders accepted", time.Minute, func() bool { return ofKind(received(t, bot), "accepted") != nil })

	// The INBOX keeps the word, first, unflagged; the judge's answer may
	// have come after the bot's pass.
	if left := inbox(t, bot); len(left) == 0 || left[0].Subject != "a word" {
		t.Errorf("the mail the bot does not answer is gone from its INBOX")
	} else if flags := flagsOf(t, bot, "INBOX")[0]; len(flags) != 0 {
		t.Errorf("the mail the bot does not answer is flagged %v", flags)
	}
	humans := inbox(t, german)
	if len(humans) != 1 || ofKind(humans, "welcome") == nil || len(flagsOf(t, german, "INBOX")[0]) != 0 {
		t.Errorf("the human German player's INBOX was touched: %d mails, flags %v", len(humans), flagsOf(t, german, "INBOX"))
	}
	if moved := mailbox(t, german, "Processed"); len(moved) != 0 {
		t.Errorf("%d mails of the human German player were moved", len(moved))
	}
	if show := mustRun(t, "game", "show", "demo", "--database", embeddedDatabase(dir)); !strings.Contains(show, "waiting for us, german") {
		t.Errorf("game demo got orders:\n%s", show)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--side", "german"}, "give --game"},
		{[]string{"--game", "demo", "--side", "german"}, `no bot account for side "german" of game "demo": make the game with german=bot`},
		{[]string{"--game", "solo", "--side", "german", "--data", filepath.Join(dir, "missing")}, "no embedded judge in"},
	} {
		args := append([]string{"bot", "--once"}, c.args...)
		if !slices.Contains(args, "--data") {
			args = append(args, "--data", dir)
		}
		if code, _, errOut := fieldpost(t, args...); code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("fieldpost %v: exit %d\n%s", args, code, errOut)
		}
	}
	code, _, errOut := fieldpost(t, "bot", "--side", "german", "--once", "--imap", bot.imap, "--smtp", bot.smtp,
		"--user", "bot-solo-german", "--password", bot.password, "--address", bot.address, "--tls", "implicit")
	if code != 1 || !strings.Contains(errOut, "does not speak TLS on this port") || !strings.Contains(errOut, "--tls none") {
		t.Errorf("--once against a server without TLS: exit %d\n%s", code, errOut)
	}

	// With the judge stopped, nobody can give the bot an account.
	stop()
	code, out2, errOut := fieldpost(t, "game", "new", "--config", filepath.Join(dir, judgeConfigName), "--scenario", "tutorial",
		"--id", "solo-2", "--player", "us="+us.address, "--player", "german=bot")
	if code != 1 || !strings.Contains(out2+errOut, "german=bot: only the embedded judge") {
		t.Errorf("game new with german=bot, the judge stopped: exit %d\n%s%s", code, out2, errOut)
	}
}

// Issue 19's seat that bounces at once, through the embedded judge: a game
// made with an address the club server does not deliver to (another
// domain: a new address of its own domain gets an account, issue 23); the
// welcome is refused (550), the GM is mailed once with the reason and the
// way out, and game show names the seat unreachable.
func TestEmbeddedGameWithAnAddressNobodyHas(t *testing.T) {
	dir := t.TempDir()
	out, _ := startEmbedded(t, dir)
	us := printedAccount(t, out.String(), "us")
	cf, _, err := loadClubFile(filepath.Join(dir, "club.json"))
	if err != nil {
		t.Fatal(err)
	}
	gm := account{address: "gm@fieldpost.local", password: cf.password(gmAccount), imap: us.imap, smtp: us.smtp}
	mustRun(t, "game", "new", "--database", embeddedDatabase(dir), "--scenario", "tutorial", "--id", "robo",
		"--player", "us="+us.address, "--player", "german=robot@elsewhere.example")
	notices := func() []*mail.Inbound {
		var found []*mail.Inbound
		for _, m := range inbox(t, gm) {
			if strings.Contains(m.Subject, "german player cannot be reached") {
				found = append(found, m)
			}
		}
		return found
	}
	waitFor(t, "the GM's notice", 30*time.Second, func() bool { return len(notices()) > 0 })
	if text := notices()[0].Text; !strings.Contains(text, "550") || !strings.Contains(text, "not an address of this server") || !strings.Contains(text, "REPLACE robo german ADDRESS") {
		t.Errorf("the notice:\n%s", text)
	}
	mustRun(t, "game", "remail", "robo", "--database", embeddedDatabase(dir)) // refused again: not told again
	// Once the outbox holds nothing more to send about the game, a second
	// notice would have been delivered.
	var show string
	waitFor(t, "the REMAIL sent", 30*time.Second, func() bool {
		show = mustRun(t, "game", "show", "robo", "--database", embeddedDatabase(dir))
		return strings.Contains(show, "Outbox: 0 mails about this game waiting to be sent, 2 given up on")
	})
	for _, want := range []string{"UNREACHABLE: german (robot@elsewhere.example)", "550", "REPLACE robo german ADDRESS"} {
		if !strings.Contains(show, want) {
			t.Errorf("game show lacks %q:\n%s", want, show)
		}
	}
	if n := len(notices()); n != 1 {
		t.Errorf("the GM was told %d times", n)
	}
}

// A bot fills a team seat through the embedded judge (docs/team-play.md):
// us.2=bot gives the seat's bot an account of its own, and `fieldpost bot
// --game team --side us.2` plays the seat's units with it.
func TestBotFillsASeatOfTheEmbeddedJudge(t *testing.T) {
	dir := t.TempDir()
	out, _ := startEmbedded(t, dir)
	german, us := printedAccount(t, out.String(), "german"), printedAccount(t, out.String(), "us")
	made := mustRun(t, "game", "new", "--database", embeddedDatabase(dir), "--scenario", "tutorial", "--id", "team",
		"--player", "us="+us.address, "--player", "us.2=bot", "--player", "german="+german.address)
	if !strings.Contains(made, "bot-team-us.2@fieldpost.local") {
		t.Fatalf("game new does not name the seat's bot account:\n%s", made)
	}
	cf, _, err := loadClubFile(filepath.Join(dir, "club.json"))
	if err != nil {
		t.Fatal(err)
	}
	bot := account{address: "bot-team-us.2@fieldpost.local", password: cf.password("bot-team-us.2"), imap: us.imap, smtp: us.smtp}
	waitFor(t, "the seat's welcome", 10*time.Second, func() bool { return ofKind(inbox(t, bot), "welcome") != nil })
	mustRun(t, "bot", "--game", "team", "--side", "us.2", "--once", "--data", dir)
	waitFor(t, "the seat's orders accepted", time.Minute, func() bool { return ofKind(received(t, bot), "accepted") != nil })
}
