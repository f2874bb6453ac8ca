package mapview

import (
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/frontline/bot"
	"fieldpost/engine/frontline/rules"
)

// played is a game of two bots after some player turns: the position
// before the last turn, the position after it, and the turn's events.
type played struct {
	before, after *rules.State
	events        []rules.Event
}

func playBots(tb testing.TB, scenario string, plays int) played {
	tb.Helper()
	s, err := rules.NewGame(scenario, 3)
	if err != nil {
		tb.Fatal(err)
	}
	var g played
	for turn := 0; turn < plays && !s.Over; turn++ {
		n, events, err := s.Play(bot.Plan(s, s.Active), engine.NewSeededDice(uint64(turn)))
		if err != nil {
			tb.Fatal(err)
		}
		g = played{before: s, after: n, events: events}
		s = n
	}
	return g
}

// turn is the game's last turn as side saw it.
func (g played) turn(side string) (*rules.State, *Turn) {
	return g.after.View(side), &Turn{Before: g.before.View(side), Events: g.events}
}
