package hexdraw

import (
	"image/color"
)

// Palette is the palette a picture is drawn in: its flat colours and the
// blends of its edges, each added when first drawn, up to 256. A picture
// drawn over a kept base starts from the base's palette (parent), which
// is only read, so pictures of one base can be drawn at once.
type Palette struct {
	Colours color.Palette
	entries map[uint32]uint8   // an opaque colour, packed, to its entry
	blends  map[blendKey]uint8 // an edge's blend to its entry
	parent  *Palette
}

// blendKey is a colour blended over a palette entry in a number of steps.
type blendKey struct {
	under uint8
	col   uint32
	step  uint8
}

// NewPalette starts a palette with a picture's flat colours, which so
// always keep their own entries.
func NewPalette(flat []color.RGBA) *Palette {
	p := newPalette(nil)
	for _, c := range flat {
		p.Index(c)
	}
	return p
}

// Over starts the palette of a picture drawn over a kept base whose
// palette is base: its entries and then the picture's own.
func (base *Palette) Over() *Palette {
	p := newPalette(base)
	p.Colours = append(p.Colours, base.Colours...)
	return p
}

func newPalette(parent *Palette) *Palette {
	return &Palette{Colours: make(color.Palette, 0, 256), entries: map[uint32]uint8{}, blends: map[blendKey]uint8{}, parent: parent}
}

// Index is the entry of col, made opaque: added when new, the nearest
// when the palette is full.
func (p *Palette) Index(col color.RGBA) uint8 {
	col.A = 0xff
	k := pack(col)
	for q := p; q != nil; q = q.parent {
		if i, ok := q.entries[k]; ok {
			return i
		}
	}
	var i uint8
	if len(p.Colours) < 256 {
		i = uint8(len(p.Colours))
		p.Colours = append(p.Colours, col)
	} else {
		i = uint8(p.Colours.Index(col))
	}
	p.entries[k] = i
	return i
}

// blend is the entry of col over the entry under, step BlendSteps-ths of
// the way from under to col.
func (p *Palette) blend(under uint8, col color.RGBA, step int) uint8 {
	k := blendKey{under, pack(col), uint8(step)}
	for q := p; q != nil; q = q.parent {
		if i, ok := q.blends[k]; ok {
			return i
		}
	}
	u := p.Colours[under].(color.RGBA)
	mix := func(a, b uint8) uint8 {
		return uint8((int(a)*(BlendSteps-step) + int(b)*step + BlendSteps/2) / BlendSteps)
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
func (p *Palette) near(col color.RGBA) uint8 {
	shared := p.Colours
	if p.parent != nil {
		shared = p.parent.Colours
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
	return p.Index(col)
}

func pack(c color.RGBA) uint32 {
	return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A)
}
