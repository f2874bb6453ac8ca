package mail

import (
	"html"
	"strconv"
	"strings"
)

// htmlToText renders an HTML body as readable plain text: script, style and
// head are dropped, block elements and <br> become line breaks, list items
// get a "- " or "1. " marker, blockquotes become "> " quotes (so that a
// quoted previous mail looks the same as in a text/plain reply), and
// entities are decoded. It is a forgiving scanner, not a full HTML parser:
// it never fails, whatever the input.
func htmlToText(src string) string {
	var w textWriter
	w.lineStart = true
	closers := closingTagFinder{lower: asciiLower(src), missing: make(map[string]bool)}
	for i := 0; i < len(src); {
		lt := strings.IndexByte(src[i:], '<')
		if lt < 0 {
			w.text(src[i:])
			break
		}
		w.text(src[i : i+lt])
		i += lt

		if strings.HasPrefix(src[i:], "<!--") {
			end := strings.Index(src[i+4:], "-->")
			if end < 0 {
				break // an unterminated comment hides the rest
			}
			i += 4 + end + 3
			continue
		}
		name, closing, end, ok := scanTag(src, i)
		if !ok {
			w.text("<") // a lone "<" is text
			i++
			continue
		}
		tagText := src[i:end]
		i = end
		if !closing && (name == "hr" || name == "div" && drawsRuleAbove(tagText)) {
			w.rule()
		}
		if !closing && (name == "script" || name == "style" || name == "head" || name == "title") {
			if close, found := closers.find(i, name); found {
				i = close
			} else if name == "script" || name == "style" {
				break // unterminated code runs to the end
			}
			continue
		}
		w.tag(name, closing)
	}
	return collapseBlankLines(w.b.String())
}

// drawsRuleAbove reports whether a <div> tag draws a line above its
// content, as Outlook draws one above the header block of a quoted mail.
func drawsRuleAbove(tag string) bool {
	lower := asciiLower(tag)
	return strings.Contains(lower, "border-top:") && !strings.Contains(lower, "border-top:none") && !strings.Contains(lower, "border-top: none")
}

// scanTag reads the tag starting at src[i] == '<'. It returns the lowercase
// tag name ("!" for <!DOCTYPE ...> and the like), whether it is a closing
// tag and the index just past its '>'. ok is false when the '<' does not
// start a tag.
func scanTag(src string, i int) (name string, closing bool, end int, ok bool) {
	j := i + 1
	if j < len(src) && src[j] == '/' {
		closing = true
		j++
	}
	start := j
	for j < len(src) && isTagNameChar(src[j]) {
		j++
	}
	name = strings.ToLower(src[start:j])
	if name == "" {
		if closing || j >= len(src) || (src[j] != '!' && src[j] != '?') {
			return "", false, 0, false
		}
		name = "!"
	}
	// Find the closing '>', skipping quoted attribute values, which may
	// contain '>'. Quotes count only right after '=' so that a stray
	// apostrophe does not swallow the document.
	for j < len(src) {
		switch c := src[j]; {
		case c == '>':
			return name, closing, j + 1, true
		case (c == '"' || c == '\'') && j > 0 && src[j-1] == '=':
			q := strings.IndexByte(src[j+1:], c)
			if q < 0 {
				return name, closing, len(src), true
			}
			j += q + 2
		default:
			j++
		}
	}
	return name, closing, len(src), true
}

func isTagNameChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// closingTagFinder finds closing tags case-insensitively. It remembers the
// names that have no closing tag left, so that a document full of unclosed
// <title> tags costs linear rather than quadratic time.
type closingTagFinder struct {
	lower   string          // the document with ASCII letters lowercased
	missing map[string]bool // names with no closing tag after some index
}

// find returns the index just past the closing tag of name at or after
// index i.
func (f *closingTagFinder) find(i int, name string) (int, bool) {
	if f.missing[name] {
		return 0, false
	}
	at := strings.Index(f.lower[i:], "</"+name)
	if at < 0 {
		f.missing[name] = true
		return 0, false
	}
	end := strings.IndexByte(f.lower[i+at:], '>')
	if end < 0 {
		return len(f.lower), true
	}
	return i + at + end + 1, true
}

// asciiLower lowercases ASCII letters only, which keeps every byte at its
// index (strings.ToLower may change the length of non-ASCII text).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// collapseBlankLines limits runs of blank lines to one.
func collapseBlankLines(s string) string {
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	return s
}

// textWriter accumulates rendered text, collapsing whitespace the way a
// browser does outside <pre>.
type textWriter struct {
	b          strings.Builder
	quoteDepth int   // open <blockquote> elements
	preDepth   int   // open <pre> elements
	lists      []int // open lists: -1 for <ul>, else the last <ol> number
	lineStart  bool  // nothing written on the current line yet
	space      bool  // whitespace seen since the last word
	newlines   int   // line breaks at the end of the output
}

// text writes character data, entities decoded.
func (w *textWriter) text(s string) {
	s = strings.ReplaceAll(html.UnescapeString(s), "\u00a0", " ")
	if w.preDepth > 0 {
		for i, line := range strings.Split(s, "\n") {
			if i > 0 {
				w.lineBreak()
			}
			if line != "" {
				w.word(strings.TrimSuffix(line, "\r"))
			}
		}
		return
	}
	if s == "" {
		return
	}
	if isSpace(s[0]) {
		w.space = true
	}
	for _, word := range strings.Fields(s) {
		w.word(word)
		w.space = true
	}
	if !isSpace(s[len(s)-1]) {
		w.space = false
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// maxQuotePrefix is the deepest quote level written out as ">" marks. A
// deeper level gets as many marks: writing one per level would make the
// text grow with the square of the nesting (issue 15), and a reader needs
// no more than a few to see that a line is quoted.
const maxQuotePrefix = 3

// word writes s, preceded by the quote prefix at the start of a line or by
// one space when whitespace separated it from the previous word.
func (w *textWriter) word(s string) {
	if w.lineStart {
		w.b.WriteString(quotePrefix(min(w.quoteDepth, maxQuotePrefix)))
		w.lineStart = false
	} else if w.space {
		w.b.WriteByte(' ')
	}
	w.space = false
	w.b.WriteString(s)
	w.newlines = 0
}

// rule writes a line of underscores on a line of its own, as Outlook
// writes the rule above a quoted mail in its plain text, so that the
// quote is recognised the same way in HTML.
func (w *textWriter) rule() {
	w.breakLines(1)
	w.word("________________________________")
	w.lineBreak()
}

func (w *textWriter) lineBreak() {
	w.b.WriteByte('\n')
	w.lineStart = true
	w.space = false
	w.newlines++
}

// breakLines ends the output with at least n line breaks, except at the
// very start.
func (w *textWriter) breakLines(n int) {
	if w.b.Len() == 0 {
		return
	}
	for w.newlines < n {
		w.lineBreak()
	}
}

// tag renders the effect of an opening or closing tag.
func (w *textWriter) tag(name string, closing bool) {
	switch name {
	case "br":
		w.lineBreak()
	case "p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "dl", "hr":
		w.breakLines(2)
	case "div", "tr", "dt", "dd", "section", "article", "header", "footer",
		"nav", "aside", "address", "figure", "form", "fieldset", "main", "center":
		w.breakLines(1)
	case "td", "th":
		w.space = true
	case "blockquote":
		w.breakLines(2)
		if closing {
			w.quoteDepth = max(0, w.quoteDepth-1)
		} else {
			w.quoteDepth++
		}
	case "pre":
		w.breakLines(2)
		if closing {
			w.preDepth = max(0, w.preDepth-1)
		} else {
			w.preDepth++
		}
	case "ul", "ol":
		w.breakLines(2)
		switch {
		case closing && len(w.lists) > 0:
			w.lists = w.lists[:len(w.lists)-1]
		case !closing && name == "ul":
			w.lists = append(w.lists, -1)
		case !closing:
			w.lists = append(w.lists, 0)
		}
	case "li":
		w.breakLines(1)
		if closing {
			return
		}
		marker := "-"
		if n := len(w.lists); n > 0 && w.lists[n-1] >= 0 {
			w.lists[n-1]++
			marker = strconv.Itoa(w.lists[n-1]) + "."
		}
		w.word(marker)
		w.space = true
	}
}
