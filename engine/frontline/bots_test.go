package frontline

import (
	"os"
	"strconv"
	"testing"

	"fieldpost/engine"
)

// Bot against bot, each side of every bundled scenario wins some of the
// seeded games, every side planned from its own view as the caretaker
// plays it (issue 23.3): neither bot is hopeless in attack or in defence.
// The games are seeded, so the count is the same every run; the figures
// are logged. BOT_GAMES=n plays n games a scenario instead.
func TestEachSideWinsSomeBotGames(t *testing.T) {
	sys, err := New()
	if err != nil {
		t.Fatal(err)
	}
	games := 20
	if n, err := strconv.Atoi(os.Getenv("BOT_GAMES")); err == nil {
		games = n
	}
	for _, in := range sys.Scenarios() {
		wins := map[string]int{}
		for g := range games {
			pos, err := sys.NewGame(in.Name, uint64(g))
			if err != nil {
				t.Fatal(err)
			}
			for turn := 0; !pos.Step().Over; turn++ {
				if turn > 200 {
					t.Fatalf("%s game %d does not end", in.Name, g)
				}
				orders := map[string]engine.Orders{}
				for i, side := range pos.Step().Waiting {
					view, err := pos.View(side)
					if err != nil {
						t.Fatal(err)
					}
					plan, err := sys.Plan(view, side, "g1", uint64(g*1000+turn*10+i))
					if err != nil {
						t.Fatalf("plan of %s: %v", side, err)
					}
					r := pos.Read(side, plan.Orders, 0)
					if r.Orders == nil {
						t.Fatalf("%s game %d: the bot's orders for %s are refused:\n%s\n%s", in.Name, g, side, plan.Orders, r.Answer)
					}
					orders[side] = r.Orders
				}
				if pos, _, err = pos.Play(orders, engine.NewSeededDice(engine.RoundSeed(uint64(g), turn))); err != nil {
					t.Fatal(err)
				}
			}
			wins[pos.Step().Winner]++
		}
		t.Logf("%s: %v in %d games", in.Name, wins, games)
		for _, sd := range in.Sides {
			if wins[sd.Name] == 0 {
				t.Errorf("%s: %s wins none of %d bot games: %v", in.Name, sd.Name, games, wins)
			}
		}
	}
}
