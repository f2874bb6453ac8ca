package hexdraw

import (
	"strings"
	"testing"
)

// A legend's keys lie in rows inside the picture, none on another, all
// within the height LegendHeight gives; the title band cuts a title too
// long for the picture.
func TestLegendKeysInRows(t *testing.T) {
	var keys []Key
	for _, text := range strings.Fields("one two-words three a-longer-key-text five six seven eight nine ten eleven twelve") {
		keys = append(keys, Key{Text: text, Mark: func(p *Picture, x, y float64) { p.Rect(1, x, y, x+KeyMarkW, y+KeyMarkH) }})
	}
	for _, w := range []int{300, 600, 1200} {
		places := keyPlaces(w, "Key:", keys)
		h := LegendHeight(w, "Key:", keys)
		var boxes []Box
		for i, at := range places {
			b := Box{at.X, at.Y, at.X + float64(KeyMarkW+4+TextWidth(keys[i].Text)), at.Y + KeyMarkH}
			if b.X1 > float64(w) || b.Y1 > h {
				t.Errorf("width %d: key %q at %v runs off the legend (%v high)", w, keys[i].Text, b, h)
			}
			for _, o := range boxes {
				if b.Overlaps(o) {
					t.Errorf("width %d: key %q covers another", w, keys[i].Text)
				}
			}
			boxes = append(boxes, b)
		}
		if w == 300 && h < 3*keyRow {
			t.Errorf("a narrow legend is not in rows: %v high", h)
		}
	}
	p := New(200, 100, nil)
	p.TitleBand(0, 1, 1, strings.Repeat("A long title ", 10), "sub")
	if TextWidth(p.items[1].text) > 200-12 || !strings.HasSuffix(p.items[1].text, "...") {
		t.Errorf("the title is not cut to the picture: %q", p.items[1].text)
	}
}
