package mapview

import (
	"image/color"
	"math"
	"strconv"

	"fieldpost/engine/hexdraw"
	"fieldpost/engine/stargeneral/rules"
)

// The palette: muted map colours for the ground, so that the counters and
// the round's arrows and markers stand out on top of it.
var (
	paperColour  = hexdraw.RGB(0xf3efe3)
	ink          = hexdraw.RGB(0x1c1c1c)
	gridLine     = hexdraw.WithAlpha(hexdraw.RGB(0x2a2a2a), 70)
	numberDark   = hexdraw.WithAlpha(hexdraw.RGB(0x2a2a2a), 190)
	numberLight  = hexdraw.WithAlpha(hexdraw.RGB(0xffffff), 220)
	labelBack    = hexdraw.RGB(0xfbfaf4)
	objLabelBack = hexdraw.RGB(0xfff1b8)
	roadEdge     = hexdraw.RGB(0x7a5c35)
	roadFill     = hexdraw.RGB(0xf0d68c)
	bridgeSide   = hexdraw.RGB(0x3d3d3d)
	bridgeDeck   = hexdraw.RGB(0xbfb7a6)
	destroyed    = hexdraw.RGB(0xd98a80) // faint: the stand is gone
	unheld       = hexdraw.RGB(0xc62828)

	openGround  = hexdraw.RGB(0xe2ebc0)
	woodsGround = hexdraw.RGB(0x5f8f48)
	woodsTree   = hexdraw.RGB(0x3c6a2c)
	townGround  = hexdraw.RGB(0xcdc7bd)
	townHouse   = hexdraw.RGB(0xa4533b)
	roughGround = hexdraw.RGB(0xd6bd8e)
	roughSpeck  = hexdraw.RGB(0x7c5c34)
	bocageField = hexdraw.RGB(0xd3e3a4)
	bocageHedge = hexdraw.RGB(0x3f6e2b)
	worksGround = hexdraw.RGB(0xe3d3a0)
	worksLine   = hexdraw.RGB(0x5e3f22)
	streamBlue  = hexdraw.RGB(0x4a8fd6)
	riverBlue   = hexdraw.RGB(0x7fb3e6)
	riverWave   = hexdraw.RGB(0xaed0f2)
	lakeBlue    = hexdraw.RGB(0x5a8fd0)
	lakeWave    = hexdraw.RGB(0x8fb8e8)
	otherGround = hexdraw.RGB(0xd9d2c2)
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

// paintTerrain draws the marks of a hex over its ground. around holds the
// looks of its six neighbours (terrainLook, "" off the map), so that
// streams hexdraw.Run on into the water next to them and a bridge over a stream is
// drawn as a stream, not a river. The ground is flat and the marks (trees,
// houses, stones) are the same in every hex of a kind, drawn without
// blended edges: a plain map reads well and its picture stays small.
func paintTerrain(c *hexdraw.Canvas, t *rules.TerrainType, ctr pt, r float64, around [6]string) {
	look := terrainLook(t)
	if look == "bridge" && !nextToBroadWater(around) {
		look = "stream"
	}
	crisp := c.Crisp
	defer func() { c.Crisp = crisp }()
	c.Crisp = true
	switch look {
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
		c.Crisp = false
		hh := math.Sqrt(3) * r
		for _, d := range dirs {
			mid := edgeMid(ctr, hh, d)
			bend := hexdraw.Lerp(ctr, mid, 0.5).Add(mid.Sub(ctr).Perp().Scale(0.12))
			c.Stroke(streamBlue, r*0.2, ctr, bend, mid)
		}
	case "other":
		// Terrain this package has no picture for shows its map letter.
		if t != nil {
			c.Crisp = false
			f := c.Face(true, int(math.Round(0.5*r)))
			c.TextCentred(f, t.Letter, ctr.X, ctr.Y+0.35*r, ink)
		}
	case "woods", "town", "rough", "bocage", "works", "river", "lake":
		// The marks sit on whole pixels, so that every hex's are alike; an
		// SVG draws them once and places a copy in every hex.
		c.Stamp(look+strconv.Itoa(int(math.Round(10*r))), pt{X: math.Round(ctr.X), Y: math.Round(ctr.Y)}, func(o pt) { terrainMarks(c, look, o, r) })
	}
}

// terrainMarks draws the marks of a terrain look around o: trees, houses,
// stones, hedges, the works' trace, ripples.
func terrainMarks(c *hexdraw.Canvas, look string, o pt, r float64) {
	at := func(x, y float64) pt { return pt{X: o.X + x*r, Y: o.Y + y*r} }
	switch look {
	case "woods":
		for _, p := range [][2]float64{{-0.45, -0.4}, {0.4, -0.3}, {-0.4, 0.3}, {0.45, 0.4}} {
			c.FillCircle(woodsTree, at(p[0], p[1]), 0.17*r)
		}
	case "town":
		for _, p := range [][4]float64{{-0.55, -0.45, 0.24, 0.18}, {0.3, -0.5, 0.26, 0.18}, {0.45, 0.2, 0.22, 0.2}, {-0.6, 0.25, 0.26, 0.18}} {
			q := at(p[0], p[1])
			c.Fill(townHouse, hexdraw.RectShape(q.X, q.Y, q.X+math.Round(p[2]*r), q.Y+math.Round(p[3]*r)))
		}
	case "rough":
		s := math.Max(2, math.Round(0.08*r))
		for _, p := range [][2]float64{{-0.5, -0.45}, {0.4, -0.45}, {0.65, 0.15}, {-0.65, 0.15}, {0.4, 0.5}, {-0.35, 0.5}} {
			q := at(p[0], p[1])
			c.Fill(roughSpeck, []pt{{X: q.X - s, Y: q.Y + s}, {X: q.X, Y: q.Y - s}, {X: q.X + s, Y: q.Y + s}})
		}
	case "bocage":
		// Small fields behind hedgerows.
		inner := hexdraw.Hexagon(o, r*0.9)
		for _, l := range [][4]float64{{-1, -0.45, 1, -0.3}, {-1, 0.2, 1, 0.35}, {-0.35, -1, -0.25, 1}, {0.4, -1, 0.3, 1}} {
			if p0, p1, ok := clipToConvex(at(l[0], l[1]), at(l[2], l[3]), inner); ok {
				c.Stroke(bocageHedge, math.Max(2, 0.1*r), p0, p1)
			}
		}
	case "works":
		// The fortification line: a trace with teeth facing outwards.
		ring := hexdraw.Hexagon(o, r*0.74)
		c.StrokeClosed(worksLine, math.Max(1.5, r*0.07), ring)
		for i := range 6 {
			a, b := ring[i], ring[(i+1)%6]
			out := b.Sub(a).Perp().Unit().Scale(-r * 0.13)
			for k := 1; k <= 3; k++ {
				m0 := hexdraw.Lerp(a, b, float64(2*k-1)/7)
				m1 := hexdraw.Lerp(a, b, float64(2*k)/7)
				c.Fill(worksLine, []pt{m0, m1, hexdraw.Lerp(m0, m1, 0.5).Add(out)})
			}
		}
	case "river":
		c.Crisp = false
		waves(c, o, r, riverWave)
	case "lake":
		c.Crisp = false
		waves(c, o, r, lakeWave)
	}
}

// terrainGround is the colour a hex of t is filled with, its neighbours'
// looks in around (see paintTerrain).
func terrainGround(t *rules.TerrainType, around [6]string) color.RGBA {
	if l := terrainLook(t); l == "stream" || (l == "bridge" && !nextToBroadWater(around)) {
		return openGround
	}
	return terrainBase(t)
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
func drawBridgeDeck(c *hexdraw.Canvas, ctr pt, r float64, dirs []int) {
	hh := math.Sqrt(3) * r
	for _, d := range dirs {
		c.Stroke(bridgeSide, 0.42*r, ctr, edgeMid(ctr, hh, d))
	}
	for _, d := range dirs {
		c.Stroke(bridgeDeck, 0.32*r, ctr, edgeMid(ctr, hh, d))
	}
}

// waves draws three short ripple marks on water.
func waves(c *hexdraw.Canvas, ctr pt, r float64, col color.RGBA) {
	for _, o := range []pt{{X: -0.45, Y: -0.35}, {X: 0.3, Y: 0.05}, {X: -0.3, Y: 0.45}} {
		p := pt{X: ctr.X + o.X*r, Y: ctr.Y + o.Y*r}
		var line []pt
		for i := 0; i <= 4; i++ {
			x := float64(i) / 4
			line = append(line, pt{X: p.X + x*0.4*r, Y: p.Y + math.Sin(x*2*math.Pi)*0.06*r})
		}
		c.Stroke(col, math.Max(1.5, r*0.06), line...)
	}
}

// clipToConvex cuts the segment a-b to the part inside a convex polygon.
func clipToConvex(a, b pt, poly []pt) (pt, pt, bool) {
	t0, t1 := 0.0, 1.0
	d := b.Sub(a)
	// The polygon's winding decides which side of each edge is inside.
	area := 0.0
	for i := range poly {
		j := (i + 1) % len(poly)
		area += poly[i].X*poly[j].Y - poly[j].X*poly[i].Y
	}
	for i := range poly {
		e0, e1 := poly[i], poly[(i+1)%len(poly)]
		n := e1.Sub(e0).Perp()
		if area > 0 {
			n = n.Scale(-1)
		}
		// Inside where (p - e0)·n <= 0.
		num := a.Sub(e0).X*n.X + a.Sub(e0).Y*n.Y
		den := d.X*n.X + d.Y*n.Y
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
	return hexdraw.Lerp(a, b, t0), hexdraw.Lerp(a, b, t1), true
}
