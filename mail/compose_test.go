package mail

import (
	"bytes"
	"io"
	"mime"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"
)

// fullOutbound is a reply using every feature of Outbound.
func fullOutbound() *Outbound {
	return &Outbound{
		From:       Address{Name: "Fieldpost Schiedsrichter", Email: "judge@club.example"},
		To:         []Address{{Name: "Jürgen Weiß", Email: "juergen@example.at"}},
		Cc:         []Address{{Email: "umpire@club.example"}},
		Subject:    "Re: Züge für Runde 7 – Ardennen ✓",
		MessageID:  "r7.abc@club.example",
		InReplyTo:  "latin1-qp@example.at",
		References: []string{"game.start@club.example", "latin1-qp@example.at"},
		ListID:     "Bulge 1944 – Süd <bulge-1944.club.example>",
		Date:       time.Date(2025, 3, 7, 21, 31, 0, 0, time.UTC),
		Headers:    []HeaderField{{Key: "X-Fieldpost-Game", Value: "bulge-1944 (Süd)"}},
		Text: "Orders for turn 7 received:\n" +
			"BEWEGE 352VGD 1203 1305 über die Straße nach St. Vith und weiter bis zur Brücke, a line longer than seventy-six characters\n" +
			"=== end ===",
		HTML:        `<p>Orders received.</p><img src="cid:map7@club.example">`,
		Inline:      []Part{{ContentType: "image/png", Filename: "map.png", ContentID: "map7@club.example", Data: []byte("\x89PNG\r\n\x1a\nfake")}},
		Attachments: []Part{{ContentType: "text/csv", Filename: "Verluste Süd.csv", Data: []byte("unit,steps\n352VGD,1\n")}},
	}
}

func TestComposeStructure(t *testing.T) {
	raw, err := Compose(fullOutbound())
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n"), nil), []byte("\n")) {
		t.Error("message has bare LF line endings")
	}
	for _, line := range strings.Split(string(raw), "\r\n") {
		if len(line) > 998 {
			t.Errorf("line longer than 998 octets: %.40q...", line)
		}
		for _, r := range line {
			if r >= 0x80 {
				t.Fatalf("non-ASCII in composed message line %q", line)
			}
		}
	}

	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	h := mr.Header
	wantFields := map[string]string{
		"Auto-Submitted":           "auto-generated",
		"X-Auto-Response-Suppress": "All",
		"X-Loop":                   "judge@club.example",
		"Message-Id":               "<r7.abc@club.example>",
		"In-Reply-To":              "<latin1-qp@example.at>",
		"References":               "<game.start@club.example> <latin1-qp@example.at>",
		"Mime-Version":             "1.0",
	}
	for key, want := range wantFields {
		if got := h.Get(key); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	if subject, _ := h.Subject(); subject != "Re: Züge für Runde 7 – Ardennen ✓" {
		t.Errorf("Subject = %q", subject)
	}
	if listID, _ := (&mime.WordDecoder{}).DecodeHeader(h.Get("List-Id")); listID != "Bulge 1944 – Süd <bulge-1944.club.example>" {
		t.Errorf("List-Id = %q (raw %q)", listID, h.Get("List-Id"))
	}
	if game, _ := h.Text("X-Fieldpost-Game"); game != "bulge-1944 (Süd)" {
		t.Errorf("X-Fieldpost-Game = %q", game)
	}
	if date, _ := h.Date(); !date.Equal(time.Date(2025, 3, 7, 21, 31, 0, 0, time.UTC)) {
		t.Errorf("Date = %v", date)
	}

	// The MIME tree, as media types in depth-first order.
	entity, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var tree []string
	var bodies = map[string][]byte{}
	err = entity.Walk(func(path []int, e *message.Entity, err error) error {
		if err != nil {
			return err
		}
		mediaType, params, _ := e.Header.ContentType()
		node := strings.Repeat("  ", len(path)) + mediaType
		if cid := e.Header.Get("Content-Id"); cid != "" {
			node += " " + cid
		}
		if disp, dispParams, _ := e.Header.ContentDisposition(); disp != "" {
			node += " " + disp + " " + dispParams["filename"]
		}
		if !strings.HasPrefix(mediaType, "multipart/") {
			node += " " + e.Header.Get("Content-Transfer-Encoding") + " " + params["charset"]
			body, err := io.ReadAll(e.Body)
			if err != nil {
				return err
			}
			bodies[mediaType] = body
		}
		tree = append(tree, strings.TrimSpace(node))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	wantTree := []string{
		"multipart/mixed",
		"multipart/alternative",
		"text/plain quoted-printable utf-8",
		"multipart/related",
		"text/html quoted-printable utf-8",
		"image/png <map7@club.example> inline map.png base64",
		"text/csv attachment Verluste Süd.csv base64",
	}
	for i := range tree {
		tree[i] = strings.TrimSpace(tree[i])
	}
	if !reflect.DeepEqual(tree, wantTree) {
		t.Errorf("MIME tree =\n%s\nwant\n%s", strings.Join(tree, "\n"), strings.Join(wantTree, "\n"))
	}
	if got, want := string(bodies["image/png"]), "\x89PNG\r\n\x1a\nfake"; got != want {
		t.Errorf("inline image = %q, want %q", got, want)
	}
	if got, want := string(bodies["text/csv"]), "unit,steps\n352VGD,1\n"; got != want {
		t.Errorf("attachment = %q, want %q", got, want)
	}
}

func TestComposeRoundTrip(t *testing.T) {
	out := fullOutbound()
	raw, err := Compose(out)
	if err != nil {
		t.Fatal(err)
	}
	in, err := Parse(bytes.NewReader(raw), 0)
	if err != nil {
		t.Fatal(err)
	}
	if in.Subject != out.Subject {
		t.Errorf("Subject = %q, want %q", in.Subject, out.Subject)
	}
	if in.From != out.From || !reflect.DeepEqual(in.To, out.To) || !reflect.DeepEqual(in.Cc, out.Cc) {
		t.Errorf("From, To, Cc = %+v, %+v, %+v", in.From, in.To, in.Cc)
	}
	if in.MessageID != out.MessageID || !reflect.DeepEqual(in.InReplyTo, []string{out.InReplyTo}) ||
		!reflect.DeepEqual(in.References, out.References) {
		t.Errorf("threading = %q, %q, %q", in.MessageID, in.InReplyTo, in.References)
	}
	if in.Text != out.Text {
		t.Errorf("Text =\n%q\nwant\n%q", in.Text, out.Text)
	}
	wantAttachments := []Attachment{
		{Filename: "map.png", ContentType: "image/png", Data: out.Inline[0].Data},
		{Filename: "Verluste Süd.csv", ContentType: "text/csv", Data: out.Attachments[0].Data},
	}
	if !reflect.DeepEqual(in.Attachments, wantAttachments) {
		t.Errorf("Attachments = %+v, want %+v", in.Attachments, wantAttachments)
	}
	// Our own mail coming back must never be answered.
	if reason, auto := DetectAutomatic(in, []string{"judge@club.example"}); !auto {
		t.Errorf("composed mail not detected as automatic (reason %q)", reason)
	}
}

// A mail sent on a player's behalf is not automatic: the judge reads it.
func TestComposePersonal(t *testing.T) {
	raw, err := Compose(&Outbound{
		From:      Address{Email: "bot@club.example"},
		To:        []Address{{Email: "judge+t0k3n@club.example"}},
		Subject:   "Re: Turn 6",
		MessageID: NewMessageID("club.example"),
		Text:      "BN 1/120 H\nEND\n",
		Personal:  true,
	})
	if err != nil {
		t.Fatal(err)
	}
	in, err := Parse(bytes.NewReader(raw), 0)
	if err != nil {
		t.Fatal(err)
	}
	if v := in.Header.Get("Auto-Submitted"); v != "" {
		t.Errorf("Auto-Submitted: %s on a personal mail", v)
	}
	if reason, auto := DetectAutomatic(in, []string{"judge@club.example"}); auto {
		t.Errorf("the judge would take a personal mail for automatic: %s", reason)
	}
}

func TestComposeTextOnly(t *testing.T) {
	raw, err := Compose(&Outbound{
		From:      Address{Email: "judge@club.example"},
		To:        []Address{{Email: "hans@example.de"}},
		Subject:   "Turn 6",
		MessageID: NewMessageID("club.example"),
		Text:      "Your turn.\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	entity, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	mediaType, params, _ := entity.Header.ContentType()
	if mediaType != "text/plain" || params["charset"] != "utf-8" || entity.Header.Get("Content-Transfer-Encoding") != "quoted-printable" {
		t.Errorf("Content-Type %s %v, encoding %q; want a single UTF-8 quoted-printable text/plain part",
			mediaType, params, entity.Header.Get("Content-Transfer-Encoding"))
	}
	if entity.Header.Get("Date") == "" {
		t.Error("Date missing when Outbound.Date is zero")
	}
	body, _ := io.ReadAll(entity.Body)
	if string(body) != "Your turn.\r\n" {
		t.Errorf("body = %q", body)
	}
}

func TestComposeRejectsInvalid(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*Outbound)
	}{
		{"no From", func(o *Outbound) { o.From = Address{} }},
		{"no To", func(o *Outbound) { o.To = nil }},
		{"no Message-ID", func(o *Outbound) { o.MessageID = "" }},
		{"bracketed Message-ID", func(o *Outbound) { o.MessageID = "<a@b>" }},
		{"bad reference", func(o *Outbound) { o.References = []string{"a b"} }},
		{"header injection in address", func(o *Outbound) { o.To = []Address{{Email: "a@b\r\nBcc: c@d"}} }},
		{"overriding a composed field", func(o *Outbound) { o.Headers = []HeaderField{{Key: "content-type", Value: "text/html"}} }},
		{"bad field name", func(o *Outbound) { o.Headers = []HeaderField{{Key: "X-A: b", Value: "c"}} }},
		{"inline without HTML", func(o *Outbound) { o.HTML = "" }},
		{"inline without Content-ID", func(o *Outbound) { o.Inline[0].ContentID = "" }},
		{"attachment without name", func(o *Outbound) { o.Attachments[0].Filename = "" }},
		{"bad content type", func(o *Outbound) { o.Attachments[0].ContentType = "text/csv\r\nBcc: x@y" }},
		{"List-Id with line break", func(o *Outbound) { o.ListID = "a\r\nb <c>" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := fullOutbound()
			tt.modify(out)
			if _, err := Compose(out); err == nil {
				t.Error("Compose succeeded, want an error")
			}
		})
	}
}

func TestNewMessageID(t *testing.T) {
	seen := make(map[string]bool)
	for range 1000 {
		id := NewMessageID("club.example")
		if seen[id] {
			t.Fatalf("duplicate message ID %q", id)
		}
		seen[id] = true
		local, domain, ok := strings.Cut(id, "@")
		if !ok || domain != "club.example" || local == "" || strings.ContainsAny(local, "<> @") {
			t.Fatalf("malformed message ID %q", id)
		}
	}
}
