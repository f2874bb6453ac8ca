// Package ordertext is the order language players write in their mails: it
// reads a side's orders for a round from free mail text into engine.Orders,
// with every error tied to its line, writes the pre-filled order form, and
// echoes accepted orders back in plain words with the odds of each attack.
package ordertext

import "strings"

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
