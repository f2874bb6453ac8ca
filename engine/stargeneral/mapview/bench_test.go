package mapview

import (
	"io"
	"testing"

	"fieldpost/engine/stargeneral/rules"
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

// BenchmarkKrinkelt draws and saves the division scenario's opening map,
// as a mail of it does: after the first, over the kept base. Target (issue
// 14): drawing and saving ≤ 30 ms.
func BenchmarkKrinkelt(b *testing.B) {
	sc, err := rules.BundledScenario("krinkelt")
	if err != nil {
		b.Fatal(err)
	}
	st := sc.NewGame()
	b.ReportAllocs()
	for b.Loop() {
		if err := PNG(io.Discard, sc.Ruleset, st, nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKrinkeltDraw is the drawing alone.
func BenchmarkKrinkeltDraw(b *testing.B) {
	sc, err := rules.BundledScenario("krinkelt")
	if err != nil {
		b.Fatal(err)
	}
	st := sc.NewGame()
	for b.Loop() {
		if _, err := Render(sc.Ruleset, st, nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKrinkeltMidGame draws and saves the division map after four
// rounds of the bots, with the last round's arrows, combats and lines.
func BenchmarkKrinkeltMidGame(b *testing.B) {
	rs, st, ev := midGame(b, 4)
	for b.Loop() {
		if err := PNG(io.Discard, rs, st, ev, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKrinkeltSVG writes the same map as SVG.
func BenchmarkKrinkeltSVG(b *testing.B) {
	rs, st, ev := midGame(b, 4)
	for b.Loop() {
		if err := SVG(io.Discard, rs, st, ev, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
