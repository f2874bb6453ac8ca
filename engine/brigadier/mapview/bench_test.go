package mapview

import (
	"bytes"
	"testing"

	"fieldpost/engine/brigadier/rules"
)

// The map pictures of the wood edge after three turns of two bots, as the
// German side sees the last: the budget is 30 ms to draw and encode and
// 120 KB of PNG.
func BenchmarkWoodEdgePNG(b *testing.B) { benchmarkPicture(b, "png") }

// BenchmarkWoodEdgeSVG is the same picture as an SVG.
func BenchmarkWoodEdgeSVG(b *testing.B) { benchmarkPicture(b, "svg") }

func benchmarkPicture(b *testing.B, format string) {
	rs := ruleset(b)
	st, events := playBots(b, rs, 3)
	v := rules.View(rs, st, "german")
	var buf bytes.Buffer
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		buf.Reset()
		if err := Write(&buf, format, rs, v, events, "german"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1024, "KB")
}
