package frontline

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/fogtest"
	"fieldpost/engine/frontline/rules"
)

// Over many games of both scenarios with fog of war on (and Ofanto
// Crossing with it off, as bundled: its hidden units hide), the bots
// playing both sides: at every player turn nothing a side receives (its report,
// situation, situation.json, order form, text map, SVG) names or places
// an enemy unit it could not see, nothing the public receives names or
// places any unit, and every picture of a reader is the same with the
// units hidden from it taken away (§VIII.1, Glossary Hidden).
func TestNothingHiddenReachesAReader(t *testing.T) {
	sys, err := New()
	if err != nil {
		t.Fatal(err)
	}
	games := 2
	if testing.Short() {
		games = 1
	}
	if n, err := strconv.Atoi(os.Getenv("FOG_GAMES")); err == nil {
		games = n // more, once: FOG_GAMES=50 go test -run TestNothingHidden
	}
	for _, game := range []struct {
		scenario string
		fog      bool
	}{{"ofanto", true}, {"foggia", true}, {"ofanto", false}} {
		scenario := game.scenario
		for g := range games {
			rng := rand.New(rand.NewPCG(uint64(g), 20))
			pos := fogGame(t, sys, scenario, game.fog, rng.Uint64())
			own := map[string]map[string]bool{} // the ids each side has had
			for turn := 0; !pos.Step().Over && turn < 24; turn++ {
				where := fmt.Sprintf("%s (fog %v) game %d turn %d", scenario, game.fog, g, turn+1)
				active := pos.Step().Waiting[0]
				view, err := pos.View(active)
				if err != nil {
					t.Fatal(err)
				}
				plan, err := sys.Plan(view, active, "g", rng.Uint64())
				if err != nil {
					t.Fatal(err)
				}
				r := pos.Read(active, plan.Orders, 0)
				if r.Orders == nil {
					t.Fatalf("%s: the bot's orders are refused:\n%s", where, r.Answer)
				}
				next, round, err := pos.Play(map[string]engine.Orders{active: r.Orders}, engine.NewSeededDice(rng.Uint64()))
				if err != nil {
					t.Fatal(err)
				}
				for _, u := range slices.Concat(pos.(*Position).st.Units, next.(*Position).st.Units) {
					if own[u.Side] == nil {
						own[u.Side] = map[string]bool{}
					}
					own[u.Side][u.ID] = true
				}
				checkFog(t, where, pos.(*Position), next.(*Position), round, own)
				pos = next
			}
		}
	}
}

// fogGame is a new game of scenario with fog of war on or off (hidden
// units hide either way).
func fogGame(t *testing.T, sys *System, scenario string, fog bool, seed uint64) engine.Position {
	t.Helper()
	pos, err := sys.NewGame(scenario, seed)
	if err != nil {
		t.Fatal(err)
	}
	st := pos.(*Position).st.Clone()
	st.Options.Fog = fog
	return &Position{st: st}
}

// checkFog checks what every reader receives of a turn; own are the ids
// each side has had in the game, which its texts may name (its standing
// orders name a unit lost since).
func checkFog(t *testing.T, where string, before, after *Position, round engine.Round, own map[string]map[string]bool) {
	t.Helper()
	readers := []string{engine.Public}
	readers = append(readers, after.st.Sides...)
	for _, side := range readers {
		shownBefore, shownAfter := shown(t, before, side), shown(t, after, side)
		now := fogtest.Reader{Side: side, Secrets: secrets(before.st, after.st, side, own[side], shownAfter, nil)}
		fogtest.CheckPosition(t, where, after, now)
		turn := fogtest.Reader{Side: side, Secrets: secrets(before.st, after.st, side, own[side], shownAfter, shownBefore)}
		fogtest.CheckRound(t, where, round, turn)
		if side != engine.Public && !after.st.Over {
			// The view is also checked whole: no unit of the enemy it does
			// not see, whatever its id.
			for k := range shownAfter {
				if u := unitByKey(after.st, k); u != nil && u.Side != side && !sees(after.st, side, u) {
					t.Fatalf("%s: %s's view holds %s, which it does not see", where, side, k)
				}
			}
		}
		// The pictures with every unit hidden from the reader taken away.
		hidden := func(u *rules.Unit) bool {
			return u.Side != side && !shownAfter[u.Key()] && !shownBefore[u.Key()]
		}
		b2, a2 := without(before, hidden), without(after, hidden)
		r2, err := b2.LoadRound(a2, mustMarshal(t, round))
		if err != nil {
			t.Fatal(err)
		}
		fogtest.SamePictures(t, where+": round map", side, round.Map, r2.Map)
		onlyNow := func(u *rules.Unit) bool { return u.Side != side && !shownAfter[u.Key()] }
		fogtest.SamePictures(t, where+": map", side, after.Map, without(after, onlyNow).Map)
	}
}

// sees reports whether side's view may hold u, by the rules' own view.
func sees(st *rules.State, side string, u *rules.Unit) bool {
	return slices.ContainsFunc(st.View(side).Units, func(v *rules.Unit) bool { return v.Key() == u.Key() })
}

// shown are the keys of the units in side's view of p (none for the
// public).
func shown(t *testing.T, p *Position, side string) map[string]bool {
	t.Helper()
	raw, err := p.View(side)
	if err != nil {
		t.Fatal(err)
	}
	v, err := rules.Load(raw)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, u := range v.Units {
		out[u.Key()] = true
	}
	return out
}

// secrets are the units on the map after the turn that side did not see
// (every unit for the public): not in its view now, nor in also (its view
// before the turn, for the turn's report). An id names a unit alone only
// where no unit the side knows, before the turn or after it, has it too.
func secrets(before, st *rules.State, side string, own, now, also map[string]bool) []fogtest.Secret {
	known := maps.Clone(own)
	if known == nil {
		known = map[string]bool{}
	}
	for _, u := range slices.Concat(before.Units, st.Units) {
		if u.Side == side || now[u.Key()] || also[u.Key()] {
			known[u.ID] = true
		}
	}
	var out []fogtest.Secret
	for _, u := range st.Units {
		if u.Side == side || now[u.Key()] || also[u.Key()] || !u.OnMap() {
			continue
		}
		s := fogtest.Secret{Names: []string{u.Key()}, Hex: u.Hex.String()}
		if !known[u.ID] {
			s.Names = append(s.Names, u.ID)
		}
		s.Unit = s.Names
		out = append(out, s)
	}
	return out
}

func unitByKey(st *rules.State, key string) *rules.Unit {
	for _, u := range st.Units {
		if u.Key() == key {
			return u
		}
	}
	return nil
}

// without is p with the units hidden takes away.
func without(p *Position, hidden func(u *rules.Unit) bool) *Position {
	st := p.st.Clone()
	st.Units = slices.DeleteFunc(st.Units, hidden)
	return &Position{st: st}
}

func mustMarshal(t *testing.T, r engine.Round) []byte {
	t.Helper()
	raw, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(raw) {
		t.Fatal("the round is not JSON")
	}
	return raw
}

// The waiting side's report of a turn of Foggia Plain with fog of war,
// and its situation.json: what fog of war costs the judge a mail.
func BenchmarkReportUnderFog(b *testing.B) {
	sys, err := New()
	if err != nil {
		b.Fatal(err)
	}
	pos, err := sys.NewGame("foggia", 1)
	if err != nil {
		b.Fatal(err)
	}
	active := pos.Step().Waiting[0]
	view, _ := pos.View(active)
	plan, err := sys.Plan(view, active, "g", 1)
	if err != nil {
		b.Fatal(err)
	}
	next, round, err := pos.Play(map[string]engine.Orders{active: pos.Read(active, plan.Orders, 0).Orders}, engine.NewSeededDice(1))
	if err != nil {
		b.Fatal(err)
	}
	waiting := next.Step().Waiting[0]
	b.ResetTimer()
	for range b.N {
		if _, err := round.Report(waiting, engine.RoundMeta{Seed: 1}); err != nil {
			b.Fatal(err)
		}
		if _, err := next.View(waiting); err != nil {
			b.Fatal(err)
		}
	}
}
