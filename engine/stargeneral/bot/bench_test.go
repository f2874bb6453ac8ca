package bot_test

import (
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral/bot"
	"fieldpost/engine/stargeneral/rules"
)

// BenchmarkPlan is the time the bot takes to plan one side's round, over
// the positions of a seeded bot game of each bundled scenario (day rounds
// and nights, both sides): go test -bench Plan ./engine/stargeneral/bot/
func BenchmarkPlan(b *testing.B) {
	for _, name := range rules.BundledScenarioNames() {
		sc, err := rules.BundledScenario(name)
		if err != nil {
			b.Fatal(err)
		}
		rs := sc.Ruleset
		var positions []*rules.State
		for st := sc.NewGame(); !st.Ended; {
			positions = append(positions, st)
			var orders []*rules.Orders
			for _, sd := range st.Sides {
				orders = append(orders, bot.Plan(rs, st, sd.Name, bot.Options{Seed: 1}))
			}
			next, _, err := rules.Resolve(rs, st, orders, engine.NewSeededDice(engine.RoundSeed(1, st.Turn)))
			if err != nil {
				b.Fatal(err)
			}
			st = next
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				st := positions[i%len(positions)]
				bot.Plan(rs, st, st.Sides[i/len(positions)%2].Name, bot.Options{Seed: uint64(i)})
			}
		})
	}
}
