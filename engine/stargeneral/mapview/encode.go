package mapview

import (
	"image"
	"image/color"
	"sort"

	"fieldpost/engine/stargeneral/rules"
)

// newBase makes a base of its picture, with the palette the maps drawn
// over it are saved in: every flat colour of the map, then the base's other
// colours, the most used first, up to 256. Saved in 256 colours a file is a
// third the size; a colour drawn over the base that the palette lacks (an
// anti-aliased edge) takes the nearest, which a reader cannot tell apart.
func newBase(img *image.RGBA) *base {
	// Most pixels repeat their left neighbour, so runs are counted at once.
	count := map[uint32]int{}
	pix := img.Pix
	for y := range img.Bounds().Dy() {
		row := pix[y*img.Stride : y*img.Stride+4*img.Bounds().Dx()]
		run, n := packAt(row, 0), 0
		for i := 0; i < len(row); i += 4 {
			if c := packAt(row, i); c != run {
				count[run] += n
				run, n = c, 0
			}
			n++
		}
		count[run] += n
	}
	b := &base{img: img, index: map[uint32]uint8{}}
	add := func(c uint32) {
		if _, in := b.index[c]; !in && len(b.palette) < 256 {
			b.index[c] = uint8(len(b.palette))
			b.palette = append(b.palette, unpack(c))
		}
	}
	for _, c := range flatColours() {
		add(pack(c))
	}
	type use struct {
		c uint32
		n int
	}
	others := make([]use, 0, len(count))
	for c, n := range count {
		others = append(others, use{c, n})
	}
	sort.Slice(others, func(i, j int) bool {
		a, b := others[i], others[j]
		if a.n != b.n {
			return a.n > b.n
		}
		return a.c < b.c
	})
	for _, o := range others {
		add(o.c)
	}
	// The base's colours left out of the palette take their nearest.
	for c := range count {
		if _, in := b.index[c]; !in {
			b.index[c] = uint8(b.palette.Index(unpack(c)))
		}
	}
	return b
}

// paletted turns a picture drawn over the base into the base's palette.
// The base's index is only read, so pictures of one base can be saved at
// once; colours it lacks are looked up once per picture.
func (b *base) paletted(img *image.RGBA) *image.Paletted {
	bounds := img.Bounds()
	out := image.NewPaletted(bounds, b.palette)
	extra := map[uint32]uint8{}
	w := bounds.Dx()
	for y := range bounds.Dy() {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		dst := out.Pix[y*out.Stride : y*out.Stride+w]
		last, k := uint32(0), uint8(0)
		for i := 0; i < len(row); i += 4 {
			c := packAt(row, i)
			if i == 0 || c != last {
				var ok bool
				if k, ok = b.index[c]; !ok {
					if k, ok = extra[c]; !ok {
						k = uint8(b.palette.Index(unpack(c)))
						extra[c] = k
					}
				}
				last = c
			}
			dst[i/4] = k
		}
	}
	return out
}

func packAt(pix []uint8, i int) uint32 {
	return uint32(pix[i])<<24 | uint32(pix[i+1])<<16 | uint32(pix[i+2])<<8 | uint32(pix[i+3])
}

func unpack(c uint32) color.RGBA {
	return color.RGBA{uint8(c >> 24), uint8(c >> 16), uint8(c >> 8), uint8(c)}
}

func pack(c color.RGBA) uint32 {
	return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A)
}

// flatColours are the solid colours the map is painted with.
func flatColours() []color.RGBA {
	out := []color.RGBA{
		paperColour, ink, roadEdge, roadFill, bridgeSide, bridgeDeck, unheld,
		labelBack, objLabelBack, destroyed, halo,
		openGround, woodsGround, woodsTree, woodsLight, townGround, townHouse, townRoof,
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
