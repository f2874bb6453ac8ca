package brigadier

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/brigadier/report"
	"fieldpost/engine/brigadier/rules"
	"fieldpost/engine/fogtest"
)

// Over many games played bot against bot: at every turn nothing a side
// receives (its report, situation, situation.json, order form, text map,
// SVG) names or places an enemy platoon it did not see, nothing the
// public receives names or places any platoon, and every picture of a
// reader is the same with the platoons hidden from it taken away [14].
func TestNothingHiddenReachesAReader(t *testing.T) {
	sys := newSystem(t)
	games := 4
	if testing.Short() {
		games = 1
	}
	if n, err := strconv.Atoi(os.Getenv("FOG_GAMES")); err == nil {
		games = n // more, once: FOG_GAMES=50 go test -run TestNothingHidden
	}
	for g := range games {
		rng := rand.New(rand.NewPCG(uint64(g), 14))
		pos, err := sys.NewGame("wood-edge", 1)
		if err != nil {
			t.Fatal(err)
		}
		for turn := 0; !pos.Step().Over; turn++ {
			if turn > 40 {
				t.Fatalf("game %d does not end", g)
			}
			orders := planAll(t, sys, pos, rng.Uint64())
			next, round, err := pos.Play(orders, engine.NewSeededDice(rng.Uint64()))
			if err != nil {
				t.Fatal(err)
			}
			checkFog(t, fmt.Sprintf("game %d turn %d", g, turn+1), pos.(*Position), next.(*Position), round)
			pos = next
		}
	}
}

func checkFog(t *testing.T, where string, before, after *Position, round engine.Round) {
	t.Helper()
	readers := []string{engine.Public}
	for _, sd := range after.st.Sides {
		readers = append(readers, sd.Name)
	}
	for _, side := range readers {
		shownBefore, shownAfter := shown(t, before, side), shown(t, after, side)
		fogtest.CheckPosition(t, where, after, fogtest.Reader{Side: side, Secrets: secrets(after.st, side, shownAfter, nil)})
		fogtest.CheckRound(t, where, round, fogtest.Reader{Side: side, Secrets: secrets(after.st, side, shownAfter, shownBefore)})
		for name := range shownAfter {
			p := platoon(after.st, name)
			if p.Side != side && !rules.SideSees(after.sys.rs, after.st, side, p) {
				t.Fatalf("%s: %s's view holds %s, which it does not see", where, side, name)
			}
		}
		hidden := func(p *rules.Platoon) bool {
			return p.Side != side && !shownAfter[p.Name] && !shownBefore[p.Name]
		}
		// The turn's map, with the events as the side read them (its
		// report, checked above): the same without those platoons.
		r2 := &Round{Played: engine.Played[*Position, rules.Event]{Before: without(before, hidden), After: without(after, hidden)}}
		sight := report.NewSight(after.sys.rs, before.st, after.st, side)
		for _, e := range round.(*Round).Events {
			if e, ok := sight.Observe(e); ok || side == engine.Public {
				r2.Events = append(r2.Events, e)
			}
		}
		fogtest.SamePictures(t, where+": round map", side, round.Map, r2.Map)
		onlyNow := func(p *rules.Platoon) bool { return p.Side != side && !shownAfter[p.Name] }
		fogtest.SamePictures(t, where+": map", side, after.Map, without(after, onlyNow).Map)
	}
}

// shown are the names of the platoons in side's view of p (none for the
// public).
func shown(t *testing.T, p *Position, side string) map[string]bool {
	t.Helper()
	raw, err := p.View(side)
	if err != nil {
		t.Fatal(err)
	}
	var v view
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, pl := range v.State.Platoons {
		out[pl.Name] = true
	}
	return out
}

// secrets are the platoons on the map that side does not see (every one
// for the public): not in its view now, nor in also (its view before the
// turn, for the turn's report). A name shared with a platoon the side
// knows is not looked for.
func secrets(st *rules.State, side string, now, also map[string]bool) []fogtest.Secret {
	known := map[string]bool{}
	for _, p := range st.Platoons {
		if p.Side == side || now[p.Name] || also[p.Name] {
			known[p.Name] = true
		}
	}
	var out []fogtest.Secret
	for _, p := range st.Active("") {
		if p.Side == side || now[p.Name] || also[p.Name] {
			continue
		}
		s := fogtest.Secret{Hex: p.Hex.String()}
		switch {
		case known[p.Name]:
		case len(p.Name) <= 2:
			// "HQ", "MG" are words of every report too: only beside the hex.
			s.Unit = []string{p.Name}
		default:
			s.Names = []string{p.Name}
			s.Unit = s.Names
		}
		out = append(out, s)
	}
	return out
}

func platoon(st *rules.State, name string) *rules.Platoon {
	for _, p := range st.Platoons {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// without is p with the platoons hidden taken away.
func without(p *Position, hidden func(p *rules.Platoon) bool) *Position {
	st := p.st.Clone()
	st.Platoons = slices.DeleteFunc(st.Platoons, hidden)
	return &Position{sys: p.sys, st: st}
}
