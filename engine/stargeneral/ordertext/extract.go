// Package ordertext is the order language players write in their mails: it
// reads a side's orders for a round from free mail text into engine.Orders,
// with every error tied to its line, writes the pre-filled order form, and
// echoes accepted orders back in plain words with the odds of each attack.
package ordertext

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// srcLine is one line of the order block with its number in the mail body.
type srcLine struct {
	n    int
	raw  string // as written, for quoting in errors
	toks []string
	// afterLongComment: the line above ends in a comment long enough for
	// a mail program to have wrapped it, and this line has no "#": it may
	// be the comment's tail.
	afterLongComment bool
}

// wrapWidth is the shortest line length at which mail programs wrap (at
// 72 to 78 characters; a wrapped line falls short by up to a word).
const wrapWidth = 60

var (
	// Lines that start the quoted part of a reply or a mail client's footer:
	// they end an order block that has begun.
	replyMarkers = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^on .+ wrote:\s*$`),
		regexp.MustCompile(`(?i)^-+\s*original message\s*-+\s*$`),
		regexp.MustCompile(`(?i)^-+\s*forwarded message\s*-+\s*$`),
		regexp.MustCompile(`(?i)^sent from my `),
		regexp.MustCompile(`^_{10,}\s*$`), // Outlook's rule above the quoted mail
		regexp.MustCompile(`^-----BEGIN PGP SIGNATURE-----`),
	}
)

// blockLines picks the order block out of a mail body: quoted lines (>) and
// comments are dropped; the block starts at the first line that reads as
// an order (isStart: a keyword or a unit id, and what follows fits) and
// ends at END, a signature ("-- "), a PGP signature or the start of a
// quoted reply. Lines before the block are the player's own words and
// ignored; every line inside it must be an order.
func blockLines(body string, isStart func(toks []string) bool) []srcLine {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	var out []srcLine
	started := false
	prevLongComment := false
	for i, raw := range strings.Split(body, "\n") {
		afterLongComment := prevLongComment && !strings.Contains(raw, "#")
		prevLongComment = strings.Contains(raw, "#") && utf8.RuneCountInString(strings.TrimRight(raw, " \t")) >= wrapWidth
		trimmed := strings.TrimSpace(raw)
		if trimmed == "--" || raw == "-- " {
			break // signature
		}
		if strings.HasPrefix(trimmed, ">") {
			continue
		}
		if started && matchesAny(replyMarkers, trimmed) {
			break
		}
		text := trimmed
		if j := strings.IndexByte(text, '#'); j >= 0 {
			text = text[:j]
		}
		toks := tokens(text)
		if len(toks) == 0 {
			continue
		}
		if !started {
			if !isStart(toks) {
				continue
			}
			started = true
		}
		if strings.EqualFold(toks[0], "END") && len(toks) == 1 {
			break
		}
		out = append(out, srcLine{n: i + 1, raw: strings.TrimRight(raw, " \t"), toks: toks, afterLongComment: afterLongComment})
	}
	return out
}

func matchesAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// separators are read as spaces between an order's words; one replacer
// serves every line.
var separators = strings.NewReplacer("->", " ", "=>", " ", "→", " ", ",", " ", ";", " ", "\t", " ")

// tokens splits on spaces, commas, semicolons and arrows (->, =>, →); a trailing colon
// on a word is dropped ("1A: 0506" reads as "1A 0506"), and so are dashes
// and bullets standing alone ("0303 - 0404", a list item "- BN 743 M" of a
// rich-text mail, a PGP dash-escaped line).
func tokens(s string) []string {
	s = separators.Replace(s)
	var out []string
	for _, f := range strings.Fields(s) {
		f = strings.TrimSuffix(f, ":")
		unnamedGame := f == "-" && len(out) > 0 && strings.EqualFold(out[len(out)-1], "GAME") // the form's "GAME -"
		switch f {
		case "", "-", "–", "—", "•", "*":
			if !unnamedGame {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}
