package mapview

import (
	"image"
	"image/color"
	"sort"

	"fieldpost/engine/stargeneral/rules"
)

// paletted turns the picture into 256 colours for a file a third the size:
// the map's flat colours are kept exactly, and every anti-aliased edge pixel
// takes the nearest colour of the palette, which a reader cannot tell apart.
func paletted(img *image.RGBA) *image.Paletted {
	b := img.Bounds()
	// Most pixels repeat their left neighbour, so runs are counted at once.
	count := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)]
		run, n := rgbaAt(row, 0), 0
		for i := 0; i < len(row); i += 4 {
			if c := rgbaAt(row, i); c != run {
				count[run] += n
				run, n = c, 0
			}
			n++
		}
		count[run] += n
	}
	var pal color.Palette
	inPal := map[color.RGBA]bool{}
	add := func(c color.RGBA) {
		if !inPal[c] && len(pal) < 256 {
			inPal[c] = true
			pal = append(pal, c)
		}
	}
	for _, c := range flatColours() {
		add(c)
	}
	type use struct {
		c color.RGBA
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
		return pack(a.c) < pack(b.c)
	})
	for _, o := range others {
		add(o.c)
	}
	out := image.NewPaletted(b, pal)
	index := make(map[color.RGBA]uint8, len(count))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)]
		dst := out.Pix[out.PixOffset(b.Min.X, y):]
		last, k := color.RGBA{}, uint8(0)
		for i := 0; i < len(row); i += 4 {
			c := rgbaAt(row, i)
			if i == 0 || c != last {
				var ok bool
				if k, ok = index[c]; !ok {
					k = uint8(pal.Index(c))
					index[c] = k
				}
				last = c
			}
			dst[i/4] = k
		}
	}
	return out
}

func rgbaAt(pix []uint8, i int) color.RGBA {
	return color.RGBA{pix[i], pix[i+1], pix[i+2], pix[i+3]}
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
