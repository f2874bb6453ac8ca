package rules

import (
	"fieldpost/engine"

	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The properties hold after every round of every game, whatever the dice and
// whatever legal orders the players give: they are checked over many seeds
// with random legal orders on the bundled scenarios.

func loadScenarioFile(t testing.TB, name string) *Scenario {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "..", "..", "data", "scenarios", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := ParseScenario(text, loadRuleset)
	if err != nil {
		t.Fatalf("scenario %s: %v", name, err)
	}
	return sc
}

func bundledScenarios(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "data", "scenarios", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f[:len(f)-len(".txt")]))
	}
	if len(names) == 0 {
		t.Skip("no bundled scenarios yet")
	}
	return names
}

// randomOrders plots legal random orders for a side: random statuses, paths
// and attacks, each kept only if the whole plot still validates.
func randomOrders(rs *Ruleset, st *State, side string, rnd *engine.SeededDice) *Orders {
	o := DefaultOrders(rs, st, side)
	if st.Night {
		return o
	}
	b := newBoard(rs, st)
	pick := func(n int) int { // 0..n-1
		if n <= 1 {
			return 0
		}
		v := 0
		for range 4 {
			v = v*6 + rnd.D6() - 1
		}
		return v % n
	}
	units := st.ActiveUnits(side)
	for _, u := range units {
		if u.HQ(rs) == nil {
			continue
		}
		statuses := []Status{Move, Move, Hold, Retreat}
		if u.Status == DigIn {
			statuses = []Status{DigIn, Hold}
		} else if u.Status == Hold {
			statuses = append(statuses, DigIn)
		}
		uo := UnitOrders{Unit: u.ID, Status: statuses[pick(len(statuses))]}
		if uo.Status == Move || uo.Status == Retreat {
			for _, s := range u.Stands {
				var path []Hex
				at := s.Hex
				for range pick(b.allowance(s).Strategic + 1) {
					next := at.Neighbours()[pick(6)]
					if !b.passable(next) {
						break
					}
					path = append(path, next)
					at = next
				}
				if len(path) > 0 {
					uo.Moves = append(uo.Moves, StandMove{Stand: s.Name, Path: path})
				}
			}
		}
		if uo.Status == Move || uo.Status == Hold {
			uo.Attack = randomAttack(rs, b, u, &uo, pick)
		}
		o.Units = replaceUnitOrders(o.Units, uo)
		if len(Validate(rs, st, o)) > 0 {
			uo.Attack = nil
			o.Units = replaceUnitOrders(o.Units, uo)
		}
		if len(Validate(rs, st, o)) > 0 {
			uo.Moves = nil
			o.Units = replaceUnitOrders(o.Units, uo)
		}
		if len(Validate(rs, st, o)) > 0 {
			o.Units = replaceUnitOrders(o.Units, UnitOrders{Unit: u.ID, Status: DefaultOrders(rs, st, side).For(u.ID).Status})
		}
	}
	for i := len(units) - 1; i > 0; i-- {
		j := pick(i + 1)
		units[i], units[j] = units[j], units[i]
	}
	for _, u := range units {
		o.Priority = append(o.Priority, u.ID)
	}
	for _, bt := range st.Batteries {
		if bt.Side == side && !bt.Removed && pick(2) == 0 {
			for _, h := range occupiedHexes(b) {
				if occ := b.at(h); occ.side() != side && Distance(h, bt.Hex) <= bt.Range {
					o.Batteries = append(o.Batteries, BatteryOrders{Battery: bt.ID, Fire: h})
					break
				}
			}
		}
	}
	if len(Validate(rs, st, o)) > 0 {
		o.Batteries = nil
	}
	return o
}

func randomAttack(rs *Ruleset, b *board, u *Unit, uo *UnitOrders, pick func(int) int) *Attack {
	end := map[string]Hex{}
	for _, s := range u.Stands {
		end[s.Name] = s.Hex
	}
	for _, m := range uo.Moves {
		end[m.Stand] = m.Path[len(m.Path)-1]
	}
	var stands []AttackStand
	var target Hex
	for _, s := range u.Stands {
		if !rs.CanInitiate(b.role(s)) {
			continue
		}
		for _, h := range occupiedHexes(b) {
			if occ := b.at(h); occ.side() == u.Side || Distance(h, end[s.Name]) > rs.DistantFireRange {
				continue
			}
			if target.IsZero() || h == target {
				target = h
				stands = append(stands, AttackStand{Stand: s.Name, Close: Adjacent(h, end[s.Name])})
			}
			break
		}
	}
	limit := rs.HoldAttackStands
	if uo.Status == Move {
		limit = rs.MaxAttackStands
	}
	if len(stands) == 0 || pick(3) == 0 {
		return nil
	}
	return &Attack{Target: target, Stands: stands[:min(len(stands), limit)]}
}

// occupiedHexes lists the held hexes in a fixed order, so that random orders
// depend on the seed alone.
func occupiedHexes(b *board) []Hex {
	out := make([]Hex, 0, len(b.occ))
	for h := range b.occ {
		out = append(out, h)
	}
	slices.SortFunc(out, Compare)
	return out
}

func replaceUnitOrders(list []UnitOrders, uo UnitOrders) []UnitOrders {
	for i := range list {
		if list[i].Unit == uo.Unit {
			list[i] = uo
			return list
		}
	}
	return append(list, uo)
}

// checkInvariants lists what must never be true of a position.
func checkInvariants(rs *Ruleset, st *State, events []Event) []string {
	var bad []string
	seen := map[Hex]string{}
	for _, u := range st.Units {
		if u.Removed {
			continue
		}
		for _, s := range u.Stands {
			who := u.ID + " " + s.Name
			if !st.Map.OnMap(s.Hex) {
				bad = append(bad, who+" is off the map at "+s.Hex.String())
				continue
			}
			if rs.TerrainByLetter(st.Map.Letter(s.Hex)).Impassable {
				bad = append(bad, who+" stands in a lake at "+s.Hex.String())
			}
			if s.SP <= 0 || s.SP > s.MaxSP {
				bad = append(bad, fmt.Sprintf("%s has %d SP of %d", who, s.SP, s.MaxSP))
			}
			if other, dup := seen[s.Hex]; dup {
				bad = append(bad, fmt.Sprintf("%s and %s share %s", other, who, s.Hex))
			}
			seen[s.Hex] = who
		}
	}
	for _, bt := range st.Batteries {
		if bt.Removed {
			continue
		}
		if bt.SP <= 0 || bt.Shots < 0 {
			bad = append(bad, fmt.Sprintf("battery %s has %d SP, %d shots", bt.ID, bt.SP, bt.Shots))
		}
		if other, dup := seen[bt.Hex]; dup {
			bad = append(bad, fmt.Sprintf("%s and battery %s share %s", other, bt.ID, bt.Hex))
		}
		seen[bt.Hex] = bt.ID
	}
	acted := map[string]int{}
	for _, e := range events {
		if e.Kind == EvActivate {
			acted[e.Unit]++
			if acted[e.Unit] > 1 {
				bad = append(bad, e.Unit+" acted twice in one round")
			}
		}
	}
	return bad
}

// playRandomGame plays a scenario to its end (or maxRounds) and returns the
// final state and every round's JSON, for the determinism check.
func playRandomGame(t testing.TB, sc *Scenario, seed uint64, maxRounds int) (*State, []byte, int) {
	rs := sc.Ruleset
	st := sc.NewGame()
	plot := engine.NewSeededDice(seed ^ 0x5eed)
	var trace bytes.Buffer
	combats := 0
	for round := 0; round < maxRounds && !st.Ended; round++ {
		var orders []*Orders
		for _, sd := range st.Sides {
			// Odd seeds play eager players who seek combat, even seeds
			// random ones who wander.
			if seed%2 == 1 {
				orders = append(orders, aggressiveOrders(rs, st, sd.Name))
			} else {
				orders = append(orders, randomOrders(rs, st, sd.Name, plot))
			}
		}
		next, events, err := Resolve(rs, st, orders, engine.NewSeededDice(seed+uint64(round)))
		if err != nil {
			t.Fatalf("seed %d round %d: %v", seed, round, err)
		}
		for _, e := range events {
			if e.Kind == EvCombat || e.Kind == EvBarrage {
				combats++
			}
		}
		if bad := checkInvariants(rs, next, events); len(bad) > 0 {
			t.Fatalf("seed %d turn %d: %v\n%s", seed, st.Turn, bad, eventLog(events))
		}
		enc, _ := json.Marshal(struct {
			S *State
			E []Event
		}{next, events})
		trace.Write(enc)
		st = next
	}
	return st, trace.Bytes(), combats
}

func TestPropertiesRandomGames(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 5
	}
	for _, name := range bundledScenarios(t) {
		sc := loadScenarioFile(t, name)
		combats, ended := 0, 0
		for seed := range uint64(seeds) {
			st, _, n := playRandomGame(t, sc, seed, 30)
			combats += n
			if st.Ended {
				ended++
			}
		}
		// The games must really fight, or the properties prove little.
		if combats < seeds {
			t.Errorf("%s: only %d combats in %d games", name, combats, seeds)
		}
		t.Logf("%s: %d games, %d combats and barrages, %d played to the end", name, seeds, combats, ended)
	}
}

func TestSameSeedSameResult(t *testing.T) {
	for _, name := range bundledScenarios(t) {
		sc := loadScenarioFile(t, name)
		_, a, _ := playRandomGame(t, sc, 7, 12)
		_, b, _ := playRandomGame(t, sc, 7, 12)
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: the same seed and orders gave different results", name)
		}
		_, c, _ := playRandomGame(t, sc, 8, 12)
		if bytes.Equal(a, c) {
			t.Fatalf("%s: different seeds gave identical games; the dice are not used", name)
		}
	}
}
