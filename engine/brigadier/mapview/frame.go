package mapview

import (
	"fmt"

	"fieldpost/engine/brigadier/rules"
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
	counter := func(edge, fill hexdraw.Colour) func(p *hexdraw.Picture, x, y float64) {
		return func(p *hexdraw.Picture, x, y float64) {
			p.Rect(edge, x+2, y, x+24, y+12)
			p.Rect(fill, x+4, y+2, x+22, y+10)
		}
	}
	swatch := func(c hexdraw.Colour, mark func(p *hexdraw.Picture, x, y float64)) func(p *hexdraw.Picture, x, y float64) {
		return func(p *hexdraw.Picture, x, y float64) {
			p.Rect(grey, x+1, y, x+25, y+14)
			p.Rect(c, x+2, y+1, x+24, y+13)
			if mark != nil {
				mark(p, x, y)
			}
		}
	}
	var keys []hexdraw.Key
	for _, sd := range v.Sides {
		keys = append(keys, hexdraw.Key{Text: sd.Name + " platoons", Mark: counter(ink, sideColour(v, sd.Name))})
	}
	keys = append(keys,
		hexdraw.Key{Text: "hidden (yours)", Mark: counter(gold, sideColour(v, v.Sides[0].Name))},
		hexdraw.Key{Text: "dug in", Mark: func(p *hexdraw.Picture, x, y float64) {
			counter(ink, grey)(p, x, y-1)
			p.Rect(ink, x+4, y+12, x+22, y+15)
		}},
		hexdraw.Key{Text: "a man lost each", Mark: func(p *hexdraw.Picture, x, y float64) {
			counter(ink, grey)(p, x, y-1)
			for i := range 3 {
				p.Rect(red, x+7+5*float64(i), y+12, x+10+5*float64(i), y+15)
			}
		}},
		hexdraw.Key{Text: "objective, held by (colour)", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Outline(gold, 2.5, hexdraw.Pt{X: x + 6, Y: y + 1}, hexdraw.Pt{X: x + 20, Y: y + 1}, hexdraw.Pt{X: x + 25, Y: y + 7},
				hexdraw.Pt{X: x + 20, Y: y + 13}, hexdraw.Pt{X: x + 6, Y: y + 13}, hexdraw.Pt{X: x + 1, Y: y + 7})
			p.Rect(ink, x+17, y-1, x+26, y+8)
			p.Rect(sideColour(v, v.Sides[0].Name), x+18, y, x+25, y+7)
		}},
		hexdraw.Key{Text: "moved", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Arrow(ink, 2, hexdraw.Pt{X: x + 1, Y: y + 7}, hexdraw.Pt{X: x + 25, Y: y + 7})
		}},
		hexdraw.Key{Text: "fired", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Arrow(red, 2, hexdraw.Pt{X: x + 1, Y: y + 7}, hexdraw.Pt{X: x + 25, Y: y + 7})
		}},
		hexdraw.Key{Text: "woods", Mark: swatch(woods, func(p *hexdraw.Picture, x, y float64) {
			p.Fill(tree, hexdraw.Circle(hexdraw.Pt{X: x + 13, Y: y + 7}, 3.5)...)
		})},
		hexdraw.Key{Text: "town", Mark: swatch(town, func(p *hexdraw.Picture, x, y float64) { p.Rect(ink, x+10, y+5, x+15, y+10) })},
		hexdraw.Key{Text: "hedge", Mark: swatch(open, func(p *hexdraw.Picture, x, y float64) {
			p.Line(tree, 2, hexdraw.Pt{X: x + 3, Y: y + 10}, hexdraw.Pt{X: x + 9, Y: y + 5}, hexdraw.Pt{X: x + 15, Y: y + 10}, hexdraw.Pt{X: x + 23, Y: y + 10})
		})},
		hexdraw.Key{Text: "hill", Mark: swatch(hill, nil)},
		hexdraw.Key{Text: "slope", Mark: swatch(slope, nil)},
		hexdraw.Key{Text: "lake", Mark: swatch(lake, nil)},
		hexdraw.Key{Text: "stream", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Line(water, 4, hexdraw.Pt{X: x + 1, Y: y + 7}, hexdraw.Pt{X: x + 25, Y: y + 7})
		}},
		hexdraw.Key{Text: "bridge", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Line(water, 4, hexdraw.Pt{X: x + 1, Y: y + 7}, hexdraw.Pt{X: x + 25, Y: y + 7})
			for _, dx := range []float64{9, 17} {
				p.Line(ink, 2, hexdraw.Pt{X: x + dx, Y: y}, hexdraw.Pt{X: x + dx, Y: y + 14})
			}
		}},
		hexdraw.Key{Text: "road (thick: paved)", Mark: func(p *hexdraw.Picture, x, y float64) {
			p.Line(road, 3.5, hexdraw.Pt{X: x + 1, Y: y + 7}, hexdraw.Pt{X: x + 25, Y: y + 7})
		}},
	)
	return keys
}

// drawFrame paints the title band (the scenario, the turn and clock,
// whose view) and the legend from legendTop down.
func drawFrame(p *hexdraw.Picture, v *rules.State, events []rules.Event, side string, legendTop float64, keys []hexdraw.Key) {
	sub := fmt.Sprintf("Brigadier General Commands, turn %d, %s (the game ends at %s)", v.Turn+1, rules.ClockText(v.Clock), rules.ClockText(v.End))
	if len(events) > 0 {
		sub = fmt.Sprintf("Brigadier General Commands, after turn %d, %s", v.Turn, rules.ClockText(v.Clock))
	}
	if v.Ended {
		sub = fmt.Sprintf("Brigadier General Commands, the game is over at %s", rules.ClockText(v.Clock))
	}
	if side != "" {
		sub += fmt.Sprintf(" - what %s sees", side)
	}
	p.TitleBand(ink, white, gold, v.Title, sub)
	p.Legend(ink, legendTop, legendHeading, keys)
}

// features are the marks of hexes a name must not cover: who holds an
// objective, a bridge.
func features(v *rules.State) []hexdraw.Box {
	var out []hexdraw.Box
	for _, o := range v.Objectives {
		ce := layout.Centre(o.Hex)
		out = append(out, hexdraw.Box{X0: ce.X + 14, Y0: ce.Y - 23, X1: ce.X + 23, Y1: ce.Y - 14})
	}
	for r := 1; r <= v.Map.Rows; r++ {
		for c := 1; c <= v.Map.Cols; c++ {
			if hx := (rules.Hex{Col: c, Row: r}); v.Map.Letter(hx) == '=' {
				ce := layout.Centre(hx)
				out = append(out, hexdraw.Box{X0: ce.X - 11, Y0: ce.Y - 11, X1: ce.X + 11, Y1: ce.Y + 11})
			}
		}
	}
	return out
}
