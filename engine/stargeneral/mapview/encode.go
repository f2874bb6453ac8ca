package mapview

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"io"
	"sync"

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

// writePNG saves a paletted picture as PNG, as image/png would but with
// its own row packing and a compressor kept between pictures. Rows are
// stored as they are: the PNG filters, which help photographs, made these
// flat pictures larger.
func writePNG(w io.Writer, img *image.Paletted, level int) error {
	width, height := img.Rect.Dx(), img.Rect.Dy()
	bw := bufio.NewWriter(w)
	bw.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits per pixel, paletted
	writeChunk(bw, "IHDR", ihdr[:])
	plte := make([]byte, 0, 3*len(img.Palette))
	for _, c := range img.Palette {
		r, g, b, _ := c.RGBA()
		plte = append(plte, uint8(r>>8), uint8(g>>8), uint8(b>>8))
	}
	writeChunk(bw, "PLTE", plte)
	var data bytes.Buffer
	// A compressor holds most of a megabyte of tables: one is kept for the
	// next picture.
	zw, _ := compressors.Get().(*zlib.Writer)
	if zw == nil {
		var err error
		if zw, err = zlib.NewWriterLevel(&data, level); err != nil {
			return err
		}
	}
	defer compressors.Put(zw)
	zw.Reset(&data)
	row := make([]byte, 1+width) // the row's filter, none, then the row
	for y := range height {
		copy(row[1:], img.Pix[y*img.Stride:y*img.Stride+width])
		if _, err := zw.Write(row); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	writeChunk(bw, "IDAT", data.Bytes())
	writeChunk(bw, "IEND", nil)
	return bw.Flush()
}

func writeChunk(w *bufio.Writer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(kind))
	crc.Write(data)
	w.WriteString(kind)
	w.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}

// pngLevel is the compression level of the PNG: on the division map level
// 6 makes a file 13% smaller than level 5, which was 40% quicker, and the
// mails of a division game need it to stay under 200 KB (issue 25); level
// 7 saves 3% more in a good deal more time.
const pngLevel = 6

// compressors are zlib writers at pngLevel, ready for another picture.
var compressors sync.Pool
