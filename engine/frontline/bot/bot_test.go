package bot

import (
	"fieldpost/engine"
	"testing"

	"fieldpost/engine/frontline/rules"
)

// Two bots play whole games of both scenarios to the end with legal
// orders, and they fight: units are destroyed in both, places change hands.
func TestBotsPlayWholeGames(t *testing.T) {
	control := 0
	for _, sc := range []string{"ofanto", "foggia"} {
		destroyed := 0
		for seed := uint64(1); seed <= 4; seed++ {
			s, err := rules.NewGame(sc, seed)
			if err != nil {
				t.Fatal(err)
			}
			for turn := 0; !s.Over; turn++ {
				if turn > 100 {
					t.Fatalf("%s: no end after 100 player turns", sc)
				}
				o := Plan(s, s.Active)
				if probs := s.Validate(o); len(probs) > 0 {
					t.Fatalf("%s turn %d: bot orders refused: %v", sc, turn, probs)
				}
				n, ev, err := s.Play(o, engine.NewSeededDice(engine.RoundSeed(seed, turn)))
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range ev {
					switch e.Kind {
					case "destroyed":
						destroyed++
					case "control":
						control++
					}
				}
				s = n
			}
			t.Logf("%s seed %d: %s", sc, seed, s.Result)
		}
		if destroyed == 0 {
			t.Errorf("%s: the bots did not fight", sc)
		}
	}
	if control == 0 {
		t.Errorf("the bots took no place from each other")
	}
}

// A waiting side's plan is standing orders only.
func TestWaitingPlanIsStanding(t *testing.T) {
	s, err := rules.NewGame("ofanto", 1)
	if err != nil {
		t.Fatal(err)
	}
	o := Plan(s, s.Enemy(s.Active))
	if o.Standing == nil || len(o.Moves)+len(o.Engagements)+len(o.Buys) > 0 {
		t.Errorf("waiting plan: %+v", o)
	}
}
