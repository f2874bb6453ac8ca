package mail

import (
	"bytes"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"mime"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"
)

// Outbound is a mail to compose with [Compose].
type Outbound struct {
	From    Address   // required
	To      []Address // at least one
	Cc      []Address
	Subject string
	// MessageID is required, without angle brackets; see NewMessageID. The
	// caller chooses it so that a retried send keeps the same ID.
	MessageID string
	// InReplyTo and References thread the mail (IDs without angle
	// brackets); see Inbound.ReplyReferences.
	InReplyTo  string
	References []string
	// ListID, when set, is the List-Id field, e.g.
	// "Bulge 1944 <bulge-1944.club.example>", so that players can filter
	// one game's mail. The phrase may be non-ASCII.
	ListID string
	// Date is the Date field; zero means the time of composition.
	Date time.Time
	// Headers are extra header fields, e.g. X-Fieldpost-Game. Values may be
	// non-ASCII. Fields that Compose writes itself are refused.
	Headers []HeaderField
	// Text is the plain-text body; always sent.
	Text string
	// HTML is an optional HTML rendering of Text.
	HTML string
	// Inline are images the HTML shows through "cid:" URLs; they require
	// HTML.
	Inline []Part
	// Attachments are files attached to the mail.
	Attachments []Part
	// Personal marks a mail a program sends on a person's behalf, such as
	// a player's orders written by a bot: it is not marked Auto-Submitted,
	// so that the judge, which leaves automatic mail unread, reads it as
	// the player's.
	Personal bool
}

// HeaderField is an extra header field of an Outbound mail.
type HeaderField struct {
	Key, Value string
}

// Part is a binary body part: an inline image or an attachment.
type Part struct {
	// ContentType is the media type, e.g. "image/png"; required for inline
	// parts, "application/octet-stream" when empty for attachments.
	ContentType string
	// Filename is the suggested file name; required for attachments.
	Filename string
	// ContentID identifies an inline part, without angle brackets; the HTML
	// refers to it as "cid:" + ContentID. Required for inline parts.
	ContentID string
	// Data is the part's content, unencoded.
	Data []byte
}

// composedFields are the header fields Compose writes itself, which
// Outbound.Headers may not override.
var composedFields = map[string]bool{
	"From": true, "To": true, "Cc": true, "Bcc": true, "Subject": true,
	"Message-Id": true, "In-Reply-To": true, "References": true,
	"List-Id": true, "Date": true, "Auto-Submitted": true, "X-Loop": true,
	"X-Auto-Response-Suppress": true, "Mime-Version": true,
	"Content-Type": true, "Content-Transfer-Encoding": true,
	"Content-Disposition": true,
}

// Compose renders out as an RFC 5322 message with CRLF line endings.
//
// The text is UTF-8 in quoted-printable. With HTML the body is a
// multipart/alternative of the text and the HTML; the HTML and its inline
// images form a multipart/related; attachments wrap everything in a
// multipart/mixed. Every mail but a Personal one is marked
// "Auto-Submitted: auto-generated" (RFC 3834); every mail carries
// "X-Auto-Response-Suppress: All" so that vacation responders stay silent,
// and "X-Loop: <From address>" so that DetectAutomatic recognises it if it
// ever comes back.
func Compose(out *Outbound) ([]byte, error) {
	if err := out.validate(); err != nil {
		return nil, err
	}

	var h gomail.Header
	date := out.Date
	if date.IsZero() {
		date = time.Now()
	}
	h.SetDate(date)
	h.SetAddressList("From", toGoAddresses([]Address{out.From}))
	h.SetAddressList("To", toGoAddresses(out.To))
	h.SetAddressList("Cc", toGoAddresses(out.Cc))
	h.SetSubject(out.Subject)
	h.SetMessageID(out.MessageID)
	if out.InReplyTo != "" {
		h.SetMsgIDList("In-Reply-To", []string{out.InReplyTo})
	}
	h.SetMsgIDList("References", out.References)
	if out.ListID != "" {
		h.Set("List-Id", encodeListID(out.ListID))
	}
	if !out.Personal {
		h.Set("Auto-Submitted", "auto-generated")
	}
	h.Set("X-Auto-Response-Suppress", "All")
	h.Set("X-Loop", out.From.Email)
	for _, f := range out.Headers {
		h.Add(f.Key, mime.QEncoding.Encode("utf-8", f.Value))
	}

	root := out.body()
	for fields := root.header.Fields(); fields.Next(); {
		h.Add(fields.Key(), fields.Value())
	}

	var buf bytes.Buffer
	w, err := message.CreateWriter(&buf, h.Header)
	if err != nil {
		return nil, fmt.Errorf("mail: writing header: %w", err)
	}
	if err := root.writeBody(w); err != nil {
		return nil, fmt.Errorf("mail: writing body: %w", err)
	}
	return buf.Bytes(), nil
}

func (out *Outbound) validate() error {
	if out.From.Email == "" {
		return errors.New("mail: compose: From address is required")
	}
	if len(out.To) == 0 {
		return errors.New("mail: compose: at least one To address is required")
	}
	if out.MessageID == "" || strings.ContainsAny(out.MessageID, "<> \t\r\n") {
		return fmt.Errorf("mail: compose: invalid Message-ID %q (want e.g. NewMessageID's result)", out.MessageID)
	}
	for _, id := range append([]string{out.InReplyTo}, out.References...) {
		if strings.ContainsAny(id, "<> \t\r\n") {
			return fmt.Errorf("mail: compose: invalid message ID %q in In-Reply-To or References", id)
		}
	}
	for _, a := range append(append([]Address{out.From}, out.To...), out.Cc...) {
		if strings.ContainsAny(a.Email, "<> \t\r\n,") || !strings.Contains(a.Email, "@") {
			return fmt.Errorf("mail: compose: invalid address %q", a.Email)
		}
	}
	if strings.ContainsAny(out.ListID, "\r\n") {
		return errors.New("mail: compose: List-Id contains a line break")
	}
	for _, f := range out.Headers {
		key := textproto.CanonicalMIMEHeaderKey(f.Key)
		if composedFields[key] {
			return fmt.Errorf("mail: compose: header field %s is written by Compose", f.Key)
		}
		if f.Key == "" || strings.ContainsAny(f.Key, ": \t\r\n") {
			return fmt.Errorf("mail: compose: invalid header field name %q", f.Key)
		}
	}
	if len(out.Inline) > 0 && out.HTML == "" {
		return errors.New("mail: compose: inline parts need an HTML body")
	}
	for _, p := range out.Inline {
		if p.ContentID == "" || p.ContentType == "" || strings.ContainsAny(p.ContentID, "<> \t\r\n") {
			return fmt.Errorf("mail: compose: inline part %q needs a Content-ID without brackets and a content type", p.Filename)
		}
	}
	for _, p := range out.Attachments {
		if p.Filename == "" {
			return errors.New("mail: compose: an attachment needs a file name")
		}
	}
	for _, p := range append(slices.Clone(out.Inline), out.Attachments...) {
		if _, _, err := mime.ParseMediaType(p.ContentType); p.ContentType != "" && err != nil {
			return fmt.Errorf("mail: compose: part %q has an invalid content type %q: %w", p.Filename, p.ContentType, err)
		}
	}
	return nil
}

func toGoAddresses(addrs []Address) []*gomail.Address {
	out := make([]*gomail.Address, 0, len(addrs))
	for _, a := range addrs {
		out = append(out, &gomail.Address{Name: a.Name, Address: a.Email})
	}
	return out
}

// encodeListID RFC 2047-encodes the phrase of a List-Id value, leaving the
// bracketed list identifier alone as RFC 2919 requires.
func encodeListID(v string) string {
	at := strings.LastIndexByte(v, '<')
	if at < 0 {
		return v
	}
	phrase := strings.TrimSpace(v[:at])
	if phrase == "" {
		return v[at:]
	}
	return mime.QEncoding.Encode("utf-8", phrase) + " " + v[at:]
}

// entity is a node of the MIME tree Compose writes: a leaf with a body or a
// multipart with parts.
type entity struct {
	header message.Header
	body   []byte
	parts  []*entity
}

// body builds the MIME tree of the message body.
func (out *Outbound) body() *entity {
	root := textEntity("text/plain", out.Text)
	if out.HTML != "" {
		htmlPart := textEntity("text/html", out.HTML)
		if len(out.Inline) > 0 {
			related := []*entity{htmlPart}
			for _, p := range out.Inline {
				related = append(related, binaryEntity(p, "inline"))
			}
			htmlPart = multipartEntity("multipart/related", map[string]string{"type": "text/html"}, related)
		}
		root = multipartEntity("multipart/alternative", nil, []*entity{root, htmlPart})
	}
	if len(out.Attachments) > 0 {
		mixed := []*entity{root}
		for _, p := range out.Attachments {
			mixed = append(mixed, binaryEntity(p, "attachment"))
		}
		root = multipartEntity("multipart/mixed", nil, mixed)
	}
	return root
}

func textEntity(mediaType, text string) *entity {
	var h message.Header
	h.SetContentType(mediaType, map[string]string{"charset": "utf-8"})
	h.Set("Content-Transfer-Encoding", "quoted-printable")
	return &entity{header: h, body: []byte(text)}
}

func binaryEntity(p Part, disposition string) *entity {
	mediaType := p.ContentType
	if mediaType == "" {
		mediaType = "application/octet-stream"
	}
	var h message.Header
	// A content type may carry parameters of its own (text/calendar's
	// method); Compose checked that it parses.
	mediaType, params, _ := mime.ParseMediaType(mediaType)
	if p.Filename != "" {
		if params == nil {
			params = map[string]string{}
		}
		params["name"] = p.Filename
	}
	h.SetContentType(mediaType, params)
	var dispParams map[string]string
	if p.Filename != "" {
		dispParams = map[string]string{"filename": p.Filename}
	}
	h.SetContentDisposition(disposition, dispParams)
	if p.ContentID != "" {
		h.Set("Content-Id", "<"+p.ContentID+">")
	}
	h.Set("Content-Transfer-Encoding", transferEncoding(mediaType, p.Data))
	return &entity{header: h, body: p.Data}
}

// transferEncoding is base64 for a part, but quoted-printable for a JSON
// file, which then takes about a quarter less room in the mail (its line
// breaks may come back as CRLF, which JSON reads alike).
func transferEncoding(mediaType string, data []byte) string {
	if mediaType == "application/json" && utf8.Valid(data) && !bytes.ContainsRune(data, 0) {
		return "quoted-printable"
	}
	return "base64"
}

func multipartEntity(mediaType string, params map[string]string, parts []*entity) *entity {
	var h message.Header
	h.SetContentType(mediaType, params)
	return &entity{header: h, parts: parts}
}

// writeBody writes e's body, or its parts, to w and closes w.
func (e *entity) writeBody(w *message.Writer) error {
	if len(e.parts) == 0 {
		if _, err := w.Write(e.body); err != nil {
			return err
		}
		return w.Close()
	}
	for _, part := range e.parts {
		pw, err := w.CreatePart(part.header)
		if err != nil {
			return err
		}
		if err := part.writeBody(pw); err != nil {
			return err
		}
	}
	return w.Close()
}

// NewMessageID returns a new globally unique message ID, without angle
// brackets, in domain: the time in base 36 and 80 random bits, e.g.
// "dbq2kx0l3xk8.mfrgg2dfmztwq2lk@club.example".
func NewMessageID(domain string) string {
	random := make([]byte, 10)
	rand.Read(random) // never fails: crypto/rand aborts the program instead
	return strconv.FormatInt(time.Now().UnixNano(), 36) + "." +
		strings.ToLower(base32.StdEncoding.EncodeToString(random)) + "@" + domain
}
