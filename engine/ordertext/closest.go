package ordertext

import (
	"slices"
	"strings"
)

// Closest is the candidate nearest to word by edit distance (case aside),
// when near enough to be a likely typo: fewer than three edits and fewer
// than half the candidate's length (one edit for a short one); "" when
// none is.
func Closest(word string, cands []string) string {
	best, bestD := "", 3
	w := strings.ToLower(word)
	for _, c := range slices.Sorted(slices.Values(cands)) {
		d := editDistance(w, strings.ToLower(c))
		if d < bestD && d < max(2, len(c)/2) {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
