package fog

import (
	"testing"

	"fieldpost/engine/frontline/rules"
)

// What GE observes of a US turn in which US:ART-1 stays unseen and both
// sides have an RS-1: a shot loses its firer, a card what it was played
// for, a move is left out; GE's own shot and the enemy's income keep
// what GE may know.
func TestObserve(t *testing.T) {
	s := Sight{Side: "GE", unseen: map[string]bool{"US:ART-1": true}, bothSides: []string{"US", "GE"},
		sides: map[string][]string{"ART-1": {"US"}, "RS-1": {"US", "GE"}}}
	for _, c := range []struct {
		e       rules.Event
		want    string
		wantFor string // the first roll's, when there is one
		seen    bool
	}{
		{rules.Event{Kind: "fire", Side: "US", Text: "ART-1 105mm M2 at GE:RS-1: d20=13 vs 12 HIT; intensity d10=4: damaged",
			Rolls: []rules.Roll{{Die: 20, Face: 13, For: "ART-1 105mm M2 at GE:RS-1"}}},
			"an unseen unit fires at GE:RS-1: d20=13 vs 12 HIT; intensity d10=4: damaged", "an unseen unit fires at GE:RS-1", true},
		{rules.Event{Kind: "fire", Side: "US", Text: "RS-1 rifles at US:RS-1: d20=3 vs 12 -> miss"},
			"RS-1 rifles at US:RS-1: d20=3 vs 12 -> miss", "", true},
		{rules.Event{Kind: "card", Side: "US", Text: "US plays Push for ART-1"}, "US plays a command card", "", true},
		{rules.Event{Kind: "move", Side: "US", Text: "ART-1 moves 1210 -> 1211"}, "", "", false},
		{rules.Event{Kind: "move", Side: "US", Text: "RS-1 moves 1210 -> 1211"}, "RS-1 moves 1210 -> 1211", "", true},
		{rules.Event{Kind: "move", Side: "US", Private: "US", Text: "RS-1 moves 1211 -> 1311"}, "", "", false},
		{rules.Event{Kind: "income", Side: "US", Text: "US income 30 (FHQ and command posts) -> treasury 49"}, "US collects its income", "", true},
		{rules.Event{Kind: "event", Side: "US", Text: "Convoy Arrives: US +15, treasury 64"}, "Convoy Arrives: US +15", "", true},
	} {
		got, seen := s.Observe(c.e)
		if seen != c.seen || seen && got.Text != c.want {
			t.Errorf("%q: seen %v %q, want %v %q", c.e.Text, seen, got.Text, c.seen, c.want)
		}
		if c.wantFor != "" && got.Rolls[0].For != c.wantFor {
			t.Errorf("%q: the roll is for %q, want %q", c.e.Text, got.Rolls[0].For, c.wantFor)
		}
	}
	if e, _ := Umpire.Observe(rules.Event{Private: "US", Text: "US buys RS-2"}); e.Text != "US buys RS-2" {
		t.Error("the umpire does not read a private event")
	}
}
