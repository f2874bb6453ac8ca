package pbem

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
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
// request's text, and returns the reading with the text read. The judge
// knows what it sends: a copy of its own mail in the text, quoted back
// without any mark, is no orders; lines the player wrote between the quoted
// lines of its order form are orders read in the form (noted in
// req.Inline); and when the text holds no orders, they are the order form
// in that copy if the player edited it there (noted in
// req.FromQuotedForm), or else the mail's text attachment (noted in
// req.Attachment).
func readOrders(pos engine.Position, side, game string, req *request, msg *mail.Inbound, check bool, maxErrors int) (engine.Reading, string) {
	text := withoutOwnMail(req.Text, game, pos.Title())
	if check {
		text = blankLine(text, req.Line)
	}
	if greeting, form, ok := inlineForm(msg.Text, text); ok && !readOf(pos, side, greeting, maxErrors).Found {
		text, req.Inline = form, true
	}
	reading := readOf(pos, side, text, maxErrors)
	if reading.Errors > 0 || reading.Found || req.Attachment != "" {
		return reading, text
	}
	if form := quotedForm(msg.Text); form != "" {
		edited := readOf(pos, side, form, maxErrors)
		forNow := edited.Round == 0 || edited.Round == pos.Turn()+1 // not an old form
		changed := edited.Errors > 0 || isRefusalForm(form) || !sameOrders(edited, readOf(pos, side, formOf(pos, side, game), maxErrors))
		if edited.Found && forNow && changed {
			req.FromQuotedForm = true
			return edited, form
		}
	}
	if name, attached := orderAttachment(msg); name != "" {
		if fromFile := readOf(pos, side, attached, maxErrors); fromFile.Found {
			reading, req.Attachment, text = fromFile, name, attached
		}
	}
	return reading, text
}

// The form of a refusal is the player's own orders, each error written
// under its line; it opens with these comment lines. A reply quoting it
// back is the player's orders even where they came back to the order
// form's.
const (
	refusalFormHead = "# Your orders as the judge read them, each error in the lines under it"
	refusalFormHelp = "# (#!!). Correct them here and reply; lines starting with # are not read."
)

// refusalForm is the form of a refusal: the text read with its problems
// under their lines; "" when it is larger than limit or than an order
// form can be (a mail of junk), too large to hand back.
func refusalForm(text string, problems []engine.Problem, limit int64) string {
	form := refusalFormHead + "\n" + refusalFormHelp + "\n" + engine.Annotate(text, problems)
	if len(form) > maxOrderAttachment || int64(len(form)) > limit {
		return ""
	}
	return form
}

// isRefusalForm reports whether a form is a refusal's.
func isRefusalForm(form string) bool {
	first, _, _ := strings.Cut(strings.TrimLeft(form, "\n"), "\n")
	return strings.TrimSpace(first) == refusalFormHead
}

// inlineForm reads a reply that answers inside the judge's order form: its
// text quotes the form (">" lines from the form's marker on) and the
// player wrote lines of their own between the quoted lines. The orders are
// then the form with those lines in it (see placeWritten). own is what
// the player wrote, the quotes taken out: besides the lines in the form it
// may only hold lines above the quoted mail, returned as greeting for the
// caller to make sure they are no orders; a line written below the form is
// orders of its own, and the mail is then read as usual.
func inlineForm(text, own string) (greeting, form string, ok bool) {
	lines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(text), "\n")
	marker, last := -1, -1
	for i, line := range lines {
		quoted := strings.HasPrefix(strings.TrimSpace(line), ">")
		switch {
		case marker < 0 && quoted && unquoteLine(line) == formMarker:
			marker = i
		case marker >= 0 && quoted:
			last = i
		}
	}
	if marker < 0 || last < 0 {
		return "", "", false
	}
	var inForm []formLine
	var written []string
	for _, line := range lines[marker+1 : last+1] {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, ">"):
			inForm = append(inForm, formLine{text: unquoteLine(line), quoted: true})
		case trimmed != "":
			inForm = append(inForm, formLine{text: line})
			written = append(written, trimmed)
		}
	}
	if len(written) == 0 {
		return "", "", false
	}
	// The rest of what the player wrote must be above the quoted mail.
	ownLines := nonBlankLines(own)
	for len(written) > 0 && len(ownLines) > 0 && ownLines[len(ownLines)-1] == written[len(written)-1] {
		ownLines, written = ownLines[:len(ownLines)-1], written[:len(written)-1]
	}
	if len(written) > 0 || !above(ownLines, lines[:marker]) {
		return "", "", false
	}
	return strings.Join(ownLines, "\n"), strings.Join(placeWritten(inForm), "\n"), true
}

// formLine is a line of a quoted order form, or one the player wrote in it.
type formLine struct {
	text   string
	quoted bool
}

// placeWritten puts the player's lines in the quoted form: a line replaces
// the quoted line that starts with the same two words (a battery's
// ARTILLERY line, a stand and its hex), the nearest one, else the quoted
// line just above it when both start with the same word (a unit's or a
// stand's line, edited), else it is added where it stands.
func placeWritten(form []formLine) []string {
	replaced := make(map[int]string) // index of a quoted line -> the line replacing it
	dropped := make(map[int]bool)    // the player's lines put in place of a quoted one
	for i, l := range form {
		if l.quoted {
			continue
		}
		target := -1
		for d := 1; d < len(form) && target < 0; d++ {
			for _, j := range []int{i - d, i + d} {
				if j >= 0 && j < len(form) && form[j].quoted && replaced[j] == "" && sameWords(form[j].text, l.text, 2) {
					target = j
					break
				}
			}
		}
		if target < 0 && i > 0 && form[i-1].quoted && replaced[i-1] == "" && sameWords(form[i-1].text, l.text, 1) {
			target = i - 1
		}
		if target >= 0 {
			replaced[target], dropped[i] = l.text, true
		}
	}
	var out []string
	for i, l := range form {
		switch {
		case replaced[i] != "":
			out = append(out, replaced[i])
		case !dropped[i]:
			out = append(out, l.text)
		}
	}
	return out
}

// sameWords reports whether two order lines, comments aside, have the same
// first n words (and at least n).
func sameWords(a, b string, n int) bool {
	wa := strings.Fields(strings.ToUpper(strings.SplitN(a, "#", 2)[0]))
	wb := strings.Fields(strings.ToUpper(strings.SplitN(b, "#", 2)[0]))
	return len(wa) >= n && len(wb) >= n && slices.Equal(wa[:n], wb[:n])
}

// nonBlankLines are the lines of text that are not blank, trimmed.
func nonBlankLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// above reports whether every one of lines is among the lines of head.
func above(lines, head []string) bool {
	have := map[string]int{}
	for _, l := range head {
		have[strings.TrimSpace(l)]++
	}
	for _, l := range lines {
		if have[l] == 0 {
			return false
		}
		have[l]--
	}
	return true
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
	if seatSide(side) == side {
		pos = wholeSide{pos} // every seat's orders at once: a round replayed
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
	reading, text := readOrders(pos, side, game, req, msg, req.Command == cmdCheck, DefaultLimits.MaxErrors)
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
		if form := refusalForm(text, reading.Problems, DefaultLimits.MaxAnswerSize/2); form != "" {
			fmt.Fprintf(&b, "\nwith the sender's orders handed back as the form to correct:\n\n%s\n%s", formMarker, form)
		}
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
