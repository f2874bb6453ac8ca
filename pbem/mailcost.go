package pbem

import (
	"cmp"
	"fmt"
	"strings"
)

// Limits bound what one mail can make the judge do and send (issue 15):
// a mail of junk lines must not keep the database's write transaction busy
// for a minute and cause an answer of hundreds of megabytes. Zero fields
// take the defaults of DefaultLimits; docs/limits.md has the figures.
type Limits struct {
	// MaxLines bounds the lines of a mail's own text (quotes removed) that
	// are read; a longer mail is refused whole, with the count.
	MaxLines int
	// MaxErrors bounds the errors listed in a refusal; the rest are
	// counted.
	MaxErrors int
	// MaxAnswerSize bounds the text of every mail the judge sends, order
	// form included; a longer text is cut, with a note saying so.
	MaxAnswerSize int64
}

// DefaultLimits: the longest order form of the bundled scenarios is about
// 150 lines and its echo a few KiB; a player correcting a refusal needs the
// first few dozen errors, not thousands.
var DefaultLimits = Limits{MaxLines: 5000, MaxErrors: 40, MaxAnswerSize: 1 << 20}

func (l Limits) withDefaults() Limits {
	l.MaxLines = cmp.Or(l.MaxLines, DefaultLimits.MaxLines)
	l.MaxErrors = cmp.Or(l.MaxErrors, DefaultLimits.MaxErrors)
	l.MaxAnswerSize = cmp.Or(l.MaxAnswerSize, DefaultLimits.MaxAnswerSize)
	return l
}

// capText cuts text to at most limit bytes, at a line break where there is
// one, and says how much was left out.
func capText(text string, limit int64) string {
	if int64(len(text)) <= limit {
		return text
	}
	const note = "\n\n[... %d more bytes left out: the judge sends at most %d bytes of text in one mail.]\n"
	keep := max(0, limit-int64(len(note))-40) // room for the note and its numbers
	cut := text[:keep]
	if i := strings.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i]
	}
	cut = strings.ToValidUTF8(cut, "") // a cut inside a character drops its bytes
	return cut + fmt.Sprintf(note, len(text)-len(cut), limit)
}

// lineCount counts the lines of text.
func lineCount(text string) int {
	return strings.Count(text, "\n") + 1
}
