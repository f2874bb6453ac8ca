package mapview

import (
	"image/color"

	"fieldpost/engine/stargeneral/rules"
)

// palette is the palette a picture is drawn in: its flat colours and the
// blends of its edges, each added when first drawn, up to 256. A picture
// drawn over a kept base starts from the base's palette (parent), which
// is only read, so pictures of one base can be drawn at once.
type palette struct {
	colours color.Palette
	entries map[uint32]uint8   // an opaque colour, packed, to its entry
	blends  map[blendKey]uint8 // an edge's blend to its entry
	parent  *palette
}

// blendKey is a colour blended over a palette entry in a number of steps.
type blendKey struct {
	under uint8
	col   uint32
	step  uint8
}

// newPalette starts a palette: the base's, or else the flat colours of
// the map, which so always keep their own entries.
func newPalette(parent *palette) *palette {
	p := &palette{colours: make(color.Palette, 0, 256), entries: map[uint32]uint8{}, blends: map[blendKey]uint8{}, parent: parent}
	if parent != nil {
		p.colours = append(p.colours, parent.colours...)
		return p
	}
	for _, c := range flatColours() {
		p.index(c)
	}
	return p
}

// flatColours are the solid colours the map is painted with.
func flatColours() []color.RGBA {
	out := []color.RGBA{
		paperColour, ink, roadEdge, roadFill, bridgeSide, bridgeDeck, unheld,
		labelBack, objLabelBack, destroyed, halo,
		openGround, woodsGround, woodsTree, townGround, townHouse,
		roughGround, roughSpeck, bocageField, bocageHedge, worksGround, worksLine,
		streamBlue, riverBlue, riverWave, lakeBlue, lakeWave, otherGround,
		counterRim, symbolBack, lossText, markBack,
		combatFill, combatRim, barrageBg, markerInk,
		titleBack, titleInk, titleSub, legendInk,
	}
	out = append(out, sideFill[:]...)
	out = append(out, sideStrong[:]...)
	for _, s := range rules.AllStatuses {
		out = append(out, statusBack[s], statusInk[s])
	}
	return out
}

// index is the entry of col, made opaque: added when new, the nearest
// when the palette is full.
func (p *palette) index(col color.RGBA) uint8 {
	col.A = 0xff
	k := pack(col)
	for q := p; q != nil; q = q.parent {
		if i, ok := q.entries[k]; ok {
			return i
		}
	}
	var i uint8
	if len(p.colours) < 256 {
		i = uint8(len(p.colours))
		p.colours = append(p.colours, col)
	} else {
		i = uint8(p.colours.Index(col))
	}
	p.entries[k] = i
	return i
}

// blend is the entry of col over the entry under, step blendSteps-ths of
// the way from under to col.
func (p *palette) blend(under uint8, col color.RGBA, step int) uint8 {
	k := blendKey{under, pack(col), uint8(step)}
	for q := p; q != nil; q = q.parent {
		if i, ok := q.blends[k]; ok {
			return i
		}
	}
	u := p.colours[under].(color.RGBA)
	mix := func(a, b uint8) uint8 {
		return uint8((int(a)*(blendSteps-step) + int(b)*step + blendSteps/2) / blendSteps)
	}
	i := p.near(color.RGBA{mix(u.R, col.R), mix(u.G, col.G), mix(u.B, col.B), 0xff})
	p.blends[k] = i
	return i
}

// blendNear is how close (squared, in 0-255 steps) a colour of the base's
// palette must be to stand for a blend: an edge's shade needs no exact
// colour, and fewer colours keep the palette from filling up.
const blendNear = 24 * 24

// near is an entry of the base's palette within blendNear of col, or an
// entry of col itself. Only the base's entries are searched, which every
// picture of a map shares: a blend is then the same colour whatever the
// picture drew before it.
func (p *palette) near(col color.RGBA) uint8 {
	shared := p.colours
	if p.parent != nil {
		shared = p.parent.colours
	}
	best, bestD := -1, blendNear
	for i, e := range shared {
		c := e.(color.RGBA)
		dr, dg, db := int(c.R)-int(col.R), int(c.G)-int(col.G), int(c.B)-int(col.B)
		if d := dr*dr + dg*dg + db*db; d < bestD {
			best, bestD = i, d
		}
	}
	if best >= 0 {
		return uint8(best)
	}
	return p.index(col)
}

func pack(c color.RGBA) uint32 {
	return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A)
}

// pngLevel is the zlib level of the PNG: on the division map level 5
// makes a file an eighth smaller than level 4, and is 40% quicker than
// level 6, image/png's default (docs/performance.md).
const pngLevel = 5
