package mapview

import (
	"image/color"
	"math"

	"fieldpost/engine/stargeneral/rules"
)

// The palette: muted map colours for the ground, so that the counters and
// the round's arrows and markers stand out on top of it.
var (
	paperColour  = rgb(0xf3efe3)
	ink          = rgb(0x1c1c1c)
	gridLine     = withAlpha(rgb(0x2a2a2a), 70)
	numberDark   = withAlpha(rgb(0x2a2a2a), 190)
	numberLight  = withAlpha(rgb(0xffffff), 220)
	labelBack    = rgb(0xfbfaf4)
	objLabelBack = rgb(0xfff1b8)
	roadEdge     = rgb(0x7a5c35)
	roadFill     = rgb(0xf0d68c)
	bridgeSide   = rgb(0x3d3d3d)
	bridgeDeck   = rgb(0xbfb7a6)
	destroyed    = rgb(0xd98a80) // faint: the stand is gone
	unheld       = rgb(0xc62828)

	openGround  = rgb(0xe2ebc0)
	woodsGround = rgb(0x5f8f48)
	woodsTree   = rgb(0x3c6a2c)
	woodsLight  = rgb(0x7fae5f)
	townGround  = rgb(0xcdc7bd)
	townHouse   = rgb(0xa4533b)
	townRoof    = rgb(0x7d3b29)
	roughGround = rgb(0xd6bd8e)
	roughSpeck  = rgb(0x7c5c34)
	bocageField = rgb(0xd3e3a4)
	bocageHedge = rgb(0x3f6e2b)
	worksGround = rgb(0xe3d3a0)
	worksLine   = rgb(0x5e3f22)
	streamBlue  = rgb(0x4a8fd6)
	riverBlue   = rgb(0x7fb3e6)
	riverWave   = rgb(0xaed0f2)
	lakeBlue    = rgb(0x5a8fd0)
	lakeWave    = rgb(0x8fb8e8)
	otherGround = rgb(0xd9d2c2)
)

// terrainBase is the colour that fills most of a hex of terrain t.
func terrainBase(t *rules.TerrainType) color.RGBA {
	switch terrainLook(t) {
	case "open":
		return openGround
	case "woods":
		return woodsGround
	case "town":
		return townGround
	case "rough":
		return roughGround
	case "bocage":
		return bocageField
	case "works":
		return worksGround
	case "stream":
		return openGround
	case "river", "bridge":
		return riverBlue
	case "lake":
		return lakeBlue
	}
	return otherGround
}

// terrainLook picks how a terrain type is drawn: by its id for the terrain
// the bundled rulesets know, by its rule flags for any other.
func terrainLook(t *rules.TerrainType) string {
	if t == nil {
		return "other"
	}
	switch t.ID {
	case "open", "woods", "town", "rough", "bocage", "works", "stream", "river", "bridge", "lake":
		return t.ID
	}
	switch {
	case t.Impassable:
		return "lake"
	case t.River:
		return "river"
	case t.Open:
		return "open"
	}
	return "other"
}

// rng is a tiny fixed pseudo-random sequence so that textures vary from hex
// to hex but never from one drawing to the next.
type rng uint32

func (g *rng) next() float64 {
	*g = *g*1664525 + 1013904223
	return float64(*g>>8) / (1 << 24)
}

// paintTerrain fills a hex. around holds the looks of its six neighbours
// (terrainLook, "" off the map), so that streams run on into the water next
// to them and a bridge over a stream is drawn as a stream, not a river.
func paintTerrain(c *canvas, t *rules.TerrainType, ctr pt, r float64, seed uint32, around [6]string) {
	hex := hexagon(ctr, r)
	look := terrainLook(t)
	if look == "bridge" && !nextToBroadWater(around) {
		look = "stream"
	}
	if look == "stream" {
		c.fill(openGround, hex)
	} else {
		c.fill(terrainBase(t), hex)
	}
	g := rng(seed)
	hh := math.Sqrt(3) * r
	switch look {
	case "woods":
		// Trees around the edge show past a counter in the middle.
		for i := range 11 {
			a := (float64(i)*360/11 + 20*g.next()) * math.Pi / 180
			d := r * (0.52 + 0.18*g.next())
			if i%3 == 0 {
				d = r * (0.22 + 0.2*g.next())
			}
			p := pt{ctr.x + d*math.Cos(a), ctr.y + d*math.Sin(a)*0.86}
			tr := r * (0.13 + 0.05*g.next())
			c.fill(woodsTree, circle(p, tr))
			c.fill(woodsLight, circle(pt{p.x - tr*0.3, p.y - tr*0.3}, tr*0.38))
		}
	case "town":
		for i := range 9 {
			a := (float64(i)*40 + 15*g.next()) * math.Pi / 180
			d := r * (0.5 + 0.2*g.next())
			if i%4 == 0 {
				d = r * 0.2
			}
			p := pt{ctr.x + d*math.Cos(a), ctr.y + d*math.Sin(a)*0.86}
			w := r * (0.16 + 0.1*g.next())
			h := r * (0.13 + 0.08*g.next())
			c.fill(townRoof, rect(p.x-w/2+1, p.y-h/2+1, p.x+w/2+1, p.y+h/2+1))
			c.fill(townHouse, rect(p.x-w/2, p.y-h/2, p.x+w/2, p.y+h/2))
		}
	case "rough":
		for range 34 {
			a := g.next() * 2 * math.Pi
			d := r * 0.82 * math.Sqrt(g.next())
			p := pt{ctr.x + d*math.Cos(a), ctr.y + d*math.Sin(a)*0.86}
			if g.next() < 0.25 {
				s := r * 0.09
				c.fill(roughSpeck, []pt{{p.x - s, p.y + s*0.6}, {p.x, p.y - s*0.7}, {p.x + s, p.y + s*0.6}})
			} else {
				c.fill(roughSpeck, circle(p, r*0.035))
			}
		}
	case "bocage":
		// Small fields behind thick hedgerows: a crooked grid of hedges with
		// bushes along them.
		w := r * 0.085
		inner := hexagon(ctr, r*0.93)
		var hedges [][2]pt
		for _, k := range []float64{-0.5, 0.05, 0.55} {
			y := ctr.y + k*r + 0.12*r*(g.next()-0.5)
			tilt := 0.25 * r * (g.next() - 0.5)
			hedges = append(hedges, [2]pt{{ctr.x - r, y - tilt}, {ctr.x + r, y + tilt}})
		}
		for _, k := range []float64{-0.45, 0.3} {
			x := ctr.x + k*r + 0.15*r*(g.next()-0.5)
			tilt := 0.3 * r * (g.next() - 0.5)
			hedges = append(hedges, [2]pt{{x - tilt, ctr.y - r}, {x + tilt, ctr.y + r}})
		}
		for _, hg := range hedges {
			p0, p1, ok := clipToConvex(hg[0], hg[1], inner)
			if !ok {
				continue
			}
			c.stroke(bocageHedge, w, p0, p1)
			n := int(p1.sub(p0).length() / (w * 1.4))
			for k := 0; k <= n; k++ {
				c.fill(bocageHedge, circle(lerpPt(p0, p1, float64(k)/float64(max(n, 1))), w*0.8))
			}
		}
	case "works":
		// The fortification line: a trace with teeth facing outwards.
		ring := hexagon(ctr, r*0.74)
		c.strokeClosed(worksLine, r*0.07, ring)
		for i := range 6 {
			a, b := ring[i], ring[(i+1)%6]
			out := b.sub(a).perp().unit().scale(-r * 0.13)
			for k := 1; k <= 3; k++ {
				m0 := lerpPt(a, b, float64(2*k-1)/7)
				m1 := lerpPt(a, b, float64(2*k)/7)
				c.fill(worksLine, []pt{m0, m1, lerpPt(m0, m1, 0.5).add(out)})
			}
		}
	case "stream":
		var dirs []int
		for d, l := range around {
			if l == "stream" || l == "river" || l == "bridge" || l == "lake" {
				dirs = append(dirs, d)
			}
		}
		switch len(dirs) {
		case 0:
			dirs = []int{0, 3}
		case 1:
			dirs = append(dirs, (dirs[0]+3)%6)
		}
		for _, d := range dirs {
			mid := edgeMid(ctr, hh, d)
			bend := lerpPt(ctr, mid, 0.5).add(mid.sub(ctr).perp().scale(0.12))
			c.stroke(streamBlue, r*0.2, ctr, bend, mid)
		}
	case "river":
		waves(c, ctr, r, riverWave)
	case "lake":
		waves(c, ctr, r, lakeWave)
	case "other":
		// Terrain this package has no picture for shows its map letter.
		if t != nil {
			f := c.face(true, int(math.Round(0.5*r)))
			c.textCentred(f, t.Letter, ctr.x, ctr.y+0.35*r, ink)
		}
	}
}

func nextToBroadWater(around [6]string) bool {
	for _, l := range around {
		if l == "river" || l == "lake" {
			return true
		}
	}
	return false
}

// drawBridgeDeck draws a bridge's deck from the hex centre out through the
// given sides; the road is drawn over it.
func drawBridgeDeck(c *canvas, ctr pt, r float64, dirs []int) {
	hh := math.Sqrt(3) * r
	for _, d := range dirs {
		c.stroke(bridgeSide, 0.42*r, ctr, edgeMid(ctr, hh, d))
	}
	for _, d := range dirs {
		c.stroke(bridgeDeck, 0.32*r, ctr, edgeMid(ctr, hh, d))
	}
}

// waves draws three short ripple marks on water.
func waves(c *canvas, ctr pt, r float64, col color.RGBA) {
	for _, o := range []pt{{-0.45, -0.35}, {0.3, 0.05}, {-0.3, 0.45}} {
		p := pt{ctr.x + o.x*r, ctr.y + o.y*r}
		var line []pt
		for i := 0; i <= 8; i++ {
			x := float64(i) / 8
			line = append(line, pt{p.x + x*0.4*r, p.y + math.Sin(x*2*math.Pi)*0.05*r})
		}
		c.stroke(col, r*0.05, line...)
	}
}

// clipToConvex cuts the segment a-b to the part inside a convex polygon.
func clipToConvex(a, b pt, poly []pt) (pt, pt, bool) {
	t0, t1 := 0.0, 1.0
	d := b.sub(a)
	// The polygon's winding decides which side of each edge is inside.
	area := 0.0
	for i := range poly {
		j := (i + 1) % len(poly)
		area += poly[i].x*poly[j].y - poly[j].x*poly[i].y
	}
	for i := range poly {
		e0, e1 := poly[i], poly[(i+1)%len(poly)]
		n := e1.sub(e0).perp()
		if area > 0 {
			n = n.scale(-1)
		}
		// Inside where (p - e0)·n <= 0.
		num := a.sub(e0).x*n.x + a.sub(e0).y*n.y
		den := d.x*n.x + d.y*n.y
		switch {
		case den == 0:
			if num > 0 {
				return a, b, false
			}
		case den > 0:
			t1 = math.Min(t1, -num/den)
		default:
			t0 = math.Max(t0, -num/den)
		}
	}
	if t0 >= t1 {
		return a, b, false
	}
	return lerpPt(a, b, t0), lerpPt(a, b, t1), true
}
