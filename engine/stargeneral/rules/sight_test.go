package rules

import "testing"

// Line of sight (3.3, 5.2): blocking terrain on the line blocks it; along a
// hex side it is clear while either side is; stands block distant fire only.
func TestLineOfSight(t *testing.T) {
	const scenario = `RULESET 2sg
MAP 8 8 open
TERRAIN woods 0504 0402
SIDE axis
UNIT I/77 H
  HQ hq 0101
  1A infantry 0502
  1B infantry 0705
SIDE allies
UNIT E/505 H
  HQ hq 0808
  1 infantry 0302
`
	sc, err := ParseScenario([]byte(scenario), BundledRuleset)
	if err != nil {
		t.Fatal(err)
	}
	b := newBoard(sc.Ruleset, sc.NewGame())
	for _, c := range []struct {
		a, b       string
		unitsBlock bool
		want       bool
		why        string
	}{
		{"0502", "0506", false, false, "woods at 0504 on the column"},
		{"0602", "0606", true, true, "nothing on the next column"},
		{"0302", "0502", false, true, "woods at 0402 on one side of the hex side, 0401 clear on the other"},
		{"0303", "0503", false, true, "one side 0402 woods, the other 0403 clear"},
		{"0703", "0707", false, true, "spotting sees through 1B at 0705"},
		{"0703", "0707", true, false, "distant fire does not pass 1B at 0705"},
		{"0505", "0504", false, true, "adjacent hexes always see each other"},
	} {
		if got := b.lineOfSight(MustHex(c.a), MustHex(c.b), c.unitsBlock); got != c.want {
			t.Errorf("lineOfSight(%s, %s, units block %v) = %v, want %v: %s", c.a, c.b, c.unitsBlock, got, c.want, c.why)
		}
	}
}
