package mail

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/textproto"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	// Registers decoders for the charsets found in real mail (ISO-8859-*,
	// windows-125x, KOI8-R, Shift_JIS, ...) with go-message.
	_ "github.com/emersion/go-message/charset"
	gomail "github.com/emersion/go-message/mail"
	msgtextproto "github.com/emersion/go-message/textproto"
)

// Inbound is a parsed inbound mail.
//
// Header-derived fields are best effort: a missing or malformed field leaves
// its zero value.
type Inbound struct {
	// MessageID is the Message-ID without angle brackets.
	MessageID string
	// From is the first address of the From field.
	From Address
	// ReplyTo lists the Reply-To addresses; answers go there when present.
	ReplyTo []Address
	// To and Cc list the addresses of those header fields.
	To, Cc []Address
	// DeliveredTo and XOriginalTo hold the addresses of every Delivered-To
	// and X-Original-To trace field, which name the envelope recipient even
	// when the player wrote another address in To.
	DeliveredTo, XOriginalTo []string
	// Subject is the decoded Subject.
	Subject string
	// Date is the Date field; zero when missing or unparsable.
	Date time.Time
	// InReplyTo and References list message IDs without angle brackets.
	InReplyTo, References []string
	// Text is the best plain-text rendering of the body: the text/plain
	// part when there is one, otherwise the text/html part converted to
	// text. Line breaks are "\n", format=flowed is unwrapped, trailing
	// spaces are removed. Empty when Oversized.
	Text string
	// Attachments lists the parts that were not used for Text.
	Attachments []Attachment
	// Header holds every top-level header field, undecoded, keyed by
	// canonical name (textproto.CanonicalMIMEHeaderKey).
	Header textproto.MIMEHeader
	// Size is the size of the raw message in bytes. When Oversized it is a
	// lower bound, unless the transport knew the exact size.
	Size int64
	// Oversized reports that the message was bigger than the size limit:
	// only its beginning was read, the header fields are parsed where they
	// fitted and the body is not.
	Oversized bool
	// Unreadable, when not empty, says which of the Limits the message
	// broke: its header fields are parsed, its body is not read and Text is
	// empty. Such a mail is to be set aside (see ErrSetAside), not retried.
	Unreadable string
}

// Limits bound what reading one mail may cost, so that a hostile mail within
// the size limit cannot make the judge work or allocate without end. Zero
// fields take the defaults of DefaultLimits.
type Limits struct {
	// MaxHeaderFields bounds the header fields of the mail and of each of
	// its MIME parts.
	MaxHeaderFields int
	// MaxParts bounds the MIME parts of the mail, at every level of
	// nesting together.
	MaxParts int
}

// DefaultLimits are far above what any mail client writes: a few dozen
// header fields, a handful of parts.
var DefaultLimits = Limits{MaxHeaderFields: 1000, MaxParts: 1000}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	l.MaxHeaderFields = cmp.Or(l.MaxHeaderFields, DefaultLimits.MaxHeaderFields)
	l.MaxParts = cmp.Or(l.MaxParts, DefaultLimits.MaxParts)
	return l
}

// Attachment is a body part that is not text.
type Attachment struct {
	Filename    string // may be empty
	ContentType string // media type, e.g. "image/jpeg"
	// Data is the part's content, its transfer encoding undone: what the
	// sender attached (the judge's situation.json, say).
	Data []byte
	// Charset is the charset parameter of a text part, "" when none.
	Charset string
}

// Text returns a text/plain attachment's content as UTF-8 text, line
// breaks normalised; ok is false for any other attachment.
func (a Attachment) Text() (text string, ok bool) {
	if a.ContentType != "text/plain" {
		return "", false
	}
	return normalizeText(decodeText("", a.Charset, a.Data)), true
}

// Recipients returns every recipient address of the mail: To, Cc,
// Delivered-To and X-Original-To, in that order, without duplicates
// (compared case-insensitively).
func (in *Inbound) Recipients() []string {
	var out []string
	seen := make(map[string]bool)
	add := func(email string) {
		key := strings.ToLower(email)
		if email == "" || seen[key] {
			return
		}
		seen[key] = true
		out = append(out, email)
	}
	for _, a := range in.To {
		add(a.Email)
	}
	for _, a := range in.Cc {
		add(a.Email)
	}
	for _, email := range in.DeliveredTo {
		add(email)
	}
	for _, email := range in.XOriginalTo {
		add(email)
	}
	return out
}

// ReplyReferences returns the References an answer to this mail should
// carry (RFC 5322 section 3.6.4): this mail's References, or failing those
// its single In-Reply-To, followed by its Message-ID.
func (in *Inbound) ReplyReferences() []string {
	var refs []string
	switch {
	case len(in.References) > 0:
		refs = append(refs, in.References...)
	case len(in.InReplyTo) == 1:
		refs = append(refs, in.InReplyTo[0])
	}
	if in.MessageID != "" {
		refs = append(refs, in.MessageID)
	}
	return refs
}

// maxPartDepth bounds the nesting of multiparts followed by Parse, so that a
// hostile message cannot make it recurse without end: each level holds a
// copy of its parts. Mail clients nest three or four levels deep.
const maxPartDepth = 8

// Parse reads a raw RFC 5322 message from r and parses it.
//
// At most limit+1 bytes are read: a longer message comes back with
// Oversized set, its header fields parsed where they fitted within limit and
// no Text. A limit of zero or less means no limit. A message beyond
// DefaultLimits comes back Unreadable.
//
// Malformed MIME gives a best-effort result. Parse returns an error only
// when r fails or when the message has no readable header section.
func Parse(r io.Reader, limit int64) (*Inbound, error) {
	if limit > 0 {
		r = io.LimitReader(r, limit+1)
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("mail: reading message: %w", err)
	}
	return parseBytes(raw, limit, DefaultLimits)
}

// parseBytes parses a raw message of which at most limit+1 bytes were read.
func parseBytes(raw []byte, limit int64, limits Limits) (*Inbound, error) {
	limits = limits.withDefaults()
	in := &Inbound{Size: int64(len(raw))}
	if limit > 0 && int64(len(raw)) > limit {
		in.Oversized = true
		raw = raw[:limit]
	}

	br := bufio.NewReader(bytes.NewReader(raw))
	h, err := msgtextproto.ReadHeader(br)
	if err != nil {
		if in.Oversized {
			// The header section itself did not fit: still report the size
			// so that the caller can log it.
			return in, nil
		}
		return nil, fmt.Errorf("mail: reading header: %w", err)
	}
	header := gomail.Header{Header: message.Header{Header: h}}
	in.parseHeader(header)
	if in.Oversized {
		return in, nil
	}
	if h.Len() > limits.MaxHeaderFields {
		in.Unreadable = fmt.Sprintf("more than %d header fields", limits.MaxHeaderFields)
		return in, nil
	}

	var body bodyText
	budget := &partBudget{limits: limits, partsLeft: limits.MaxParts}
	rest, _ := io.ReadAll(br) // reading from memory cannot fail
	in.walk(header.Header, rest, 0, budget, &body)
	if budget.broken != "" {
		in.Unreadable = budget.broken
		in.Attachments = nil
		return in, nil
	}
	in.Text = body.best()
	return in, nil
}

// partBudget counts what walking a MIME tree may still read.
type partBudget struct {
	limits    Limits
	partsLeft int
	broken    string // the limit broken, once one is
}

// take accounts for one more part with header h; false when a limit is
// broken and the walk must stop.
func (b *partBudget) take(h message.Header) bool {
	switch {
	case b.broken != "":
	case b.partsLeft == 0:
		b.broken = fmt.Sprintf("more than %d MIME parts", b.limits.MaxParts)
	case h.Len() > b.limits.MaxHeaderFields:
		b.broken = fmt.Sprintf("a MIME part with more than %d header fields", b.limits.MaxHeaderFields)
	default:
		b.partsLeft--
		return true
	}
	return false
}

// parseHeader fills the header-derived fields.
func (in *Inbound) parseHeader(h gomail.Header) {
	in.Header = make(textproto.MIMEHeader)
	for fields := h.Fields(); fields.Next(); {
		key := textproto.CanonicalMIMEHeaderKey(fields.Key())
		in.Header[key] = append(in.Header[key], fields.Value())
	}

	in.MessageID = firstOrEmpty(parseMsgIDs(h.Get("Message-Id")))
	if from := parseAddressList(h.Get("From")); len(from) > 0 {
		in.From = from[0]
	}
	in.ReplyTo = parseAddressList(h.Get("Reply-To"))
	in.To = parseAddressList(h.Get("To"))
	in.Cc = parseAddressList(h.Get("Cc"))
	for _, v := range h.Values("Delivered-To") {
		if email := parseBareAddress(v); email != "" {
			in.DeliveredTo = append(in.DeliveredTo, email)
		}
	}
	for _, v := range h.Values("X-Original-To") {
		if email := parseBareAddress(v); email != "" {
			in.XOriginalTo = append(in.XOriginalTo, email)
		}
	}
	// On a decoding error Subject returns the raw value, which is the best
	// there is.
	subject, _ := h.Subject()
	in.Subject = strings.ToValidUTF8(strings.TrimSpace(subject), "\uFFFD")
	if date, err := h.Date(); err == nil {
		in.Date = date
	}
	in.InReplyTo = parseMsgIDs(h.Get("In-Reply-To"))
	in.References = parseMsgIDs(h.Get("References"))
}

// msgIDPattern finds message IDs in angle brackets.
var msgIDPattern = regexp.MustCompile(`<([^<>\s]+)>`)

// parseMsgIDs extracts the message IDs of a Message-ID, In-Reply-To or
// References value. Mailers write these fields sloppily (missing brackets,
// comments, quoted phrases), so any bracketed token counts, and a value
// without brackets is taken as one bare ID.
func parseMsgIDs(value string) []string {
	var ids []string
	for _, m := range msgIDPattern.FindAllStringSubmatch(value, -1) {
		ids = append(ids, m[1])
	}
	if ids == nil {
		if bare := strings.TrimSpace(value); bare != "" && !strings.ContainsAny(bare, " \t<>") {
			ids = append(ids, bare)
		}
	}
	return ids
}

func firstOrEmpty(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// bodyText collects the candidate texts found in a MIME tree.
type bodyText struct {
	plain []string // decoded text/plain parts, in message order
	html  []string // text/html parts converted to text, in message order
}

// best joins the text/plain parts, or failing those (or when they are
// blank, as some programs send them beside the HTML) the HTML parts.
func (b *bodyText) best() string {
	if text := joinTexts(b.plain); text != "" {
		return text
	}
	return joinTexts(b.html)
}

func joinTexts(parts []string) string {
	var texts []string
	for _, p := range parts {
		if p = normalizeText(p); p != "" {
			texts = append(texts, p)
		}
	}
	return strings.Join(texts, "\n\n")
}

// walk collects the texts of the entity with header h and undecoded body
// into out, and notes attachments in in.Attachments.
func (in *Inbound) walk(h message.Header, body []byte, depth int, budget *partBudget, out *bodyText) {
	mediaType, params, err := h.ContentType()
	if err != nil || mediaType == "" {
		// RFC 2045 section 5.2: a missing or unparsable Content-Type means
		// plain text.
		mediaType = "text/plain"
	}
	disposition, dispParams, _ := h.ContentDisposition()
	filename := dispParams["filename"]
	if filename == "" {
		filename = params["name"]
	}

	switch {
	case strings.HasPrefix(mediaType, "multipart/"):
		if depth >= maxPartDepth {
			return
		}
		in.walkMultipart(mediaType, params["boundary"], body, depth, budget, out)
	case (mediaType == "text/plain" || mediaType == "text/html") && disposition != "attachment":
		text := decodeText(h.Get("Content-Transfer-Encoding"), params["charset"], body)
		if mediaType == "text/html" {
			out.html = append(out.html, htmlToText(text))
			return
		}
		if strings.EqualFold(params["format"], "flowed") {
			text = unflow(text, strings.EqualFold(params["delsp"], "yes"))
		}
		out.plain = append(out.plain, text)
	default:
		in.Attachments = append(in.Attachments, Attachment{Filename: decodeWords(filename), ContentType: mediaType,
			Data: decodeTransfer(h.Get("Content-Transfer-Encoding"), body), Charset: params["charset"]})
	}
}

// walkMultipart walks the parts of a multipart entity. In
// multipart/alternative only the first part that yields plain text is used
// (or else the first with HTML), since the parts are the same content in
// different formats; in every other multipart all parts are used.
func (in *Inbound) walkMultipart(mediaType, boundary string, body []byte, depth int, budget *partBudget, out *bodyText) {
	// One part more than the budget is enough to tell it is broken.
	maxParts := budget.partsLeft + 1
	parts := splitMultipart(body, boundary, maxParts)
	if len(parts) == 0 {
		// The declared boundary is missing or wrong, a common breakage of
		// hand-rolled mailers: try the delimiter the body actually uses.
		if guessed := guessBoundary(body); guessed != "" && guessed != boundary {
			parts = splitMultipart(body, guessed, maxParts)
		}
	}

	var alternatives []bodyText
	for _, part := range parts {
		if !budget.take(part.header) {
			return
		}
		if mediaType == "multipart/alternative" {
			var alt bodyText
			in.walk(part.header, part.body, depth+1, budget, &alt)
			alternatives = append(alternatives, alt)
		} else {
			in.walk(part.header, part.body, depth+1, budget, out)
		}
	}
	for _, alt := range alternatives {
		if joinTexts(alt.plain) != "" {
			out.plain = append(out.plain, alt.plain...)
			return
		}
	}
	for _, alt := range alternatives {
		if len(alt.html) > 0 {
			out.html = append(out.html, alt.html...)
			return
		}
	}
}

// rawPart is one part of a multipart body, its body still encoded.
type rawPart struct {
	header message.Header
	body   []byte
}

// splitMultipart splits a multipart body at boundary into at most maxParts
// parts. It returns the parts read before the end or before the first
// error: a part cut short by a missing closing delimiter is kept with what
// it has.
func splitMultipart(body []byte, boundary string, maxParts int) []rawPart {
	if boundary == "" {
		return nil
	}
	mr := msgtextproto.NewMultipartReader(bytes.NewReader(body), boundary)
	var parts []rawPart
	for len(parts) < maxParts {
		part, err := mr.NextPart()
		if err != nil {
			return parts
		}
		partBody, _ := io.ReadAll(part)
		parts = append(parts, rawPart{header: message.Header{Header: part.Header}, body: partBody})
	}
	return parts
}

// guessBoundary returns the boundary of the first line that looks like a
// multipart delimiter ("--" followed by a token), or "".
func guessBoundary(body []byte) string {
	for line := range bytes.Lines(body) {
		line = bytes.TrimRight(line, " \t\r\n")
		if len(line) > 2 && bytes.HasPrefix(line, []byte("--")) && !bytes.ContainsAny(line, " \t") {
			return string(bytes.TrimSuffix(line[2:], []byte("--")))
		}
	}
	return ""
}

// decodeText decodes a text part's transfer encoding and charset into
// UTF-8. Corrupt encoded data gives the text decoded so far, an unknown
// charset the bytes as they are (invalid UTF-8 replaced), rather than
// nothing.
func decodeText(transferEncoding, charset string, raw []byte) string {
	decoded := decodeTransfer(transferEncoding, raw)
	charset = strings.ToLower(strings.TrimSpace(charset))
	switch charset {
	case "", "us-ascii", "utf-8", "utf8":
		if utf8.Valid(decoded) {
			return string(decoded)
		}
		// Undeclared or mislabelled 8-bit text is nearly always Windows
		// Latin-1 in practice.
		charset = "windows-1252"
	}
	if message.CharsetReader != nil {
		if cr, err := message.CharsetReader(charset, bytes.NewReader(decoded)); err == nil {
			if converted, err := io.ReadAll(cr); err == nil {
				return strings.ToValidUTF8(string(converted), "\uFFFD")
			}
		}
	}
	return strings.ToValidUTF8(string(decoded), "\uFFFD")
}

// decodeTransfer undoes a part's transfer encoding. Corrupt encoded data
// gives what was decoded before it, rather than nothing.
func decodeTransfer(transferEncoding string, raw []byte) []byte {
	switch strings.ToLower(strings.TrimSpace(transferEncoding)) {
	case "quoted-printable":
		decoded, _ := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(raw)))
		return decoded
	case "base64":
		return decodeBase64Prefix(raw)
	}
	return raw
}

// decodeBase64Prefix decodes base64 data, ignoring whitespace anywhere, and
// keeps the bytes decoded before the first corrupt quantum.
func decodeBase64Prefix(raw []byte) []byte {
	compact := make([]byte, 0, len(raw))
	for _, b := range raw {
		if b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			compact = append(compact, b)
		}
	}
	decoded := make([]byte, base64.StdEncoding.DecodedLen(len(compact)))
	n, _ := base64.StdEncoding.Decode(decoded, compact)
	return decoded[:n]
}

// decodeWords decodes RFC 2047 encoded words in a parameter such as a
// filename; some mailers encode filenames that way instead of RFC 2231.
func decodeWords(s string) string {
	dec := mime.WordDecoder{CharsetReader: message.CharsetReader}
	if decoded, err := dec.DecodeHeader(s); err == nil {
		return decoded
	}
	return s
}

// invisibleChars are characters that take no room, which mail programs
// slip into text (zero-width spaces and joiners, byte order marks, Gmail's
// tracking mark): a word with one would not read as the word.
var invisibleChars = strings.NewReplacer("\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "", "\u1427", "")

// normalizeText turns CRLF and CR line breaks into LF, removes invisible
// characters and trailing spaces from every line and trims blank lines at
// both ends.
func normalizeText(s string) string {
	s = invisibleChars.Replace(s)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		lines[i] = strings.TrimRight(line, " \t")
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}
