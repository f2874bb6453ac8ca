package mail

import (
	"bytes"
	"strings"
	"testing"
)

func TestDetectAutomatic(t *testing.T) {
	const base = "From: Hans <hans@example.de>\r\nTo: judge+t0k3n@club.example\r\nSubject: orders\r\nMessage-ID: <m1@example.de>\r\n"
	own := []string{"Judge@Club.Example"}
	tests := []struct {
		name   string
		header string // added to base
		from   string // replaces the From field when set
		body   string // replaces the text body when set
		subj   string // replaces the Subject when set
		auto   bool
		reason string // substring of the reason
	}{
		{name: "normal mail", auto: false},
		{name: "Auto-Submitted no", header: "Auto-Submitted: no\r\n", auto: false},
		{name: "Auto-Submitted auto-replied", header: "Auto-Submitted: auto-replied; owner-email=\"h@x\"\r\n", auto: true, reason: "auto-replied"},
		{name: "Auto-Submitted auto-generated", header: "Auto-Submitted: Auto-Generated\r\n", auto: true, reason: "auto-generated"},
		{name: "Precedence bulk", header: "Precedence: bulk\r\n", auto: true, reason: "bulk"},
		{name: "Precedence junk", header: "Precedence: junk\r\n", auto: true, reason: "junk"},
		{name: "Precedence list", header: "Precedence: list\r\n", auto: true, reason: "list"},
		{name: "Precedence first-class", header: "Precedence: first-class\r\n", auto: false},
		{name: "X-Autoreply", header: "X-Autoreply: yes\r\n", auto: true, reason: "X-Autoreply"},
		{name: "X-Autorespond", header: "X-Autorespond: Out of office\r\n", auto: true, reason: "X-Autorespond"},
		{name: "empty Return-Path", header: "Return-Path: <>\r\n", auto: true, reason: "Return-Path"},
		{name: "Return-Path set", header: "Return-Path: <hans@example.de>\r\n", auto: false},
		{name: "mailer-daemon", from: "Mail Delivery Subsystem <MAILER-DAEMON@mx.example.de>", auto: true, reason: "MAILER-DAEMON"},
		{name: "postmaster", from: "postmaster@example.de", auto: true, reason: "postmaster"},
		{name: "our own address", from: "Fieldpost <judge@club.example>", auto: true, reason: "own address"},
		{name: "our own plus address", from: "judge+other@club.example", auto: true, reason: "own address"},
		{name: "X-Loop naming us", header: "X-Loop: judge@club.example\r\n", auto: true, reason: "X-Loop"},
		{name: "X-Loop naming others", header: "X-Loop: robot@lists.example.org\r\n", auto: false},
		{name: "Out of Office subject", subj: "Out of Office: [tutorial-1] Orders accepted", auto: true, reason: "auto-reply"},
		{name: "Automatic reply subject", subj: "Automatic reply: [tutorial-1] Report of round 2", auto: true, reason: "auto-reply"},
		{name: "German subject", subj: "Abwesenheitsnotiz: [tutorial-1] Bericht", auto: true, reason: "auto-reply"},
		{name: "French subject", subj: "Réponse automatique : [tutorial-1]", auto: true, reason: "auto-reply"},
		{name: "X-Autoreply-From", header: "X-Autoreply-From: hans@example.de\r\n", auto: true, reason: "X-Autoreply-From"},
		{name: "Precedence auto_reply", header: "Precedence: auto_reply\r\n", auto: true, reason: "auto_reply"},
		{name: "player's subject about absence", subj: "Re: [tutorial-1] orders, I am out of office next week", auto: false},
		{name: "multipart/report", header: "Content-Type: multipart/report; report-type=disposition-notification; boundary=b\r\n",
			body: "--b\r\nContent-Type: text/plain\r\n\r\nRead.\r\n--b--\r\n", auto: true, reason: "multipart/report"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header := base + tt.header
			if tt.from != "" {
				header = strings.Replace(header, "From: Hans <hans@example.de>", "From: "+tt.from, 1)
			}
			if tt.subj != "" {
				header = strings.Replace(header, "Subject: orders", "Subject: "+tt.subj, 1)
			}
			body := "MOVE 1/12SS 0612 0714\r\n"
			if tt.body != "" {
				body = tt.body
			}
			msg, err := Parse(strings.NewReader(header+"\r\n"+body), 0)
			if err != nil {
				t.Fatal(err)
			}
			reason, auto := DetectAutomatic(msg, own)
			if auto != tt.auto || !strings.Contains(reason, tt.reason) {
				t.Errorf("DetectAutomatic = %q, %v; want %v with reason containing %q", reason, auto, tt.auto, tt.reason)
			}
		})
	}
}

func TestDetectAutomaticBounceFile(t *testing.T) {
	msg, err := Parse(bytes.NewReader(readTestdata(t, "bounce.eml")), 0)
	if err != nil {
		t.Fatal(err)
	}
	if reason, auto := DetectAutomatic(msg, nil); !auto {
		t.Errorf("bounce not detected (reason %q)", reason)
	}
}
