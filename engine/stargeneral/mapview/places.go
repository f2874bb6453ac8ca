package mapview

import (
	"image/color"
	"math"

	"fieldpost/engine/hexdraw"
	"fieldpost/engine/stargeneral/rules"
)

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
