package brigadier

import (
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/brigadier/rules"
)

// Bot against bot, each side of every scenario wins some games: neither
// bot is hopeless in attack or in defence (issue 24: the attacker of "The
// wood edge" won none of 20). The games are seeded, so the count is the
// same every run; the figures are logged.
func TestEachSideWinsSomeBotGames(t *testing.T) {
	sys := newSystem(t)
	games := 20
	for _, name := range rules.BundledScenarioNames() {
		wins := map[string]int{}
		for g := range games {
			pos, err := sys.NewGame(name, 1)
			if err != nil {
				t.Fatal(err)
			}
			for turn := 0; !pos.Step().Over; turn++ {
				if turn > 40 {
					t.Fatalf("%s game %d does not end", name, g)
				}
				orders := planAll(t, sys, pos, uint64(g*100+turn))
				if pos, _, err = pos.Play(orders, engine.NewSeededDice(engine.RoundSeed(uint64(g), turn))); err != nil {
					t.Fatal(err)
				}
			}
			wins[pos.Step().Winner]++
		}
		t.Logf("%s: %v in %d games", name, wins, games)
		for _, in := range sys.Scenarios() {
			if in.Name != name {
				continue
			}
			for _, sd := range in.Sides {
				if wins[sd.Name] == 0 {
					t.Errorf("%s: %s wins none of %d bot games: %v", name, sd.Name, games, wins)
				}
			}
		}
	}
}
