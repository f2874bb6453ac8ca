package hexdraw

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// num writes what strconv's shortest form writes of the number rounded to
// hundredths, or tenths from 1 up: "-0" and all.
func TestNumIsStrconvsShortestForm(t *testing.T) {
	want := func(v float64) string {
		v = math.Round(v*100) / 100
		if math.Abs(v) >= 1 {
			v = math.Round(v*10) / 10
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	vals := []float64{0, math.Copysign(0, -1), 0.004, -0.004, 0.005, -0.005, 0.995, -0.995, 0.999, 1, -1, 9.95, 99.95, 0.1, 0.05, -12.34, 1234.56}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		vals = append(vals, (r.Float64()-0.5)*r.Float64()*5000)
	}
	for _, v := range vals {
		if got := num(v); got != want(v) {
			t.Fatalf("num(%v) = %q, want %q", v, got, want(v))
		}
	}
}
