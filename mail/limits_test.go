package mail

import (
	"fmt"
	"strings"
	"testing"

	"fieldpost/mail/mailtest"
)

// manyPartsMail returns a multipart/mixed mail with n text parts.
func manyPartsMail(id string, n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: Hans <hans@example.de>\r\nTo: judge@club.example\r\nSubject: parts\r\n"+
		"Message-ID: <%s>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n", id)
	for range n {
		b.WriteString("--b\r\nContent-Type: text/plain\r\n\r\nHOLD\r\n")
	}
	b.WriteString("--b--\r\n")
	return []byte(b.String())
}

// manyFieldsMail returns a mail with n header fields besides From.
func manyFieldsMail(n int) string {
	var b strings.Builder
	b.WriteString("From: hans@example.de\r\n")
	for i := range n {
		fmt.Fprintf(&b, "X-Junk-%d: x\r\n", i)
	}
	b.WriteString("\r\nHOLD\r\n")
	return b.String()
}

func TestParseLimits(t *testing.T) {
	limits := Limits{MaxHeaderFields: 50, MaxParts: 10}
	tests := []struct {
		name, raw, unreadable string
	}{
		{"parts at the limit", string(manyPartsMail("a@x", 10)), ""},
		{"one part too many", string(manyPartsMail("a@x", 11)), "more than 10 MIME parts"},
		{"header fields at the limit", manyFieldsMail(49), ""},
		{"one header field too many", manyFieldsMail(50), "more than 50 header fields"},
		{"a part with too many fields", "From: h@x\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n" +
			strings.TrimSuffix(manyFieldsMail(50), "\r\nHOLD\r\n") + "\r\n\r\nHOLD\r\n--b--\r\n",
			"a MIME part with more than 50 header fields"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := parseBytes([]byte(tt.raw), 0, limits)
			if err != nil {
				t.Fatal(err)
			}
			if in.Unreadable != tt.unreadable {
				t.Errorf("Unreadable = %q, want %q", in.Unreadable, tt.unreadable)
			}
			if tt.unreadable != "" && (in.Text != "" || in.From.Email == "") {
				t.Errorf("unreadable mail: Text %q, From %q; want no text and the sender", in.Text, in.From.Email)
			}
			if tt.unreadable == "" && !strings.HasPrefix(in.Text, "HOLD") {
				t.Errorf("Text = %q, want the HOLDs", in.Text)
			}
		})
	}
}

// TestHTMLQuotesAreLinear: a line inside n nested blockquotes used to get n
// ">" marks, so that the text grew with the square of the nesting (issue
// 15: 200 KB of HTML became 167 MB of text). Doubling the input must no
// more than double the output.
func TestHTMLQuotesAreLinear(t *testing.T) {
	nested := func(n int) string {
		return strings.Repeat("<blockquote>quoted line<br>", n) + strings.Repeat("</blockquote>", n)
	}
	small, large := nested(2000), nested(4000)
	smallOut, largeOut := htmlToText(small), htmlToText(large)
	if !strings.Contains(smallOut, "quoted line") {
		t.Fatalf("htmlToText lost the text: %.200q", smallOut)
	}
	ratio := float64(len(largeOut)) / float64(len(smallOut))
	if ratio > 2.1 {
		t.Errorf("output grew %.2f times for twice the input (%d -> %d bytes of text)", ratio, len(smallOut), len(largeOut))
	}
	if len(largeOut) > 2*len(large) {
		t.Errorf("%d bytes of HTML gave %d bytes of text, more than twice as much", len(large), len(largeOut))
	}
	if got := normalizeText(htmlToText("<blockquote><blockquote>deep</blockquote></blockquote>")); got != ">> deep" {
		t.Errorf("two levels of quote = %q, want \">> deep\"", got)
	}
}

// TestIntakeSetsAsideUnreadableMail: a mail the handler sets aside, and one
// it panics on, go to the set-aside mailbox and are never handled again;
// the mail after them is handled as usual.
func TestIntakeSetsAsideUnreadableMail(t *testing.T) {
	srv := mailtest.NewIMAPServer(t, nil)
	if err := srv.Append("INBOX", manyPartsMail("parts@example.de", 20)); err != nil {
		t.Fatal(err)
	}
	appendMail(t, srv, "crash@example.de")
	appendMail(t, srv, "fine@example.de")
	rec := recorder{fail: func(msg *Inbound, _ int) error {
		switch {
		case msg.Unreadable != "":
			return fmt.Errorf("%w: %s", ErrSetAside, msg.Unreadable)
		case msg.MessageID == "crash@example.de":
			panic("the handler met a bug")
		}
		return nil
	}}
	in, _ := startIntake(t, srv, IntakeConfig{Limits: Limits{MaxParts: 10}}, rec.handle)

	srv.WaitCount(t, "Unreadable", 2)
	srv.WaitCount(t, "Processed", 1)
	srv.WaitCount(t, "INBOX", 0)
	// Two more whole passes: nothing is handled again.
	for range 2 {
		passes := in.Passes()
		in.Poke()
		waitFor(t, "a pass", func() bool { return in.Passes() > passes })
	}
	handled, calls := rec.snapshot()
	if calls["parts@example.de"] != 1 || calls["crash@example.de"] != 1 || calls["fine@example.de"] != 1 {
		t.Errorf("handler calls = %v, want one each", calls)
	}
	if len(handled) != 1 || handled[0] != "fine@example.de" {
		t.Errorf("handled = %q, want only fine@example.de", handled)
	}
}
