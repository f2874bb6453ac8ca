package brigadier

import (
	"testing"

	"fieldpost/engine"
)

func TestDumpGame(t *testing.T) {
	sys := newSystem(t)
	pos, _ := sys.NewGame("wood-edge")
	for turn := 0; !pos.Step().Over; turn++ {
		orders := planAll(t, sys, pos, 7)
		if turn < 3 {
			for _, s := range []string{"german", "us"} {
				v, _ := pos.View(s)
				p, _ := sys.Plan(v, s, "g1", 7)
				t.Log(p.Orders)
			}
		}
		next, round, _ := pos.Play(orders, engine.NewSeededDice(engine.RoundSeed(42, turn)))
		txt, _ := round.Report("", engine.RoundMeta{Game: "g1", Seed: 1})
		t.Log(txt)
		pos = next
	}
}
