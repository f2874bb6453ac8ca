package mapview

import (
	"image/color"
	"math"
	"strconv"

	"fieldpost/engine/stargeneral/rules"
)

var (
	halo       = rgb(0xffffff)
	combatFill = rgb(0xe8501f)
	combatRim  = rgb(0x4a1406)
	barrageBg  = rgb(0x3a2d6b)
	markerInk  = rgb(0xffffff)
)

// arrow styles for the kinds of movement.
const (
	arrowMove = iota
	arrowFallBack
	arrowPursuit
)

func arrowStyle(k rules.EventKind) (int, bool) {
	switch k {
	case rules.EvMove, rules.EvArtilleryMove:
		return arrowMove, true
	case rules.EvFallBack:
		return arrowFallBack, true
	case rules.EvPursuit:
		return arrowPursuit, true
	}
	return 0, false
}

// eventPath is the hexes an event's stand went through, start first.
func eventPath(e rules.Event) []rules.Hex {
	var out []rules.Hex
	add := func(h rules.Hex) {
		if !h.IsZero() && (len(out) == 0 || out[len(out)-1] != h) {
			out = append(out, h)
		}
	}
	add(e.From)
	for _, h := range e.Path {
		add(h)
	}
	add(e.To)
	return out
}

// eventSide is the side an event belongs to, from the event or its unit.
func (r *renderer) eventSide(e rules.Event) int {
	if i, ok := r.sideOf[e.Side]; ok {
		return i
	}
	if u := r.st.Unit(e.Unit); u != nil {
		return r.side(u.Side)
	}
	if b := r.st.Battery(e.Unit); b != nil {
		return r.side(b.Side)
	}
	return 0
}

// drawMoves draws every move of the round as an arrow along its path,
// stopping at the edge of the counter it leads to.
func (r *renderer) drawMoves(parts int) {
	for _, e := range r.events {
		style, ok := arrowStyle(e.Kind)
		if !ok {
			continue
		}
		var pts []pt
		for _, h := range eventPath(e) {
			if r.st.Map.OnMap(h) {
				pts = append(pts, r.centre(h))
			}
		}
		if len(pts) < 2 {
			continue
		}
		path := eventPath(e)
		last := len(pts) - 1
		if r.counters[path[len(path)-1]] {
			pts[last] = r.counterEdge(pts[last], pts[last-1])
		}
		// Leave the counter at the start alone if the arrow still has room
		// for its head; between two neighbouring counters it cannot.
		if r.counters[path[0]] {
			edge := r.counterEdge(pts[0], pts[1])
			if need := 2 * arrowHeadSize(r.r); len(pts) > 2 || pts[last].sub(edge).length() >= need {
				pts[0] = edge
			} else {
				pts[0] = pts[last].sub(pts[last].sub(pts[0]).unit().scale(need))
			}
		}
		drawArrow(r.c, pts, r.r, sideStrong[r.eventSide(e)], style, parts)
	}
}

// counterEdge is where the line from a counter's hex centre c towards p
// leaves the counter.
func (r *renderer) counterEdge(c, p pt) pt {
	x0, y0, x1, y1 := counterBox(c, r.r)
	d := p.sub(c)
	t := math.Inf(1)
	if d.x > 0 {
		t = math.Min(t, (x1+1-c.x)/d.x)
	} else if d.x < 0 {
		t = math.Min(t, (x0-1-c.x)/d.x)
	}
	if d.y > 0 {
		t = math.Min(t, (y1+1-c.y)/d.y)
	} else if d.y < 0 {
		t = math.Min(t, (y0-1-c.y)/d.y)
	}
	if t > 0.9 {
		t = 0.9
	}
	return c.add(d.scale(t))
}

// Arrow parts: the shaft goes under the counters it passes, the tip over
// them so that it shows even between two neighbouring counters.
const (
	arrowShaft = 1 << iota
	arrowTip
)

// drawArrow draws a path with an arrowhead at its end: solid for a move,
// dashed for a fall back, with a second head for a pursuit.
func drawArrow(c *canvas, pts []pt, r float64, col color.RGBA, style, parts int) {
	lw := math.Max(2, 0.11*r)
	head := arrowHeadSize(r)
	end := pts[len(pts)-1]
	dir := end.sub(pts[len(pts)-2]).unit()
	base := end.sub(dir.scale(head * 0.8))
	var lines [][]pt
	var heads [][]pt
	if parts&arrowShaft != 0 {
		shaft := append(append([]pt(nil), pts[:len(pts)-1]...), base)
		if style == arrowFallBack {
			lines = dashes(shaft, 1.6*lw+4, 1.4*lw)
		} else {
			lines = [][]pt{shaft}
		}
	}
	if parts&arrowTip != 0 {
		heads = append(heads, arrowHead(end, dir, head))
		if style == arrowPursuit {
			heads = append(heads, arrowHead(end.sub(dir.scale(head*0.55)), dir, head))
		}
		// A short piece of shaft behind the head shows its direction.
		lines = append(lines, []pt{base.sub(dir.scale(head * 0.6)), base})
	}
	for _, l := range lines {
		c.stroke(halo, lw+3, l...)
	}
	for _, h := range heads {
		c.fill(halo, grow(h, 1.8))
	}
	for _, l := range lines {
		c.stroke(col, lw, l...)
	}
	for _, h := range heads {
		c.fill(col, h)
	}
}

func arrowHeadSize(r float64) float64 { return math.Max(8, 0.4*r) }

func arrowHead(tip, dir pt, size float64) []pt {
	n := dir.perp().scale(size * 0.36)
	base := tip.sub(dir.scale(size))
	return []pt{tip, base.add(n), base.sub(n)}
}

// drawCombats marks every combat and barrage at its target hex with its
// number, in the corners of the hex that counters leave free.
func (r *renderer) drawCombats() {
	count := map[rules.Hex]int{}
	objective := map[rules.Hex]bool{}
	for _, o := range r.st.Objectives {
		objective[o.Hex] = true
	}
	for _, e := range r.events {
		if e.Combat == nil || (e.Kind != rules.EvCombat && e.Kind != rules.EvBarrage) {
			continue
		}
		h := e.Combat.Target
		if !r.st.Map.OnMap(h) {
			continue
		}
		n := count[h]
		count[h]++
		p := r.centre(h).add(r.markerSlot(n, objective[h]))
		barrage := e.Kind == rules.EvBarrage || e.Combat.Barrage
		drawCombatMarker(r.c, p, markerRadius(r.r), e.Combat.Number, barrage)
	}
}

func markerRadius(r float64) float64 { return math.Max(6, 0.27*r) }

// drawCombatMarker draws a burst for a combat or a gun-sight for a barrage,
// with the combat's number in it.
func drawCombatMarker(c *canvas, p pt, rad float64, number int, barrage bool) {
	if barrage {
		c.fill(halo, circle(p, rad+2))
		c.fill(barrageBg, circle(p, rad))
		for _, d := range []pt{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			c.stroke(barrageBg, math.Max(1.5, rad*0.18), p.add(d.scale(rad*0.9)), p.add(d.scale(rad*1.45)))
		}
	} else {
		b := burst(p, rad*1.3, 9)
		c.fill(combatRim, grow(b, 1.5))
		c.fill(combatFill, b)
	}
	label := ""
	if number > 0 {
		label = strconv.Itoa(number)
	}
	f := c.fit(true, int(math.Round(rad*1.05)), 6, label, rad*1.7)
	c.textCentred(f, label, p.x, p.y, markerInk)
}

// markerSlot places the n-th marker of a hex: first the corners beside the
// counter (the left one holds an objective's star), then above it.
func (r *renderer) markerSlot(n int, objective bool) pt {
	slots := []pt{{0.96, 0}, {-0.96, 0}, {0.5, -0.62}, {-0.5, -0.62}, {0.9, 0.45}, {-0.9, 0.45}}
	if objective {
		slots = append(slots[:1], slots[2:]...)
	}
	p := slots[n%len(slots)]
	return pt{p.x * r.r, (p.y + 0.2*float64(n/len(slots))) * r.r}
}
