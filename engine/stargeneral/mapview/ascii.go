package mapview

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"fieldpost/engine/stargeneral/rules"
)

// ASCII draws the map in plain text for a fixed-width font. Every hex is
// drawn as
//
//	/XY\
//	\ZW/
//
// with even columns a line lower than odd ones, as on the printed map, so the
// slashes of neighbouring hexes meet. The top line shows the code of the
// stand in the hex (or the terrain letter twice), the bottom line the terrain
// letter, with * on an objective; open ground is left blank. A key below
// explains every letter and lists every stand. A 30-column map stays under
// 100 characters wide. A state without a proper map gives the empty string.
func ASCII(rs *rules.Ruleset, st *rules.State) string {
	if checkMap(st) != nil {
		return ""
	}
	m := st.Map
	codes := standCodes(rs, st)
	atHex := map[rules.Hex]string{}
	for _, sc := range codes {
		atHex[sc.hex] = sc.code
	}
	objective := map[rules.Hex]bool{}
	for _, o := range st.Objectives {
		objective[o.Hex] = true
	}

	// One text line per half hex row; column c's hex starts at 3(c-1).
	nLines := 2 * m.Rows
	if m.Cols > 1 {
		nLines++
	}
	grid := make([][]byte, nLines)
	for i := range grid {
		grid[i] = []byte(strings.Repeat(" ", 3*m.Cols+1))
	}
	for col := 1; col <= m.Cols; col++ {
		for row := 1; row <= m.Rows; row++ {
			h := rules.Hex{Col: col, Row: row}
			letter := asciiLetter(rs, m.Letter(h))
			top := string([]byte{letter, letter})
			if code, ok := atHex[h]; ok {
				top = code
			}
			bottom := []byte{letter, letter}
			if objective[h] {
				bottom[1] = '*'
			}
			line := 2 * (row - 1)
			if col%2 == 0 {
				line++
			}
			x := 3 * (col - 1)
			copy(grid[line][x:], "/"+top+"\\")
			copy(grid[line+1][x:], "\\"+string(bottom)+"/")
		}
	}

	var b strings.Builder
	for parity := 1; parity >= 0; parity-- {
		line := strings.Repeat(" ", 4+3*(1-parity))
		for col := 2 - parity; col <= m.Cols; col += 2 {
			line += fmt.Sprintf("%02d    ", col)
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	for i, cells := range grid {
		// The row number stands beside the top line of the row's odd-column
		// hexes on the left, and of its even-column hexes on the right.
		line := "   " + string(cells)
		if i%2 == 0 && i/2 < m.Rows {
			line = fmt.Sprintf("%02d ", i/2+1) + string(cells)
		}
		if i%2 == 1 && m.Cols > 1 {
			line += fmt.Sprintf(" %02d", i/2+1)
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	b.WriteString(asciiKey(rs, st, codes))
	return b.String()
}

// asciiLetter is how a terrain letter shows on the text map: open ground blank.
func asciiLetter(rs *rules.Ruleset, letter byte) byte {
	if t := rs.TerrainByLetter(letter); t != nil && t.ID == "open" {
		return ' '
	}
	return letter
}

// standCode is a stand's two-character mark on the text map: the side's
// letter and a digit or letter counting its stands.
type standCode struct {
	code  string
	hex   rules.Hex
	unit  string
	name  string
	what  string // type title
	sp    string // strength left/full
	order string
	extra string // support, transport or shots
}

// sideLetters gives each side a distinct capital that is no terrain
// letter: its initial if it can.
func sideLetters(rs *rules.Ruleset, st *rules.State) map[string]byte {
	out := map[string]byte{}
	taken := map[byte]bool{}
	for _, t := range rs.Terrain {
		taken[t.Letter[0]] = true
	}
	for _, sd := range st.Sides {
		letter := byte('?')
		for _, ch := range []byte(strings.ToUpper(sd.Name) + "XYZQKJVUPONMIHGEDCA") {
			if ch >= 'A' && ch <= 'Z' && !taken[ch] {
				letter = ch
				break
			}
		}
		taken[letter] = true
		out[sd.Name] = letter
	}
	return out
}

// codeChars count a side's stands: digits, then small letters, then capitals.
const codeChars = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

func standCodes(rs *rules.Ruleset, st *rules.State) []standCode {
	letters := sideLetters(rs, st)
	next := map[string]int{}
	code := func(side string) string {
		letter := letters[side]
		chars := strings.ReplaceAll(codeChars, string(letter), "")
		i := next[side]
		next[side]++
		if i >= len(chars) {
			// More stands than marks: they share one, and the key lists them all.
			return string([]byte{letter, '+'})
		}
		return string([]byte{letter, chars[i]})
	}
	var out []standCode
	for _, u := range st.Units {
		if u.Removed {
			continue
		}
		for _, s := range u.Stands {
			var extra []string
			for _, p := range []*rules.Platoon{s.Support, s.Transport} {
				if p != nil {
					extra = append(extra, "+"+rs.StandTypes[p.Type].Title)
				}
			}
			out = append(out, standCode{code: code(u.Side), hex: s.Hex, unit: u.ID, name: s.Name,
				what: rs.StandTypes[s.Type].Title, sp: fmt.Sprintf("%d/%d", s.SP, s.MaxSP),
				order: statusWords[u.Status], extra: strings.Join(extra, " ")})
		}
	}
	for _, bt := range st.Batteries {
		if bt.Removed {
			continue
		}
		out = append(out, standCode{code: code(bt.Side), hex: bt.Hex, unit: bt.ID, name: "battery",
			what: rs.StandTypes[bt.Type].Title, sp: fmt.Sprintf("%d/%d", bt.SP, bt.MaxSP),
			extra: fmt.Sprintf("shots %d/%d", bt.Shots, bt.ShotsPerRound)})
	}
	return out
}

// asciiKey explains the text map: terrain letters, objectives, places and
// every stand code.
func asciiKey(rs *rules.Ruleset, st *rules.State, codes []standCode) string {
	var b strings.Builder
	width := max(76, min(100, 3*st.Map.Cols+7))
	used := map[byte]bool{}
	for _, row := range st.Map.Grid {
		for i := 0; i < len(row); i++ {
			used[row[i]] = true
		}
	}
	var terrain []string
	for _, t := range rs.Terrain {
		if !used[t.Letter[0]] {
			continue
		}
		if ch := asciiLetter(rs, t.Letter[0]); ch == ' ' {
			terrain = append(terrain, "blank "+t.Title)
		} else {
			terrain = append(terrain, string([]byte{ch, ch})+" "+t.Title)
		}
	}
	if len(st.Objectives) > 0 {
		terrain = append(terrain, "* objective")
	}
	b.WriteString(wrap("Terrain: ", terrain, width))
	letters := sideLetters(rs, st)
	var sides []string
	for _, sd := range st.Sides {
		name := sd.Title
		if sd.Title != sd.Name {
			name += " (" + sd.Name + ")"
		}
		sides = append(sides, fmt.Sprintf("%c1, %c2... %s", letters[sd.Name], letters[sd.Name], name))
	}
	sides[len(sides)-1] += fmt.Sprintf(": each mark is one stand, its number that of the stand's line in the list below"+
		" (%c3 is the third stand, not three of them)", letters[st.Sides[0].Name])
	b.WriteString(wrap("Sides: ", sides, width))

	if len(st.Objectives) > 0 {
		var objs []string
		for _, o := range st.SortedObjectives() {
			held := "held by nobody"
			if o.Owner != "" {
				held = "held by " + o.Owner
			}
			name := " " + o.Name
			if o.Name == o.Hex.String() {
				name = ""
			}
			objs = append(objs, fmt.Sprintf("%s%s (value %d, %s)", o.Hex, name, o.Value, held))
		}
		b.WriteString(wrap("Objectives: ", objs, width))
	}
	if len(st.Map.Names) > 0 {
		keys := make([]string, 0, len(st.Map.Names))
		for k := range st.Map.Names {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var names []string
		for _, k := range keys {
			names = append(names, k+" "+st.Map.Names[k])
		}
		b.WriteString(wrap("Places: ", names, width))
	}

	if len(codes) == 0 {
		return b.String()
	}
	head := standCode{code: "  ", unit: "unit", name: "stand", what: "type", sp: "SP", order: "order", extra: "support"}
	codes = append([]standCode{head}, codes...)
	var wUnit, wName, wWhat, wSP, wOrder int
	for _, c := range codes {
		wUnit = max(wUnit, utf8.RuneCountInString(c.unit))
		wName = max(wName, utf8.RuneCountInString(c.name))
		wWhat = max(wWhat, utf8.RuneCountInString(c.what))
		wSP = max(wSP, utf8.RuneCountInString(c.sp))
		wOrder = max(wOrder, utf8.RuneCountInString(c.order))
	}
	b.WriteString("\n")
	for _, c := range codes {
		hex := c.hex.String()
		if c.hex.IsZero() {
			hex = "hex "
		}
		line := fmt.Sprintf("%s %s  %-*s %-*s  %-*s  %*s  %-*s  ", c.code, hex, wUnit, c.unit, wName, c.name,
			wWhat, c.what, wSP, c.sp, wOrder, c.order)
		b.WriteString(wrap(line, []string{c.extra}, width))
	}
	return b.String()
}

// wrap writes items after a heading, separated by commas. Lines break
// between items before width, and inside an item only when it is longer
// than a line; later lines are indented under the first item.
func wrap(head string, items []string, width int) string {
	var b strings.Builder
	indent := strings.Repeat(" ", utf8.RuneCountInString(head))
	line, fresh := head, true
	put := func(piece string) {
		if !fresh && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(piece) > width {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line, fresh = indent, true
		}
		if !fresh {
			line += " "
		}
		line += piece
		fresh = false
	}
	for i, it := range items {
		if i < len(items)-1 {
			it += ","
		}
		if utf8.RuneCountInString(indent)+utf8.RuneCountInString(it) <= width {
			put(it)
			continue
		}
		for _, w := range strings.Fields(it) {
			put(w)
		}
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
	return b.String()
}
