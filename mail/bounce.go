package mail

import (
	"bufio"
	"bytes"
	"cmp"
	"mime"
	"net/textproto"
	"regexp"
	"slices"
	"strings"
)

// Bounce is what a delivery failure notice says: which recipients could not
// be reached and why, and which mail failed.
type Bounce struct {
	// Recipients are the addresses the notice says failed, for good.
	Recipients []BouncedRecipient
	// MessageIDs are the Message-IDs, without angle brackets, that the
	// notice quotes: the returned mail's, from its returned header or its
	// text. They may include others quoted along; match them against the
	// mails sent.
	MessageIDs []string
}

// BouncedRecipient is one failed recipient of a delivery status
// notification.
type BouncedRecipient struct {
	Address string
	// Status is the enhanced status code (RFC 3463), e.g. "5.1.1"; "" when
	// the notice gives none.
	Status string
	// Diagnostic is the remote server's answer or the notice's own words.
	Diagnostic string
}

// Reason says in one line why the mail failed, for people.
func (b *Bounce) Reason() string {
	for _, r := range b.Recipients {
		if why := strings.TrimSpace(strings.Join([]string{r.Status, r.Diagnostic}, " ")); why != "" {
			return why
		}
	}
	return "the mail server returned the mail as undeliverable"
}

// ReadBounce reads msg as a delivery failure notice: a delivery status
// notification (RFC 3464, multipart/report; report-type=delivery-status)
// with a recipient whose Action is failed, or a non-standard bounce: a mail
// from the mailer daemon or postmaster, or with the null sender, whose
// subject says delivery failed (as qmail, older Exim and Postfix, Exchange
// and the big providers write them). Warnings that a mail is delayed, and
// reports of successful delivery, are not bounces. ok is false for every
// other mail.
func ReadBounce(msg *Inbound) (b *Bounce, ok bool) {
	if mediaType, params, _ := mime.ParseMediaType(msg.Header.Get("Content-Type")); mediaType == "multipart/report" {
		if !strings.EqualFold(params["report-type"], "delivery-status") {
			return nil, false // a read receipt or another report
		}
		return readDSN(msg)
	}
	if !fromMailerDaemon(msg) || !failureSubject.MatchString(msg.Subject) || delaySubject.MatchString(msg.Subject) {
		return nil, false
	}
	b = &Bounce{MessageIDs: quotedMessageIDs(msg)}
	diagnostic := firstMatch(diagnosticLine, msg.Text)
	for _, addr := range failedAddresses(msg.Text) {
		b.Recipients = append(b.Recipients, BouncedRecipient{Address: addr, Status: firstMatch(statusCode, diagnostic), Diagnostic: diagnostic})
	}
	if len(b.Recipients) == 0 && diagnostic != "" {
		b.Recipients = append(b.Recipients, BouncedRecipient{Status: firstMatch(statusCode, diagnostic), Diagnostic: diagnostic})
	}
	return b, true
}

// readDSN reads a multipart/report delivery status notification.
func readDSN(msg *Inbound) (*Bounce, bool) {
	b := &Bounce{MessageIDs: quotedMessageIDs(msg)}
	for _, a := range msg.Attachments {
		if a.ContentType != "message/delivery-status" && a.ContentType != "message/global-delivery-status" {
			continue
		}
		for _, fields := range statusGroups(a.Data) {
			// The per-message group has no Action; each recipient's has.
			if !strings.EqualFold(strings.TrimSpace(fields.Get("Action")), "failed") {
				continue
			}
			b.Recipients = append(b.Recipients, BouncedRecipient{
				Address:    typedAddress(cmp.Or(fields.Get("Final-Recipient"), fields.Get("Original-Recipient"))),
				Status:     strings.TrimSpace(fields.Get("Status")),
				Diagnostic: typedValue(fields.Get("Diagnostic-Code")),
			})
		}
	}
	return b, len(b.Recipients) > 0
}

// statusGroups splits the body of a message/delivery-status into its groups
// of fields (RFC 3464 section 2.1): the per-message fields, then one group
// per recipient, separated by blank lines.
func statusGroups(data []byte) []textproto.MIMEHeader {
	var groups []textproto.MIMEHeader
	r := textproto.NewReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		h, err := r.ReadMIMEHeader()
		if len(h) > 0 {
			groups = append(groups, h)
		}
		if err != nil {
			return groups
		}
	}
}

// typedValue is a DSN field's value without its type: "smtp; 550 5.1.1
// unknown" -> "550 5.1.1 unknown".
func typedValue(v string) string {
	if _, after, ok := strings.Cut(v, ";"); ok {
		v = after
	}
	return strings.Join(strings.Fields(v), " ")
}

// typedAddress is the address of a DSN recipient field: "rfc822;
// <bob@example.de>" -> "bob@example.de".
func typedAddress(v string) string {
	return strings.Trim(typedValue(v), "<>")
}

// fromMailerDaemon reports whether msg comes from mail software returning
// a mail: the null sender, or the mailer daemon or postmaster.
func fromMailerDaemon(msg *Inbound) bool {
	for _, v := range msg.Header.Values("Return-Path") {
		if strings.ReplaceAll(strings.TrimSpace(v), " ", "") == "<>" {
			return true
		}
	}
	local, _, _ := strings.Cut(canonicalEmail(msg.From.Email), "@")
	return local == "mailer-daemon" || local == "postmaster" || local == "mail-daemon"
}

// The subjects of non-standard bounces, and of delay warnings, which are
// not bounces.
var (
	failureSubject = regexp.MustCompile(`(?i)undeliver|undelivered|delivery (status notification \(failure\)|fail|has failed|failure)|` +
		`failure notice|returned mail|mail delivery failed|could not be delivered|non remis|unzustellbar|nicht zustellbar`)
	delaySubject = regexp.MustCompile(`(?i)delay|warning|still undelivered|not yet been delivered`)
)

var (
	// diagnosticLine is a line with an SMTP error: a 5xx reply or a 5.x.x
	// status code.
	diagnosticLine = regexp.MustCompile(`(?m)^.*\b(5\d\d[ -]|5\.\d{1,3}\.\d{1,3}\b).*$`)
	statusCode     = regexp.MustCompile(`\b[245]\.\d{1,3}\.\d{1,3}\b`)
	// qmailRecipient is qmail's "<bob@example.de>:" line; indentedAddress
	// the address lines after Exim's and Postfix's "The following
	// address(es) failed:".
	qmailRecipient  = regexp.MustCompile(`(?m)^<([^<>\s@]+@[^<>\s@]+)>:\s*$`)
	indentedAddress = regexp.MustCompile(`(?m)^[ \t]+<?([^<>\s@:]+@[^<>\s@:]+?)>?(?:[:\s].*)?$`)
	failedIntro     = regexp.MustCompile(`(?i)(following (address|recipient)\(?e?s?\)? failed|could not be delivered to|delivery to the following recipient)`)
	messageIDField  = regexp.MustCompile(`(?im)^[ \t>]*Message-ID:[ \t]*<([^<>\s]+)>`)
)

// failedAddresses finds the failed recipients a non-standard bounce names.
func failedAddresses(text string) []string {
	var out []string
	for _, m := range qmailRecipient.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	if loc := failedIntro.FindStringIndex(text); loc != nil {
		// The addresses follow the introduction, up to the first blank
		// line after them.
		rest := text[loc[1]:]
		_, rest, _ = strings.Cut(rest, "\n")
		for line := range strings.Lines(rest) {
			if strings.TrimSpace(line) == "" {
				if len(out) > 0 {
					break
				}
				continue
			}
			if m := indentedAddress.FindStringSubmatch(strings.TrimRight(line, "\n")); m != nil {
				out = append(out, m[1])
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// quotedMessageIDs finds the Message-IDs a bounce quotes: in its returned
// message or header part, and in its text, where non-standard bounces
// copy the returned mail.
func quotedMessageIDs(msg *Inbound) []string {
	var ids []string
	for _, a := range msg.Attachments {
		switch a.ContentType {
		case "message/rfc822", "text/rfc822-headers", "message/global", "message/global-headers":
			for _, m := range messageIDField.FindAllSubmatch(a.Data, -1) {
				ids = append(ids, string(m[1]))
			}
		}
	}
	for _, m := range messageIDField.FindAllStringSubmatch(msg.Text, -1) {
		ids = append(ids, m[1])
	}
	var out []string
	for _, id := range ids {
		if !slices.Contains(out, id) && id != msg.MessageID {
			out = append(out, id)
		}
	}
	return out
}

func firstMatch(re *regexp.Regexp, s string) string {
	return strings.TrimSpace(re.FindString(s))
}
