package rating

import (
	"math"
	"testing"
)

// Glickman's worked example ("Example of the Glicko-2 system", steps 1-8):
// a player rated 1500, RD 200, volatility 0.06 beats a 1400 (RD 30) and
// loses to a 1550 (RD 100) and a 1700 (RD 300), with tau 0.5; after the
// period the rating is 1464.06, the RD 151.52, the volatility 0.05999.
func TestGlickmansExample(t *testing.T) {
	p := DefaultParams()
	if p.Tau != 0.5 || p.Rating != 1500 || p.Volatility != 0.06 {
		t.Fatalf("bundled params %+v are not the example's", p)
	}
	got := p.Update(Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}, []Result{
		{Rating{1400, 30, 0.06}, 1},
		{Rating{1550, 100, 0.06}, 0},
		{Rating{1700, 300, 0.06}, 0},
	})
	for _, c := range []struct {
		what      string
		got, want float64
		tol       float64
	}{
		{"rating", got.Rating, 1464.06, 0.01},
		{"deviation", got.Deviation, 151.52, 0.01},
		{"volatility", got.Volatility, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s %.5f, want %.5f", c.what, c.got, c.want)
		}
	}
}

// A period without games widens the deviation only (step 6 alone).
func TestNoGames(t *testing.T) {
	p := DefaultParams()
	got := p.Update(Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}, nil)
	if got.Rating != 1500 || got.Deviation <= 200 || got.Volatility != 0.06 {
		t.Errorf("got %+v", got)
	}
	// A win against an equal raises, a loss lowers, symmetrically.
	a := p.Update(p.New(), []Result{{p.New(), 1}})
	b := p.Update(p.New(), []Result{{p.New(), 0}})
	if a.Rating <= 1500 || b.Rating >= 1500 || math.Abs((a.Rating-1500)-(1500-b.Rating)) > 1e-6 {
		t.Errorf("win %+v, loss %+v", a, b)
	}
}
