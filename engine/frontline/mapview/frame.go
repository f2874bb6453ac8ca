package mapview

import (
	"fmt"

	"fieldpost/engine/frontline/rules"
	"fieldpost/engine/hexdraw"
)

// The picture's frame: a title band above the map and a legend below it,
// as the Star General map has, so that a newcomer reads the picture
// without the rulebook.

// legendHeading heads the legend's first row.
const legendHeading = "Key:"

// legendKeys are the marks the picture may show, the same for every
// picture of a scenario (its size stays the same, so that its base is
// drawn once).
func legendKeys(v *rules.State) []hexdraw.Key {
	var keys []hexdraw.Key
	for _, side := range v.Sides {
		col := sideColour(v, side)
		keys = append(keys, hexdraw.Key{Text: side + " units", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Rect(ink, x+2, y, x+24, y+14)
			p.Rect(col, x+3, y+1, x+23, y+13)
		}})
	}
	hexMark := func(c hexdraw.Colour) func(p *hexdraw.Picture, x, y float64) {
		return func(p *hexdraw.Picture, x, y float64) {
			p.Outline(c, 2.5, hexdraw.Pt{X: x + 6, Y: y + 1}, hexdraw.Pt{X: x + 20, Y: y + 1}, hexdraw.Pt{X: x + 25, Y: y + 7},
				hexdraw.Pt{X: x + 20, Y: y + 13}, hexdraw.Pt{X: x + 6, Y: y + 13}, hexdraw.Pt{X: x + 1, Y: y + 7})
		}
	}
	corner := func(c hexdraw.Colour, right bool) func(p *hexdraw.Picture, x, y float64) {
		return func(p *hexdraw.Picture, x, y float64) {
			p.Rect(ink, x+2, y, x+24, y+14)
			p.Rect(grey, x+3, y+1, x+23, y+13)
			if right {
				p.Fill(c, hexdraw.Pt{X: x + 23, Y: y + 13}, hexdraw.Pt{X: x + 23, Y: y + 5}, hexdraw.Pt{X: x + 15, Y: y + 13})
			} else {
				p.Fill(c, hexdraw.Pt{X: x + 3, Y: y + 13}, hexdraw.Pt{X: x + 3, Y: y + 5}, hexdraw.Pt{X: x + 11, Y: y + 13})
			}
		}
	}
	keys = append(keys,
		hexdraw.Key{Text: "held by (colour)", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Rect(ink, x+8, y+2, x+18, y+12)
			p.Rect(sideColour(v, v.Sides[0]), x+9, y+3, x+17, y+11)
		}},
		hexdraw.Key{Text: "victory hex", Mark: hexMark(gold)},
		hexdraw.Key{Text: "key city", Mark: hexMark(ink)},
		hexdraw.Key{Text: "port", Mark: func(p *hexdraw.Picture, x, y float64) { drawAnchor(p, hexdraw.Pt{X: x + 13, Y: y + 7}) }},
		hexdraw.Key{Text: "river", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Line(river, 4, hexdraw.Pt{X: x + 1, Y: y + 7}, hexdraw.Pt{X: x + 25, Y: y + 7})
		}},
		hexdraw.Key{Text: "bridge (red: down)", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Line(river, 4, hexdraw.Pt{X: x + 1, Y: y + 7}, hexdraw.Pt{X: x + 25, Y: y + 7})
			p.Line(ink, 5, hexdraw.Pt{X: x + 13, Y: y}, hexdraw.Pt{X: x + 13, Y: y + 14})
		}},
		hexdraw.Key{Text: "road", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Line(road, 3, hexdraw.Pt{X: x + 1, Y: y + 7}, hexdraw.Pt{X: x + 25, Y: y + 7})
		}},
		hexdraw.Key{Text: "moved", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Arrow(ink, 2, hexdraw.Pt{X: x + 1, Y: y + 7}, hexdraw.Pt{X: x + 25, Y: y + 7})
		}},
		hexdraw.Key{Text: "engaged (hex in red)", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Arrow(red, 2, hexdraw.Pt{X: x + 1, Y: y + 7}, hexdraw.Pt{X: x + 25, Y: y + 7})
		}},
		hexdraw.Key{Text: "damaged", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Rect(ink, x+2, y, x+24, y+14)
			p.Rect(grey, x+3, y+1, x+23, y+13)
			p.Fill(red, hexdraw.Pt{X: x + 23, Y: y + 1}, hexdraw.Pt{X: x + 23, Y: y + 9}, hexdraw.Pt{X: x + 15, Y: y + 1})
		}},
		hexdraw.Key{Text: "out of supply", Mark: corner(gold, false)},
		hexdraw.Key{Text: "out of command", Mark: corner(white, true)},
		hexdraw.Key{Text: "aircraft aloft", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Rect(river, x, y-1, x+26, y+15)
			p.Rect(ink, x+3, y+2, x+23, y+12)
			p.Rect(grey, x+4, y+3, x+22, y+11)
		}},
		hexdraw.Key{Text: "minefield", Mark: func(p *hexdraw.Picture, x, y float64) {
			for i := range 4 {
				p.Fill(red, hexdraw.Circle(hexdraw.Pt{X: x + 4 + 6*float64(i), Y: y + 7}, 2.5)...)
			}
		}},
		hexdraw.Key{Text: "x2: units in the stack", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Rect(ink, x+2, y, x+24, y+14)
			p.Rect(grey, x+3, y+1, x+23, y+13)
			p.Text(white, hexdraw.NoHalo, x+6, y+1, "x2")
		}},
	)
	return keys
}

// drawFrame paints the title band (the scenario, the turn, whose view)
// and the legend from legendTop down.
func drawFrame(p *hexdraw.Picture, v *rules.State, t *Turn, legendTop float64, keys []hexdraw.Key) {
	sub := fmt.Sprintf("Frontline General, turn %d of %d: %s to play", v.Turn, v.Turns, v.Active)
	if t != nil && t.Before != nil {
		sub = fmt.Sprintf("Frontline General, turn %d of %d: after %s's turn", t.Before.Turn, v.Turns, t.Before.Active)
	}
	if v.Over {
		sub = fmt.Sprintf("Frontline General, turn %d of %d: the game is over", v.Turn, v.Turns)
	}
	if v.ViewOf != "" && v.ViewOf != "observer" {
		sub += fmt.Sprintf(" - what %s sees", v.ViewOf)
	}
	p.TitleBand(ink, white, gold, v.Title, sub)
	p.Legend(ink, legendTop, legendHeading, keys)
}

// features are the marks of hexes a place's name must not cover: who
// holds a city, port or airfield, a port's anchor, a bridge.
func features(v *rules.State) []hexdraw.Box {
	var out []hexdraw.Box
	for hx := range v.Control {
		ce := layout.Centre(hx)
		out = append(out, hexdraw.Box{X0: ce.X + 15, Y0: ce.Y - 25, X1: ce.X + 24, Y1: ce.Y - 16})
	}
	for r := 1; r <= v.Map.Height; r++ {
		for c := 1; c <= v.Map.Width; c++ {
			if hx := (rules.Hex{Col: c, Row: r}); v.Map.Terrain(hx) == rules.PortCity {
				a := anchorAt(hx)
				out = append(out, hexdraw.Box{X0: a.X - 6, Y0: a.Y - 6, X1: a.X + 6, Y1: a.Y + 6})
			}
		}
	}
	for hs := range v.Bridges {
		a, b := layout.Centre(hs.A), layout.Centre(hs.B)
		mid := hexdraw.Pt{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}
		out = append(out, hexdraw.Box{X0: mid.X - 9, Y0: mid.Y - 9, X1: mid.X + 9, Y1: mid.Y + 9})
	}
	return out
}
