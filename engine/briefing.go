package engine

import (
	"fmt"
	"strings"
)

// Briefing is what a side's player reads in the welcome before the first
// orders, the same in every family: the situation, how each side wins and
// how the score is counted, the turn in five lines, and where the whole
// order language is.
type Briefing struct {
	Situation string   // the scenario's introduction, in paragraphs
	Victory   []string // each side's victory conditions, a line each
	Score     []string // how the score is counted, a line each
	Turn      [5]string
	Orders    string // where the whole order language is
}

// briefingWidth is the width of the briefing's running text, as the
// welcome mail wraps its own.
const briefingWidth = 72

// Text writes the briefing for a mail: headed paragraphs, wrapped.
func (b Briefing) Text() string {
	var w strings.Builder
	w.WriteString("BRIEFING\n\n")
	for _, para := range strings.Split(strings.TrimSpace(b.Situation), "\n\n") {
		w.WriteString(wrapText(strings.Join(strings.Fields(para), " "), "", ""))
		w.WriteString("\n")
	}
	list := func(title string, lines []string) {
		w.WriteString(title + "\n")
		for _, line := range lines {
			w.WriteString(wrapText(line, "  - ", "    "))
		}
		w.WriteString("\n")
	}
	list("How to win:", b.Victory)
	list("The score:", b.Score)
	w.WriteString("A turn, in five steps:\n")
	for i, line := range b.Turn {
		w.WriteString(wrapText(line, fmt.Sprintf("  %d. ", i+1), "     "))
	}
	w.WriteString("\n")
	w.WriteString(wrapText(b.Orders, "", ""))
	return w.String()
}

// wrapText breaks text at spaces into lines of at most briefingWidth, the
// first led by first, the others by rest.
func wrapText(text, first, rest string) string {
	var w strings.Builder
	line := first
	empty := true
	for _, word := range strings.Fields(text) {
		if !empty && len(line)+1+len(word) > briefingWidth {
			w.WriteString(line + "\n")
			line, empty = rest, true
		}
		if !empty {
			line += " "
		}
		line += word
		empty = false
	}
	w.WriteString(line + "\n")
	return w.String()
}
