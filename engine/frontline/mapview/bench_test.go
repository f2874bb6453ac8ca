package mapview

import (
	"bytes"
	"testing"
)

// The map pictures of the larger scenario in mid-game (after eight player
// turns of two bots), as the German side sees its last turn: the budget
// is 30 ms to draw and encode and 120 KB of PNG.
func BenchmarkFoggiaPNG(b *testing.B) { benchmarkPicture(b, "png") }

// BenchmarkFoggiaSVG is the same picture as an SVG.
func BenchmarkFoggiaSVG(b *testing.B) { benchmarkPicture(b, "svg") }

func benchmarkPicture(b *testing.B, format string) {
	v, t := playBots(b, "foggia", 8).turn("GE")
	var buf bytes.Buffer
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		buf.Reset()
		if err := Write(&buf, format, v, t); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1024, "KB")
}
