package pbem

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"fieldpost/mail"
)

// A mail beyond the MIME limits is set aside: its sender is told once, and
// handling it again (after a failed move and a restart) tells nobody again
// but still sets it aside (issue 15 item 9).
func TestUnreadableMailIsSetAsideAndAnsweredOnce(t *testing.T) {
	j := newJudge(t, nil)
	var b strings.Builder
	b.WriteString("From: Mallory <mallory@example.org>\r\nTo: " + testJudge + "\r\nSubject: parts\r\n" +
		"Message-ID: <parts@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n")
	for range mail.DefaultLimits.MaxParts + 1 {
		b.WriteString("--b\r\nContent-Type: text/plain\r\n\r\nHELP\r\n")
	}
	b.WriteString("--b--\r\n")
	in, err := mail.Parse(strings.NewReader(b.String()), 10<<20)
	if err != nil {
		t.Fatal(err)
	}
	for attempt := 1; attempt <= 2; attempt++ {
		if err := j.svc.Handle(context.Background(), in); !errors.Is(err, mail.ErrSetAside) {
			t.Fatalf("attempt %d: Handle = %v, want ErrSetAside", attempt, err)
		}
		j.flush()
	}
	m := j.takeN(1)[0]
	if m.Kind() != kindError || m.To() != "mallory@example.org" || !strings.Contains(m.Text, "more than 1000 MIME parts") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
}

// A mail of junk lines after a valid order header (issue 15 item 10: 10 MiB
// of them gave 3.5 million errors and a 352 MB answer) is refused by its
// line count; below that, the refusal lists the first errors and counts the
// rest, and no answer is longer than MaxAnswerSize.
func TestJunkMailIsCapped(t *testing.T) {
	j := newJudge(t, &Options{Limits: Limits{MaxLines: 200, MaxErrors: 5, MaxAnswerSize: 4000}})
	w := j.newGame("tutorial-1", "")
	// Junk between orders: after the last order it would be a sign-off.
	junk := func(n int) string {
		return "GAME tutorial-1 SIDE us ROUND 1\nBN 743 H\n" + strings.Repeat("ZZZZ junk line\n", n) + "BN 1/120 H\n"
	}

	j.handle(w["us"].reply(alice, junk(300)))
	m := j.takeN(1)[0]
	if m.Kind() != kindError || !strings.Contains(m.Text, "303 lines") || !strings.Contains(m.Text, "at most 200") {
		t.Errorf("300 junk lines: got %s:\n%s", m, m.Text)
	}

	j.handle(w["us"].reply(alice, junk(150)))
	m = j.takeN(1)[0]
	if m.Kind() != kindRejected || !strings.Contains(m.Text, "and 145 more errors") || strings.Count(m.Text, "ZZZZ junk line") != 5 {
		t.Errorf("150 junk lines: got %s:\n%s", m, m.Text)
	}

	j.handle(w["us"].reply(alice, "HISTORY"))
	for _, m := range j.take() {
		text := m.Text
		if i := strings.Index(text, formMarker); i >= 0 {
			text = text[:i]
		}
		if len(text) > 4000 {
			t.Errorf("%s: %d bytes of text before the form, want at most 4000", m, len(text))
		}
	}
}

func TestCapText(t *testing.T) {
	long := strings.Repeat("line of text\n", 1000)
	got := capText(long, 500)
	if len(got) > 500 || !strings.HasPrefix(long, strings.SplitAfter(got, "\n\n[...")[0][:100]) ||
		!strings.Contains(got, fmt.Sprintf("at most %d bytes", 500)) {
		t.Errorf("capText = %d bytes:\n%s", len(got), got)
	}
	if capText("short", 500) != "short" {
		t.Error("a short text was changed")
	}
	if got := capText(long, 10); !strings.Contains(got, "more bytes left out") {
		t.Errorf("a limit below the note's size: %q", got)
	}
}
