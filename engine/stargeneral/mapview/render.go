// Package mapview draws the map of a game for the players: a PNG picture to
// attach to the round's email (terrain, roads, objectives, every stand as a
// counter, the round's moves and combats, a legend), the same drawing as
// SVG for the web pages, and a plain-text map for readers without pictures.
package mapview

import (
	"errors"
	"image"
	"io"
	"math"
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
