package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral/data"
)

// The properties hold after every round of every game, whatever the dice and
// whatever legal orders the players give: they are checked over many seeds
// with random legal orders on the bundled scenarios.

// loadScenarioFile parses a bundled scenario afresh, for a test that may
// change it.
func loadScenarioFile(t testing.TB, name string) *Scenario {
	t.Helper()
	text, err := data.Files.ReadFile("scenarios/" + name + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := ParseScenario(text, BundledRuleset)
	if err != nil {
		t.Fatalf("scenario %s: %v", name, err)
	}
	return sc
}

// propertyScenarios are the bundled scenarios and the small ones under
// testdata/scenarios made for the properties (air points and AA close to
// the front), each with its loader.
func propertyScenarios(t testing.TB) map[string]func(testing.TB) *Scenario {
	out := map[string]func(testing.TB) *Scenario{}
	for _, name := range bundledScenarios(t) {
		out[name] = func(t testing.TB) *Scenario { return loadScenarioFile(t, name) }
	}
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		out[filepath.Base(f)] = func(t testing.TB) *Scenario {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := ParseScenario(text, BundledRuleset)
			if err != nil {
				t.Fatalf("scenario %s: %v", f, err)
			}
			return sc
		}
	}
	return out
}

func bundledScenarios(t testing.TB) []string {
	names := BundledScenarioNames()
	if len(names) == 0 {
		t.Fatal("no bundled scenarios")
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
		next, events, forecasts, err := resolveForecasting(rs, st, orders, engine.NewSeededDice(seed+uint64(round)))
		if err != nil {
			t.Fatalf("seed %d round %d: %v", seed, round, err)
		}
		for _, e := range events {
			if e.Kind == EvCombat || e.Kind == EvBarrage {
				combats++
			}
		}
		bad := checkInvariants(rs, next, events)
		bad = append(bad, checkLossCap(rs, events)...)
		bad = append(bad, checkOdds(rs, events, forecasts)...)
		if len(bad) > 0 {
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
	scenarios := propertyScenarios(t)
	for _, name := range slices.Sorted(maps.Keys(scenarios)) {
		sc := scenarios[name](t)
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

// resolveForecasting plays a round as Resolve does and, for a day round,
// also forecasts every attack at the moment it is made (after the unit's
// moves, before any die of the combat), as the echo forecasts: the same
// pools with every air point let through and marked with the AA that would
// fire at it. It returns one forecast per attack, nil where the forecast
// found no attack left to make.
func resolveForecasting(rs *Ruleset, st *State, orders []*Orders, dice Dice) (*State, []Event, []*Combat, error) {
	if st.Night {
		next, events, err := Resolve(rs, st, orders, dice)
		return next, events, nil, err
	}
	bySide := map[string]*Orders{}
	for _, o := range orders {
		if ps := Validate(rs, st, o); len(ps) > 0 {
			return nil, nil, nil, ps
		}
		bySide[o.Side] = o
	}
	r := newResolver(rs, st, bySide, dice)
	var forecasts []*Combat
	r.beforeAttack = func(u *Unit, a *Attack) {
		f := forkResolver(r, aaMisses{})
		var c *Combat
		if e := f.engage(f.st.Unit(u.ID), a); e != nil {
			c = e.c
		}
		forecasts = append(forecasts, c)
	}
	r.dayRound()
	return r.st, r.events, forecasts, nil
}

// forkResolver is a copy of a round in play, on a copy of its state, with
// other dice: what it does leaves r untouched.
func forkResolver(r *resolver, dice Dice) *resolver {
	f := newResolver(r.rs, r.st, r.orders, dice)
	f.combats = r.combats
	same := map[*Stand]*Stand{}
	for _, u := range r.st.Units {
		for _, s := range u.Stands {
			if c := f.st.Unit(u.ID).Stand(s.Name); c != nil {
				same[s] = c
			}
		}
	}
	for s := range r.strategic {
		f.strategic[same[s]] = true
	}
	for s := range r.outOfCommandStart {
		f.outOfCommandStart[same[s]] = true
	}
	for s := range r.initiated {
		f.initiated[same[s]] = true
	}
	return f
}

// checkLossCap: no combat costs more than the ruleset's cap, for a side (2SG
// Example 1) or for each hex (3SG 4). Losses of a combat are the loss events
// citing 4 that follow it; paying to hold or falling back with no path cost
// more and cite 4.1.
func checkLossCap(rs *Ruleset, events []Event) []string {
	var bad []string
	var combat *Combat
	lost := map[string]int{}
	// A combat whose hits on the defender pass the cap says so (issue 25).
	var capped *Combat
	capSaid := func() {
		if capped != nil {
			bad = append(bad, fmt.Sprintf("combat %d: %d hits on the defender, over the cap of %d, without a word of the loss cap", capped.Number, capped.Attacker.Hits, rs.MaxLossPerCombat))
		}
		capped = nil
	}
	for _, e := range events {
		if e.Kind == EvNote && strings.Contains(e.Text, "the loss cap applies") {
			capped = nil
		}
		switch e.Kind {
		case EvCombat, EvBarrage, EvActivate, EvPhase, EvRoundStart:
			capSaid()
			if (e.Kind == EvCombat || e.Kind == EvBarrage) && e.Combat != nil && e.Combat.Attacker.Hits > rs.MaxLossPerCombat {
				capped = e.Combat
			}
		}
		switch e.Kind {
		case EvCombat:
			combat, lost = e.Combat, map[string]int{}
			continue
		case EvActivate, EvBarrage, EvPhase, EvRoundStart:
			combat = nil
			continue
		}
		if combat == nil || e.Kind != EvLoss || e.Section != rs.Section(SecLosses) {
			continue
		}
		key := e.Side
		if rs.MaxLossPer == LossCapPerHex {
			key += " at " + e.From.String()
		}
		lost[key] -= e.SP
		if lost[key] > rs.MaxLossPerCombat {
			bad = append(bad, fmt.Sprintf("combat %d: %s lost %d, more than the cap of %d per %s", combat.Number, key, lost[key], rs.MaxLossPerCombat, rs.MaxLossPer))
		}
	}
	capSaid()
	return bad
}

// checkOdds: for every attack, the odds the echo would show at the moment
// it is made (Ruleset.PoolOdds of the forecast) are the exact distribution
// of the pool the round rolls. The round's pools are the forecast's, less
// the air points the AA stopped; the odds equal the mixture, worked out
// here independently, over every fate of the air points.
func checkOdds(rs *Ruleset, events []Event, forecasts []*Combat) []string {
	var bad []string
	var made []*Combat
	for _, c := range forecasts {
		if c != nil {
			made = append(made, c)
		}
	}
	var rolled []*Combat
	for _, e := range events {
		if e.Kind == EvCombat {
			rolled = append(rolled, e.Combat)
		}
	}
	if len(made) != len(rolled) {
		return []string{fmt.Sprintf("%d attacks forecast, %d combats rolled", len(made), len(rolled))}
	}
	for i, fc := range made {
		c := rolled[i]
		if fc.NoReturn != c.NoReturn {
			bad = append(bad, fmt.Sprintf("combat %d: forecast return fire %q, rolled %q", c.Number, fc.NoReturn, c.NoReturn))
			continue
		}
		for _, side := range []struct {
			who      string
			fc, roll Force
		}{{"attacker", fc.Attacker, c.Attacker}, {"defender", fc.Defender, c.Defender}} {
			if why := oddsMismatch(rs, side.fc, side.roll); why != "" {
				bad = append(bad, fmt.Sprintf("combat %d, %s: %s", c.Number, side.who, why))
			}
		}
	}
	return bad
}

// oddsMismatch says how a force's forecast differs from what was rolled, or "".
func oddsMismatch(rs *Ruleset, fc, roll Force) string {
	if fc.Rule != roll.Rule || fc.MinDice != roll.MinDice {
		return fmt.Sprintf("forecast rule %s (min %d), rolled %s (min %d)", fc.Rule, fc.MinDice, roll.Rule, roll.MinDice)
	}
	// The sources the AA cannot touch are the same, die for die; the
	// close-combat minimum is left out, as it depends on the air points.
	sure := func(f Force) (out []string, dice int) {
		for _, s := range f.Sources {
			if s.AAShots == 0 && s.Kind != "minimum" {
				out = append(out, fmt.Sprintf("%s=%d", s.Who, s.Dice))
				dice += s.Dice
			}
		}
		return out, dice
	}
	fcSure, sureDice := sure(fc)
	if rollSure, _ := sure(roll); !slices.Equal(fcSure, rollSure) {
		return fmt.Sprintf("forecast %v, rolled %v", fcSure, rollSure)
	}
	var air []DiceSource
	for _, s := range fc.Sources {
		if s.AAShots > 0 {
			air = append(air, s)
		}
	}
	// Every air point that joined was forecast, with the same AA fire.
	left := slices.Clone(air)
	joined := 0
	for _, s := range roll.Sources {
		if s.AAShots == 0 {
			continue
		}
		i := slices.IndexFunc(left, func(f DiceSource) bool { return f.Who == s.Who && f.Dice == s.Dice && f.AAShots == s.AAShots })
		if i < 0 {
			return fmt.Sprintf("air point %s (%d dice, %d AA) joined but was not forecast", s.Who, s.Dice, s.AAShots)
		}
		left = slices.Delete(left, i, i+1)
		joined += s.Dice
	}
	if want := max(sureDice+joined, fc.MinDice); roll.Dice != want {
		return fmt.Sprintf("rolled %d dice, but the forecast's pool with the air points that got through is %d", roll.Dice, want)
	}
	exact, sizes := exactOdds(rs, fc, sureDice, air)
	if sizes[roll.Dice] == 0 {
		return fmt.Sprintf("rolled %d dice, a pool the forecast gives no chance", roll.Dice)
	}
	odds := rs.PoolOdds(fc)
	for h := range max(len(odds), len(exact)) {
		if math.Abs(at(odds, h)-at(exact, h)) > 1e-9 {
			return fmt.Sprintf("odds of %d hits: shown %.12f, exact %.12f", h, at(odds, h), at(exact, h))
		}
	}
	return ""
}

// exactOdds is the distribution of hits of a forecast force and the chance of
// each pool size, over every subset of its air points getting through; the
// chance that one AA platoon misses is counted over every face of its dice.
func exactOdds(rs *Ruleset, fc Force, sureDice int, air []DiceSource) ([]float64, map[int]float64) {
	faces, misses := 1, 0
	for range rs.AADice {
		faces *= 6
	}
	for k := range faces {
		dice := make([]int, rs.AADice)
		for i, v := 0, k; i < rs.AADice; i, v = i+1, v/6 {
			dice[i] = v%6 + 1
		}
		if rs.aaRule.Hits(dice) == 0 {
			misses++
		}
	}
	miss := float64(misses) / float64(faces)
	var odds []float64
	sizes := map[int]float64{}
	for mask := range 1 << len(air) {
		p, n := 1.0, sureDice
		for i, s := range air {
			through := math.Pow(miss, float64(s.AAShots))
			if mask&(1<<i) != 0 {
				p, n = p*through, n+s.Dice
			} else {
				p *= 1 - through
			}
		}
		n = max(n, fc.MinDice)
		sizes[n] += p
		for h, ph := range fc.Rule.HitDistribution(n) {
			for len(odds) <= h {
				odds = append(odds, 0)
			}
			odds[h] += p * ph
		}
	}
	return odds, sizes
}

func at(d []float64, i int) float64 {
	if i < len(d) {
		return d[i]
	}
	return 0
}
