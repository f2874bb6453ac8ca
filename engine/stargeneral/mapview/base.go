package mapview

import (
	"image"
	"image/color"
	"math"
	"slices"
	"sort"

	"fieldpost/engine/hexdraw"
	"fieldpost/engine/stargeneral/rules"
)

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
