package hexdraw

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"io"
	"sync"
)

// WritePNG writes a paletted picture as a PNG file at zlib level (0-9):
// 4 bits a pixel when the palette has 16 colours or fewer, else 8. The
// rows are packed here, where image/png takes a pixel at a time through
// an interface (most of a map's time), and are not filtered: the PNG
// filters, which help photographs, make these flat pictures larger.
func WritePNG(w io.Writer, img *image.Paletted, level int) error {
	width, height := img.Rect.Dx(), img.Rect.Dy()
	depth := 8
	if len(img.Palette) <= 16 {
		depth = 4
	}
	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(width))
	binary.BigEndian.PutUint32(hdr[4:], uint32(height))
	hdr[8], hdr[9] = byte(depth), 3 // bit depth, colour type: paletted
	plte := make([]byte, 0, 3*len(img.Palette))
	for _, c := range img.Palette {
		r, g, b, _ := color.NRGBAModel.Convert(c).RGBA()
		plte = append(plte, byte(r>>8), byte(g>>8), byte(b>>8))
	}
	var data bytes.Buffer
	z, err := compressor(level)
	if err != nil {
		return err
	}
	defer compressors[level].Put(z)
	z.Reset(&data)
	row := make([]byte, 1+(width*depth+7)/8) // the row's filter, none, then the row
	for y := range height {
		pix := img.Pix[y*img.Stride : y*img.Stride+width]
		if depth == 8 {
			copy(row[1:], pix)
		} else {
			for i := 0; i+1 < width; i += 2 {
				row[1+i/2] = pix[i]<<4 | pix[i+1]
			}
			if width%2 == 1 {
				row[len(row)-1] = pix[width-1] << 4
			}
		}
		if _, err := z.Write(row); err != nil {
			return err
		}
	}
	if err := z.Close(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("\x89PNG\r\n\x1a\n")
	for _, ch := range []struct {
		name string
		data []byte
	}{{"IHDR", hdr[:]}, {"PLTE", plte}, {"IDAT", data.Bytes()}, {"IEND", nil}} {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(ch.data)))
		bw.Write(n[:])
		crc := crc32.NewIEEE()
		crc.Write([]byte(ch.name))
		crc.Write(ch.data)
		bw.WriteString(ch.name)
		bw.Write(ch.data)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		bw.Write(n[:])
	}
	return bw.Flush()
}

// compressors keeps zlib writers between pictures, a pool a level: each
// holds most of a megabyte of tables, which is longer to allocate than a
// small map is to compress.
var compressors [zlib.BestCompression + 1]sync.Pool

// compressor is a kept writer at level, or a new one.
func compressor(level int) (*zlib.Writer, error) {
	if level < 0 || level > zlib.BestCompression {
		return nil, fmt.Errorf("no zlib level %d", level)
	}
	if z, ok := compressors[level].Get().(*zlib.Writer); ok {
		return z, nil
	}
	return zlib.NewWriterLevel(nil, level)
}
