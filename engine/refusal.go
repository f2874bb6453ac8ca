package engine

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a side's orders, as Read finds it.
type Problem struct {
	// Line is the line of the text read, from 1; 0 for the orders as a
	// whole.
	Line int
	// Text says what is wrong and, where it can, what to do instead.
	Text string
	// Rule is the reference of the rule broken, as the family's book
	// numbers it ("§V.4", "11.4.1"); "" when none.
	Rule string
	// Hint is a likely fix ("did you mean 0405?"); "" when none.
	Hint string
}

// Reference writes a rule reference the one way every answer writes it:
// "[§V.4]", "[§11.4.1]"; "" for none.
func Reference(rule string) string {
	rule = strings.TrimSpace(rule)
	if rule == "" {
		return ""
	}
	if !strings.HasPrefix(rule, "§") && rule[0] >= '0' && rule[0] <= '9' {
		rule = "§" + rule
	}
	return "[" + rule + "]"
}

// Say is the problem in words, its rule reference and hint after it.
func (p Problem) Say() string {
	s := p.Text
	if ref := Reference(p.Rule); ref != "" {
		s += " " + ref
	}
	if p.Hint != "" {
		s += "; " + p.Hint
	}
	return s
}

// String is the problem on a line of its own, as errors and logs write it:
// "line 4: text [§V.4]; hint", without the line for the orders as a whole.
func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("line %d: %s", p.Line, p.Say())
	}
	return p.Say()
}

// Refusal is the answer to orders with problems, in the one wording of
// every game system: the count, then each problem under the line of text
// it is about, at most max of them (0: all) so that a mail of junk cannot
// make a huge answer.
func Refusal(text string, problems []Problem, max int) string {
	var b strings.Builder
	noun := "errors"
	if len(problems) == 1 {
		noun = "error"
	}
	fmt.Fprintf(&b, "These orders were NOT accepted: %d %s. Nothing has changed.\n", len(problems), noun)
	listed := problems
	if max > 0 && len(problems) > max {
		listed = problems[:max]
	}
	lines := strings.Split(text, "\n")
	for _, p := range listed {
		b.WriteString("\n")
		if p.Line > 0 && p.Line <= len(lines) {
			fmt.Fprintf(&b, "line %d: %s\n", p.Line, strings.TrimSpace(lines[p.Line-1]))
		} else if p.Line > 0 {
			fmt.Fprintf(&b, "line %d:\n", p.Line)
		} else {
			b.WriteString("the orders as a whole:\n")
		}
		fmt.Fprintf(&b, "  %s\n", p.Say())
	}
	if rest := len(problems) - len(listed); rest > 0 {
		more := fmt.Sprintf("%d more errors", rest)
		if rest == 1 {
			more = "1 more error"
		}
		fmt.Fprintf(&b, "\n... and %s, not listed: correct these first.\n", more)
	}
	return b.String()
}

// AnnotationMark opens the comment lines Annotate writes under a line with
// a problem: a comment in every family's order language, so that a form
// sent back with them is read as if they were not there.
const AnnotationMark = "#!! "

// Annotate writes text with each problem in a comment line under the line
// it is about, and those about the orders as a whole at the top: the
// player's own orders handed back as the form to correct and send again.
// Blank lines around the text are left out.
func Annotate(text string, problems []Problem) string {
	lines := strings.Split(text, "\n")
	first, last := 0, len(lines)
	for first < last && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	for last > first && strings.TrimSpace(lines[last-1]) == "" {
		last--
	}
	under := make(map[int][]string)
	var whole []string
	for _, p := range problems {
		if p.Line < 1 || p.Line > len(lines) {
			whole = append(whole, p.Say())
			continue
		}
		under[p.Line] = append(under[p.Line], p.Say())
	}
	var b strings.Builder
	for _, s := range whole {
		writeComment(&b, "", "ERROR: "+s)
	}
	for i := first; i < last; i++ {
		line := lines[i]
		b.WriteString(line + "\n")
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		for _, s := range under[i+1] {
			writeComment(&b, indent, "ERROR above: "+s)
		}
	}
	return b.String()
}

// annotationWidth is the width annotation lines are broken at, under what
// mail programs wrap at, so that a program never breaks one into a line
// that is no comment.
const annotationWidth = 70

// writeComment writes text as annotation lines of at most annotationWidth
// characters (a longer word aside), each opened by indent and the mark.
func writeComment(b *strings.Builder, indent, text string) {
	line := indent + AnnotationMark
	for i, word := range strings.Fields(text) {
		switch {
		case i == 0:
		case len(line)+1+len(word) > annotationWidth:
			b.WriteString(line + "\n")
			line = indent + AnnotationMark + "  " // a continuation
		default:
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
}
