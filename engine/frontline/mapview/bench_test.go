package mapview

import (
	"bytes"
	"testing"
)

// The map pictures of both scenarios in mid-game (after eight player
// turns of two bots), as the German side sees the last turn: the budget
// is 30 ms to draw and encode and 120 KB of PNG for the larger.
func BenchmarkFoggiaPNG(b *testing.B) { benchmarkPicture(b, "foggia", "png") }

// BenchmarkFoggiaSVG is the same picture as an SVG.
func BenchmarkFoggiaSVG(b *testing.B) { benchmarkPicture(b, "foggia", "svg") }

// BenchmarkOfantoPNG is the introductory scenario's.
func BenchmarkOfantoPNG(b *testing.B) { benchmarkPicture(b, "ofanto", "png") }

// BenchmarkOfantoSVG is the same picture as an SVG.
func BenchmarkOfantoSVG(b *testing.B) { benchmarkPicture(b, "ofanto", "svg") }

func benchmarkPicture(b *testing.B, scenario, format string) {
	v, t := playBots(b, scenario, 8).turn("GE")
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
