package pbem

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"

	"fieldpost/engine"
	"fieldpost/mail"
)

// readMail reads what a mail asks, from what its sender wrote (quotes and
// signatures removed), or when that is nothing, from a small text
// attachment; a mail that only quotes the judge's mail with its order form
// asks for orders, which may be in the form.
func readMail(msg *mail.Inbound) *request {
	return readStripped(msg, mail.StripQuoted(msg.Text))
}

// readStripped is readMail of a mail whose own text, quotes and
// signatures removed, is own.
func readStripped(msg *mail.Inbound, own string) *request {
	req := readRequest(own, msg.Subject)
	if req.Empty {
		if name, text := orderAttachment(msg); name != "" {
			req = readRequest(text, msg.Subject)
			req.Attachment = name
		}
	}
	if req.Empty && quotedForm(msg.Text) != "" {
		// Only the judge's mail quoted back, but with its order form: the
		// player may have changed the form there (see readOrders).
		req.Empty = false
	}
	return req
}

// maxOrderAttachment is the size of the largest text attachment read for
// orders: an order form is a few kilobytes.
const maxOrderAttachment = 64 << 10

// orderAttachment returns the name and text of the first small text/plain
// attachment of msg, where a player may have put the order form; "" when
// there is none.
func orderAttachment(msg *mail.Inbound) (name, text string) {
	for _, a := range msg.Attachments {
		if len(a.Data) > maxOrderAttachment {
			continue
		}
		if text, ok := a.Text(); ok && text != "" {
			return cmp.Or(a.Filename, "(a text without a name)"), text
		}
	}
	return "", ""
}

// readOrders reads a side's orders for position st of game from a
// request's text. The judge knows what it sends: a copy of its own mail in
// the text, quoted back without any mark, is no orders; and when the text
// holds no orders, they are the order form in that copy if the player
// edited it there (noted in req.FromQuotedForm), or else the mail's text
// attachment (noted in req.Attachment).
func readOrders(pos engine.Position, side, game string, req *request, msg *mail.Inbound, check bool, maxErrors int) engine.Reading {
	text := withoutOwnMail(req.Text, game, pos.Title())
	if check {
		text = blankLine(text, req.Line)
	}
	reading := readOf(pos, side, text, maxErrors)
	if reading.Errors > 0 || reading.Found || req.Attachment != "" {
		return reading
	}
	if form := quotedForm(msg.Text); form != "" {
		edited := readOf(pos, side, form, maxErrors)
		forNow := edited.Round == 0 || edited.Round == pos.Turn()+1 // not an old form
		if edited.Found && forNow && (edited.Errors > 0 || !sameOrders(edited, readOf(pos, side, formOf(pos, side, game), maxErrors))) {
			req.FromQuotedForm = true
			return edited
		}
	}
	if name, attached := orderAttachment(msg); name != "" {
		if fromFile := readOf(pos, side, attached, maxErrors); fromFile.Found {
			reading, req.Attachment = fromFile, name
		}
	}
	return reading
}

// sameOrders reports whether two readings hold the same valid orders.
func sameOrders(a, b engine.Reading) bool {
	if a.Orders == nil || b.Orders == nil {
		return false
	}
	x, errX := a.Orders.Marshal()
	y, errY := b.Orders.Marshal()
	return errX == nil && errY == nil && bytes.Equal(x, y)
}

// ownMailStart reports whether a line opens one of the judge's mails about
// game: its title line, or "Game ID, ..." / "Game ID: ...".
func ownMailStart(line, game, title string) bool {
	line = strings.TrimSpace(line)
	return game != "" && (strings.HasPrefix(line, "Game "+game+",") || strings.HasPrefix(line, "Game "+game+":")) ||
		title != "" && line == title
}

// withoutOwnMail cuts text where a copy of one of the judge's mails about
// game begins: a line that opens such a mail, followed further down by the
// order form's marker, which every such mail ends with.
func withoutOwnMail(text, game, title string) string {
	lines := strings.Split(text, "\n")
	lastMarker := -1
	for i, line := range lines {
		if strings.TrimSpace(line) == formMarker {
			lastMarker = i
		}
	}
	for i, line := range lines[:max(lastMarker, 0)] {
		if ownMailStart(line, game, title) {
			return strings.Join(lines[:i], "\n")
		}
	}
	return text
}

// quotedForm returns the order form of a copy of the judge's mail in text,
// quote marks (">") removed, from the line after its marker: "" when
// there is none.
func quotedForm(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if unquoteLine(line) != formMarker {
			continue
		}
		form := make([]string, 0, len(lines)-i)
		for _, l := range lines[i+1:] {
			form = append(form, unquoteLine(l))
		}
		return strings.Join(form, "\n")
	}
	return ""
}

func unquoteLine(line string) string {
	for {
		trimmed := strings.TrimLeft(line, " ")
		if !strings.HasPrefix(trimmed, ">") {
			return strings.TrimSpace(line)
		}
		line = strings.TrimPrefix(trimmed, ">")
	}
}

// Explained messages of the order reading, shared by the mail answers and
// the offline check.
const (
	onlyQuotedText = "Your mail held only quoted text (the judge's mail quoted back, or a signature), with nothing " +
		"written around it, so nothing was done. Write your orders or a command on lines of their own, above or " +
		"below the quoted text: lines starting with \">\" are never read."
	noReadableText = "Your mail had no text the judge could read (an empty mail, or only a picture or attachment)."
	noOrdersFound  = "The judge found neither orders nor a command in your mail, so nothing was done.\n" +
		"Orders start with a line such as \"BN 1/120 M\" (the order form at the end of every report\n" +
		"has them all); commands are listed below."
)

// noOrdersWhy says why a mail asking for orders held none.
func noOrdersWhy(req *request) string {
	if strings.TrimSpace(req.Text) == "" {
		return onlyQuotedText
	}
	return noOrdersFound
}

// CheckMail reads a mail as the judge reads a mail from side's player about
// position st, and says what it read and what the answer would say: the
// game master's tool for "why was my mail refused?". It does what the
// judge does up to the answer (automatic mail, size, MIME, charsets, HTML,
// quotes, signatures, attachments, commands) and changes nothing. With
// showText the report first shows the text the judge read. orders are the
// orders the judge would accept, nil when it would not.
func CheckMail(pos engine.Position, side, game string, msg *mail.Inbound, maxSize int64, showText bool) (report string, orders engine.Orders) {
	var b strings.Builder
	if reason, auto := mail.DetectAutomatic(msg, nil); auto {
		fmt.Fprintf(&b, "The judge would not answer this mail: it was sent by a machine (%s). It is only logged.\n", reason)
		return b.String(), nil
	}
	if msg.Oversized {
		fmt.Fprintf(&b, "The judge would not read this mail: it is larger than %s.\n", byteSize(maxSize))
		return b.String(), nil
	}
	req := readMail(msg)
	if req.Empty {
		why := noReadableText
		if strings.TrimSpace(msg.Text) != "" {
			why = onlyQuotedText
		}
		fmt.Fprintf(&b, "The judge read no text of the sender's in this mail. The answer (help) would say:\n\n%s\n", why)
		return b.String(), nil
	}
	if showText {
		b.WriteString("What the judge read as the sender's own text")
		if req.Attachment != "" {
			fmt.Fprintf(&b, " (from the attachment %s)", req.Attachment)
		}
		b.WriteString(":\n\n")
		for i, line := range strings.Split(req.Text, "\n") {
			fmt.Fprintf(&b, "%4d  %s\n", i+1, line)
		}
		b.WriteString("\n")
	}
	if req.Command != cmdOrders && req.Command != cmdCheck {
		fmt.Fprintf(&b, "The mail gives the command %s, not orders.\n", req.Command)
		return b.String(), nil
	}
	reading := readOrders(pos, side, game, req, msg, req.Command == cmdCheck, DefaultLimits.MaxErrors)
	notes := readingNotes(req, reading)
	switch {
	case reading.Errors == 0 && !reading.Found && req.SubjectCommand != "":
		fmt.Fprintf(&b, "The mail holds no orders: the judge would do the command of its subject, %s.\n", req.SubjectCommand)
		return b.String(), nil
	case reading.Errors == 0 && !reading.Found:
		fmt.Fprintf(&b, "The answer (No orders found) would say:\n\n%s\n", noOrdersWhy(req))
		return b.String(), nil
	case reading.Errors > 0:
		fmt.Fprintf(&b, "The answer would say:\n\n%s%s", reading.Answer, notes)
		return b.String(), nil
	}
	if req.Command == cmdCheck {
		b.WriteString("The mail asks for a CHECK: the orders would be checked, not stored.\n")
	}
	fmt.Fprintf(&b, "The answer would say:\n\n%s%s", reading.Answer, notes)
	return b.String(), reading.Orders
}

// TextMail is a file of orders as the body of a mail, so that the offline
// tools read it exactly as the judge reads a mail's text.
func TextMail(body []byte) (*mail.Inbound, error) {
	raw := append([]byte("Content-Type: text/plain; charset=utf-8\r\n\r\n"), body...)
	return mail.Parse(bytes.NewReader(raw), 0)
}
