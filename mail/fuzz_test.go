package mail

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The fuzz targets' invariants go beyond "no panic": what the judge reads
// is valid UTF-8 and grows at most linearly with the mail. CI runs the seeds
// (and testdata/fuzz) as part of go test; `go test -fuzz FuzzMIMEIntake` explores.

// maxTextGrowth bounds the text read per byte of mail: a byte of a legacy
// charset may become a 3-byte UTF-8 character, and "<li>" in a quote a
// line of its own with marker and prefix.
const maxTextGrowth = 4

func FuzzMIMEIntake(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.eml"))
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add(manyPartsMail("seed@x", 3))
	f.Add([]byte(manyFieldsMail(3)))
	f.Add([]byte("Content-Type: text/html\r\n\r\n" + strings.Repeat("<blockquote>x<br>", 50)))
	f.Add([]byte("Content-Type: text/html; charset=shift_jis\r\nContent-Transfer-Encoding: base64\r\n\r\ngqCCooKk\r\n"))
	f.Add([]byte("Content-Type: multipart/alternative; boundary=x\r\n\r\n--x\r\nContent-Type: text/html\r\n\r\n<ol><li>a<li>b</ol>\r\n--x--\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		in, err := parseBytes(raw, 0, Limits{MaxHeaderFields: 100, MaxParts: 100})
		if err != nil {
			return
		}
		if !utf8.ValidString(in.Text) || !utf8.ValidString(in.Subject) {
			t.Errorf("invalid UTF-8: Subject %q, Text %q", in.Subject, in.Text)
		}
		if len(in.Text) > maxTextGrowth*len(raw) {
			t.Errorf("%d bytes of mail gave %d bytes of text", len(raw), len(in.Text))
		}
		if in.Unreadable != "" && (in.Text != "" || len(in.Attachments) > 0) {
			t.Errorf("unreadable mail (%s) with text or attachments", in.Unreadable)
		}
		attached := 0
		for _, a := range in.Attachments {
			attached += len(a.Data)
		}
		if attached > len(raw) {
			t.Errorf("%d bytes of mail gave %d bytes of attachments", len(raw), attached)
		}
	})
}

func FuzzHTMLToText(f *testing.F) {
	f.Add("<p>HOLD</p><div class=\"gmail_quote\">On Mon, Judge wrote:<br><blockquote>Report<br>line 2</blockquote></div>")
	f.Add(strings.Repeat("<blockquote>", 20) + "deep" + strings.Repeat("</blockquote>", 20))
	f.Add("<ol><li>one<li>two<ul><li>three</ul></ol>")
	f.Add("<pre>BN 743 M\n  A 0303 0403\n</pre><script>x</script>&amp;&nbsp;&#x1F600;")
	f.Add("<TITLE>x<title>y</TITLE><!-- c --><a href='>'>z</a>")
	f.Fuzz(func(t *testing.T, src string) {
		out := htmlToText(src)
		if len(out) > maxTextGrowth*len(src) {
			t.Errorf("%d bytes of HTML gave %d bytes of text", len(src), len(out))
		}
		if utf8.ValidString(src) && !utf8.ValidString(out) {
			t.Errorf("valid UTF-8 became invalid: %q", out)
		}
	})
}

func FuzzStripQuoted(f *testing.F) {
	f.Add("MOVE A\n\nOn Tue, Judge <j@x> wrote:\n> report\n> more")
	f.Add("HOLD\n-----Original Message-----\nFrom: judge\nBN 1 M")
	f.Add("BN 1 H\n________________________________\nFrom: Judge\nSent: today\n\nreport")
	f.Add("orders\n-- \nHans")
	f.Add("Am Di., 11. März 2025 um 10:00 schrieb Judge\n<judge@x>:\n> quoted\nmine")
	f.Fuzz(func(t *testing.T, text string) {
		out := StripQuoted(text)
		if len(out) > len(text) {
			t.Errorf("%d bytes of text gave %d bytes", len(text), len(out))
		}
		if utf8.ValidString(text) && !utf8.ValidString(out) {
			t.Errorf("valid UTF-8 became invalid: %q", out)
		}
		// What is kept is lines the sender wrote, never a quoted one; the
		// characters that take no room are taken out of every line on
		// purpose (normalizeText), so that "A\u200b" reads as "A".
		lines := map[string]bool{}
		for _, l := range strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(text), "\n") {
			lines[strings.TrimRight(invisibleChars.Replace(l), " \t")] = true
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), ">") {
				t.Errorf("quoted line kept: %q", l)
			}
			if l != "" && !lines[l] {
				t.Errorf("line %q is not a line of the text", l)
			}
		}
	})
}
