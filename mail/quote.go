package mail

import (
	"regexp"
	"strings"
)

// originalMessagePattern matches the separator Outlook and others put above
// the previous mail in a reply, in the languages players are likely to use.
var originalMessagePattern = regexp.MustCompile(`(?i)^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|messaggio originale|mensaje original)\s*-{2,}$`)

// attributionStarts are the first words of the line introducing a quote
// ("On Tue, 11 Mar 2025, Judge wrote:", "Am ... schrieb Judge:", ...).
var attributionStarts = []string{"On ", "Am ", "Le ", "Il ", "El ", "Op "}

// StripQuoted returns the part of a reply's text that its sender wrote:
// it removes quoted lines (starting with ">"), the attribution line that
// introduces them, and everything from an "-----Original Message-----"
// style separator, an Outlook "_____" separator followed by a "From:"
// line, or a signature separator ("-- ") on. Orders are then read only
// from what the player wrote, not from the judge's report quoted back.
func StripQuoted(text string) string {
	// A lone CR breaks a line too, as normalizeText reads it: else a quote
	// after one would pass as part of the line before.
	lines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(text), "\n")
	var kept []string
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if strings.TrimRight(line, " ") == "--" || originalMessagePattern.MatchString(trimmed) ||
			isOutlookSeparator(lines, i) {
			break
		}
		if strings.HasPrefix(trimmed, ">") {
			continue
		}
		if strings.HasSuffix(trimmed, ":") && nextNonBlankIsQuoted(lines, i) {
			// A long attribution is often wrapped onto two lines.
			if n := len(kept); n > 0 && !hasAttributionStart(trimmed) && hasAttributionStart(strings.TrimSpace(kept[n-1])) {
				kept = kept[:n-1]
			}
			continue
		}
		kept = append(kept, line)
	}
	return normalizeText(strings.Join(kept, "\n"))
}

func hasAttributionStart(line string) bool {
	for _, start := range attributionStarts {
		if strings.HasPrefix(line, start) {
			return true
		}
	}
	return false
}

// isOutlookSeparator reports whether lines[i] is a rule of underscores
// followed by the header block Outlook puts above a quoted mail.
func isOutlookSeparator(lines []string, i int) bool {
	trimmed := strings.TrimSpace(lines[i])
	if len(trimmed) < 10 || strings.Trim(trimmed, "_") != "" || i+1 >= len(lines) {
		return false
	}
	next := strings.TrimSpace(lines[i+1])
	return strings.HasPrefix(next, "From:") || strings.HasPrefix(next, "Von:") || strings.HasPrefix(next, "De :") || strings.HasPrefix(next, "De:")
}

// nextNonBlankIsQuoted reports whether the first non-blank line after
// lines[i] starts with ">".
func nextNonBlankIsQuoted(lines []string, i int) bool {
	for _, line := range lines[i+1:] {
		if trimmed := strings.TrimSpace(line); trimmed != "" {
			return strings.HasPrefix(trimmed, ">")
		}
	}
	return false
}
