package mapview

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"regexp"
	"slices"
	"strings"

	"fieldpost/engine/frontline/rules"
	"fieldpost/engine/hexdraw"
)

// The picture's 16 colours (4 bits a pixel in the PNG).
const (
	white hexdraw.Colour = iota
	ink
	grey
	plains
	coastal
	sea
	mountain
	impassable
	swamp
	city
	road
	river
	olive // the first side (US)
	field // the second side (GE)
	red
	gold
)

var palette = color.Palette{
	white:      color.RGBA{0xff, 0xff, 0xff, 0xff},
	ink:        color.RGBA{0x1e, 0x1e, 0x1e, 0xff},
	grey:       color.RGBA{0x98, 0x94, 0x84, 0xff},
	plains:     color.RGBA{0xea, 0xe6, 0xc8, 0xff},
	coastal:    color.RGBA{0xf2, 0xe2, 0xa8, 0xff},
	sea:        color.RGBA{0xa4, 0xc8, 0xe6, 0xff},
	mountain:   color.RGBA{0xc4, 0xa4, 0x7c, 0xff},
	impassable: color.RGBA{0x6e, 0x58, 0x46, 0xff},
	swamp:      color.RGBA{0xae, 0xc6, 0x96, 0xff},
	city:       color.RGBA{0xcc, 0xb4, 0xac, 0xff},
	road:       color.RGBA{0x9a, 0x46, 0x24, 0xff},
	river:      color.RGBA{0x2a, 0x6a, 0xc4, 0xff},
	olive:      color.RGBA{0x46, 0x66, 0x2a, 0xff},
	field:      color.RGBA{0x52, 0x5c, 0x74, 0xff},
	red:        color.RGBA{0xcc, 0x1e, 0x1e, 0xff},
	gold:       color.RGBA{0xe6, 0xb2, 0x14, 0xff},
}

var terrainFill = map[byte]hexdraw.Colour{
	rules.Plains: plains, rules.Coastal: coastal, rules.Sea: sea, rules.Mountain: mountain,
	rules.Impassable: impassable, rules.Swamp: swamp, rules.KeyCity: city, rules.RuinedCity: city, rules.PortCity: city,
}

// The geometry: hexes of 32 pixels from centre to corner (55 across the
// flats), a counter of 42 x 24 in the middle of its hex, the hex number
// above it and a place's name below.
var layout = hexdraw.Layout{R: 32, Margin: 4, Top: hexdraw.TitleHeight}

const (
	counterHalfW = 21
	counterHalfH = 12
)

// Turn is what a side saw of a player turn, drawn over the position after
// it: the side's view before the turn and the turn's events.
type Turn struct {
	Before *rules.State
	Events []rules.Event
}

// Write draws the side's view v (with the turn that led to it, or nil) as
// a PNG or an SVG picture ("png", "svg").
func Write(w io.Writer, format string, v *rules.State, t *Turn) error {
	return Draw(v, t).Write(w, format)
}

// Draw is the picture of a side's view: the terrain, roads, rivers and
// bridges, who holds the cities, ports and airfields, the victory hexes,
// obstacles, each side's stack as a counter, and the turn's moves (black
// arrows) and engagements (red lines from the attackers to their target).
// A counter is framed in blue while an aircraft of it is in flight;
// the side's own counters show a gold corner bottom left when a unit is
// out of supply (idle) and a white one bottom right when one is outside
// the command network.
// It draws only what v holds: give it the side's View.
func Draw(v *rules.State, t *Turn) *hexdraw.Picture {
	m := v.Map
	w, h := layout.Size(m.Width, m.Height)
	keys := legendKeys(v)
	p := hexdraw.New(w, h+int(math.Ceil(hexdraw.LegendHeight(w, legendHeading, keys))), palette)
	drawTerrain(p, v)
	for r := 1; r <= m.Height; r++ {
		for c := 1; c <= m.Width; c++ {
			hx := rules.Hex{Col: c, Row: r}
			ce := layout.Centre(hx)
			number := ink
			if m.Terrain(hx) == rules.Impassable {
				number = white // on the darkest ground
			}
			p.Digits(number, ce.X-7, ce.Y-24, hx.String())
		}
	}
	p.Base(baseKey(v))
	drawFrame(p, v, t, float64(h), keys)
	drawBridges(p, v)
	drawWorks(p, v)
	drawControl(p, v)
	stacks := stacksOf(v)
	if t != nil {
		drawTurn(p, v, t)
	}
	// A name covers no counter and no mark of a hex (features).
	counters := features(v)
	for _, s := range stacks {
		counters = append(counters, drawStacks(p, v, s)...)
	}
	for hx, name := range sortedNames(m) {
		// Below the hex's counter, else above it (over the hex number).
		ce := layout.Centre(hx)
		x, y := p.PlaceLabel(ce.X, []float64{ce.Y + 13, ce.Y - 27}, name, counters)
		p.Label(ink, int(white), x, y, name)
	}
	return p
}

func drawTerrain(p *hexdraw.Picture, v *rules.State) {
	m := v.Map
	for r := 1; r <= m.Height; r++ {
		for c := 1; c <= m.Width; c++ {
			hx := rules.Hex{Col: c, Row: r}
			t := m.Terrain(hx)
			p.Fill(terrainFill[t], layout.Corners(hx, layout.R-0.8)...)
			ce := layout.Centre(hx)
			switch t {
			case rules.Mountain:
				for _, dx := range []float64{-13, 13} {
					p.Line(impassable, 1.5, hexdraw.Pt{X: ce.X + dx - 5, Y: ce.Y + 22}, hexdraw.Pt{X: ce.X + dx, Y: ce.Y + 16}, hexdraw.Pt{X: ce.X + dx + 5, Y: ce.Y + 22})
				}
			case rules.Swamp:
				for _, dx := range []float64{-13, 13} {
					p.Line(river, 1.2, hexdraw.Pt{X: ce.X + dx - 5, Y: ce.Y + 21}, hexdraw.Pt{X: ce.X + dx + 5, Y: ce.Y + 21})
					p.Line(river, 1.2, hexdraw.Pt{X: ce.X + dx - 3, Y: ce.Y + 18}, hexdraw.Pt{X: ce.X + dx + 3, Y: ce.Y + 18})
				}
			case rules.KeyCity:
				// A key city: a heavy black border (§VII.1).
				p.Outline(ink, 2, layout.Corners(hx, layout.R-4)...)
			case rules.RuinedCity, rules.PortCity:
				// A ruined city: hatched (§VII.2).
				for _, k := range []float64{-12, 0, 12} {
					p.Line(grey, 1.2, hexdraw.Pt{X: ce.X + k - 9, Y: ce.Y + 19}, hexdraw.Pt{X: ce.X + k + 9, Y: ce.Y - 19})
				}
				if t == rules.PortCity {
					drawAnchor(p, anchorAt(hx))
				}
			}
		}
	}
	for _, hs := range sortedSides(m.Roads) {
		p.Line(road, 3, layout.Centre(hs.A), layout.Centre(hs.B))
	}
	for _, hs := range sortedSides(m.Rivers) {
		a, b := layout.Side(hs.A, hs.B)
		p.Line(river, 4, a, b)
	}
	for _, vr := range v.Victory {
		for _, hx := range vr.Hold {
			p.Outline(gold, 2.5, layout.Corners(hx, layout.R-2)...)
		}
	}
}

// baseKey names the map and its victory hexes: what drawTerrain draws.
func baseKey(v *rules.State) string {
	return hexdraw.BaseKey("frontline", struct {
		Map     *rules.Map
		Victory []rules.VictoryRule
	}{v.Map, v.Victory})
}

// drawBridges marks each bridge across its river: black while intact,
// red once collapsed.
func drawBridges(p *hexdraw.Picture, v *rules.State) {
	bridges := map[rules.Side2]bool{}
	for hs := range v.Bridges {
		bridges[hs] = true
	}
	for _, hs := range sortedSides(bridges) {
		a, b := layout.Centre(hs.A), layout.Centre(hs.B)
		mid := hexdraw.Pt{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}
		col := ink
		if v.Bridges[hs] != "intact" {
			col = red // collapsed
		}
		p.Line(col, 5, hexdraw.Toward(mid, a, 7), hexdraw.Toward(mid, b, 7))
	}
}

// drawControl marks who holds each city, port and airfield with a square
// of its colour at the hex's top right.
func drawControl(p *hexdraw.Picture, v *rules.State) {
	held := map[rules.Hex]bool{}
	for hx := range v.Control {
		held[hx] = true
	}
	for _, hx := range sortedHexes(held) {
		owner := v.Control[hx]
		if owner == "" {
			continue
		}
		ce := layout.Centre(hx)
		p.Rect(ink, ce.X+15, ce.Y-25, ce.X+24, ce.Y-16)
		p.Rect(sideColour(v, owner), ce.X+16, ce.Y-24, ce.X+23, ce.Y-17)
	}
}

// anchorAt is where a port's anchor stands: left of the hex number, above
// the counter.
func anchorAt(h rules.Hex) hexdraw.Pt {
	ce := layout.Centre(h)
	return hexdraw.Pt{X: ce.X - 14, Y: ce.Y - 18}
}

// drawAnchor draws a port's anchor, 10 pixels high, centred at c.
func drawAnchor(p *hexdraw.Picture, c hexdraw.Pt) {
	p.Line(ink, 1.5, hexdraw.Pt{X: c.X, Y: c.Y - 5}, hexdraw.Pt{X: c.X, Y: c.Y + 5})
	p.Line(ink, 1.5, hexdraw.Pt{X: c.X - 3, Y: c.Y - 3}, hexdraw.Pt{X: c.X + 3, Y: c.Y - 3})
	p.Line(ink, 1.5, hexdraw.Pt{X: c.X - 5, Y: c.Y + 1}, hexdraw.Pt{X: c.X - 3, Y: c.Y + 4}, hexdraw.Pt{X: c.X, Y: c.Y + 5},
		hexdraw.Pt{X: c.X + 3, Y: c.Y + 4}, hexdraw.Pt{X: c.X + 5, Y: c.Y + 1})
}

func sideColour(v *rules.State, side string) hexdraw.Colour {
	if len(v.Sides) > 1 && side == v.Sides[1] {
		return field
	}
	return olive
}

// stack is what one side has in one hex.
type stack struct {
	hex       rules.Hex
	side      string
	units     []*rules.Unit // structures and fighting units, obstacles apart
	obstacles []*rules.Unit
}

// stacksOf groups the units on the map by hex and side, in hex order,
// leaving out those carried, crewed or towed inside another.
func stacksOf(v *rules.State) [][]*stack {
	byHex := map[rules.Hex][]*stack{}
	for _, u := range v.Units {
		if !u.OnMap() || u.In != "" {
			continue
		}
		ss := byHex[u.Hex]
		i := slices.IndexFunc(ss, func(s *stack) bool { return s.side == u.Side })
		if i < 0 {
			ss = append(ss, &stack{hex: u.Hex, side: u.Side})
			i = len(ss) - 1
			byHex[u.Hex] = ss
		}
		if v.Card(u).Kind == "obstacle" {
			ss[i].obstacles = append(ss[i].obstacles, u)
		} else {
			ss[i].units = append(ss[i].units, u)
		}
	}
	var out [][]*stack
	for _, hx := range sortedHexes(byHex) {
		ss := byHex[hx]
		slices.SortFunc(ss, func(a, b *stack) int {
			return cmp.Compare(slices.Index(v.Sides, a.side), slices.Index(v.Sides, b.side))
		})
		out = append(out, ss)
	}
	return out
}

// drawStacks draws the obstacles of a hex, then each side's counter: one
// counter of two rows (the leading unit's code; how many units and the
// structures among them) when one side is there, a row each when both are.
// It returns where the counters are.
func drawStacks(p *hexdraw.Picture, v *rules.State, ss []*stack) []hexdraw.Box {
	ce := layout.Centre(ss[0].hex)
	for _, s := range ss {
		for _, o := range s.obstacles {
			drawObstacle(p, v, o, ce)
		}
	}
	var shown []*stack
	for _, s := range ss {
		if len(s.units) > 0 {
			shown = append(shown, s)
		}
	}
	var drawn []hexdraw.Box
	for i, s := range shown {
		lead := leader(v, s.units)
		code := v.Card(lead).Code
		rest := summary(v, s.units, lead)
		top, bottom := ce.Y-counterHalfH, ce.Y+counterHalfH
		if len(shown) > 1 {
			top, bottom = ce.Y-counterHalfH+float64(i)*(counterHalfH+1), ce.Y-1+float64(i)*(counterHalfH+1)
		}
		left, right := ce.X-counterHalfW, ce.X+counterHalfW
		drawn = append(drawn, hexdraw.Box{X0: left, Y0: top, X1: right, Y1: bottom})
		if aloft(s.units) {
			// In flight: a blue frame round the counter.
			p.Rect(river, left-3, top-3, right+3, bottom+3)
		}
		p.Rect(ink, left, top, right, bottom)
		p.Rect(sideColour(v, s.side), left+1, top+1, right-1, bottom-1)
		if damaged(s.units) {
			p.Fill(red, hexdraw.Pt{X: right - 1, Y: top + 1}, hexdraw.Pt{X: right - 1, Y: top + 9}, hexdraw.Pt{X: right - 9, Y: top + 1})
		}
		if s.side == v.ViewOf {
			// Only the side's own: it knows its supply and command network.
			if idle(s.units) {
				p.Fill(gold, hexdraw.Pt{X: left + 1, Y: bottom - 1}, hexdraw.Pt{X: left + 1, Y: bottom - 12}, hexdraw.Pt{X: left + 12, Y: bottom - 1})
			}
			if outOfCommand(v, s.units) {
				p.Fill(white, hexdraw.Pt{X: right - 1, Y: bottom - 1}, hexdraw.Pt{X: right - 1, Y: bottom - 12}, hexdraw.Pt{X: right - 12, Y: bottom - 1})
			}
		}
		if len(shown) > 1 {
			line := code
			if n := fmt.Sprint(len(s.units)); len(s.units) > 1 && len(code)+1+len(n) <= 6 {
				line += " " + n
			}
			p.Text(white, hexdraw.NoHalo, ce.X-float64(hexdraw.TextWidth(line))/2, top-1, line)
			continue
		}
		if rest == "" {
			p.Text(white, hexdraw.NoHalo, ce.X-float64(hexdraw.TextWidth(code))/2, ce.Y-6, code)
			continue
		}
		p.Text(white, hexdraw.NoHalo, ce.X-float64(hexdraw.TextWidth(code))/2, top-1, code)
		p.Text(white, hexdraw.NoHalo, ce.X-float64(hexdraw.TextWidth(rest))/2, top+11, rest)
	}
	return drawn
}

// drawObstacle marks a minefield as a red dotted ring inside the hex and
// barbed wire as a black zigzag below its counter.
func drawObstacle(p *hexdraw.Picture, v *rules.State, o *rules.Unit, ce hexdraw.Pt) {
	switch v.Card(o).Code {
	case "WIRE":
		var zig []hexdraw.Pt
		for i := range 9 {
			zig = append(zig, hexdraw.Pt{X: ce.X - 16 + 4*float64(i), Y: ce.Y + 19 + 3*float64(i%2)})
		}
		p.Line(ink, 1.5, zig...)
	default:
		for _, c := range layout.Corners(o.Hex, layout.R-6) {
			p.Fill(red, hexdraw.Circle(c, 2.5)...)
		}
		cs := layout.Corners(o.Hex, layout.R-6)
		for i := range cs {
			mid := hexdraw.Pt{X: (cs[i].X + cs[(i+1)%6].X) / 2, Y: (cs[i].Y + cs[(i+1)%6].Y) / 2}
			p.Fill(red, hexdraw.Circle(mid, 2.5)...)
		}
	}
}

// leader is the unit a counter names: the dearest fighting unit, or the
// dearest structure when there is no fighting unit.
func leader(v *rules.State, us []*rules.Unit) *rules.Unit {
	best := us[0]
	rank := func(u *rules.Unit) (int, int) {
		c := v.Card(u)
		if c.Kind == "structure" {
			return 0, c.Cost
		}
		return 1, c.Cost
	}
	for _, u := range us[1:] {
		bk, bc := rank(best)
		uk, uc := rank(u)
		if uk > bk || (uk == bk && uc > bc) {
			best = u
		}
	}
	return best
}

// structureTag names a structure in a counter's second row.
var structureTag = map[string]string{"FHQ": "HQ", "CP": "CP", "AF": "AF"}

// summary is a counter's second row: how many units the stack holds and
// the structures other than its leader.
func summary(v *rules.State, us []*rules.Unit, lead *rules.Unit) string {
	parts := []string{fmt.Sprintf("x%d", len(us))}
	if len(us) == 1 {
		parts = parts[:0]
	}
	for _, u := range us {
		if u == lead || v.Card(u).Kind != "structure" {
			continue
		}
		tag := structureTag[v.Card(u).Code]
		if tag == "" {
			tag = v.Card(u).Code
		}
		if !slices.Contains(parts, tag) && len(strings.Join(append(parts, tag), " ")) <= 6 {
			parts = append(parts, tag)
		}
	}
	return strings.Join(parts, " ")
}

func damaged(us []*rules.Unit) bool {
	return slices.ContainsFunc(us, func(u *rules.Unit) bool { return u.Damaged })
}

// aloft: an aircraft of the stack is in flight, its turns of flight running.
func aloft(us []*rules.Unit) bool {
	return slices.ContainsFunc(us, func(u *rules.Unit) bool { return u.Aloft })
}

// idle: a unit of the stack is out of supply, idle after a deficit (§V.3).
func idle(us []*rules.Unit) bool {
	return slices.ContainsFunc(us, func(u *rules.Unit) bool { return u.Idle })
}

// outOfCommand: a fighting unit of the stack stands outside its side's
// command network (Inset IV.1); structures need none.
func outOfCommand(v *rules.State, us []*rules.Unit) bool {
	return slices.ContainsFunc(us, func(u *rules.Unit) bool {
		return v.Card(u).Kind != "structure" && !v.InCommand(u)
	})
}

// attackers reads an engagement's side and attacking units from its
// event: "... by GE: attackers PZ4-1 RS-2; ...".
var attackers = regexp.MustCompile(`by (\S+): attackers ([^;]*);`)

// drawTurn draws the moves the side saw (a unit it sees now that it saw
// elsewhere before) and a red line from each attacker it sees to each
// engagement's target, under the counters so that no line hides one.
func drawTurn(p *hexdraw.Picture, v *rules.State, t *Turn) {
	before := map[string]rules.Hex{}
	if t.Before != nil {
		for _, u := range t.Before.Units {
			if u.OnMap() && u.In == "" {
				before[u.Key()] = u.Hex
			}
		}
	}
	now := map[string]rules.Hex{}
	for _, u := range v.Units {
		if u.OnMap() && u.In == "" {
			now[u.Key()] = u.Hex
		}
	}
	type path struct{ from, to rules.Hex }
	seen := map[path]bool{}
	for _, u := range v.Units {
		from, ok := before[u.Key()]
		to := now[u.Key()]
		if !ok || to.IsZero() || from == to || seen[path{from, to}] {
			continue
		}
		seen[path{from, to}] = true
		a, b := layout.Centre(from), layout.Centre(to)
		p.Arrow(ink, 2, a, hexdraw.OutOfBox(b, a, counterHalfW, counterHalfH, 1))
	}
	side := v.ViewOf
	targets := map[rules.Hex]bool{}
	for _, e := range t.Events {
		if e.Kind != "engage" || !(e.Private == "" || e.Private == side) {
			continue
		}
		targets[e.Hex] = true
		m := attackers.FindStringSubmatch(e.Text)
		if m == nil {
			continue
		}
		for _, id := range strings.Fields(m[2]) {
			key := m[1] + ":" + id
			from, ok := now[key]
			if !ok {
				from, ok = before[key]
			}
			if !ok || from == e.Hex || seen[path{from, e.Hex}] {
				continue
			}
			seen[path{from, e.Hex}] = true
			a, b := layout.Centre(from), layout.Centre(e.Hex)
			p.Arrow(red, 2, hexdraw.OutOfBox(a, b, counterHalfW, counterHalfH, 1), hexdraw.OutOfBox(b, a, counterHalfW, counterHalfH, 1))
		}
	}
	for _, hx := range sortedHexes(targets) {
		p.Outline(red, 2.5, layout.Corners(hx, layout.R-2)...)
	}
}

func sortedHexes[V any](m map[rules.Hex]V) []rules.Hex {
	out := make([]rules.Hex, 0, len(m))
	for hx := range m {
		out = append(out, hx)
	}
	slices.SortFunc(out, func(a, b rules.Hex) int { return cmp.Or(cmp.Compare(a.Col, b.Col), cmp.Compare(a.Row, b.Row)) })
	return out
}

func sortedSides(m map[rules.Side2]bool) []rules.Side2 {
	out := make([]rules.Side2, 0, len(m))
	for hs, ok := range m {
		if ok {
			out = append(out, hs)
		}
	}
	slices.SortFunc(out, func(a, b rules.Side2) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// sortedNames yields the map's place names in hex order.
func sortedNames(m *rules.Map) func(yield func(rules.Hex, string) bool) {
	return func(yield func(rules.Hex, string) bool) {
		for _, hx := range sortedHexes(m.Names) {
			if !yield(hx, m.Names[hx]) {
				return
			}
		}
	}
}
