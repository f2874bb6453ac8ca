package mail

import "strings"

// unflow decodes a format=flowed text/plain body (RFC 3676): it removes
// space-stuffing and joins soft-broken lines into paragraphs. With delSp the
// space that marks a soft break was added by the sender and is removed too.
// Quoted lines keep their depth, written as ">" prefixes; a soft break
// never joins lines of different quote depth.
func unflow(text string, delSp bool) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var out []string
	var paragraph strings.Builder
	depth, open := 0, false
	flush := func() {
		if open {
			out = append(out, quotePrefix(depth)+paragraph.String())
			paragraph.Reset()
			open = false
		}
	}

	for _, line := range strings.Split(text, "\n") {
		lineDepth := 0
		for lineDepth < len(line) && line[lineDepth] == '>' {
			lineDepth++
		}
		content := line[lineDepth:]
		// Space-stuffing (section 4.4): a leading space protects a line
		// that starts with a space, ">" or "From ".
		content = strings.TrimPrefix(content, " ")

		if open && lineDepth != depth {
			// Section 4.5: a quote depth change ends the paragraph even
			// after a soft break.
			flush()
		}
		// The signature separator "-- " ends with a space yet is fixed.
		flowed := strings.HasSuffix(content, " ") && content != "-- "
		if flowed && delSp {
			content = content[:len(content)-1]
		}
		if !open {
			depth, open = lineDepth, true
		}
		paragraph.WriteString(content)
		if !flowed {
			flush()
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// quotePrefix renders a quote depth as one ">" per level and a space,
// e.g. ">> " for depth 2.
func quotePrefix(depth int) string {
	if depth == 0 {
		return ""
	}
	return strings.Repeat(">", depth) + " "
}
