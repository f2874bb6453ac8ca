package rules

import "fmt"

// Event is one thing that happened in a player turn, in order. Private
// events are shown only to their side (its purchases, its hand); the rest
// to both, and under fog of war a side sees the public events of its own
// engagements and moves it could observe (report.go decides).
type Event struct {
	Phase   string `json:"phase"`
	Kind    string `json:"kind"`
	Side    string `json:"side,omitempty"`    // the side acting
	Private string `json:"private,omitempty"` // only this side may see it
	Hex     Hex    `json:"hex,omitempty"`
	Section string `json:"section"`
	Text    string `json:"text"`
	Rolls   []Roll `json:"rolls,omitempty"`
}

// Roll is one die with what it was checked against.
type Roll struct {
	Die  int    `json:"die"`  // faces: 6, 10, 20, or N for a random pick
	Face int    `json:"face"` // the number rolled
	For  string `json:"for"`  // what the roll decides
	Need string `json:"need,omitempty"`
}

func (r Roll) String() string {
	if r.Need == "" {
		return fmt.Sprintf("d%d=%d (%s)", r.Die, r.Face, r.For)
	}
	return fmt.Sprintf("d%d=%d vs %s (%s)", r.Die, r.Face, r.Need, r.For)
}

// Visible reports whether side may see the event.
func (e Event) Visible(side string) bool { return e.Private == "" || e.Private == side || side == "" }
