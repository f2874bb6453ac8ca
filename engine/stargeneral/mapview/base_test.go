package mapview

import (
	"bytes"
	"testing"

	"fieldpost/data"
)

// A map drawn over a kept base is the picture drawn afresh, pixel for
// pixel, for every bundled scenario, before and after its first round.
func TestKeptBaseDrawsTheSamePicture(t *testing.T) {
	for _, name := range data.ScenarioNames() {
		sc, err := data.Scenario(name)
		if err != nil {
			t.Fatal(err)
		}
		st := sc.NewGame()
		bases.Lock()
		clear(bases.m)
		bases.Unlock()
		fresh, err := Render(sc.Ruleset, st, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		kept, err := Render(sc.Ruleset, st, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fresh.Pix, kept.Pix) {
			t.Errorf("%s: the map drawn over the kept base differs", name)
		}
		var a, b bytes.Buffer
		if err := PNG(&a, sc.Ruleset, st, nil, Options{}); err != nil {
			t.Fatal(err)
		}
		bases.Lock()
		clear(bases.m)
		bases.Unlock()
		if err := PNG(&b, sc.Ruleset, st, nil, Options{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: the PNG over the kept base differs from the PNG drawn afresh", name)
		}
	}
}
