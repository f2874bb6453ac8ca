// Package ordertext is the front end every game family's texts share: the
// order mails players write, the scenario files and the adjudication case
// files. It splits a text into numbered lines, takes comments ("#") off,
// splits words (a "quoted phrase" is one word where a format allows it),
// picks a mail's order block out (quoted lines, END, a signature, the start
// of a quoted reply) and reads the GAME/SIDE/SEAT/ROUND header. What the
// words mean is each family's; a line no family understands is an error
// with its line, never skipped.
package ordertext

import (
	"fmt"
	"strings"
)

// Line is one line of a text with words.
type Line struct {
	N     int      // from 1, in the text read
	Raw   string   // as written, trailing blanks (and a CR) trimmed
	Text  string   // without its comment, blanks trimmed
	Words []string // Text's words
	// AfterLongComment: the line above ends in a comment long enough for a
	// mail program to have wrapped it, and this line has no "#": it may be
	// the comment's tail.
	AfterLongComment bool
}

// StripComment is s without its comment: what follows the first "#".
func StripComment(s string) string {
	if j := strings.IndexByte(s, '#'); j >= 0 {
		return s[:j]
	}
	return s
}

// Lines are the lines of text that hold words, comments taken off, each
// with its number; words are split at blanks.
func Lines(text string) []Line {
	var out []Line
	for i, raw := range splitLines(text) {
		if l := newLine(i+1, raw, strings.Fields); len(l.Words) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// splitLines splits text at its line ends, "\n" or "\r\n", so that each
// line has the number the judge gives it when it writes problems under
// their lines (engine.Annotate).
func splitLines(text string) []string {
	return strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
}

func newLine(n int, raw string, words func(string) []string) Line {
	raw = strings.TrimRight(raw, " \t\r")
	text := strings.TrimSpace(StripComment(raw))
	return Line{N: n, Raw: raw, Text: text, Words: words(text)}
}

// QuotedWords splits s at blanks, a phrase in double quotes being one word
// ("Hill 112" stands for Hill 112). A quote left open is an error.
func QuotedWords(s string) ([]string, error) {
	var words []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return words, nil
		}
		if s[0] == '"' {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				return nil, fmt.Errorf("unterminated quote")
			}
			words = append(words, s[1:1+end])
			s = s[2+end:]
			continue
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		words = append(words, s[:end])
		s = s[end:]
	}
}

// IsEnd reports whether a line's words are END alone, which ends orders.
func IsEnd(words []string) bool {
	return len(words) == 1 && strings.EqualFold(words[0], "END")
}
