package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fieldpost/engine/stargeneral/ordertext"
	"fieldpost/engine/stargeneral/rules"
	"fieldpost/mail"
	"fieldpost/mail/mailtest"
	"fieldpost/pbem/protocol"
)

const (
	judgeAddr   = "judge@club.example"
	judgeReply  = "judge+t0k3n@club.example" // the player's tokenised Reply-To
	botAddr     = "bot@club.example"
	threadRoot  = "root.tutorial-1@club.example"
	testGame    = "tutorial-1"
	botPassword = "secret" // mailtest's IMAP user has it; the SMTP server is given it
	formMarker  = protocol.FormMarker
)

// judgeMail is a mail as the judge writes them (docs/mail-format.md): the
// game's headers, the text with the order form last, situation.json.
type judgeMail struct {
	id, kind, side string
	round          int
	text           string
	st             *rules.State // attached as situation.json; nil for none
	view           []byte       // or this situation.json
	header         []mail.HeaderField
}

func (jm judgeMail) raw(t *testing.T) []byte {
	t.Helper()
	out := &mail.Outbound{
		From:       mail.Address{Name: "Fieldpost", Email: judgeAddr},
		To:         []mail.Address{{Email: botAddr}},
		Subject:    fmt.Sprintf("[%s] %s, round %d", testGame, jm.kind, jm.round),
		MessageID:  jm.id,
		References: []string{threadRoot},
		InReplyTo:  threadRoot,
		ListID:     "<" + testGame + ".club.example>",
		Headers: append([]mail.HeaderField{
			{Key: "Reply-To", Value: judgeReply},
			{Key: "X-Fieldpost-Game", Value: testGame},
			{Key: "X-Fieldpost-Kind", Value: jm.kind},
			{Key: "X-Fieldpost-Side", Value: jm.side},
			{Key: "X-Fieldpost-Round", Value: fmt.Sprint(jm.round)},
		}, jm.header...),
		Text: jm.text,
	}
	if jm.st != nil || jm.view != nil {
		sit := jm.view
		if jm.st != nil {
			var err error
			if sit, err = json.Marshal(map[string]any{"ruleset": jm.st.Ruleset, "state": jm.st}); err != nil {
				t.Fatal(err)
			}
		}
		out.Attachments = []mail.Part{{ContentType: "application/json", Filename: "situation.json", Data: sit}}
	}
	raw, err := mail.Compose(out)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// welcome is the judge's first mail of the tutorial to side us.
func welcome(t *testing.T, id string, st *rules.State) judgeMail {
	sc, err := rules.BundledScenario("tutorial")
	if err != nil {
		t.Fatal(err)
	}
	form := ordertext.Form(sc.Ruleset, st, "us", testGame)
	return judgeMail{id: id, kind: "welcome", side: "us", round: st.Turn + 1, st: st,
		text: "Welcome to Saint-Aubin. Your secret for this game is: t0k3n\n\n" + formMarker + "\n" + form}
}

// botWorld is a mailbox with mail for the bot and an SMTP server that
// records what it sends.
type botWorld struct {
	imap *mailtest.IMAPServer
	smtp *mailtest.SMTPServer
}

func newBotWorld(t *testing.T, mails ...[]byte) *botWorld {
	w := &botWorld{
		imap: mailtest.NewIMAPServer(t, nil),
		smtp: mailtest.NewSMTPServer(t, &mailtest.SMTPOptions{Username: "judge", Password: botPassword}),
	}
	for _, raw := range mails {
		if err := w.imap.Append("INBOX", raw); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// runOnce runs `fieldpost bot --once` on the world's servers, with more
// options, and returns what it logged. The INBOX keeps left mails, those
// that are not the bot's.
func (w *botWorld) runOnce(t *testing.T, left int, more ...string) string {
	t.Helper()
	t.Setenv("FIELDPOST_BOT_PASSWORD", botPassword)
	code, out, logs := fieldpost(t, append([]string{"bot", "--side", "us", "--imap", w.imap.Addr, "--smtp", w.smtp.Addr,
		"--user", "judge", "--address", botAddr, "--tls", "none", "--once", "--seed", "3"}, more...)...)
	if code != 0 {
		t.Fatalf("fieldpost bot: exit %d\n%s%s", code, out, logs)
	}
	if strings.Contains(logs, botPassword) || strings.Contains(logs, "t0k3n") {
		t.Errorf("the log shows the password or the token:\n%s", logs)
	}
	w.imap.WaitCount(t, "INBOX", left)
	return logs
}

// sent parses what the bot sent, checking each goes to the judge's
// tokenised address, in the thread, as a player's mail.
func (w *botWorld) sent(t *testing.T, inReplyTo ...string) []*mail.Inbound {
	t.Helper()
	var out []*mail.Inbound
	msgs := w.smtp.Messages()
	if len(msgs) != len(inReplyTo) {
		t.Fatalf("the bot sent %d mails, want %d", len(msgs), len(inReplyTo))
	}
	for i, m := range msgs {
		in, err := mail.Parse(bytes.NewReader(m.Data), 0)
		if err != nil {
			t.Fatal(err)
		}
		if m.From != botAddr || !slices.Equal(m.To, []string{judgeReply}) || len(in.To) != 1 || in.To[0].Email != judgeReply {
			t.Errorf("mail %d: envelope %s -> %v, To %v; want %s -> %s", i, m.From, m.To, in.To, botAddr, judgeReply)
		}
		if !slices.Equal(in.InReplyTo, []string{inReplyTo[i]}) || !slices.Equal(in.References, []string{threadRoot, inReplyTo[i]}) {
			t.Errorf("mail %d: In-Reply-To %v, References %v; want %s in thread %s", i, in.InReplyTo, in.References, inReplyTo[i], threadRoot)
		}
		if reason, auto := mail.DetectAutomatic(in, []string{judgeAddr}); auto {
			t.Errorf("mail %d: the judge would ignore it as automatic: %s", i, reason)
		}
		out = append(out, in)
	}
	return out
}

func tutorialStart(t *testing.T) (*rules.Ruleset, *rules.State) {
	sc, err := rules.BundledScenario("tutorial")
	if err != nil {
		t.Fatal(err)
	}
	return sc.Ruleset, sc.NewGame()
}

// The bot answers the judge's welcome with valid orders for the position
// attached, in the thread, to the tokenised address, and reads the report
// of a finished game; it leaves mail that is not the judge's, automatic
// mail and mail for the other side in the INBOX, unflagged.
func TestBotAnswersTheJudge(t *testing.T) {
	rs, st := tutorialStart(t)
	over := st.Clone()
	over.Ended, over.Winner, over.Result = true, "us", "us holds objectives worth 3, german 1, so us wins."
	stranger := "From: Hans <hans@example.de>\r\nTo: " + botAddr + "\r\nSubject: hello\r\nMessage-ID: <hans-1@example.de>\r\n\r\nBN 1/120 M\r\n"
	vacation := welcome(t, "vacation-1@club.example", st)
	vacation.header = []mail.HeaderField{{Key: "X-Autoreply", Value: "yes"}}
	german := welcome(t, "german-1@club.example", st)
	german.side = "german"
	final := judgeMail{id: "final-1@club.example", kind: "report", side: "us", round: over.Turn, st: over, text: "The battle is over."}

	w := newBotWorld(t, []byte(stranger), vacation.raw(t), german.raw(t), final.raw(t),
		welcome(t, "welcome-1@club.example", st).raw(t))
	logs := w.runOnce(t, 3)
	w.imap.WaitCount(t, "Processed", 2)
	left, err := w.imap.Messages("INBOX")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range left {
		if len(m.Flags) != 0 {
			t.Errorf("a mail left is flagged %v:\n%s", m.Flags, m.Raw)
		}
	}

	reply := w.sent(t, "welcome-1@club.example")[0]
	sub, errs := ordertext.Parse(rs, st, "us", reply.Text)
	if errs != nil {
		t.Fatalf("the bot's orders are refused:\n%v\n%s", errs, reply.Text)
	}
	if probs := rules.Validate(rs, st, sub.Orders); len(probs) > 0 {
		t.Fatalf("the bot's orders break the rules: %v", probs)
	}
	if sub.Game != testGame || sub.Round != 1 || len(sub.Orders.Units) == 0 {
		t.Errorf("orders for game %q round %d with %d units", sub.Game, sub.Round, len(sub.Orders.Units))
	}
	for _, want := range []string{"not a judge's mail", "automatic mail", "not for our side", "the game is over", "orders sent"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log does not say %q:\n%s", want, logs)
		}
	}
}

// A rejection is logged and answered with the order form of the round,
// unchanged, once: a second rejection of the round gets no answer.
func TestBotFallsBackOnceOnRejection(t *testing.T) {
	rs, st := tutorialStart(t)
	rejected := func(id string) []byte {
		return judgeMail{id: id, kind: "rejected", side: "us", round: 1,
			text: "These orders were NOT accepted: 1 error.\n\nline 4: BN 1/120 M\n  1/120: the game moved on"}.raw(t)
	}
	w := newBotWorld(t, welcome(t, "welcome-1@club.example", st).raw(t), rejected("rejected-1@club.example"), rejected("rejected-2@club.example"))
	logs := w.runOnce(t, 0)

	answers := w.sent(t, "welcome-1@club.example", "rejected-1@club.example")
	if want := ordertext.Form(rs, st, "us", testGame); answers[1].Text != strings.TrimSpace(want) {
		t.Errorf("the fallback is not the form unchanged:\n%s\nwant\n%s", answers[1].Text, want)
	}
	for _, want := range []string{"orders rejected", "the game moved on", "sent the order form back unchanged", "not answering again"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log does not say %q:\n%s", want, logs)
		}
	}
}

// A status mail carries the order form and the position, as a welcome does:
// it is how the judge tells of a rollback, and what a player who lost the
// judge's mail (the embedded server's, after a restart) asks for. The bot
// answers it with orders, or the game would wait for it for ever.
func TestBotAnswersAStatusMail(t *testing.T) {
	rs, st := tutorialStart(t)
	status := welcome(t, "status-1@club.example", st)
	status.kind = "status"
	status.text = "Game tutorial-1 was rolled back: round 1 is to be played again.\n\n" + formMarker + "\n" + ordertext.Form(rs, st, "us", testGame)
	w := newBotWorld(t, welcome(t, "welcome-1@club.example", st).raw(t), status.raw(t))
	w.runOnce(t, 0)
	for _, reply := range w.sent(t, "welcome-1@club.example", "status-1@club.example") {
		if _, errs := ordertext.Parse(rs, st, "us", reply.Text); errs != nil {
			t.Fatalf("the bot's orders are refused:\n%v\n%s", errs, reply.Text)
		}
	}
}

// With --game, the bot plays that game only: the judge's mails of its
// other games stay in the INBOX.
func TestBotPlaysOneGame(t *testing.T) {
	_, st := tutorialStart(t)
	w := newBotWorld(t, welcome(t, "welcome-1@club.example", st).raw(t))
	logs := w.runOnce(t, 1, "--game", "other-game")
	w.sent(t)
	if !strings.Contains(logs, "left alone: not our game") {
		t.Errorf("the log:\n%s", logs)
	}
	w.runOnce(t, 0, "--game", testGame)
	w.sent(t, "welcome-1@club.example")
}

func TestBotCommandLine(t *testing.T) {
	t.Setenv("FIELDPOST_BOT_PASSWORD", "")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--side", "us", "--imap", "h:1"}, "usage: fieldpost bot"},
		{[]string{"--side", "us", "--imap", "h:1", "--smtp", "h:2", "--user", "bot@x"}, "no password"},
		{[]string{"--side", "us", "--imap", "h:1", "--smtp", "h:2", "--user", "bot", "--password", "p"}, "give --address"},
		{[]string{"--side", "us", "--imap", "h:1", "--smtp", "h:2", "--user", "bot@x", "--password", "p", "--tls", "ssl"}, "want none, starttls or implicit"},
	} {
		code, _, errOut := fieldpost(t, append([]string{"bot"}, tt.args...)...)
		if code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("fieldpost bot %v: exit %d, %q; want an error saying %q", tt.args, code, errOut, tt.want)
		}
	}
}
