package mapview

import (
	"io"
	"testing"
)

// BenchmarkRender30x20 draws and encodes a 30x20 division battle with 74
// counters and a round of arrows and combats.
func BenchmarkRender30x20(b *testing.B) {
	rs, st := parse(b, bigScenario())
	ev := bigEvents(st)
	b.ReportAllocs()
	for b.Loop() {
		if err := PNG(io.Discard, rs, st, ev, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDraw30x20 is the drawing alone, without PNG encoding.
func BenchmarkDraw30x20(b *testing.B) {
	rs, st := parse(b, bigScenario())
	ev := bigEvents(st)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(rs, st, ev, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
