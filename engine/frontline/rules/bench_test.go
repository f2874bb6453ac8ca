package rules_test

import (
	"fieldpost/engine"
	"testing"

	"fieldpost/engine/frontline/bot"
	"fieldpost/engine/frontline/rules"
)

// BenchmarkPlayFoggia resolves one player turn of the larger scenario in
// mid-game (after four turns of two bots), with the bot's orders: the
// budget is 5 ms and 10 MB allocated per turn.
func BenchmarkPlayFoggia(b *testing.B) {
	s, err := rules.NewGame("foggia", 3)
	if err != nil {
		b.Fatal(err)
	}
	for turn := 0; turn < 8; turn++ {
		n, _, err := s.Play(bot.Plan(s, s.Active), engine.NewSeededDice(uint64(turn)))
		if err != nil {
			b.Fatal(err)
		}
		s = n
	}
	o := bot.Plan(s, s.Active)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := s.Play(o, engine.NewSeededDice(uint64(i))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanFoggia is the bot's thinking for the same turn.
func BenchmarkPlanFoggia(b *testing.B) {
	s, err := rules.NewGame("foggia", 3)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bot.Plan(s, s.Active)
	}
}

// BenchmarkPlayFoggiaBusiest replays the busiest player turn (most dice)
// of a whole bot game of the larger scenario with its own dice.
func BenchmarkPlayFoggiaBusiest(b *testing.B) {
	s, err := rules.NewGame("foggia", 3)
	if err != nil {
		b.Fatal(err)
	}
	var busiest *rules.State
	var orders rules.Orders
	most, seed := -1, uint64(0)
	for turn := 0; !s.Over; turn++ {
		o := bot.Plan(s, s.Active)
		n, events, err := s.Play(o, engine.NewSeededDice(uint64(turn)))
		if err != nil {
			b.Fatal(err)
		}
		dice := 0
		for _, e := range events {
			dice += len(e.Rolls)
		}
		if dice > most {
			busiest, orders, most, seed = s, o, dice, uint64(turn)
		}
		s = n
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := busiest.Play(orders, engine.NewSeededDice(seed)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(most), "dice/turn")
}
