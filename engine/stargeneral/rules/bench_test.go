package rules

import (
	"testing"

	"fieldpost/engine"
)

// BenchmarkDivisionRound resolves one full day round of the largest bundled
// scenario after the armies have closed, with both sides plotting attacks.
// Target (issue 2): at most 1 ms and 10 MB allocated per round.
func BenchmarkDivisionRound(b *testing.B) {
	var sc *Scenario
	for _, name := range bundledScenarios(b) {
		s := loadScenarioFile(b, name)
		if sc == nil || len(s.State.Units) > len(sc.State.Units) {
			sc = s
		}
	}
	rs := sc.Ruleset
	st, orders := contactPosition(b, sc)
	combats := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		_, events, err := Resolve(rs, st, orders, engine.NewSeededDice(uint64(i)))
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range events {
			if e.Kind == EvCombat {
				combats++
			}
		}
	}
	b.ReportMetric(float64(combats)/float64(b.N), "combats/round")
	b.ReportMetric(float64(len(st.Units)), "units")
}

// contactPosition plays random rounds until both sides have attacks plotted
// that the position allows, and returns that position with those orders.
func contactPosition(b *testing.B, sc *Scenario) (*State, []*Orders) {
	rs := sc.Ruleset
	st := sc.NewGame()
	for round := 0; round < 40; round++ {
		var orders []*Orders
		attacks := map[string]int{}
		for _, sd := range st.Sides {
			o := aggressiveOrders(rs, st, sd.Name)
			for _, uo := range o.Units {
				if uo.Attack != nil {
					attacks[sd.Name]++
				}
			}
			orders = append(orders, o)
		}
		if !st.Night && attacks[st.Sides[0].Name] >= 2 && attacks[st.Sides[1].Name] >= 2 {
			return st, orders
		}
		next, _, err := Resolve(rs, st, orders, engine.NewSeededDice(uint64(round)))
		if err != nil {
			b.Fatal(err)
		}
		if next.Ended {
			break
		}
		st = next
	}
	b.Fatalf("%s: the armies never came into contact", sc.Name)
	return nil, nil
}
