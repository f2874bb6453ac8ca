package rules

import (
	"math"
	"testing"
)

// The exact distribution must agree with brute force over every roll.
func TestHitDistributionExact(t *testing.T) {
	for _, rule := range []string{"6", "5,6", "6 or double 5", "5,6 or double 4"} {
		hr, err := ParseHitRule(rule)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n <= 5; n++ {
			want := make([]float64, n+1)
			total := 0
			dice := make([]int, n)
			var walk func(i int)
			walk = func(i int) {
				if i == n {
					want[hr.Hits(dice)]++
					total++
					return
				}
				for f := 1; f <= 6; f++ {
					dice[i] = f
					walk(i + 1)
				}
			}
			walk(0)
			got := hr.HitDistribution(n)
			for h := range want {
				if math.Abs(got[h]-want[h]/float64(total)) > 1e-12 {
					t.Errorf("%s, %d dice, %d hits: got %.6f want %.6f", rule, n, h, got[h], want[h]/float64(total))
				}
			}
		}
	}
}

func TestChanceMore(t *testing.T) {
	six, _ := ParseHitRule("6")
	d := six.HitDistribution(1)
	// One die each on 6: only 6 against a miss wins: 1/6 * 5/6.
	if got := ChanceMore(d, d); math.Abs(got-5.0/36) > 1e-12 {
		t.Fatalf("got %v", got)
	}
	if got := Expected(six.HitDistribution(6)); math.Abs(got-1) > 1e-12 {
		t.Fatalf("expected hits of 6 dice on a 6: %v", got)
	}
}
