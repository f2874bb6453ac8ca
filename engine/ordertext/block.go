package ordertext

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Block is how a family's order block is picked out of a mail.
type Block struct {
	// Words splits a line (its comment taken off) into words; nil:
	// strings.Fields.
	Words func(string) []string
	// Start reports whether a line's words start the block: the lines
	// above it are the player's own words (a greeting) and not read. nil:
	// the first line with words starts it.
	Start func(words []string) bool
}

// Read is the order block of a mail body: its lines with words, from the
// first that starts it to END, a signature ("-- "), a PGP signature or
// the start of a quoted reply; quoted lines (">") are no part of it, nor
// is the END line. ended reports whether an END line closed it.
func (b Block) Read(body string) (lines []Line, ended bool) {
	words := b.Words
	if words == nil {
		words = strings.Fields
	}
	started := false
	prevLongComment := false
	for i, raw := range splitLines(body) {
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
		l := newLine(i+1, raw, words)
		if len(l.Words) == 0 {
			continue
		}
		if !started {
			if b.Start != nil && !b.Start(l.Words) {
				continue
			}
			started = true
		}
		if IsEnd(l.Words) {
			return lines, true
		}
		l.AfterLongComment = afterLongComment
		lines = append(lines, l)
	}
	return lines, false
}

// wrapWidth is the shortest line length at which mail programs wrap (at
// 72 to 78 characters; a wrapped line falls short by up to a word).
const wrapWidth = 60

// Lines that start the quoted part of a reply or a mail client's footer:
// they end an order block that has begun.
var replyMarkers = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^on .+ wrote:\s*$`),
	regexp.MustCompile(`(?i)^-+\s*original message\s*-+\s*$`),
	regexp.MustCompile(`(?i)^-+\s*forwarded message\s*-+\s*$`),
	regexp.MustCompile(`(?i)^sent from my `),
	regexp.MustCompile(`^_{10,}\s*$`), // Outlook's rule above the quoted mail
	regexp.MustCompile(`^-----BEGIN PGP SIGNATURE-----`),
}

func matchesAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// SignOff is where the sign-off after the last order starts ("Cheers,
// Alice"): the index of the first of the block's last lines that are all
// no order (notOrder); len(lines) when there is none, and also when no
// line is an order, since then every line is a problem of its own.
func SignOff(lines []Line, notOrder func(Line) bool) int {
	first := len(lines)
	for first > 0 && notOrder(lines[first-1]) {
		first--
	}
	if first == 0 {
		return len(lines)
	}
	return first
}

// Why a line of the order block is passed over, as the answer says it
// (engine.IgnoredLine's Why): a sign-off below the last order, or the tail
// of a player's comment that the mail program wrapped onto a line of its
// own (Line.AfterLongComment).
const (
	WhySignOff     = "after the last order"
	WhyWrappedTail = "the tail of the comment above, wrapped by the mail program"
)
