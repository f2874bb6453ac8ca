package mail

import (
	"bytes"
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"fieldpost/mail/mailtest"
)

func composeTestMail(t testing.TB, to string) []byte {
	t.Helper()
	raw, err := Compose(&Outbound{
		From:      Address{Name: "Fieldpost Judge", Email: "judge@club.example"},
		To:        []Address{{Email: to}},
		Subject:   "Turn 6 – your move",
		MessageID: NewMessageID("club.example"),
		Text:      "Turn 6 report.\n.\nA line with a lone dot above, which SMTP must escape.\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestSenderDelivers(t *testing.T) {
	tests := []struct {
		name string
		tls  TLSMode
		opts mailtest.SMTPOptions
	}{
		{"plain", TLSNone, mailtest.SMTPOptions{}},
		{"plain with auth", TLSNone, mailtest.SMTPOptions{Username: "judge", Password: "s3cret"}},
		{"starttls with auth", TLSStartTLS, mailtest.SMTPOptions{StartTLS: true, Username: "judge", Password: "s3cret"}},
		{"implicit tls", TLSImplicit, mailtest.SMTPOptions{ImplicitTLS: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := mailtest.NewSMTPServer(t, &tt.opts)
			sender, err := NewSender(SenderConfig{
				Addr:      srv.Addr,
				TLS:       tt.tls,
				TLSConfig: mailtest.ClientTLSConfig(),
				Username:  tt.opts.Username,
				Password:  tt.opts.Password,
				HeloName:  "judge.club.example",
				Timeout:   5 * time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			msg := composeTestMail(t, "hans@example.de")
			if err := sender.Send(context.Background(), "bounces@club.example", []string{"hans@example.de", "umpire@club.example"}, msg); err != nil {
				t.Fatalf("Send: %v", err)
			}
			got := srv.WaitMessages(t, 1)
			if len(got) != 1 {
				t.Fatalf("server received %d messages, want 1", len(got))
			}
			if got[0].From != "bounces@club.example" || len(got[0].To) != 2 || got[0].To[0] != "hans@example.de" || got[0].To[1] != "umpire@club.example" {
				t.Errorf("envelope = %q -> %q", got[0].From, got[0].To)
			}
			if !bytes.Equal(got[0].Data, msg) {
				t.Errorf("delivered data differs from the message sent:\n%q\nwant\n%q", got[0].Data, msg)
			}
		})
	}
}

func TestSenderFailureKinds(t *testing.T) {
	srv := mailtest.NewSMTPServer(t, &mailtest.SMTPOptions{Username: "judge", Password: "s3cret"})
	newSender := func(password string) *Sender {
		s, err := NewSender(SenderConfig{Addr: srv.Addr, TLS: TLSNone, Username: "judge", Password: password, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	sender := newSender("s3cret")
	msg := composeTestMail(t, "hans@example.de")
	ctx := context.Background()

	srv.FailNext(1, 550)
	err := sender.Send(ctx, "judge@club.example", []string{"gone@example.de"}, msg)
	var smtpErr *smtp.SMTPError
	if err == nil || !IsPermanent(err) || !errors.As(err, &smtpErr) || smtpErr.Code != 550 {
		t.Errorf("after a 550: err = %v, permanent = %v; want a permanent *smtp.SMTPError 550", err, IsPermanent(err))
	}

	srv.FailNext(1, 451)
	err = sender.Send(ctx, "judge@club.example", []string{"hans@example.de"}, msg)
	if err == nil || IsPermanent(err) {
		t.Errorf("after a 451: err = %v, permanent = %v; want a temporary error", err, IsPermanent(err))
	}

	// A wrong password is a 535, but retrying after fixing the
	// configuration would work: temporary.
	err = newSender("wrong").Send(ctx, "judge@club.example", []string{"hans@example.de"}, msg)
	if err == nil || IsPermanent(err) {
		t.Errorf("with a wrong password: err = %v, permanent = %v; want a temporary error", err, IsPermanent(err))
	}

	for name, to := range map[string][]string{"no recipients": nil, "injection": {"a@b>\r\nDATA"}} {
		if err := sender.Send(ctx, "judge@club.example", to, msg); !IsPermanent(err) {
			t.Errorf("%s: err = %v, want a permanent error", name, err)
		}
	}

	if err := sender.Send(ctx, "judge@club.example", []string{"hans@example.de"}, msg); err != nil {
		t.Fatalf("Send after the failures: %v", err)
	}
	if n := len(srv.Messages()); n != 1 {
		t.Errorf("server accepted %d messages, want only the last one", n)
	}
}

func TestSenderConnectionProblemsAreTemporary(t *testing.T) {
	// A server that accepts connections and never says a word.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { conn.Close() })
		}
	}()

	sender, err := NewSender(SenderConfig{Addr: ln.Addr().String(), TLS: TLSNone, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	msg := composeTestMail(t, "hans@example.de")
	start := time.Now()
	err = sender.Send(context.Background(), "judge@club.example", []string{"hans@example.de"}, msg)
	if err == nil || IsPermanent(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("silent server: err = %v; want a temporary deadline error", err)
	}
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("Send took %v with a 200ms timeout", elapsed)
	}

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	sender.cfg.Timeout = time.Minute
	if err := sender.Send(ctx, "judge@club.example", []string{"hans@example.de"}, msg); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Send: err = %v, want context.Canceled", err)
	}

	ln.Close()
	err = sender.Send(context.Background(), "judge@club.example", []string{"hans@example.de"}, msg)
	if err == nil || IsPermanent(err) {
		t.Errorf("closed port: err = %v; want a temporary error", err)
	}
}

func TestParseTLSMode(t *testing.T) {
	for _, mode := range []TLSMode{TLSImplicit, TLSStartTLS, TLSNone} {
		got, err := ParseTLSMode(mode.String())
		if err != nil || got != mode {
			t.Errorf("ParseTLSMode(%q) = %v, %v; want %v", mode.String(), got, err, mode)
		}
	}
	if _, err := ParseTLSMode("ssl"); err == nil {
		t.Error(`ParseTLSMode("ssl") succeeded`)
	}
}

// One session carries a queue of mails: one connection, EHLO and AUTH for
// all of them, as a strict server (OpenSMTPD) demands; a recipient refused
// for good fails only its own mail, and its session, left in the middle of
// a transaction, is closed rather than reset.
func TestSenderKeepsOneSession(t *testing.T) {
	srv := mailtest.NewSMTPServer(t, &mailtest.SMTPOptions{Username: "judge", Password: "s3cret"})
	sender, err := NewSender(SenderConfig{Addr: srv.Addr, TLS: TLSNone, Username: "judge", Password: "s3cret", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer sender.Close()
	ctx := context.Background()
	for i := range 5 {
		if i == 2 {
			srv.FailNext(1, 550)
		}
		err := sender.Send(ctx, "judge@club.example", []string{"hans@example.de"}, composeTestMail(t, "hans@example.de"))
		if i == 2 && !IsPermanent(err) {
			t.Errorf("mail %d, refused with 550: err = %v, want a permanent error", i, err)
		}
		if i != 2 && err != nil {
			t.Errorf("mail %d: %v", i, err)
		}
	}
	if n := len(srv.Messages()); n != 4 {
		t.Errorf("server accepted %d messages, want 4", n)
	}
	if total, _ := srv.Connections(); total != 2 {
		t.Errorf("%d connections for 5 mails, want 2: one until the refusal, one after", total)
	}
	if r := srv.Refusals(); len(r) != 0 {
		t.Errorf("commands refused as out of sequence: %q", r)
	}
}

// A kept session is used again without a second EHLO, which OpenSMTPD
// refuses with a 503: no mail may be given up for that.
func TestSenderSaysEHLOOncePerSession(t *testing.T) {
	for _, opts := range []mailtest.SMTPOptions{{}, {Username: "judge", Password: "s3cret", StartTLS: true}} {
		srv := mailtest.NewSMTPServer(t, &opts)
		tlsMode := TLSNone
		if opts.StartTLS {
			tlsMode = TLSStartTLS
		}
		sender, err := NewSender(SenderConfig{Addr: srv.Addr, TLS: tlsMode, TLSConfig: mailtest.ClientTLSConfig(), Username: opts.Username, Password: opts.Password, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if err := sender.Send(context.Background(), "judge@club.example", []string{"hans@example.de"}, composeTestMail(t, "hans@example.de")); err != nil {
				t.Errorf("starttls %v, mail %d: %v", opts.StartTLS, i, err)
			}
		}
		sender.Close()
		if r := srv.Refusals(); len(r) != 0 {
			t.Errorf("starttls %v: commands refused as out of sequence: %q", opts.StartTLS, r)
		}
		if n := len(srv.Messages()); n != 3 {
			t.Errorf("starttls %v: server accepted %d messages, want 3", opts.StartTLS, n)
		}
		if total, _ := srv.Connections(); total != 1 {
			t.Errorf("starttls %v: %d connections, want 1", opts.StartTLS, total)
		}
	}
}

// A failure that may be the session's (any at MAIL FROM, a 500 to 504
// reply) closes the session; on a kept session the mail is tried again at
// once on a fresh one, on a fresh session it is a temporary failure. Only
// a recipient's or the message's refusal with another 5xx is permanent.
func TestSenderRetriesSessionFailuresOnAFreshSession(t *testing.T) {
	tests := []struct {
		name          string
		command       string // MAIL, RCPT (FailNext) or DATA
		code          int
		times         int
		wantSent      bool // within the same Send, on a fresh session
		wantPermanent bool
		wantConns     int // connections in all, the first mail's included
		wantOpen      int // left open after the Send
	}{
		{"503 at MAIL FROM", "MAIL", 503, 1, true, false, 2, 1},
		{"421 at MAIL FROM", "MAIL", 421, 1, true, false, 2, 1},
		{"550 at MAIL FROM", "MAIL", 550, 1, true, false, 2, 1},
		{"503 at MAIL FROM twice", "MAIL", 503, 2, false, false, 2, 0},
		{"550 at MAIL FROM twice", "MAIL", 550, 2, false, false, 2, 0},
		{"503 at RCPT TO", "RCPT", 503, 1, true, false, 2, 1},
		{"501 at RCPT TO twice", "RCPT", 501, 2, false, false, 2, 0},
		{"550 at RCPT TO", "RCPT", 550, 1, false, true, 1, 0},
		{"451 at RCPT TO", "RCPT", 451, 1, false, false, 1, 0},
		{"554 after DATA", "DATA", 554, 1, false, true, 1, 1},
		{"502 after DATA", "DATA", 502, 1, false, false, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := mailtest.NewSMTPServer(t, nil)
			sender, err := NewSender(SenderConfig{Addr: srv.Addr, TLS: TLSNone, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer sender.Close()
			send := func() error {
				return sender.Send(context.Background(), "judge@club.example", []string{"hans@example.de"}, composeTestMail(t, "hans@example.de"))
			}
			if err := send(); err != nil {
				t.Fatal(err)
			}
			if tt.command == "RCPT" {
				srv.FailNext(tt.times, tt.code)
			} else {
				srv.RefuseNext(tt.command, tt.times, tt.code)
			}
			err = send()
			if tt.wantSent != (err == nil) || IsPermanent(err) != tt.wantPermanent {
				t.Errorf("Send: err = %v, permanent = %v; want sent %v, permanent %v", err, IsPermanent(err), tt.wantSent, tt.wantPermanent)
			}
			var smtpErr *smtp.SMTPError
			if err != nil && (!errors.As(err, &smtpErr) || smtpErr.Code != tt.code) {
				t.Errorf("Send: err = %v, want the server's %d", err, tt.code)
			}
			wantMessages := 1
			if tt.wantSent {
				wantMessages = 2
			}
			if n := len(srv.Messages()); n != wantMessages {
				t.Errorf("server accepted %d messages, want %d", n, wantMessages)
			}
			for wait := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
				total, open := srv.Connections()
				if total == tt.wantConns && open == tt.wantOpen {
					break
				}
				if time.Now().After(wait) {
					t.Fatalf("connections: %d in all, %d open; want %d, %d", total, open, tt.wantConns, tt.wantOpen)
				}
			}
			if r := srv.Refusals(); len(r) != 0 {
				t.Errorf("commands refused as out of sequence: %q", r)
			}
			// The Sender goes on: the next mail is sent.
			if err := send(); err != nil {
				t.Errorf("the next mail: %v", err)
			}
		})
	}
}

// A kept session the server closed is replaced by a new one, the mail in
// hand not lost; an idle session is closed.
func TestSenderReconnectsAndClosesWhenIdle(t *testing.T) {
	srv := mailtest.NewSMTPServer(t, nil)
	sender, err := NewSender(SenderConfig{Addr: srv.Addr, TLS: TLSNone, Timeout: 5 * time.Second, IdleTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer sender.Close()
	ctx := context.Background()
	send := func() {
		t.Helper()
		if err := sender.Send(ctx, "judge@club.example", []string{"hans@example.de"}, composeTestMail(t, "hans@example.de")); err != nil {
			t.Fatal(err)
		}
	}
	send()
	srv.DropConnections()
	send()
	if total, _ := srv.Connections(); total != 2 {
		t.Errorf("%d connections, want 2: the dropped one and its replacement", total)
	}
	if n := len(srv.Messages()); n != 2 {
		t.Errorf("server accepted %d messages, want 2", n)
	}
	for wait := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, open := srv.Connections(); open == 0 {
			break
		}
		if time.Now().After(wait) {
			t.Fatal("the idle session was never closed")
		}
	}
	send()
	if total, _ := srv.Connections(); total != 3 {
		t.Errorf("%d connections, want 3: a new one after the idle close", total)
	}
}

// Concurrent sends share at most MaxSessions sessions.
func TestSenderSessionsForConcurrentSends(t *testing.T) {
	srv := mailtest.NewSMTPServer(t, nil)
	sender, err := NewSender(SenderConfig{Addr: srv.Addr, TLS: TLSNone, Timeout: 5 * time.Second, MaxSessions: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer sender.Close()
	var wg sync.WaitGroup
	for range 30 {
		wg.Go(func() {
			if err := sender.Send(context.Background(), "judge@club.example", []string{"hans@example.de"}, composeTestMail(t, "hans@example.de")); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := len(srv.Messages()); n != 30 {
		t.Errorf("server accepted %d messages, want 30", n)
	}
	if total, _ := srv.Connections(); total > 3 {
		t.Errorf("%d connections, want at most 3", total)
	}
}
