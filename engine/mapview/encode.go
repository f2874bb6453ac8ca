package mapview

import (
	"image"
	"image/color"
	"sort"

	"fieldpost/engine"
)

// paletted turns the picture into 256 colours for a file a third the size:
// the map's flat colours are kept exactly, and every anti-aliased edge pixel
// takes the nearest colour of the palette, which a reader cannot tell apart.
func paletted(img *image.RGBA) *image.Paletted {
	b := img.Bounds()
	count := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)]
		for i := 0; i < len(row); i += 4 {
			count[color.RGBA{row[i], row[i+1], row[i+2], row[i+3]}]++
		}
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
	others := make([]color.RGBA, 0, len(count))
	for c := range count {
		others = append(others, c)
	}
	sort.Slice(others, func(i, j int) bool {
		a, b := others[i], others[j]
		if count[a] != count[b] {
			return count[a] > count[b]
		}
		return pack(a) < pack(b)
	})
	for _, c := range others {
		add(c)
	}
	out := image.NewPaletted(b, pal)
	index := make(map[color.RGBA]uint8, len(count))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)]
		dst := out.Pix[out.PixOffset(b.Min.X, y):]
		for i := 0; i < len(row); i += 4 {
			c := color.RGBA{row[i], row[i+1], row[i+2], row[i+3]}
			k, ok := index[c]
			if !ok {
				k = uint8(pal.Index(c))
				index[c] = k
			}
			dst[i/4] = k
		}
	}
	return out
}

func pack(c color.RGBA) uint32 {
	return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A)
}

// flatColours are the solid colours the map is painted with.
func flatColours() []color.RGBA {
	out := []color.RGBA{
		paperColour, ink, roadEdge, roadFill, bridgeSide, bridgeDeck, unheld,
		openGround, woodsGround, woodsTree, woodsLight, townGround, townHouse, townRoof,
		roughGround, roughSpeck, bocageField, bocageHedge, worksGround, worksLine,
		streamBlue, riverBlue, riverWave, lakeBlue, lakeWave, otherGround,
		counterRim, symbolBack, lossText, markBack,
		combatFill, combatRim, barrageBg, markerInk,
		titleBack, titleInk, titleSub, legendInk,
	}
	out = append(out, sideFill[:]...)
	out = append(out, sideStrong[:]...)
	for _, s := range engine.AllStatuses {
		out = append(out, statusBack[s], statusInk[s])
	}
	return out
}
