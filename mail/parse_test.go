package mail

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestParseText(t *testing.T) {
	tests := []struct {
		file        string
		limit       int64
		text        string
		attachments []Attachment
	}{{
		file:  "plain.eml",
		limit: 1 << 20,
		text:  "Turn 5 orders, German player:\n\nMOVE 1/12SS 0612 0714\nATTACK 2/9Pz 0815 odds 3:1\n\nGrüße, Hans",
	}, {
		file:  "html-only.eml",
		limit: 1 << 20,
		text:  "Orders for turn 2:\n\n- MOVE 3/7Pz 1010 1111\n- HOLD 5Fj 0909\n\nCafé & crème <ok>\nAnna",
	}, {
		file:  "alternative.eml",
		limit: 1 << 20,
		text:  "RETREAT 101Abn 0510 0410\nEND",
	}, {
		file:  "latin1-qp.eml",
		limit: 1 << 20,
		text: "Hallo Schiedsrichter,\n\n" +
			"BEWEGE 352VGD 1203 1305 über die Straße nach St. Vith und weiter bis zur Brücke\n" +
			"ANGRIFF 18VGD 1306\n\nGrüße\nJürgen",
	}, {
		file:  "windows-1252.eml",
		limit: 1 << 20,
		text:  "“Avancez” – coût 5 €\nMOVE 2DB 0303 0404",
	}, {
		file:  "base64-utf8.eml",
		limit: 1 << 20,
		text:  "Приказы на ход 6:\nMOVE 5Gds 2210 2311 ✓\nС уважением, Иван",
	}, {
		file:  "flowed-delsp.eml",
		limit: 1 << 20,
		text: "This paragraph was wrapped by the mailer in the middle of a word, which DelSp=yes allows, and between two words.\n" +
			"MOVE 7Arm 0101 0202\n" +
			"From here on the line was space-stuffed.\n\n" +
			"> Quoted line that the mailer wrapped as well.\n" +
			">> Deeper quote\n--\nMac",
	}, {
		file:  "top-posted.eml",
		limit: 1 << 20,
		text: "MOVE 1/12SS 0714 0815\nHOLD 2/9Pz 0815\n\nHans\n\n" +
			"On Tue, 11 Mar 2025 at 18:00, Fieldpost Judge <judge@club.example> wrote:\n" +
			"> Turn 5 report for Bulge 1944.\n>\n> MOVE 1/12SS 0612 0714 succeeded.\n> Send your orders for turn 6.",
	}, {
		file:  "nested-attachment.eml",
		limit: 1 << 20,
		text:  "ORDINI turno 8:\nMOVE 10Bers 0707 0808 — see map",
		attachments: []Attachment{
			{ContentType: "image/png"},
			{Filename: "ordini.pdf", ContentType: "application/pdf"},
			{Filename: "mappa città.png", ContentType: "image/png"},
		},
	}, {
		file:        "malformed-boundary.eml",
		limit:       1 << 20,
		text:        "SUPPLY 4Inf 1010\nMOVE 4Inf 1010 1011",
		attachments: []Attachment{{Filename: "junk.bin", ContentType: "application/octet-stream"}},
	}, {
		file:        "bounce.eml",
		limit:       1 << 20,
		text:        "This is the mail system at host mx.example.org.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients.",
		attachments: []Attachment{{ContentType: "message/delivery-status"}},
	}, {
		file:  "oversized.eml",
		limit: 4096,
		text:  "",
	}}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw := readTestdata(t, tt.file)
			in, err := Parse(bytes.NewReader(raw), tt.limit)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if in.Text != tt.text {
				t.Errorf("Text =\n%q\nwant\n%q", in.Text, tt.text)
			}
			if got := described(in.Attachments); !reflect.DeepEqual(got, tt.attachments) {
				t.Errorf("Attachments = %+v, want %+v", got, tt.attachments)
			}
			if oversized := int64(len(raw)) > tt.limit; in.Oversized != oversized {
				t.Errorf("Oversized = %v, want %v", in.Oversized, oversized)
			}
		})
	}
}

// described is the attachments without their data: what they are.
func described(atts []Attachment) []Attachment {
	var out []Attachment
	for _, a := range atts {
		out = append(out, Attachment{Filename: a.Filename, ContentType: a.ContentType})
	}
	return out
}

func TestParseHeaderFields(t *testing.T) {
	in, err := Parse(bytes.NewReader(readTestdata(t, "plain.eml")), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	want := &Inbound{
		MessageID:   "CAF=x9Q1@mail.example.de",
		From:        Address{Name: "Hans Müller", Email: "hans.mueller@example.de"},
		To:          []Address{{Name: "Fieldpost Judge", Email: "judge+t0k3n@club.example"}},
		Cc:          []Address{{Name: "Umpire, Bulge Game", Email: "umpire@club.example"}, {Email: "kibitz@example.org"}},
		DeliveredTo: []string{"judge+t0k3n@club.example"},
		XOriginalTo: []string{"judge+t0k3n@club.example"},
		Subject:     "Re: [Bulge 1944] Turn 5 – orders",
		Date:        time.Date(2025, 3, 4, 18, 2, 7, 0, time.UTC),
		InReplyTo:   []string{"turn4.report.7@club.example"},
		References:  []string{"game.start@club.example", "turn4.report.7@club.example"},
	}
	if in.MessageID != want.MessageID || in.From != want.From || in.Subject != want.Subject {
		t.Errorf("MessageID, From, Subject = %q, %+v, %q; want %q, %+v, %q",
			in.MessageID, in.From, in.Subject, want.MessageID, want.From, want.Subject)
	}
	if !in.Date.Equal(want.Date) {
		t.Errorf("Date = %v, want %v", in.Date, want.Date)
	}
	for name, got := range map[string][2]any{
		"To":          {in.To, want.To},
		"Cc":          {in.Cc, want.Cc},
		"DeliveredTo": {in.DeliveredTo, want.DeliveredTo},
		"XOriginalTo": {in.XOriginalTo, want.XOriginalTo},
		"InReplyTo":   {in.InReplyTo, want.InReplyTo},
		"References":  {in.References, want.References},
	} {
		if !reflect.DeepEqual(got[0], got[1]) {
			t.Errorf("%s = %+v, want %+v", name, got[0], got[1])
		}
	}
	if got := in.Header.Get("Received"); !strings.HasPrefix(got, "from mx.example.de") {
		t.Errorf("Header[Received] = %q", got)
	}
	wantRcpts := []string{"judge+t0k3n@club.example", "umpire@club.example", "kibitz@example.org"}
	if got := in.Recipients(); !reflect.DeepEqual(got, wantRcpts) {
		t.Errorf("Recipients() = %q, want %q", got, wantRcpts)
	}
	wantRefs := []string{"game.start@club.example", "turn4.report.7@club.example", "CAF=x9Q1@mail.example.de"}
	if got := in.ReplyReferences(); !reflect.DeepEqual(got, wantRefs) {
		t.Errorf("ReplyReferences() = %q, want %q", got, wantRefs)
	}
}

func TestParseOversizedKeepsHeaders(t *testing.T) {
	raw := readTestdata(t, "oversized.eml")
	in, err := Parse(bytes.NewReader(raw), 4096)
	if err != nil {
		t.Fatal(err)
	}
	if !in.Oversized || in.Size != 4097 {
		t.Errorf("Oversized, Size = %v, %d; want true, 4097 (limit+1 read)", in.Oversized, in.Size)
	}
	if in.From.Email != "big@example.com" || in.MessageID != "oversized@example.com" {
		t.Errorf("headers not parsed: From %+v, Message-ID %q", in.From, in.MessageID)
	}

	// A limit inside the header section still reports the oversize.
	in, err = Parse(bytes.NewReader(raw), 40)
	if err != nil {
		t.Fatal(err)
	}
	if !in.Oversized || in.Text != "" {
		t.Errorf("Oversized, Text = %v, %q; want true, empty", in.Oversized, in.Text)
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bytes.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func TestParseReadsNoMoreThanLimit(t *testing.T) {
	r := &countingReader{r: bytes.NewReader(readTestdata(t, "oversized.eml"))}
	if _, err := Parse(r, 1000); err != nil {
		t.Fatal(err)
	}
	if r.n != 1001 {
		t.Errorf("read %d bytes with limit 1000, want 1001", r.n)
	}
}

func TestParseDegenerateInput(t *testing.T) {
	tests := []struct {
		name, raw string
		wantErr   bool
		text      string
	}{
		{name: "not a message", raw: "this is not a mail\r\nat all\r\n", wantErr: true},
		{name: "header only", raw: "From: a@example.com\r\nSubject: x\r\n\r\n", text: ""},
		{name: "no content type", raw: "From: a@example.com\r\n\r\nMOVE 1 2 3\r\n", text: "MOVE 1 2 3"},
		{name: "unknown charset", raw: "Content-Type: text/plain; charset=x-klingon\r\n\r\nMOVE\r\n", text: "MOVE"},
		{name: "undeclared latin-1", raw: "Content-Type: text/plain\r\n\r\nGr\xfc\xdfe\r\n", text: "Grüße"},
		{name: "corrupt base64", raw: "Content-Transfer-Encoding: base64\r\n\r\nTU9WRQ==!!!!\r\n", text: "MOVE"},
		{name: "unknown encoding", raw: "Content-Transfer-Encoding: x-uuencode\r\n\r\nMOVE\r\n", text: "MOVE"},
		{name: "multipart without boundary", raw: "Content-Type: multipart/mixed\r\n\r\n--zz\r\nContent-Type: text/plain\r\n\r\nHOLD\r\n--zz--\r\n", text: "HOLD"},
		{name: "endless nesting", raw: strings.Repeat("Content-Type: multipart/mixed; boundary=a\r\n\r\n--a\r\n", 50), text: ""},
		{name: "bad addresses", raw: "From: Dr. No <no@example.com\r\nTo: judge@club.example, <<>>\r\n\r\nx\r\n", text: "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := Parse(strings.NewReader(tt.raw), 1<<20)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("Parse succeeded, want an error")
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if in.Text != tt.text {
				t.Errorf("Text = %q, want %q", in.Text, tt.text)
			}
		})
	}
}

func TestParseLenientAddresses(t *testing.T) {
	in, err := Parse(strings.NewReader("From: Dr. No <no@example.com\r\nTo: judge@club.example, <<>>\r\n\r\nx\r\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if in.From.Email != "no@example.com" {
		t.Errorf("From = %+v, want no@example.com salvaged", in.From)
	}
	if len(in.To) != 1 || in.To[0].Email != "judge@club.example" {
		t.Errorf("To = %+v, want judge@club.example salvaged", in.To)
	}
}

func TestHTMLToText(t *testing.T) {
	tests := []struct{ name, html, text string }{
		{"gmail divs", `<div dir="ltr"><div>MOVE A</div><div><br></div><div>MOVE B<br></div></div>`, "MOVE A\n\nMOVE B"},
		{"blockquote", `<p>HOLD</p><div class="gmail_quote">On Mon, Judge wrote:<br><blockquote>Report<br>line 2</blockquote></div>`,
			"HOLD\n\nOn Mon, Judge wrote:\n\n> Report\n> line 2"},
		{"pre keeps spacing", "<pre>A   1\n  B 2</pre>after", "A   1\n  B 2\n\nafter"},
		{"ordered list", "<ol><li>one<li>two</ol>", "1. one\n2. two"},
		{"table cells", "<table><tr><td>0612</td><td>0714</td></tr><tr><td>x</td></tr></table>", "0612 0714\nx"},
		{"quoted attribute with >", `<a title="a>b" href='x'>link</a> text`, "link text"},
		{"lone less-than", "3 < 4 and 5 &gt; 4", "3 < 4 and 5 > 4"},
		{"unterminated tag", "MOVE <b", "MOVE"},
		{"unterminated script", "MOVE<script>var a = 1;", "MOVE"},
		{"unterminated head", "<head>MOVE", "MOVE"},
		{"uppercase", "<P>A</P><SCRIPT>x</SCRIPT><BR>B", "A\n\nB"},
		{"entities", "&lt;&amp;&gt; &quot;x&quot; &#x263A; &nbsp;&euro;", `<&> "x" ☺ €`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := normalizeText(htmlToText(tt.html)); got != tt.text {
				t.Errorf("htmlToText(%q) =\n%q\nwant\n%q", tt.html, got, tt.text)
			}
		})
	}
}

// TestParseHostileHTMLIsLinear guards against quadratic scanning: each of
// these inputs took minutes before the scanner remembered missing closing
// tags.
func TestParseHostileHTMLIsLinear(t *testing.T) {
	for name, body := range map[string]string{
		"unclosed title": strings.Repeat("<TITLE>x", 100000),
		"unclosed head":  strings.Repeat("<head>", 100000),
	} {
		start := time.Now()
		if _, err := Parse(strings.NewReader("Content-Type: text/html\r\n\r\n"+body), 0); err != nil {
			t.Fatal(err)
		}
		if elapsed := time.Since(start); elapsed > 5*time.Second {
			t.Errorf("%s: Parse took %v", name, elapsed)
		}
	}
}

func TestHTMLRuleAboveQuote(t *testing.T) {
	for _, body := range []string{
		`<div>MOVE A</div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in"><p><b>From:</b> Judge<br><b>Sent:</b> today<br><b>To:</b> me<br><b>Subject:</b> report</p></div><p>MOVE Z</p>`,
		`<div>MOVE A</div><hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg"><b>From:</b> Judge<br><b>Sent:</b> today<br><b>To:</b> me</div><div>MOVE Z</div>`,
	} {
		if got := StripQuoted(htmlToText(body)); got != "MOVE A" {
			t.Errorf("StripQuoted(htmlToText(%q)) = %q, want %q", body, got, "MOVE A")
		}
	}
}

func TestStripQuoted(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"top posted", "MOVE A\n\nOn Tue, Judge <j@x> wrote:\n> report\n> more", "MOVE A"},
		{"wrapped attribution", "MOVE A\nOn Tue, 11 Mar 2025 at 18:00, Fieldpost Judge <\njudge@club.example> wrote:\n\n> report", "MOVE A"},
		{"german", "ZUG 1\n\nAm 11.03.2025 um 18:00 schrieb Judge:\n> Bericht", "ZUG 1"},
		{"interleaved", "> your move?\nMOVE A\n> and attack?\nATTACK B", "MOVE A\nATTACK B"},
		{"outlook", "MOVE A\n\n-----Original Message-----\nFrom: Judge\nMOVE Z", "MOVE A"},
		{"outlook rule", "MOVE A\n________________________________\nFrom: Judge\nSent: today", "MOVE A"},
		{"signature", "MOVE A\n-- \nHans\nMOVE fake", "MOVE A"},
		{"colon without quote", "Orders:\nMOVE A", "Orders:\nMOVE A"},
		{"outlook windows without rule", "MOVE A\n\nFrom: Judge <j@x>\nSent: Tuesday, 11 March 2025 18:00\nTo: me\nSubject: report\n\nMOVE Z", "MOVE A"},
		{"outlook mac date first", "MOVE A\n\nDate: Tuesday, 11 March 2025 at 18:00\nTo: me\nSubject: report\n\nMOVE Z", "MOVE A"},
		{"outlook bold", "MOVE A\n\n*From:* Judge\n*Sent:* today\n*To:* me\n\nMOVE Z", "MOVE A"},
		{"outlook french", "MOVE A\n\nDe : Judge\nEnvoyé : mardi\nÀ : moi\nObjet : rapport\n\nMOVE Z", "MOVE A"},
		{"outlook german with rule", "MOVE A\n\n-----\nVon: Judge\nGesendet: Dienstag\nAn: mich\nBetreff: Bericht\nMOVE Z", "MOVE A"},
		{"outlook russian", "MOVE A\n\nОт: Judge\nОтправлено: 11 марта\nКому: me\nТема: report\nMOVE Z", "MOVE A"},
		{"attribution over unmarked quote", "MOVE A\n\nOn Tue, 11 Mar 2025 at 18:00, Judge <j@x> wrote:\n\nMOVE Z", "MOVE A"},
		{"polish attribution", "MOVE A\n\nW dniu 11.03.2025 o 18:00 Judge <j@x> napisał:\nMOVE Z", "MOVE A"},
		{"date-first attribution", "MOVE A\n\n2025-03-11 18:00 GMT+01:00 Judge <j@x>:\nMOVE Z", "MOVE A"},
		{"attribution without colon", "MOVE A\n\nOn Tue, 11 Mar 2025 Judge <j@x> wrote\nMOVE Z", "MOVE A"},
		{"attribution over three lines", "MOVE A\n\nOn Tue, 11 Mar 2025 at 18:00, Judge\n<j@x>\nwrote:\nMOVE Z", "MOVE A"},
		{"forwarded", "MOVE A\n\n---------- Forwarded message ---------\nFrom: Judge\nMOVE Z", "MOVE A"},
		{"phone signature", "MOVE A\n\nSent from my iPhone\n\nMOVE Z", "MOVE A"},
		{"outlook app signature", "MOVE A\nGet Outlook for Android<https://aka.ms/ghei36>\nMOVE Z", "MOVE A"},
		{"german phone signature", "MOVE A\nVon meinem iPhone gesendet\nMOVE Z", "MOVE A"},
		{"sent from in a sentence", "Sent from my desk, which is easier.\nMOVE A", "Sent from my desk, which is easier.\nMOVE A"},
		{"a line naming From", "Orders from: the general\nMOVE A", "Orders from: the general\nMOVE A"},
		{"wrapped quote tail", "> a quoted line long enough to have been wrapped by the mail program\nat the end\n> more\nMOVE A", "MOVE A"},
		{"sent by in a heading", "Sent by the US commander:\nMOVE A", "Sent by the US commander:\nMOVE A"},
		{"yahoo", "MOVE A\n\nOn Monday, March 2, 2026, 06:00:00 PM GMT, Fieldpost <judge@club.example> wrote:\n\nMOVE Z", "MOVE A"},
		{"samsung", "MOVE A\n\nSent from my Galaxy\n\n-------- Original message --------\nFrom: Fieldpost <j@x>\nMOVE Z", "MOVE A"},
		{"proton", "MOVE A\n\n------- Original Message -------\nOn Monday, March 2nd, 2026 at 18:00, Fieldpost <j@x> wrote:\n\n> MOVE Z", "MOVE A"},
		{"outlook ios", "MOVE A\n\nGet Outlook for iOS<https://aka.ms/o0ukef>\n________________________________\nFrom: Fieldpost <j@x>\nSent: Monday\nMOVE Z", "MOVE A"},
		{"lotus notes", "MOVE A\n\nFrom:\tFieldpost <j@x>\nTo:\talice@example.org\nDate:\t02/03/2026 18:00\nSubject:\treport\n\nMOVE Z", "MOVE A"},
		{"notes attribution", "MOVE A\n\nFieldpost <j@x> wrote on 02/03/2026 18:00:\n\nMOVE Z", "MOVE A"},
		{"quoted with bars, date-first attribution without colon", "MOVE A\n\n2013/7/20 Judge <j@x>\n\n| report\n| MOVE Z", "MOVE A"},
		{"outlook japanese", "MOVE A\n\n差出人: Fieldpost <j@x>\n送信日時: 2026年3月2日 18:00\n宛先: alice\n件名: report\nMOVE Z", "MOVE A"},
		{"outlook czech", "MOVE A\n\nOd: Fieldpost <j@x>\nOdesláno: 2. března 2026 18:00\nKomu: alice\nPředmět: report\nMOVE Z", "MOVE A"},
		{"dutch phone signature", "MOVE A\nVerstuurd vanaf mijn iPhone\nMOVE Z", "MOVE A"},
		{"japanese phone signature", "MOVE A\niPhoneから送信\nMOVE Z", "MOVE A"},
		{"czech attribution", "MOVE A\n\nDne 2. 3. 2026 v 18:00 Fieldpost <j@x> napsal(a):\nMOVE Z", "MOVE A"},
		{"attribution above everything", "On Tue, 11 Mar 2025, Judge <j@x> wrote:\n\nMOVE A", "MOVE A"},
		{"bottom quote wrapped after quoting", "MOVE A\n\nOn Tue, Judge <j@x> wrote:\n> Keep it to yourself: it is what makes your orders yours. Every mail\nThe judge\n> sends you a reply address that carries it\n(judge+abcdefghijklmnopqrstuvwxyzabcdef@club.example),\n> the objectives: 1819 Cerignola (GE), 2122 Canosa (US), 2511 Manfredonia\n2518 Trinitapoli (GE), 2721 Barletta (US), 2720-2721 the bridge at Barletta\nRS-2\n>\n------------------------------------------------------------------------\n> END", "MOVE A"},
		{"bottom quote with an answer under it", "MOVE A\n\nOn Tue, Judge <j@x> wrote:\n> your move?\nMOVE B", "MOVE A\n\nMOVE B"},
		{"bottom quote with an answer under a long line", "MOVE A\n\nOn Tue, Judge <j@x> wrote:\n> a quoted line long enough to have been wrapped by the mail program\nMOVE B\nMOVE C", "MOVE A\n\nMOVE B\nMOVE C"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StripQuoted(tt.text); got != tt.want {
				t.Errorf("StripQuoted(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.eml"))
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		f.Add(readTestdata(f, filepath.Base(file)), int64(1<<20))
	}
	f.Add([]byte("Content-Type: multipart/alternative; boundary=x\r\n\r\n--x\r\n\r\n<p>"), int64(64))
	f.Fuzz(func(t *testing.T, raw []byte, limit int64) {
		in, err := Parse(bytes.NewReader(raw), limit)
		if err != nil {
			return
		}
		if !utf8.ValidString(in.Text) || !utf8.ValidString(in.Subject) {
			t.Errorf("invalid UTF-8 in Text %q or Subject %q", in.Text, in.Subject)
		}
		if in.Oversized && (limit <= 0 || in.Text != "") {
			t.Errorf("Oversized with limit %d and Text %q", limit, in.Text)
		}
		StripQuoted(in.Text)
		DetectAutomatic(in, []string{"judge@club.example"})
	})
}

func BenchmarkParse(b *testing.B) {
	for _, file := range []string{"plain.eml", "html-only.eml", "latin1-qp.eml", "nested-attachment.eml"} {
		raw := readTestdata(b, file)
		b.Run(file, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(bytes.NewReader(raw), 10<<20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestParseBlankPlainFallsBackToHTML(t *testing.T) {
	raw := "Content-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n \r\n\r\n" +
		"--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<div>BN\u200b 743 M</div>\r\n--b--\r\n"
	in, err := Parse(strings.NewReader(raw), 0)
	if err != nil {
		t.Fatal(err)
	}
	if in.Text != "BN 743 M" {
		t.Errorf("Text = %q, want the HTML part's text without the zero-width space", in.Text)
	}
}

// BenchmarkStripQuotedLarge reads a large reply full of lines that look
// like attributions and header fields: StripQuoted must stay linear.
func BenchmarkStripQuotedLarge(b *testing.B) {
	var text strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&text, "On Tue, %d Mar 2025, Judge <j@x> said\nFrom: x\n\n> quoted %d\nMOVE A\n", i, i)
	}
	b.ResetTimer()
	for b.Loop() {
		StripQuoted(text.String())
	}
}
