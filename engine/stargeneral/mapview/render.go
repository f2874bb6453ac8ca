// Package mapview draws the map of a game for the players: a PNG picture to
// attach to the round's email (terrain, roads, objectives, every stand as a
// counter, the round's moves and combats, a legend), the same drawing as
// SVG for the web pages, and a plain-text map for readers without pictures.
package mapview

import (
	"errors"
	"image"
	"image/color"
	"io"
	"math"
	"slices"
	"sort"
	"sync"

	"fieldpost/engine/hexdraw"
	"fieldpost/engine/stargeneral/rules"
)

// DefaultHexRadius makes a 30-column map about 1100 pixels wide: counters
// still read at full size (at 22 they spill out of their hexes), and the
// division map's PNG stays near 80 KB, its mails under 200 KB (issue 25).
const DefaultHexRadius = 23

// Options change how the picture is drawn.
type Options struct {
	// HexRadius is the distance in pixels from a hex's centre to its corners;
	// 0 means DefaultHexRadius. Text and counters scale with it.
	HexRadius int
}

// PNG draws the map of st, with the events of the round just played, and
// writes it as a PNG image of at most 256 colours, small enough to mail
// every round.
func PNG(w io.Writer, rs *rules.Ruleset, st *rules.State, events []rules.Event, opt Options) error {
	r, err := newRendererFor(rs, st, events, opt)
	if err != nil {
		return err
	}
	r.reuse = true
	r.draw()
	r.c.Img.Palette = r.c.Pal.Colours
	defer pixelBuffers.Put(r.c.Img.Pix)
	return hexdraw.WritePNG(w, r.c.Img, pngLevel)
}

// pixelBuffers are the pixels of pictures saved, for the next: a division
// map is one and a half megabytes.
var pixelBuffers sync.Pool

// SVG draws the same map as PNG, as an SVG document: shapes and text
// only, no script and nothing from elsewhere.
func SVG(w io.Writer, rs *rules.Ruleset, st *rules.State, events []rules.Event, opt Options) error {
	r, err := newRendererFor(rs, st, events, opt)
	if err != nil {
		return err
	}
	r.vector = true
	r.draw()
	_, err = w.Write(r.c.SVG.Bytes())
	return err
}

// Render draws the map of st with the events of the round just played. The
// same input always gives the same picture, pixel for pixel.
func Render(rs *rules.Ruleset, st *rules.State, events []rules.Event, opt Options) (*image.Paletted, error) {
	r, err := newRendererFor(rs, st, events, opt)
	if err != nil {
		return nil, err
	}
	r.draw()
	r.c.Img.Palette = r.c.Pal.Colours
	return r.c.Img, nil
}

func newRendererFor(rs *rules.Ruleset, st *rules.State, events []rules.Event, opt Options) (*renderer, error) {
	if err := checkMap(st); err != nil {
		return nil, err
	}
	radius := opt.HexRadius
	if radius <= 0 {
		radius = DefaultHexRadius
	}
	return newRenderer(rs, st, events, float64(radius)), nil
}

// checkMap makes sure the state has a map with a terrain letter for every hex.
func checkMap(st *rules.State) error {
	if st == nil || st.Map == nil || st.Map.Cols < 1 || st.Map.Rows < 1 {
		return errors.New("mapview: the state has no map")
	}
	if len(st.Map.Grid) != st.Map.Rows {
		return errors.New("mapview: the map grid does not have one line per row")
	}
	for _, row := range st.Map.Grid {
		if len(row) != st.Map.Cols {
			return errors.New("mapview: a map grid line does not have one letter per column")
		}
	}
	return nil
}

// pt is a point in picture pixels.
type pt = hexdraw.Pt

// renderer holds one drawing: the layout and what the legend must explain.
type renderer struct {
	rs     *rules.Ruleset
	st     *rules.State
	events []rules.Event
	c      *hexdraw.Canvas

	layout hexdraw.Layout // snapped: hex centres on whole pixels
	r      float64        // hex radius
	hh     float64        // hex height, flat side to flat side: whole and even
	cell   []hexdraw.Run  // the pixels of a hex, from its centre
	margin float64
	width  int
	mapBot float64

	sideOf   map[string]int // side name -> 0 or 1
	counters map[rules.Hex]bool
	legend   []legendSection
	vector   bool       // drawn as SVG
	markers  map[int]pt // where each combat's marker goes, by event index
	labels   []placeLabel
	reuse    bool // the picture may be drawn in a used buffer (pixelBuffers)
}

func newRenderer(rs *rules.Ruleset, st *rules.State, events []rules.Event, radius float64) *renderer {
	r := &renderer{rs: rs, st: st, events: events, r: radius,
		c: hexdraw.NewCanvas(), sideOf: map[string]int{}, counters: map[rules.Hex]bool{}}
	for i, sd := range st.Sides {
		if i < 2 {
			r.sideOf[sd.Name] = i
		}
	}
	for _, u := range st.Units {
		if !u.Removed {
			for _, s := range u.Stands {
				r.counters[s.Hex] = true
			}
		}
	}
	for _, b := range st.Batteries {
		if !b.Removed {
			r.counters[b.Hex] = true
		}
	}
	m := st.Map
	r.margin = math.Round(math.Max(10, 0.5*radius))
	// Hex centres fall on whole pixels, so that every hex has the same
	// pixels: a picture of many alike hexes compresses well.
	r.layout = hexdraw.Layout{R: radius, Margin: r.margin, Top: math.Round(r.titleHeight()+r.margin) - r.margin, Snap: true}
	r.hh = r.layout.HexHeight()
	r.cell = r.layout.Cell()
	r.width, _ = r.layout.Size(m.Cols, m.Rows)
	r.mapBot = r.layout.Bottom(m.Cols, m.Rows)
	return r
}

// centre is the pixel centre of a hex.
func (r *renderer) centre(h rules.Hex) pt { return r.layout.Centre(h) }

// edgeMid is the middle of the hex side facing neighbour direction d, in the
// order of rules.Hex.Neighbours: north first, then clockwise.
func edgeMid(c pt, hh float64, d int) pt {
	a := (-90 + 60*float64(d)) * math.Pi / 180
	return pt{X: c.X + hh/2*math.Cos(a), Y: c.Y + hh/2*math.Sin(a)}
}

func (r *renderer) draw() {
	r.legend = r.legendSections()
	height := int(math.Ceil(r.mapBot + r.margin + r.legendHeight() + r.margin))
	r.drawBase(height)
	r.drawTitle()
	r.drawObjectives()
	r.labels = r.placeNames()
	r.drawNames(false)
	r.drawDestroyed()
	r.placeMarkers()
	r.combatLines()
	r.drawMoves(arrowShaft)
	r.drawCounters()
	r.drawMoves(arrowTip)
	r.drawCombats()
	r.drawNames(true)
	r.drawLegend(r.mapBot + r.margin)
}

// allHexes lists the map's hexes column by column.
func (r *renderer) allHexes() []rules.Hex {
	var out []rules.Hex
	for col := 1; col <= r.st.Map.Cols; col++ {
		for row := 1; row <= r.st.Map.Rows; row++ {
			out = append(out, rules.Hex{Col: col, Row: row})
		}
	}
	return out
}

func (r *renderer) terrainAt(h rules.Hex) *rules.TerrainType {
	return r.rs.TerrainByLetter(r.st.Map.Letter(h))
}

// drawTerrain fills every hex with its ground, then draws the marks of
// its terrain over all of them.
func (r *renderer) drawTerrain() {
	m := r.st.Map
	around := make([][6]string, 0, m.Cols*m.Rows)
	for _, h := range r.allHexes() {
		var a [6]string
		for d, n := range h.Neighbours() {
			if m.OnMap(n) {
				a[d] = terrainLook(r.terrainAt(n))
			}
		}
		around = append(around, a)
		ctr := r.centre(h)
		if r.vector {
			r.c.Fill(terrainGround(r.terrainAt(h), a), r.layout.CornersAt(ctr, r.r))
		} else {
			r.c.FillRuns(terrainGround(r.terrainAt(h), a), ctr, r.cell)
		}
	}
	for i, h := range r.allHexes() {
		paintTerrain(r.c, r.terrainAt(h), r.centre(h), r.r, around[i])
	}
}

func (r *renderer) drawRoads() {
	// Bridge decks first, so the road runs over them.
	m := r.st.Map
	for _, h := range r.allHexes() {
		if t := r.terrainAt(h); t == nil || t.ID != "bridge" {
			continue
		}
		dirs := r.roadDirections(h)
		if len(dirs) == 0 {
			dirs = []int{0, 3}
		}
		drawBridgeDeck(r.c, r.centre(h), r.r, dirs)
	}
	var lines [][]pt
	for _, road := range m.Roads {
		var line []pt
		for _, h := range road {
			line = append(line, r.centre(h))
		}
		lines = append(lines, line)
	}
	// Crisp roads: their blended edges would cost a tenth of the file.
	r.c.Crisp = true
	for _, l := range lines {
		r.c.Stroke(roadEdge, 0.21*r.r, l...)
	}
	for _, l := range lines {
		r.c.Stroke(roadFill, 0.13*r.r, l...)
	}
	r.c.Crisp = false
}

// roadDirections lists the sides of h that a road crosses.
func (r *renderer) roadDirections(h rules.Hex) []int {
	var dirs []int
	seen := [6]bool{}
	for _, road := range r.st.Map.Roads {
		for i, rh := range road {
			if rh != h {
				continue
			}
			for _, j := range []int{i - 1, i + 1} {
				if j < 0 || j >= len(road) {
					continue
				}
				for d, n := range h.Neighbours() {
					if n == road[j] && !seen[d] {
						seen[d] = true
						dirs = append(dirs, d)
					}
				}
			}
		}
	}
	sort.Ints(dirs)
	return dirs
}

func (r *renderer) drawGrid() {
	for _, h := range r.allHexes() {
		c := r.centre(h)
		if !r.vector {
			r.gridPixels(h, c)
			continue
		}
		// Each side is drawn once: the north and the two east sides, and
		// the others at the map's edge.
		k := r.layout.CornersAt(c, r.r)
		r.c.Stroke(gridLine, 1, k[4], k[5], k[0], k[1])
		for d, n := range h.Neighbours() {
			if d >= 3 && !r.st.Map.OnMap(n) {
				r.c.Stroke(gridLine, 1, k[(4+d)%6], k[(5+d)%6])
			}
		}
	}
	numFace := r.c.Face(false, int(math.Round(0.23*r.r)))
	for _, h := range r.allHexes() {
		c := r.centre(h)
		col := numberDark
		if t := r.terrainAt(h); t != nil && luminance(terrainBase(t)) < 0.45 {
			col = numberLight
		}
		// The picture writes them in a pixel font, crisp at their small
		// size; the SVG, which may be zoomed, as text.
		if r.vector {
			r.c.TextCentred(numFace, h.String(), c.X, c.Y-0.7*r.r, col)
		} else {
			r.c.PixelDigits(h.String(), c.X, c.Y-0.7*r.r, max(1, int(r.r/26)), col)
		}
	}
}

// gridPixels draws a hex's share of the grid: its top row and the first
// pixel of each row (the sides it shares with its west neighbours), and
// the sides no neighbour draws at the map's south and east edges.
func (r *renderer) gridPixels(h rules.Hex, c pt) {
	nb := h.Neighbours()
	off := func(d int) bool { return !r.st.Map.OnMap(nb[d]) }
	cx, cy := int(c.X), int(c.Y)
	last := len(r.cell) - 1
	for i, k := range r.cell {
		y := cy + k.DY
		switch {
		case i == 0 || (i == last && off(3)):
			r.c.BlendSpan(gridLine, cx+k.DX0, cx+k.DX1, y)
		default:
			r.c.BlendSpan(gridLine, cx+k.DX0, cx+k.DX0+1, y)
			if (k.DY < 0 && off(1)) || (k.DY >= 0 && off(2)) {
				r.c.BlendSpan(gridLine, cx+k.DX1-1, cx+k.DX1, y)
			}
		}
	}
}

func (r *renderer) drawObjectives() {
	for _, o := range r.st.SortedObjectives() {
		if !r.st.Map.OnMap(o.Hex) {
			continue
		}
		c := r.centre(o.Hex)
		col := r.ownerColour(o.Owner)
		r.c.FillRing(col, hexdraw.Hexagon(c, r.r*0.97), hexdraw.Hexagon(c, r.r*0.83))
		s := hexdraw.Star(r.starCentre(o.Hex), 0.2*r.r)
		r.c.Fill(ink, grow(s, 1.2))
		r.c.Fill(col, s)
	}
}

// starCentre is where an objective's star stands: on its hex's left corner.
func (r *renderer) starCentre(h rules.Hex) pt {
	c := r.centre(h)
	return pt{X: c.X - 0.86*r.r, Y: c.Y}
}

// features are the marks of the map a name must not cover: each
// objective's star and each bridge's deck at its hex's centre.
func (r *renderer) features() [][]pt {
	var out [][]pt
	for _, o := range r.st.Objectives {
		if r.st.Map.OnMap(o.Hex) {
			c, d := r.starCentre(o.Hex), 0.2*r.r+2
			out = append(out, hexdraw.RectShape(c.X-d, c.Y-d, c.X+d, c.Y+d))
		}
	}
	for _, h := range r.allHexes() {
		if t := r.terrainAt(h); t != nil && t.ID == "bridge" {
			c, d := r.centre(h), 0.25*r.r
			out = append(out, hexdraw.RectShape(c.X-d, c.Y-d, c.X+d, c.Y+d))
		}
	}
	return out
}

// grow pushes a star-shaped polygon's points outwards by d, for outlines.
func grow(p []pt, d float64) []pt {
	var c pt
	for _, q := range p {
		c = c.Add(q)
	}
	c = c.Scale(1 / float64(len(p)))
	out := make([]pt, len(p))
	for i, q := range p {
		v := q.Sub(c)
		out[i] = q.Add(v.Unit().Scale(d))
	}
	return out
}

func (r *renderer) ownerColour(owner string) color.RGBA {
	if i, ok := r.sideOf[owner]; ok {
		return sideStrong[i]
	}
	return unheld
}

// placeLabel is a name written in a box on the map.
type placeLabel struct {
	hex       rules.Hex
	text      string
	face      *hexdraw.TextFace
	centre    pt
	box       []pt
	objective bool
}

// names lists the name of each named hex: the objective's name if it has
// one, else the place name.
func (r *renderer) names() []placeLabel {
	names := map[rules.Hex]string{}
	objective := map[rules.Hex]bool{}
	for k, name := range r.st.Map.Names {
		if h, err := rules.ParseHex(k); err == nil && r.st.Map.OnMap(h) {
			names[h] = name
		}
	}
	for _, o := range r.st.Objectives {
		if !r.st.Map.OnMap(o.Hex) {
			continue
		}
		objective[o.Hex] = true
		if o.Name != "" && o.Name != o.Hex.String() {
			names[o.Hex] = o.Name
		}
	}
	var out []placeLabel
	for _, h := range r.allHexes() {
		if name, ok := names[h]; ok {
			out = append(out, placeLabel{hex: h, text: name, objective: objective[h]})
		}
	}
	return out
}

// placeNames lays out the names. A place name, shortened to three hexes'
// width, sits low in its hex, or just above or below it, clear of counters
// if it can be; else counters may cover it. An objective's name is written
// whole, over the counters, inside the picture: low in its hex, or
// wherever around it it covers no counter and no other name.
func (r *renderer) placeNames() []placeLabel {
	labels := r.names()
	// The names placed so far, and the marks no name may cover.
	placed := r.features()
	for i := range labels {
		l := &labels[i]
		c := r.centre(l.hex)
		maxW := 2.9 * r.r
		if l.objective {
			maxW = float64(r.width) - 8
		}
		l.face = r.c.Fit(true, int(math.Round(0.26*r.r)), int(math.Round(0.22*r.r)), l.text, math.Min(maxW, 2.9*r.r))
		l.text = hexdraw.Clip(l.face, l.text, maxW)
		w := float64(l.face.Width(l.text))
		h := float64(l.face.Ascent)
		box := func(p pt) []pt {
			// Inside the picture, whatever the hex.
			p.X = math.Max(4+w/2, math.Min(float64(r.width)-4-w/2, p.X))
			return hexdraw.RectShape(p.X-w/2-3, p.Y-h*0.5-2, p.X+w/2+3, p.Y+h*0.5+3)
		}
		l.box = box(pt{X: c.X, Y: c.Y + 0.74*r.r})
		free := func(b []pt) (int, bool) {
			for _, q := range placed {
				if overlap(b, q) {
					return 0, false
				}
			}
			return r.countersUnder(b), true
		}
		if !l.objective {
			// Near its hex, clear of counters if it can be.
			for _, d := range []pt{{X: 0, Y: 0.74}, {X: 0, Y: -0.74}, {X: 0, Y: 1.1}, {X: 0, Y: -1.1}} {
				if b := box(c.Add(d.Scale(r.r))); r.countersUnder(b) == 0 {
					if _, ok := free(b); ok {
						l.box = b
						placed = append(placed, b)
						break
					}
				}
			}
		} else {
			// The first place that covers no counter and no other name,
			// else the one that covers fewest counters.
			fewest := math.MaxInt
			for _, d := range []pt{{X: 0, Y: 0.74}, {X: 0, Y: -0.74}, {X: 0, Y: 1.1}, {X: 0, Y: -1.1}, {X: -0.9, Y: 0.74}, {X: 0.9, Y: 0.74}, {X: -0.9, Y: -0.74}, {X: 0.9, Y: -0.74},
				{X: 0, Y: 1.6}, {X: 0, Y: -1.6}, {X: -1.5, Y: 0}, {X: 1.5, Y: 0}, {X: -1.2, Y: 1.3}, {X: 1.2, Y: 1.3}, {X: -1.2, Y: -1.3}, {X: 1.2, Y: -1.3},
				{X: 0, Y: 2.2}, {X: 0, Y: -2.2}, {X: -2.2, Y: 0.5}, {X: 2.2, Y: 0.5}, {X: -2.2, Y: -0.5}, {X: 2.2, Y: -0.5}, {X: -1.6, Y: 2}, {X: 1.6, Y: 2}, {X: -1.6, Y: -2}, {X: 1.6, Y: -2}} {
				b := box(c.Add(d.Scale(r.r)))
				if n, ok := free(b); ok && n < fewest {
					l.box, fewest = b, n
				}
				if fewest == 0 {
					break
				}
			}
			placed = append(placed, l.box)
		}
		l.centre = pt{X: (l.box[0].X + l.box[1].X) / 2, Y: (l.box[0].Y+l.box[2].Y)/2 - 0.5}
	}
	return labels
}

// drawNames writes the place names, or the objectives' names.
func (r *renderer) drawNames(objectives bool) {
	for _, l := range r.labels {
		if l.objective != objectives {
			continue
		}
		bg := labelBack
		if l.objective {
			bg = objLabelBack
		}
		x0, y0, x1, y1 := l.box[0].X, l.box[0].Y, l.box[2].X, l.box[2].Y
		r.c.Fill(bg, hexdraw.RoundRect(x0, y0, x1, y1, 2))
		if l.objective {
			r.c.StrokeClosed(counterRim, 1, hexdraw.RoundRect(x0, y0, x1, y1, 2))
		}
		r.c.TextCentred(l.face, l.text, l.centre.X, l.centre.Y, ink)
	}
}

// drawDestroyed marks where stands were destroyed this round.
func (r *renderer) drawDestroyed() {
	for _, e := range r.events {
		if e.Kind != rules.EvEliminated || e.From.IsZero() || !r.st.Map.OnMap(e.From) {
			continue
		}
		c := r.centre(e.From)
		d := 0.42 * r.r
		r.c.Stroke(destroyed, 0.13*r.r, pt{X: c.X - d, Y: c.Y - d}, pt{X: c.X + d, Y: c.Y + d})
		r.c.Stroke(destroyed, 0.13*r.r, pt{X: c.X - d, Y: c.Y + d}, pt{X: c.X + d, Y: c.Y - d})
	}
}

func (r *renderer) drawCounters() {
	for _, u := range r.st.Units {
		if u.Removed {
			continue
		}
		for _, s := range u.Stands {
			if r.st.Map.OnMap(s.Hex) {
				r.drawCounter(r.centre(s.Hex), r.standCounter(u, s))
			}
		}
	}
	for _, b := range r.st.Batteries {
		if !b.Removed && r.st.Map.OnMap(b.Hex) {
			r.drawCounter(r.centre(b.Hex), r.batteryCounter(b))
		}
	}
}

func luminance(c color.RGBA) float64 {
	return (0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)) / 255
}

// drawBase gives the picture its paper, its terrain, roads and grid, height
// pixels high, copying them when a picture of the same map at the same
// size was drawn before. An SVG is written whole every time.
func (r *renderer) drawBase(height int) {
	if r.vector {
		r.c.SVG = hexdraw.NewSVGWriter(r.width, height, hexdraw.GoFonts)
		r.c.FillRect(0, 0, r.width, height, paperColour)
		r.drawBaseLayers()
		return
	}
	rows := int(math.Ceil(r.mapBot + r.margin))
	key := r.baseKey(rows)
	b, kept := hexdraw.KeptBase(key)
	if n := r.width * height; r.reuse {
		// Every pixel is drawn below: a used buffer serves as well.
		buf, _ := pixelBuffers.Get().([]uint8)
		if cap(buf) < n {
			buf = make([]uint8, n)
		}
		r.c.Img = &image.Paletted{Pix: buf[:n], Stride: r.width, Rect: image.Rect(0, 0, r.width, height)}
	} else {
		r.c.Img = image.NewPaletted(image.Rect(0, 0, r.width, height), nil)
	}
	if !kept {
		// The base: the terrain, the roads and the grid, above the legend,
		// and the palette they are drawn in.
		r.c.Pal = hexdraw.NewPalette(flatColours())
		r.c.FillRect(0, 0, r.width, rows, paperColour)
		r.drawBaseLayers()
		b = &hexdraw.Base{Pix: slices.Clone(r.c.Img.Pix[:r.width*rows]), Pal: r.c.Pal}
		hexdraw.KeepBase(key, b)
	}
	// The picture adds its colours to a palette of its own.
	copy(r.c.Img.Pix, b.Pix)
	r.c.Pal = b.Pal.Over()
	r.c.FillRect(0, rows, r.width, height, paperColour)
}

func (r *renderer) drawBaseLayers() {
	r.drawTerrain()
	r.drawRoads()
	r.drawGrid()
}

// baseKey names a base by everything that draws it.
func (r *renderer) baseKey(rows int) string {
	return hexdraw.BaseKey("stargeneral", struct {
		Terrain     []rules.TerrainType
		Map         *rules.Map
		Radius      float64
		Width, Rows int
	}{r.rs.Terrain, r.st.Map, r.r, r.width, rows})
}
