package brigadier

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/brigadier/rules"
)

// Properties over many games played bot against bot with random seeds:
// one platoon a hex, counts within 0-4, orders on the ladder; the form
// reads back valid unchanged every turn; a platoon
// still hidden is in no view, report or map of the other side, and the
// enemy a view shows is exactly the enemy the side sees; the same seed
// gives the same bytes.
func TestPropertiesOverRandomGames(t *testing.T) {
	sys := newSystem(t)
	rs := sys.Ruleset()
	games := 15
	if testing.Short() {
		games = 5
	}
	for g := range games {
		rng := rand.New(rand.NewPCG(uint64(g), 7))
		names := rules.BundledScenarioNames()
		pos, err := sys.NewGame(names[g%len(names)], 1)
		if err != nil {
			t.Fatal(err)
		}
		for turn := 0; !pos.Step().Over; turn++ {
			if turn > 40 {
				t.Fatalf("game %d does not end", g)
			}
			orders := planAll(t, sys, pos, rng.Uint64())
			seed := rng.Uint64()
			next, round, err := pos.Play(orders, engine.NewSeededDice(seed))
			if err != nil {
				t.Fatal(err)
			}
			again, round2, _ := pos.Play(orders, engine.NewSeededDice(seed))
			a, _ := next.Marshal()
			b, _ := again.Marshal()
			ea, _ := round.Marshal()
			eb, _ := round2.Marshal()
			if !bytes.Equal(a, b) || !bytes.Equal(ea, eb) {
				t.Fatalf("game %d turn %d: the same seed gave different bytes", g, turn+1)
			}
			st := next.(*Position).State()
			checkPosition(t, rs, st, g, turn)
			for _, side := range []string{"german", "us"} {
				checkHidden(t, sys, next, round, st, side, g, turn)
				if r := next.Read(side, next.Form(side, "g"), 0); !st.Ended && (r.Orders == nil || r.Errors != 0) {
					t.Fatalf("game %d turn %d: the %s form unchanged is refused:\n%s", g, turn+1, side, r.Answer)
				}
			}
			pos = next
		}
	}
}

func checkPosition(t *testing.T, rs *rules.Ruleset, st *rules.State, g, turn int) {
	t.Helper()
	at := map[rules.Hex]string{}
	for _, p := range st.Active("") {
		if other, ok := at[p.Hex]; ok {
			t.Fatalf("game %d turn %d: %s and %s share %s", g, turn+1, other, p.Name, p.Hex)
		}
		at[p.Hex] = p.Name
		if p.Dead < 0 || p.Wounded < 0 || p.Dead+p.Wounded > 4 || p.Count(rs) < 0 || p.Count(rs) > 4 || p.Dead >= 4 {
			t.Fatalf("game %d turn %d: %s has %d dead, %d wounded", g, turn+1, p.Name, p.Dead, p.Wounded)
		}
		if p.Order < rules.Double || p.Order > rules.Rout || !st.Map.On(p.Hex) {
			t.Fatalf("game %d turn %d: %s on order %d at %s", g, turn+1, p.Name, p.Order, p.Hex)
		}
	}
}

func checkHidden(t *testing.T, sys *System, pos engine.Position, round engine.Round, st *rules.State, side string, g, turn int) {
	t.Helper()
	rs := sys.Ruleset()
	report, _ := round.Report(side, engine.RoundMeta{Game: "g"})
	// The PNG map is drawn from the same rules.View as the text map and
	// the SVG, whose text is all the picture names.
	var ascii, svg bytes.Buffer
	if err := round.Map(&ascii, side, engine.ASCII); err != nil {
		t.Fatal(err)
	}
	if err := round.Map(&svg, side, engine.SVG); err != nil {
		t.Fatal(err)
	}
	raw, _ := pos.View(side)
	var v view
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	shown := map[string]bool{}
	for _, p := range v.State.Platoons {
		if p.Side != side {
			shown[p.Name] = true
		}
	}
	for _, p := range st.Active(st.Enemy(side)) {
		sees := rules.SideSees(rs, st, side, p)
		if shown[p.Name] != sees {
			t.Fatalf("game %d turn %d: %s's view shows %s: %v, but it sees it: %v", g, turn+1, side, p.Name, shown[p.Name], sees)
		}
		if !p.Hidden {
			continue
		}
		word := regexp.MustCompile(`\b` + regexp.QuoteMeta(p.Name) + `\b`)
		if word.MatchString(report) || word.MatchString(ascii.String()) || word.Match(raw) || word.Match(svg.Bytes()) {
			t.Fatalf("game %d turn %d: hidden %s appears in %s's mail:\n%s", g, turn+1, p.Name, side, report)
		}
	}
}

// One turn of the scenario, with the bot's orders for both sides.
func BenchmarkTurn(b *testing.B) {
	sys := newSystem(b)
	pos, _ := sys.NewGame("wood-edge", 1)
	orders := map[string]engine.Orders{}
	for i, side := range []string{"german", "us"} {
		v, _ := pos.View(side)
		plan, err := sys.Plan(v, side, "g", uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		orders[side] = pos.Read(side, plan.Orders, 0).Orders
	}
	b.ResetTimer()
	for i := range b.N {
		if _, _, err := pos.Play(orders, engine.NewSeededDice(uint64(i))); err != nil {
			b.Fatal(err)
		}
	}
}
