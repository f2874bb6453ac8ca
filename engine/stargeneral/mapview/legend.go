package mapview

import (
	"fmt"
	"math"
	"strings"

	"fieldpost/engine/hexdraw"
	"fieldpost/engine/stargeneral/rules"
)

var (
	titleBack = hexdraw.RGB(0x2c3a2e)
	titleInk  = hexdraw.RGB(0xffffff)
	titleSub  = hexdraw.RGB(0xd6dccf)
	legendInk = hexdraw.RGB(0x2a2a2a)
)

func (r *renderer) titleHeight() float64 { return math.Round(math.Max(44, 1.45*r.r)) }

// drawTitle writes the scenario title and where the game stands.
func (r *renderer) drawTitle() {
	c := r.c
	th := r.titleHeight()
	c.FillRect(0, 0, r.width, int(th), titleBack)
	title := r.st.Title
	if title == "" {
		title = r.st.Scenario
	}
	if title == "" {
		title = "Fieldpost"
	}
	avail := float64(r.width) - 2*r.margin
	tf := c.Fit(true, int(math.Max(16, 0.52*r.r)), 12, title, avail)
	sub := r.subtitle()
	sf := c.Fit(false, int(math.Max(12, 0.36*r.r)), 9, sub, avail)
	gap := (th - float64(tf.Ascent) - float64(sf.Ascent)) / 3
	c.Text(tf, hexdraw.Clip(tf, title, avail), r.margin, gap+float64(tf.Ascent), titleInk)
	c.Text(sf, hexdraw.Clip(sf, sub, avail), r.margin, 2*gap+float64(tf.Ascent)+float64(sf.Ascent), titleSub)
}

// subtitle says which round the picture shows.
func (r *renderer) subtitle() string {
	st := r.st
	var when string
	switch {
	case st.Ended:
		when = "Game over"
		if st.Result != "" {
			when += ": " + st.Result
		}
	case st.Night:
		when = fmt.Sprintf("Day %d of %d, before the night", st.Day, st.Days)
	default:
		when = fmt.Sprintf("Day %d of %d, start of round %d of %d", st.Day, st.Days, st.Round, r.rs.RoundsPerDay)
	}
	parts := []string{when}
	if r.hasEventMarks() {
		parts = append(parts, "arrows and markers show the round just played")
	}
	if r.rs.Title != "" {
		parts = append(parts, r.rs.Title)
	}
	return strings.Join(parts, "  ·  ")
}

func (r *renderer) hasEventMarks() bool {
	for _, e := range r.events {
		if _, ok := arrowStyle(e.Kind); ok || e.Combat != nil || e.Kind == rules.EvEliminated {
			return true
		}
	}
	return false
}

// legendItem is an icon with one or more lines of text beside it.
type legendItem struct {
	iconW float64
	icon  func(c *hexdraw.Canvas, x, y, h float64)
	lines []string
}

// legendSection is a heading and its items, flowed across the picture.
type legendSection struct {
	title string
	rowH  float64
	items []legendItem
}

func (r *renderer) legendFaces() (*hexdraw.TextFace, *hexdraw.TextFace) {
	size := int(math.Round(math.Max(12, 0.34*r.r)))
	return r.c.Face(false, size), r.c.Face(true, size)
}

func (r *renderer) legendHeight() float64 { return r.layoutLegend(0, false) }

func (r *renderer) drawLegend(top float64) { r.layoutLegend(top, true) }

// layoutLegend flows the legend's sections into rows and draws them when
// paint is set; it returns the height used.
func (r *renderer) layoutLegend(top float64, paint bool) float64 {
	reg, bold := r.legendFaces()
	lineH := float64(reg.Height) + 1
	right := float64(r.width) - r.margin
	gap := math.Round(0.5 * r.r)
	indent := r.margin + float64(bold.Width("This round")) + gap/2
	y := top
	for _, sec := range r.legend {
		if paint {
			r.c.Text(bold, sec.title, r.margin, y+sec.rowH/2+hexdraw.CapHalf(bold), legendInk)
		}
		type placed struct {
			it    legendItem
			x     float64
			lines []string
		}
		var row []placed
		x := indent
		flush := func() {
			h := sec.rowH
			for _, p := range row {
				h = math.Max(h, lineH*float64(len(p.lines))+4)
			}
			if paint {
				for _, p := range row {
					if p.it.icon != nil {
						p.it.icon(r.c, p.x, y+(h-sec.rowH)/2, sec.rowH)
					}
					tx := p.x + p.it.iconW
					if p.it.icon != nil {
						tx += 6
					}
					ty := y + h/2 - lineH*float64(len(p.lines))/2
					for i, l := range p.lines {
						r.c.Text(reg, l, tx, ty+lineH*float64(i)+float64(reg.Ascent), legendInk)
					}
				}
			}
			y += h
			row, x = nil, indent
		}
		for _, it := range sec.items {
			iconW := it.iconW
			if it.icon != nil {
				iconW += 6
			}
			// Text too wide for a whole row is wrapped at spaces.
			var lines []string
			for _, l := range it.lines {
				lines = append(lines, wrapWords(reg, l, right-indent-iconW)...)
			}
			tw := 0.0
			for _, l := range lines {
				tw = math.Max(tw, float64(reg.Width(l)))
			}
			if len(row) > 0 && x+iconW+tw > right {
				flush()
			}
			row = append(row, placed{it, x, lines})
			x += iconW + tw + gap
		}
		flush()
		y += gap / 3
	}
	return y - top
}

// wrapWords breaks s at spaces into lines no wider than width in f.
func wrapWords(f *hexdraw.TextFace, s string, width float64) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && float64(f.Width(line+" "+w)) > width {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(out, line)
}

// legendSections collects what this map shows and needs explaining.
func (r *renderer) legendSections() []legendSection {
	var out []legendSection
	cw, ch := counterSize(r.r)
	forces := legendSection{title: "Forces", rowH: ch + 8}
	for i, sd := range r.st.Sides {
		if i > 1 {
			break
		}
		k, ok := r.sampleCounter(sd.Name)
		if !ok {
			continue
		}
		lines := []string{sd.Title}
		if sd.Title != sd.Name {
			lines = append(lines, "("+sd.Name+")")
		}
		forces.items = append(forces.items, legendItem{iconW: cw + 4, icon: func(c *hexdraw.Canvas, x, y, h float64) {
			r.drawCounter(pt{X: x + cw/2 + 1, Y: y + h/2 + 0.03*r.r}, k)
		}, lines: lines})
	}
	forces.items = append(forces.items, legendItem{lines: []string{
		"Top: unit, and its order: M move, H hold, D dig in, R retreat",
		"Middle: type symbol and stand name",
		"Bottom: strength left/full (red after losses), attached support",
	}})
	if r.anyOutOfCommand() {
		forces.items[len(forces.items)-1].lines = append(forces.items[len(forces.items)-1].lines,
			fmt.Sprintf("Red rim: out of command, more than %d hexes from its HQ", r.rs.CommandRange))
	}
	out = append(out, forces)

	rowH := math.Round(math.Max(22, 0.66*r.r))
	types := legendSection{title: "Types", rowH: rowH}
	for _, s := range r.symbolsUsed() {
		sym := s.sym
		fw, fh := symbolSize(r.r)
		types.items = append(types.items, legendItem{iconW: fw, icon: func(c *hexdraw.Canvas, x, y, h float64) {
			drawSymbol(c, sym, x, math.Round(y+h/2-fh/2), x+fw, math.Round(y+h/2-fh/2)+fh)
		}, lines: []string{strings.Join(s.titles, ", ")}})
	}
	for _, m := range r.marksUsed() {
		mark := m[0]
		types.items = append(types.items, legendItem{iconW: 0.5 * r.r, icon: func(c *hexdraw.Canvas, x, y, h float64) {
			mf := c.Face(true, int(math.Round(0.22*r.r)))
			w := float64(mf.Width(mark)) + 3
			bh := math.Round(0.3*r.r) - 2
			c.Fill(counterRim, hexdraw.RectShape(x-1, y+h/2-bh/2-1, x+w+1, y+h/2+bh/2+1))
			c.Fill(markBack, hexdraw.RectShape(x, y+h/2-bh/2, x+w, y+h/2+bh/2))
			c.TextCentred(mf, mark, x+w/2+0.5, y+h/2, ink)
		}, lines: []string{m[1]}})
	}
	if r.hasBatteries() {
		types.items = append(types.items, legendItem{iconW: 0.5 * r.r, icon: func(c *hexdraw.Canvas, x, y, h float64) {
			pr := math.Max(1.5, 0.07*r.r)
			for i := range 2 {
				p := pt{X: x + pr + 1 + float64(i)*(2*pr+2), Y: y + h/2}
				c.Fill(ink, hexdraw.Circle(p, pr+0.8))
				if i == 1 {
					c.Fill(markBack, hexdraw.Circle(p, pr-0.4))
				}
			}
		}, lines: []string{"battery shots: left, fired"}})
	}
	if len(types.items) > 0 {
		out = append(out, types)
	}

	terrain := legendSection{title: "Terrain", rowH: rowH}
	used := map[byte]bool{}
	for _, row := range r.st.Map.Grid {
		for i := 0; i < len(row); i++ {
			used[row[i]] = true
		}
	}
	sw := rowH * 0.46
	for i := range r.rs.Terrain {
		t := &r.rs.Terrain[i]
		if !used[t.Letter[0]] {
			continue
		}
		terrain.items = append(terrain.items, legendItem{iconW: 2 * sw, icon: func(c *hexdraw.Canvas, x, y, h float64) {
			ctr := pt{X: x + sw, Y: y + h/2}
			var around [6]string
			if terrainLook(t) == "bridge" {
				around = [6]string{"", "river", "river", "", "river", "river"}
			}
			c.Fill(terrainGround(t, around), hexdraw.Hexagon(ctr, sw))
			paintTerrain(c, t, ctr, sw, around)
			if terrainLook(t) == "bridge" {
				drawBridgeDeck(c, ctr, sw, []int{0, 3})
			}
			c.StrokeClosed(gridLine, 1, hexdraw.Hexagon(ctr, sw))
		}, lines: []string{t.Title}})
	}
	if len(r.st.Map.Roads) > 0 {
		terrain.items = append(terrain.items, legendItem{iconW: 2 * sw, icon: func(c *hexdraw.Canvas, x, y, h float64) {
			c.Stroke(roadEdge, 0.21*r.r, pt{X: x + 2, Y: y + h/2}, pt{X: x + 2*sw - 2, Y: y + h/2})
			c.Stroke(roadFill, 0.13*r.r, pt{X: x + 2, Y: y + h/2}, pt{X: x + 2*sw - 2, Y: y + h/2})
		}, lines: []string{"road"}})
	}
	if len(r.st.Objectives) > 0 {
		terrain.items = append(terrain.items, legendItem{iconW: 2 * sw, icon: func(c *hexdraw.Canvas, x, y, h float64) {
			ctr := pt{X: x + sw, Y: y + h/2}
			s := hexdraw.Star(ctr, sw*0.8)
			c.Fill(ink, grow(s, 1.2))
			c.Fill(unheld, s)
		}, lines: []string{"objective: star and ring in the colour of the side holding it, red if nobody does"}})
	}
	out = append(out, terrain)

	if markers := r.markerItems(); len(markers) > 0 {
		out = append(out, legendSection{title: "This round", rowH: rowH, items: markers})
	}
	return out
}

// anyOutOfCommand reports whether a stand on the map is out of command.
func (r *renderer) anyOutOfCommand() bool {
	for _, u := range r.st.Units {
		if u.Removed {
			continue
		}
		for _, s := range u.Stands {
			if r.standCounter(u, s).outOfCommand {
				return true
			}
		}
	}
	return false
}

// sampleCounter is a side's first counter, to show its colour in the legend.
func (r *renderer) sampleCounter(side string) (counter, bool) {
	for _, u := range r.st.Units {
		if u.Side == side && !u.Removed && len(u.Stands) > 0 {
			return r.standCounter(u, u.Stands[0]), true
		}
	}
	for _, b := range r.st.Batteries {
		if b.Side == side && !b.Removed {
			return r.batteryCounter(b), true
		}
	}
	return counter{}, false
}

func (r *renderer) hasBatteries() bool {
	for _, b := range r.st.Batteries {
		if !b.Removed {
			return true
		}
	}
	return false
}

type symbolUse struct {
	sym    symbol
	titles []string
}

// symbolsUsed lists the distinct symbols on the map with the titles of the
// stand types drawn with each, in order of first appearance.
func (r *renderer) symbolsUsed() []symbolUse {
	var out []symbolUse
	add := func(sym symbol, title string) {
		for i := range out {
			if out[i].sym == sym {
				for _, t := range out[i].titles {
					if t == title {
						return
					}
				}
				out[i].titles = append(out[i].titles, title)
				return
			}
		}
		out = append(out, symbolUse{sym: sym, titles: []string{title}})
	}
	for _, u := range r.st.Units {
		if u.Removed {
			continue
		}
		for _, s := range u.Stands {
			title := r.rs.StandTypes[s.Type].Title
			if s.Support != nil && r.rs.StandTypes[s.Support.Type].GivesArmour {
				title += " in " + r.rs.StandTypes[s.Support.Type].Title
			}
			add(standSymbol(r.rs, s), title)
		}
	}
	for _, b := range r.st.Batteries {
		if !b.Removed {
			add(r.batteryCounter(b).sym, r.rs.StandTypes[b.Type].Title+" battery")
		}
	}
	return out
}

// marksUsed lists the support marks on the map with their titles.
func (r *renderer) marksUsed() [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for _, u := range r.st.Units {
		if u.Removed {
			continue
		}
		for _, s := range u.Stands {
			for _, p := range []*rules.Platoon{s.Support, s.Transport} {
				if p == nil {
					continue
				}
				m := platoonMark(r.rs, p.Type)
				key := m + "\x00" + p.Type
				if seen[key] {
					continue
				}
				seen[key] = true
				out = append(out, [2]string{m, r.rs.StandTypes[p.Type].Title})
			}
		}
	}
	return out
}

// markerItems explains the kinds of event marks this map shows.
func (r *renderer) markerItems() []legendItem {
	has := map[string]bool{}
	for _, e := range r.events {
		if style, ok := arrowStyle(e.Kind); ok && len(eventPath(e)) > 1 {
			has[fmt.Sprint("arrow", style)] = true
		}
		if e.Combat != nil && (e.Kind == rules.EvCombat || e.Kind == rules.EvBarrage) {
			if e.Kind == rules.EvBarrage || e.Combat.Barrage {
				has["barrage"] = true
			} else {
				has["combat"] = true
			}
		}
		if e.Kind == rules.EvEliminated && !e.From.IsZero() {
			has["destroyed"] = true
		}
	}
	var out []legendItem
	aw := 1.3 * r.r
	arrowItem := func(style int, text string) {
		if !has[fmt.Sprint("arrow", style)] {
			return
		}
		out = append(out, legendItem{iconW: aw, icon: func(c *hexdraw.Canvas, x, y, h float64) {
			for i := range 2 {
				yy := y + h/2 + (float64(i)-0.5)*h*0.42
				drawArrow(c, []pt{{X: x, Y: yy}, {X: x + aw, Y: yy}}, r.r*0.7, sideStrong[i], style, arrowShaft|arrowTip)
			}
		}, lines: []string{text}})
	}
	arrowItem(arrowMove, "move")
	arrowItem(arrowFallBack, "fall back")
	arrowItem(arrowPursuit, "pursuit")
	mr := markerRadius(r.r)
	if has["combat"] {
		out = append(out, legendItem{iconW: 2.8 * mr, icon: func(c *hexdraw.Canvas, x, y, h float64) {
			drawCombatMarker(c, pt{X: x + 1.4*mr, Y: y + h/2}, mr, 1, false)
		}, lines: []string{"combat at the target hex, in order fought; dashes lead from the attackers"}})
	}
	if has["barrage"] {
		out = append(out, legendItem{iconW: 3 * mr, icon: func(c *hexdraw.Canvas, x, y, h float64) {
			drawCombatMarker(c, pt{X: x + 1.5*mr, Y: y + h/2}, mr, 1, true)
		}, lines: []string{"artillery barrage"}})
	}
	if has["destroyed"] {
		out = append(out, legendItem{iconW: 0.9 * r.r, icon: func(c *hexdraw.Canvas, x, y, h float64) {
			ctr := pt{X: x + 0.45*r.r, Y: y + h/2}
			d := math.Min(0.42*r.r, h*0.4)
			c.Stroke(destroyed, 0.13*r.r, pt{X: ctr.X - d, Y: ctr.Y - d}, pt{X: ctr.X + d, Y: ctr.Y + d})
			c.Stroke(destroyed, 0.13*r.r, pt{X: ctr.X - d, Y: ctr.Y + d}, pt{X: ctr.X + d, Y: ctr.Y - d})
		}, lines: []string{"stand destroyed"}})
	}
	return out
}
