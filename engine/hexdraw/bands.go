package hexdraw

import "math"

// A map picture's title band across its top, and its legend below the
// map: what the marks and colours mean, in rows of keys.

// TitleHeight is the height of the title band: a title and a line under
// it. Give it to Layout.Top.
const TitleHeight = 2*TextHeight + 10

// TitleBand paints the title band: title in fg over back, sub under it in
// subInk, each cut to the picture's width.
func (p *Picture) TitleBand(back, fg, subInk Colour, title, sub string) {
	p.Rect(back, 0, 0, float64(p.W), TitleHeight)
	p.Text(fg, NoHalo, 6, 4, fit(title, p.W-12))
	p.Text(subInk, NoHalo, 6, 6+TextHeight, fit(sub, p.W-12))
}

// fit cuts s to at most width pixels, with "..." where it was cut.
func fit(s string, width int) string {
	r := []rune(s)
	if TextWidth(s) <= width {
		return s
	}
	n := max(width/TextAdvance-3, 0)
	return string(r[:min(n, len(r))]) + "..."
}

// Key is an entry of a legend: its mark, drawn in a KeyMarkW x KeyMarkH
// box whose top left Mark is given, and what the mark means.
type Key struct {
	Mark func(p *Picture, x, y float64)
	Text string
}

// The legend's measures: a mark's box, the room between keys, a row.
const (
	KeyMarkW  = 26
	KeyMarkH  = 14
	keyGap    = 14
	keyRow    = 20
	keyMargin = 6
)

// keyPlaces lays keys out in rows across a picture w wide, after a
// heading's room on the first row's left: the top left of each key,
// relative to the legend's top left.
func keyPlaces(w int, heading string, keys []Key) []Pt {
	left := float64(keyMargin + TextWidth(heading) + keyGap)
	x, y := left, 0.0
	out := make([]Pt, len(keys))
	for i, k := range keys {
		kw := float64(KeyMarkW + 4 + TextWidth(k.Text))
		if x > left && x+kw > float64(w-keyMargin) {
			x, y = left, y+keyRow
		}
		out[i] = Pt{x, y}
		x += kw + keyGap
	}
	return out
}

// LegendHeight is the height of a legend of keys under heading across a
// picture w wide, a margin under it included.
func LegendHeight(w int, heading string, keys []Key) float64 {
	places := keyPlaces(w, heading, keys)
	if len(places) == 0 {
		return 0
	}
	return places[len(places)-1].Y + keyRow + keyMargin
}

// Legend paints the keys under heading from y down, as LegendHeight
// counts them, each mark beside its words in c.
func (p *Picture) Legend(c Colour, y float64, heading string, keys []Key) {
	if len(keys) == 0 {
		return
	}
	p.Text(c, NoHalo, keyMargin, y+3, heading)
	for i, at := range keyPlaces(p.W, heading, keys) {
		x, top := at.X, math.Round(y+at.Y)
		keys[i].Mark(p, x, top)
		p.Text(c, NoHalo, x+KeyMarkW+4, top+1, keys[i].Text)
	}
}
