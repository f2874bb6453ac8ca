package main

import (
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral"
	"fieldpost/mail"
	"fieldpost/templates"
)

// A bot fills a seat of a team: `fieldpost bot --side us.2` answers the
// judge's mails to seat us.2 only, with orders for the seat's own units
// that the seat's reader accepts, and leaves the commander-in-chief's mail
// alone.
func TestBotFillsASeat(t *testing.T) {
	sys, err := stargeneral.New(templates.FS)
	if err != nil {
		t.Fatal(err)
	}
	start, err := sys.NewGame("tutorial", 1)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := start.(engine.Seated).WithSeats([]engine.SeatSetup{{ID: "us.2"}})
	if err != nil {
		t.Fatal(err)
	}
	seated := pos.(engine.Seated)
	view, err := pos.View("us")
	if err != nil {
		t.Fatal(err)
	}
	seatMail := func(id, seat string) []byte {
		jm := judgeMail{id: id, kind: "welcome", side: seat, round: 1, view: view,
			text: "Welcome. Your secret for this game is: t0k3n\n\n" + formMarker + "\n" + seated.SeatForm(seat, testGame)}
		return jm.raw(t)
	}
	w := newBotWorld(t, seatMail("chief-1@club.example", "us"), seatMail("seat-1@club.example", "us.2"))
	t.Setenv("FIELDPOST_BOT_PASSWORD", botPassword)
	code, out, logs := fieldpost(t, "bot", "--side", "us.2", "--imap", w.imap.Addr, "--smtp", w.smtp.Addr,
		"--user", "judge", "--address", botAddr, "--tls", "none", "--once", "--seed", "3")
	if code != 0 {
		t.Fatalf("fieldpost bot: exit %d\n%s%s", code, out, logs)
	}
	w.imap.WaitCount(t, "Processed", 1) // the commander-in-chief's welcome is left in the INBOX
	reply := w.sent(t, "seat-1@club.example")[0]
	r := seated.SeatRead("us.2", mail.StripQuoted(reply.Text), 0)
	if r.Errors > 0 || r.Orders == nil {
		t.Fatalf("the seat's orders are refused:\n%s\n%s", r.Answer, reply.Text)
	}
	if !strings.Contains(reply.Text, "SEAT 2") {
		t.Errorf("the orders do not name their seat:\n%s", reply.Text)
	}
	if !strings.Contains(logs, "not for our side") {
		t.Errorf("the commander-in-chief's mail was not left alone:\n%s", logs)
	}
}
