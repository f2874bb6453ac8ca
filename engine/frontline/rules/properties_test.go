package rules

import (
	"bytes"
	"encoding/json"
	"fieldpost/engine"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// randomOrders writes random orders for the active side and drops the
// ones the rules refuse, so that every game plays random legal orders.
func randomOrders(s *State, rng *rand.Rand) Orders {
	side := s.Active
	o := Orders{Side: side}
	line := 0
	next := func() int { line++; return line }
	p := s.Player(side)
	if s.ProductionTurn(side) && rng.IntN(2) == 0 {
		codes := []string{"RS", "TH", "ENG", "MG42", "LMG"}
		o.Buys = append(o.Buys, Buy{Line: next(), Code: codes[rng.IntN(len(codes))], Count: 1 + rng.IntN(3)})
		if rng.IntN(3) == 0 {
			tank := map[string]string{"US": "SHER", "GE": "PZ4"}[side]
			o.Buys = append(o.Buys, Buy{Line: next(), Code: tank, Count: 1}, Buy{Line: next(), Code: "TC", Count: 1})
		}
	}
	for _, u := range s.Units {
		if u.Side != side || !u.OnMap() || u.In != "" || u.Idle {
			continue
		}
		c := s.Card(u)
		switch {
		case c.Kind == "aircraft":
			if rng.IntN(3) == 0 && !u.Aloft {
				m := Move{Line: next(), Unit: u.ID, Land: u.Hex}
				at := u.Hex
				for range c.Move / 2 {
					n := at.Neighbours()[rng.IntN(6)]
					if s.Map.On(n) {
						m.Steps = append(m.Steps, Step{Hex: n})
						at = n
					}
				}
				o.Moves = append(o.Moves, m)
			}
		case c.Engineer && s.ProductionTurn(side) && rng.IntN(4) == 0:
			// Engineers build a pillbox where they stand or a bridge over a
			// river beside them (§VI.5.3).
			b := Build{Line: next(), Code: "PILLBOX", Hex: u.Hex, By: u.ID}
			if n := u.Hex.Neighbours()[rng.IntN(6)]; s.Map.River(u.Hex, n) {
				b.Code, b.Across = "EBR", n
			}
			o.Builds = append(o.Builds, b)
		case c.Engineer && s.Map.Port(u.Hex) && rng.IntN(6) == 0:
			o.Moves = append(o.Moves, Move{Line: next(), Unit: u.ID, Steps: []Step{{Act: ActDetonate, Hex: u.Hex}}})
		case c.Kind == "infantry" && rng.IntN(3) == 0 && emplacementAt(s, side, u.Hex) != "":
			o.Moves = append(o.Moves, Move{Line: next(), Unit: u.ID, Steps: []Step{{Act: ActOccupy, Unit: emplacementAt(s, side, u.Hex)}}})
		case c.DigIn && !u.DugIn && rng.IntN(4) == 0:
			o.Moves = append(o.Moves, Move{Line: next(), Unit: u.ID, Steps: []Step{{Act: ActDig}}})
		case c.Move > 0 && rng.IntN(2) == 0:
			m := Move{Line: next(), Unit: u.ID, Push: rng.IntN(8) == 0 && p.holds("Push")}
			at := u.Hex
			for range 1 + rng.IntN(max(c.Move, 1)) {
				n := at.Neighbours()[rng.IntN(6)]
				if c.Recon && rng.IntN(3) == 0 {
					m.Steps = append(m.Steps, Step{Act: ActRecon, Hex: n})
					break
				}
				m.Steps = append(m.Steps, Step{Hex: n})
				at = n
			}
			o.Moves = append(o.Moves, m)
		}
	}
	// Engage where enemies stand within reach of a unit's current hex.
	for _, u := range s.Units {
		if u.Side != side || !u.OnMap() || u.In != "" || rng.IntN(2) == 0 {
			continue
		}
		for _, e := range s.Units {
			if e.Side != side && e.OnMap() && e.In == "" && Distance(u.Hex, e.Hex) <= 1 {
				eng := Engagement{Line: next(), Hex: e.Hex, Units: []string{u.ID}}
				if rng.IntN(4) == 0 && p.holds("Withdraw") {
					eng.Withdraw = &Condition{Kind: "LOST", N: 1}
				}
				if s.Card(u).Smoke && rng.IntN(2) == 0 {
					eng.Smoke = []SmokeOrder{{Line: eng.Line, Unit: u.ID, If: []*Condition{nil, {Kind: "LOST", N: 1}}[rng.IntN(2)]}}
				}
				if s.Map.Port(e.Hex) && rng.IntN(2) == 0 {
					eng.Targets = map[string]string{u.ID: "PORT:" + e.Hex.String()}
				}
				o.Engagements = append(o.Engagements, eng)
				break
			}
		}
	}
	if s.DeploymentTurn(side) {
		for _, u := range s.Units {
			if u.Side == side && u.Staged > 0 && u.In == "" {
				for h, c := range s.Control {
					if c == side && s.CanDeployAt(u, h) {
						o.Deploys = append(o.Deploys, Deploy{Line: next(), Unit: u.ID, Hex: h})
						break
					}
				}
			}
		}
	}
	if rng.IntN(3) == 0 {
		o.Standing = &Standing{DefensiveCombat: rng.IntN(2) == 0, Targets: []string{"best-odds", "armour-first", "infantry-first", "damaged-first"}[rng.IntN(4)]}
		if rng.IntN(2) == 0 {
			o.Standing.Withdraw = []HexOrder{{If: &Condition{Kind: "LOST", N: 1}}}
		}
		o.Standing.EngineersFight, o.Standing.IdleFight = rng.IntN(2) == 0, rng.IntN(2) == 0
		if rng.IntN(2) == 0 {
			o.Standing.Smoke = []HexOrder{{If: &Condition{Kind: "ROUND>=", N: 1 + rng.IntN(3)}}}
		}
	}
	randomPostsAndShips(s, rng, &o, next)
	for range 20 {
		probs := s.Validate(o)
		if len(probs) == 0 {
			return o
		}
		bad := map[int]bool{}
		for _, pr := range probs {
			bad[pr.Line] = true
		}
		if bad[0] {
			o.Idle, o.Rush = nil, nil
		}
		o.Buys = dropLines(o.Buys, bad, func(b Buy) int { return b.Line })
		o.Builds = dropLines(o.Builds, bad, func(b Build) int { return b.Line })
		o.Moves = dropLines(o.Moves, bad, func(m Move) int { return m.Line })
		o.Engagements = dropLines(o.Engagements, bad, func(e Engagement) int { return e.Line })
		o.Deploys = dropLines(o.Deploys, bad, func(d Deploy) int { return d.Line })
		o.Builds = dropLines(o.Builds, bad, func(b Build) int { return b.Line })
		o.Relocate = dropLines(o.Relocate, bad, func(r Relocate) int { return r.Line })
		if len(bad) == 1 && bad[0] && o.Standing != nil {
			o.Standing = nil
		}
	}
	return Orders{Side: side}
}

// emplacementAt names a side's deployed emplacement in h, or "".
func emplacementAt(s *State, side string, h Hex) string {
	for _, u := range s.UnitsAt(h) {
		if u.Side == side && s.Card(u).Structure == "emplacement" {
			return u.ID
		}
	}
	return ""
}

func dropLines[T any](xs []T, bad map[int]bool, line func(T) int) []T {
	var out []T
	for _, x := range xs {
		if !bad[line(x)] {
			out = append(out, x)
		}
	}
	return out
}

// playRandom plays a whole game of random legal orders, checking the
// invariants after every player turn, and returns its bytes.
func playRandom(t *testing.T, scenario string, seed uint64) []byte {
	s, err := NewGame(scenario, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	var log bytes.Buffer
	cards := len(s.CommandDeck)
	for turn := 0; !s.Over && turn < 60; turn++ {
		o := randomOrders(s, rng)
		if probs := s.Validate(o); len(probs) > 0 {
			t.Fatalf("seed %d: random orders still refused: %v", seed, probs)
		}
		n, events, err := s.Play(o, engine.NewSeededDice(engine.RoundSeed(seed, turn)))
		if err != nil {
			t.Fatalf("seed %d turn %d: %v", seed, turn, err)
		}
		checkInvariants(t, n, cards)
		b, _ := json.Marshal(events)
		log.Write(b)
		s = n
	}
	b, _ := json.Marshal(s)
	log.Write(b)
	return log.Bytes()
}

func checkInvariants(t *testing.T, s *State, cards int) {
	t.Helper()
	for _, u := range s.Units {
		if u.OnMap() && s.Card(u).Kind != "aircraft" {
			if tt := s.Map.Terrain(u.Hex); (tt == Sea && s.Card(u).Kind != "ship" && u.In == "") || tt == Impassable {
				t.Fatalf("%s stands in %s (%c)", u.Key(), u.Hex, tt)
			}
		}
		if u.In != "" && s.Unit(u.Side, u.In) == nil {
			t.Fatalf("%s is inside %s, which is gone", u.Key(), u.In)
		}
	}
	held := len(s.CommandDeck) + len(s.CommandDiscard)
	for _, p := range s.Players {
		if p.Treasury < 0 {
			t.Fatalf("%s treasury %d", p.Side, p.Treasury)
		}
		if len(p.Hand) > s.lib.Rules.HandLimit {
			t.Fatalf("%s holds %d cards", p.Side, len(p.Hand))
		}
		held += len(p.Hand)
	}
	if held != cards {
		t.Fatalf("command cards: %d in deck, discard and hands, the deck had %d", held, cards)
	}
	for _, side := range s.Sides {
		v := s.View(side)
		enemy := s.Enemy(side)
		if len(v.Player(enemy).Hand) != 0 || len(v.CommandDeck) != 0 || len(v.EventDeck) != 0 || v.Player(enemy).Treasury != 0 {
			t.Fatalf("%s's view shows the enemy's hand, treasury or the decks", side)
		}
		for _, u := range v.Units {
			if u.Side == enemy && (u.Staged != 0 || (u.Hidden && !u.Found)) {
				t.Fatalf("%s's view shows the enemy's staged or hidden %s", side, u.ID)
			}
		}
		for _, e := range v.Opening {
			if !e.Visible(side) {
				t.Fatalf("%s's view shows a private event of %s", side, enemy)
			}
		}
	}
}

// Many random games of both scenarios keep the invariants, and the same
// seed plays the same game byte for byte.
func TestRandomGames(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 3
	}
	// FRONTLINE_RANDOM_GAMES plays more seeds once, to shake out rare panics.
	if n, err := strconv.Atoi(os.Getenv("FRONTLINE_RANDOM_GAMES")); err == nil && n > 0 {
		games = n
	}
	for _, scenario := range []string{"ofanto", "foggia"} {
		for seed := uint64(1); seed <= uint64(games); seed++ {
			a := playRandom(t, scenario, seed)
			if seed <= 2 {
				b := playRandom(t, scenario, seed)
				if !bytes.Equal(a, b) {
					t.Fatalf("%s seed %d: two plays differ", scenario, seed)
				}
			}
		}
	}
}

// A position stored as JSON and loaded again plays on exactly as the
// original: same next state, same events.
func TestLoadRoundTrip(t *testing.T) {
	for _, scenario := range []string{"ofanto", "foggia"} {
		s, err := NewGame(scenario, 9)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(9, 9))
		for turn := 0; turn < 6 && !s.Over; turn++ {
			o := randomOrders(s, rng)
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			l, err := Load(b)
			if err != nil {
				t.Fatal(err)
			}
			n1, e1, err1 := s.Play(o, engine.NewSeededDice(uint64(turn)))
			n2, e2, err2 := l.Play(o, engine.NewSeededDice(uint64(turn)))
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			a, _ := json.Marshal([]any{n1, e1})
			c, _ := json.Marshal([]any{n2, e2})
			if !bytes.Equal(a, c) {
				t.Fatalf("%s turn %d: the loaded position plays differently", scenario, turn)
			}
			s = n1
		}
	}
	if _, err := Load([]byte(`{"units":[{"id":"X-1","code":"NOPE"}]}`)); err == nil {
		t.Error("a position with no map and an unknown card loads")
	}
}
