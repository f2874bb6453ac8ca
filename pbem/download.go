package pbem

import (
	"cmp"
	"encoding/json"
	"io"

	"fieldpost/engine"
)

// gameDownload is a whole game for offline replay: every position played
// from, with the orders and the revealed seed of the round played from it.
// Each position reads as a situation file of `fieldpost resolve --state`.
type gameDownload struct {
	Game     string          `json:"game"`
	System   string          `json:"system"`
	Scenario string          `json:"scenario"`
	Title    string          `json:"title"`
	Ruleset  string          `json:"ruleset,omitempty"`
	Rounds   []roundDownload `json:"rounds"`
	// Current is the position now: after the last round played.
	Current json.RawMessage `json:"current"`
}

type roundDownload struct {
	Round int    `json:"round"`
	Name  string `json:"name"`
	Seed  uint64 `json:"seed"`
	// Situation is the position the round was played from, as a state
	// file: save it and replay with --seed and the orders.
	Situation json.RawMessage `json:"situation"`
	// Orders are the orders played by each side, in the order language.
	Orders    map[string]string `json:"orders"`
	Defaulted []string          `json:"defaulted,omitempty"`
}

func writeGameDownload(w io.Writer, systems engine.Systems, t storeTx, g *Game) error {
	system := cmp.Or(g.System, LegacySystem)
	d := gameDownload{Game: g.ID, System: system, Scenario: g.Scenario, Title: g.Title, Ruleset: g.Ruleset}
	stateFile := func(pos engine.Position) (json.RawMessage, error) {
		raw, err := pos.Marshal()
		if err != nil {
			return nil, err
		}
		return json.Marshal(struct {
			System  string          `json:"system"`
			Ruleset string          `json:"ruleset,omitempty"`
			State   json.RawMessage `json:"state"`
		}{system, g.Ruleset, raw})
	}
	for turn := range g.Turn {
		p, err := readPlayed(systems, t, g, turn)
		if err != nil {
			return err
		}
		r := roundDownload{Round: turn + 1, Name: p.before.Step().Name, Seed: p.meta.Seed,
			Orders: map[string]string{}, Defaulted: p.meta.Defaulted}
		if r.Situation, err = stateFile(p.before); err != nil {
			return err
		}
		for side, o := range p.meta.Orders {
			if r.Orders[side], err = p.before.WriteOrders(side, o, g.ID); err != nil {
				return err
			}
		}
		d.Rounds = append(d.Rounds, r)
	}
	pos, err := loadPosition(systems, t, g, g.Turn)
	if err != nil {
		return err
	}
	if d.Current, err = stateFile(pos); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(d)
}
