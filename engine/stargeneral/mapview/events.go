package mapview

import (
	"image/color"
	"math"
	"strconv"

	"fieldpost/engine/hexdraw"
	"fieldpost/engine/stargeneral/rules"
)

var (
	halo       = hexdraw.RGB(0xffffff)
	combatFill = hexdraw.RGB(0xe8501f)
	combatRim  = hexdraw.RGB(0x4a1406)
	barrageBg  = hexdraw.RGB(0x3a2d6b)
	markerInk  = hexdraw.RGB(0xffffff)
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
			if need := 2 * arrowHeadSize(r.r); len(pts) > 2 || pts[last].Sub(edge).Len() >= need {
				pts[0] = edge
			} else {
				pts[0] = pts[last].Sub(pts[last].Sub(pts[0]).Unit().Scale(need))
			}
		}
		// The head goes over the counters, unless it would hide a label:
		// then under them with the shaft.
		p := parts
		if !r.clearOfLabels(arrowTipShapes(pts, r.r, style)...) {
			p = 0
			if parts&arrowShaft != 0 {
				p = arrowShaft | arrowTip
			}
		}
		if p != 0 {
			drawArrow(r.c, pts, r.r, sideStrong[r.eventSide(e)], style, p)
		}
	}
}

// arrowTipShapes are the shapes the tip of an arrow covers, its white halo
// included.
func arrowTipShapes(pts []pt, r float64, style int) [][]pt {
	lw := math.Max(2, 0.11*r)
	head := arrowHeadSize(r)
	end := pts[len(pts)-1]
	dir := end.Sub(pts[len(pts)-2]).Unit()
	base := end.Sub(dir.Scale(head * 0.8))
	out := [][]pt{grow(arrowHead(end, dir, head), 1.8)}
	if style == arrowPursuit {
		out = append(out, grow(arrowHead(end.Sub(dir.Scale(head*0.55)), dir, head), 1.8))
	}
	return append(out, hexdraw.StrokeShapes(lw+3, []pt{base.Sub(dir.Scale(head * 0.6)), base})...)
}

// labelArea is the part of a counter that holds its writing, inside its rim
// and padding.
func labelArea(ctr pt, r float64) []pt {
	x0, y0, x1, y1 := counterBox(ctr, r)
	return hexdraw.RectShape(x0+2, y0+2, x1-2, y1-2)
}

// clearOfLabels reports whether the shapes leave every counter's writing
// alone.
func (r *renderer) clearOfLabels(shapes ...[]pt) bool {
	for h := range r.counters {
		if !r.st.Map.OnMap(h) {
			continue
		}
		area := labelArea(r.centre(h), r.r)
		for _, s := range shapes {
			if overlap(s, area) {
				return false
			}
		}
	}
	return true
}

// countersUnder counts the counters a shape covers.
func (r *renderer) countersUnder(shape []pt) int {
	n := 0
	for h := range r.counters {
		if r.st.Map.OnMap(h) && overlap(shape, counterShape(r.centre(h), r.r)) {
			n++
		}
	}
	return n
}

// overlap reports whether two convex polygons overlap: no side of either
// separates them.
func overlap(a, b []pt) bool {
	for _, poly := range [][]pt{a, b} {
		for i := range poly {
			n := poly[(i+1)%len(poly)].Sub(poly[i]).Perp()
			amin, amax := project(a, n)
			bmin, bmax := project(b, n)
			if amax <= bmin || bmax <= amin {
				return false
			}
		}
	}
	return true
}

func project(p []pt, n pt) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, q := range p {
		v := q.X*n.X + q.Y*n.Y
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}

// counterEdge is where the line from a counter's hex centre c towards p
// leaves the counter.
func (r *renderer) counterEdge(c, p pt) pt {
	x0, y0, x1, y1 := counterBox(c, r.r)
	d := p.Sub(c)
	t := math.Inf(1)
	if d.X > 0 {
		t = math.Min(t, (x1+1-c.X)/d.X)
	} else if d.X < 0 {
		t = math.Min(t, (x0-1-c.X)/d.X)
	}
	if d.Y > 0 {
		t = math.Min(t, (y1+1-c.Y)/d.Y)
	} else if d.Y < 0 {
		t = math.Min(t, (y0-1-c.Y)/d.Y)
	}
	if t > 0.9 {
		t = 0.9
	}
	return c.Add(d.Scale(t))
}

// Arrow parts: the shaft goes under the counters it passes, the tip over
// them so that it shows even between two neighbouring counters.
const (
	arrowShaft = 1 << iota
	arrowTip
)

// drawArrow draws a path with an arrowhead at its end: solid for a move,
// dashed for a fall back, with a second head for a pursuit.
func drawArrow(c *hexdraw.Canvas, pts []pt, r float64, col color.RGBA, style, parts int) {
	lw := math.Max(2, 0.11*r)
	head := arrowHeadSize(r)
	end := pts[len(pts)-1]
	dir := end.Sub(pts[len(pts)-2]).Unit()
	base := end.Sub(dir.Scale(head * 0.8))
	var lines [][]pt
	var heads [][]pt
	if parts&arrowShaft != 0 {
		shaft := append(append([]pt(nil), pts[:len(pts)-1]...), base)
		if style == arrowFallBack {
			lines = hexdraw.Dashes(shaft, 1.6*lw+4, 1.4*lw)
		} else {
			lines = [][]pt{shaft}
		}
	}
	if parts&arrowTip != 0 {
		heads = append(heads, arrowHead(end, dir, head))
		if style == arrowPursuit {
			heads = append(heads, arrowHead(end.Sub(dir.Scale(head*0.55)), dir, head))
		}
		// A short piece of shaft behind the head shows its direction.
		lines = append(lines, []pt{base.Sub(dir.Scale(head * 0.6)), base})
	}
	for _, l := range lines {
		c.Stroke(halo, lw+3, l...)
	}
	for _, h := range heads {
		c.Fill(halo, grow(h, 1.8))
	}
	for _, l := range lines {
		c.Stroke(col, lw, l...)
	}
	for _, h := range heads {
		c.Fill(col, h)
	}
}

func arrowHeadSize(r float64) float64 { return math.Max(8, 0.4*r) }

func arrowHead(tip, dir pt, size float64) []pt {
	n := dir.Perp().Scale(size * 0.36)
	base := tip.Sub(dir.Scale(size))
	return []pt{tip, base.Add(n), base.Sub(n)}
}

// combatLines draws, under the counters, a line from each attacker of each
// combat and barrage to the combat's marker at its target, from where the
// attacker stood when it fought.
func (r *renderer) combatLines() {
	attackers := r.attackerHexes()
	for i, e := range r.events {
		p, ok := r.markers[i]
		if !ok {
			continue
		}
		col := combatRim
		if e.Kind == rules.EvBarrage || e.Combat.Barrage {
			col = barrageBg
		}
		lw := math.Max(1.5, 0.08*r.r)
		for _, h := range attackers[i] {
			if h == e.Combat.Target || !r.st.Map.OnMap(h) {
				continue
			}
			for _, d := range hexdraw.Dashes([]pt{r.centre(h), p}, 3*lw, 1.5*lw) {
				r.c.Stroke(col, lw, d...)
			}
		}
	}
}

// attackerHexes finds, for each combat event by its index, the hexes its
// attackers fought from: where the stands and batteries its dice came
// from stood at that moment, found by undoing from the position after the
// round the moves and losses that came after it.
func (r *renderer) attackerHexes() map[int][]rules.Hex {
	at := map[string]rules.Hex{} // by the name combats give their dice sources
	for _, u := range r.st.Units {
		for _, s := range u.Stands {
			at[u.ID+" "+s.Name] = s.Hex
		}
	}
	for _, b := range r.st.Batteries {
		at["battery "+b.ID] = b.Hex
	}
	out := map[int][]rules.Hex{}
	for i := len(r.events) - 1; i >= 0; i-- {
		e := r.events[i]
		if e.Combat != nil && (e.Kind == rules.EvCombat || e.Kind == rules.EvBarrage) {
			seen := map[rules.Hex]bool{}
			for _, src := range e.Combat.Attacker.Sources {
				if h, ok := at[src.Who]; ok && !seen[h] {
					seen[h] = true
					out[i] = append(out[i], h)
				}
			}
		}
		if _, move := arrowStyle(e.Kind); (move || e.Kind == rules.EvEliminated) && !e.From.IsZero() {
			name := e.Unit + " " + e.Stand
			if e.Stand == "" {
				name = "battery " + e.Unit
			}
			at[name] = e.From
		}
	}
	return out
}

// drawCombats marks every combat and barrage at its target hex with its
// number, in the corners of the hex that counters leave free.
func (r *renderer) drawCombats() {
	for i, e := range r.events {
		if p, ok := r.markers[i]; ok {
			drawCombatMarker(r.c, p, markerRadius(r.r), e.Combat.Number, e.Kind == rules.EvBarrage || e.Combat.Barrage)
		}
	}
}

// placeMarkers finds the place of every combat and barrage marker, by the
// index of its event.
func (r *renderer) placeMarkers() {
	r.markers = map[int]pt{}
	count := map[rules.Hex]int{}
	objective := map[rules.Hex]bool{}
	for _, o := range r.st.Objectives {
		objective[o.Hex] = true
	}
	for i, e := range r.events {
		if e.Combat == nil || (e.Kind != rules.EvCombat && e.Kind != rules.EvBarrage) {
			continue
		}
		h := e.Combat.Target
		if !r.st.Map.OnMap(h) {
			continue
		}
		n := count[h]
		count[h]++
		r.markers[i] = r.markerPlace(h, n, objective[h])
	}
}

// markerPlace places the n-th marker of hex h: in the first free corner
// beside or around its counter where it hides no counter's writing and
// no marker placed before, else further out, else in the corner its
// number gives.
func (r *renderer) markerPlace(h rules.Hex, n int, objective bool) pt {
	slots := []pt{{X: 1.08, Y: 0}, {X: -1.08, Y: 0}, {X: 1.08, Y: -0.55}, {X: -1.08, Y: -0.55}, {X: 1.08, Y: 0.55}, {X: -1.08, Y: 0.55}, {X: 0, Y: -1.1}, {X: 0, Y: 1.1}}
	if objective {
		slots = append(slots[:1], slots[2:]...) // the left corner holds the star
	}
	for _, dist := range []float64{1.5, 2} {
		for i := range 12 {
			a := float64(i) * math.Pi / 6
			slots = append(slots, pt{X: dist * math.Cos(a), Y: dist * math.Sin(a)})
		}
	}
	rad := markerRadius(r.r) * 1.3
	c := r.centre(h)
	for _, s := range slots {
		p := c.Add(s.Scale(r.r))
		disc := hexdraw.Circle(p, rad)
		if !r.clearOfLabels(disc) {
			continue
		}
		free := true
		for _, q := range r.markers {
			free = free && q.Sub(p).Len() >= 2*rad
		}
		if free {
			return p
		}
	}
	return c.Add(slots[n%len(slots)].Scale(r.r))
}

func markerRadius(r float64) float64 { return math.Max(6, 0.27*r) }

// drawCombatMarker draws a burst for a combat or a gun-sight for a barrage,
// with the combat's number in it.
func drawCombatMarker(c *hexdraw.Canvas, p pt, rad float64, number int, barrage bool) {
	if barrage {
		c.Fill(halo, hexdraw.Circle(p, rad+2))
		c.Fill(barrageBg, hexdraw.Circle(p, rad))
		for _, d := range []pt{{X: 1, Y: 0}, {X: -1, Y: 0}, {X: 0, Y: 1}, {X: 0, Y: -1}} {
			c.Stroke(barrageBg, math.Max(1.5, rad*0.18), p.Add(d.Scale(rad*0.9)), p.Add(d.Scale(rad*1.45)))
		}
	} else {
		b := hexdraw.Burst(p, rad*1.3, 9)
		c.Fill(combatRim, grow(b, 1.5))
		c.Fill(combatFill, b)
	}
	label := ""
	if number > 0 {
		label = strconv.Itoa(number)
	}
	f := c.Fit(true, int(math.Round(rad*1.05)), 6, label, rad*1.7)
	c.TextCentred(f, label, p.X, p.Y, markerInk)
}
