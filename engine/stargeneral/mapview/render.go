// Package mapview draws the map of a game for the players: a PNG picture to
// attach to the round's email (terrain, roads, objectives, every stand as a
// counter, the round's moves and combats, a legend), the same drawing as
// SVG for the web pages, and a plain-text map for readers without pictures.
package mapview

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"io"
	"math"
	"sort"
	"sync"

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
	r.c.img.Palette = r.c.pal.colours
	defer pixelBuffers.Put(r.c.img.Pix)
	return writePNG(w, r.c.img, pngLevel)
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
	_, err = w.Write(r.c.svg.bytes())
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
	r.c.img.Palette = r.c.pal.colours
	return r.c.img, nil
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

// renderer holds one drawing: the layout and what the legend must explain.
type renderer struct {
	rs     *rules.Ruleset
	st     *rules.State
	events []rules.Event
	c      *canvas

	r       float64 // hex radius
	hh      float64 // hex height, flat side to flat side: whole and even
	colStep float64 // from one column's centres to the next: whole
	cell    []run   // the pixels of a hex, from its centre
	margin  float64
	origin  pt // top-left corner of the map's bounding box
	width   int
	mapBot  float64

	sideOf   map[string]int // side name -> 0 or 1
	counters map[rules.Hex]bool
	legend   []legendSection
	vector   bool       // drawn as SVG
	markers  map[int]pt // where each combat's marker goes, by event index
	labels   []placeLabel
	reuse    bool // the picture may be drawn in a used buffer (pixelBuffers)
}

func newRenderer(rs *rules.Ruleset, st *rules.State, events []rules.Event, radius float64) *renderer {
	// Hex centres fall on whole pixels, so that every hex has the same
	// pixels: a picture of many alike hexes compresses well.
	hh := 2 * math.Round(math.Sqrt(3)*radius/2)
	r := &renderer{rs: rs, st: st, events: events, r: radius, hh: hh, colStep: math.Round(1.5 * radius),
		c: newCanvas(), sideOf: map[string]int{}, counters: map[rules.Hex]bool{}}
	r.cell = hexCell(radius, r.colStep, hh)
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
	mapW := r.colStep*float64(m.Cols-1) + 2*radius
	mapH := r.hh * float64(m.Rows)
	if m.Cols > 1 {
		mapH += r.hh / 2
	}
	r.width = int(math.Ceil(mapW + 2*r.margin))
	r.origin = pt{r.margin, math.Round(r.titleHeight() + r.margin)}
	r.mapBot = r.origin.y + mapH
	return r
}

// centre is the pixel centre of a hex: columns 1.5 radii apart, even columns
// half a hex lower (engine/hex.go).
func (r *renderer) centre(h rules.Hex) pt {
	p := pt{r.origin.x + math.Round(r.r) + float64(h.Col-1)*r.colStep, r.origin.y + r.hh/2 + float64(h.Row-1)*r.hh}
	if h.Col%2 == 0 {
		p.y += r.hh / 2
	}
	return p
}

// corners are the corners of the map's hex at c, east first, clockwise.
func (r *renderer) corners(c pt) []pt {
	w := r.colStep - r.r // half the flat top: the columns interlock
	return []pt{{c.x + r.r, c.y}, {c.x + w, c.y + r.hh/2}, {c.x - w, c.y + r.hh/2}, {c.x - r.r, c.y}, {c.x - w, c.y - r.hh/2}, {c.x + w, c.y - r.hh/2}}
}

// run is a row of pixels of a hex, dy below its centre, from dx0 to dx1
// (exclusive), as offsets of the pixels from the centre.
type run struct{ dy, dx0, dx1 int }

// hexCell lists the pixels of a hex: those nearer its centre than any
// other, a tie going to the hex north or east of the other. Hexes of the
// picture tile it with the same pixels each.
func hexCell(radius, colStep, hh float64) []run {
	next := [6]pt{{0, -hh}, {colStep, -hh / 2}, {colStep, hh / 2}, {0, hh}, {-colStep, hh / 2}, {-colStep, -hh / 2}}
	mine := func(x, y int) bool {
		p := pt{float64(x) + 0.5, float64(y) + 0.5}
		own := p.x*p.x + p.y*p.y
		for d, n := range next {
			q := p.sub(n)
			other := q.x*q.x + q.y*q.y
			if other < own || (other == own && d < 3) {
				return false
			}
		}
		return true
	}
	var out []run
	reach := int(radius) + 2
	for dy := -reach; dy <= reach; dy++ {
		x0 := -reach
		for x0 <= reach && !mine(x0, dy) {
			x0++
		}
		x1 := x0
		for x1 <= reach && mine(x1, dy) {
			x1++
		}
		if x1 > x0 {
			out = append(out, run{dy, x0, x1})
		}
	}
	return out
}

// hexagon returns the corners of a flat-topped hexagon.
func hexagon(c pt, radius float64) []pt {
	out := make([]pt, 6)
	for i := range out {
		a := float64(i) * math.Pi / 3
		out[i] = pt{c.x + radius*math.Cos(a), c.y + radius*math.Sin(a)}
	}
	return out
}

// edgeMid is the middle of the hex side facing neighbour direction d, in the
// order of rules.Hex.Neighbours: north first, then clockwise.
func edgeMid(c pt, hh float64, d int) pt {
	a := (-90 + 60*float64(d)) * math.Pi / 180
	return pt{c.x + hh/2*math.Cos(a), c.y + hh/2*math.Sin(a)}
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
			r.c.fill(terrainGround(r.terrainAt(h), a), r.corners(ctr))
		} else {
			r.c.fillRuns(terrainGround(r.terrainAt(h), a), ctr, r.cell)
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
	r.c.crisp = true
	for _, l := range lines {
		r.c.stroke(roadEdge, 0.21*r.r, l...)
	}
	for _, l := range lines {
		r.c.stroke(roadFill, 0.13*r.r, l...)
	}
	r.c.crisp = false
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
		k := r.corners(c)
		r.c.stroke(gridLine, 1, k[4], k[5], k[0], k[1])
		for d, n := range h.Neighbours() {
			if d >= 3 && !r.st.Map.OnMap(n) {
				r.c.stroke(gridLine, 1, k[(4+d)%6], k[(5+d)%6])
			}
		}
	}
	numFace := r.c.face(false, int(math.Round(0.23*r.r)))
	for _, h := range r.allHexes() {
		c := r.centre(h)
		col := numberDark
		if t := r.terrainAt(h); t != nil && luminance(terrainBase(t)) < 0.45 {
			col = numberLight
		}
		// The picture writes them in a pixel font, crisp at their small
		// size; the SVG, which may be zoomed, as text.
		if r.vector {
			r.c.textCentred(numFace, h.String(), c.x, c.y-0.7*r.r, col)
		} else {
			r.c.pixelDigits(h.String(), c.x, c.y-0.7*r.r, max(1, int(r.r/26)), col)
		}
	}
}

// gridPixels draws a hex's share of the grid: its top row and the first
// pixel of each row (the sides it shares with its west neighbours), and
// the sides no neighbour draws at the map's south and east edges.
func (r *renderer) gridPixels(h rules.Hex, c pt) {
	nb := h.Neighbours()
	off := func(d int) bool { return !r.st.Map.OnMap(nb[d]) }
	cx, cy := int(c.x), int(c.y)
	last := len(r.cell) - 1
	for i, k := range r.cell {
		y := cy + k.dy
		switch {
		case i == 0 || (i == last && off(3)):
			r.c.blendSpan(gridLine, cx+k.dx0, cx+k.dx1, y)
		default:
			r.c.blendSpan(gridLine, cx+k.dx0, cx+k.dx0+1, y)
			if (k.dy < 0 && off(1)) || (k.dy >= 0 && off(2)) {
				r.c.blendSpan(gridLine, cx+k.dx1-1, cx+k.dx1, y)
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
		r.c.fillRing(col, hexagon(c, r.r*0.97), hexagon(c, r.r*0.83))
		s := star(pt{c.x - 0.86*r.r, c.y}, 0.2*r.r)
		r.c.fill(ink, grow(s, 1.2))
		r.c.fill(col, s)
	}
}

// grow pushes a star-shaped polygon's points outwards by d, for outlines.
func grow(p []pt, d float64) []pt {
	var c pt
	for _, q := range p {
		c = c.add(q)
	}
	c = c.scale(1 / float64(len(p)))
	out := make([]pt, len(p))
	for i, q := range p {
		v := q.sub(c)
		out[i] = q.add(v.unit().scale(d))
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
	face      *textFace
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
	var placed [][]pt
	for i := range labels {
		l := &labels[i]
		c := r.centre(l.hex)
		maxW := 2.9 * r.r
		if l.objective {
			maxW = float64(r.width) - 8
		}
		l.face = r.c.fit(true, int(math.Round(0.26*r.r)), int(math.Round(0.22*r.r)), l.text, math.Min(maxW, 2.9*r.r))
		l.text = clip(l.face, l.text, maxW)
		w := float64(l.face.width(l.text))
		h := float64(l.face.ascent)
		box := func(p pt) []pt {
			// Inside the picture, whatever the hex.
			p.x = math.Max(4+w/2, math.Min(float64(r.width)-4-w/2, p.x))
			return rect(p.x-w/2-3, p.y-h*0.5-2, p.x+w/2+3, p.y+h*0.5+3)
		}
		l.box = box(pt{c.x, c.y + 0.74*r.r})
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
			for _, d := range []pt{{0, 0.74}, {0, -0.74}, {0, 1.1}, {0, -1.1}} {
				if b := box(c.add(d.scale(r.r))); r.countersUnder(b) == 0 {
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
			for _, d := range []pt{{0, 0.74}, {0, -0.74}, {0, 1.1}, {0, -1.1}, {-0.9, 0.74}, {0.9, 0.74}, {-0.9, -0.74}, {0.9, -0.74},
				{0, 1.6}, {0, -1.6}, {-1.5, 0}, {1.5, 0}, {-1.2, 1.3}, {1.2, 1.3}, {-1.2, -1.3}, {1.2, -1.3}} {
				b := box(c.add(d.scale(r.r)))
				if n, ok := free(b); ok && n < fewest {
					l.box, fewest = b, n
				}
				if fewest == 0 {
					break
				}
			}
			placed = append(placed, l.box)
		}
		l.centre = pt{(l.box[0].x + l.box[1].x) / 2, (l.box[0].y+l.box[2].y)/2 - 0.5}
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
		x0, y0, x1, y1 := l.box[0].x, l.box[0].y, l.box[2].x, l.box[2].y
		r.c.fill(bg, roundRect(x0, y0, x1, y1, 2))
		if l.objective {
			r.c.strokeClosed(counterRim, 1, roundRect(x0, y0, x1, y1, 2))
		}
		r.c.textCentred(l.face, l.text, l.centre.x, l.centre.y, ink)
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
		r.c.stroke(destroyed, 0.13*r.r, pt{c.x - d, c.y - d}, pt{c.x + d, c.y + d})
		r.c.stroke(destroyed, 0.13*r.r, pt{c.x - d, c.y + d}, pt{c.x + d, c.y - d})
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

// The base of a picture is what only the map decides: the terrain, the
// roads and the grid, above the legend, and the palette they are drawn
// in. A game's map is drawn every round over the same base, so each base
// is drawn once and kept.
type base struct {
	img *image.Paletted
	pal *palette
}

var bases = struct {
	sync.Mutex
	m map[[sha256.Size]byte]*base
}{m: map[[sha256.Size]byte]*base{}}

// maxBases bounds the bases kept: past it they are drawn afresh.
const maxBases = 32

// drawBase gives the picture its paper, its terrain, roads and grid, height
// pixels high, copying them when a picture of the same map at the same
// size was drawn before. An SVG is written whole every time.
func (r *renderer) drawBase(height int) {
	if r.vector {
		r.c.svg = newSVGWriter(r.width, height)
		r.c.fillRect(0, 0, r.width, height, paperColour)
		r.drawBaseLayers()
		return
	}
	rows := int(math.Ceil(r.mapBot + r.margin))
	key := r.baseKey(rows)
	bases.Lock()
	b := bases.m[key]
	bases.Unlock()
	if n := r.width * height; r.reuse {
		// Every pixel is drawn below: a used buffer serves as well.
		buf, _ := pixelBuffers.Get().([]uint8)
		if cap(buf) < n {
			buf = make([]uint8, n)
		}
		r.c.img = &image.Paletted{Pix: buf[:n], Stride: r.width, Rect: image.Rect(0, 0, r.width, height)}
	} else {
		r.c.img = image.NewPaletted(image.Rect(0, 0, r.width, height), nil)
	}
	if b == nil {
		r.c.pal = newPalette(nil)
		r.c.fillRect(0, 0, r.width, rows, paperColour)
		r.drawBaseLayers()
		b = &base{img: image.NewPaletted(image.Rect(0, 0, r.width, rows), nil), pal: r.c.pal}
		copy(b.img.Pix, r.c.img.Pix)
		bases.Lock()
		if len(bases.m) >= maxBases {
			clear(bases.m)
		}
		bases.m[key] = b
		bases.Unlock()
	}
	// The picture adds its colours to a palette of its own.
	copy(r.c.img.Pix, b.img.Pix)
	r.c.pal = newPalette(b.pal)
	r.c.fillRect(0, rows, r.width, height, paperColour)
}

func (r *renderer) drawBaseLayers() {
	r.drawTerrain()
	r.drawRoads()
	r.drawGrid()
}

// baseKey names a base by everything that draws it.
func (r *renderer) baseKey(rows int) [sha256.Size]byte {
	raw, _ := json.Marshal(struct {
		Terrain     []rules.TerrainType
		Map         *rules.Map
		Radius      float64
		Width, Rows int
	}{r.rs.Terrain, r.st.Map, r.r, r.width, rows})
	return sha256.Sum256(raw)
}
