package rules

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestRulesetsLoad(t *testing.T) {
	names := BundledRulesetNames()
	for _, want := range []string{"2sg", "3sg"} {
		if !slices.Contains(names, want) {
			t.Errorf("ruleset %s is not bundled", want)
		}
	}
	for _, name := range names {
		rs, err := BundledRuleset(name)
		if err != nil {
			t.Errorf("ruleset %s: %v", name, err)
			continue
		}
		if rs.Name != name {
			t.Errorf("ruleset file %s.json is named %q inside", name, rs.Name)
		}
	}
}

func TestScenarioListIsComplete(t *testing.T) {
	names := BundledScenarioNames()
	for _, want := range []string{"arras", "krinkelt", "tutorial"} {
		if !slices.Contains(names, want) {
			t.Errorf("scenario %s is not bundled", want)
		}
	}
}

func TestUnknownNamesListWhatExists(t *testing.T) {
	_, err := BundledScenario("stalingrad")
	if err == nil || !strings.Contains(err.Error(), `"stalingrad"`) || !strings.Contains(err.Error(), "tutorial") {
		t.Errorf("BundledScenario(stalingrad) error = %v, want one naming it and listing the bundled scenarios", err)
	}
	_, err = BundledRuleset("4sg")
	if err == nil || !strings.Contains(err.Error(), `"4sg"`) || !strings.Contains(err.Error(), "2sg, 3sg") {
		t.Errorf("BundledRuleset(4sg) error = %v, want one naming it and listing the bundled rulesets", err)
	}
}

func TestLoadsOnceWhenAskedConcurrently(t *testing.T) {
	const n = 8
	got := make([]*Scenario, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc, err := BundledScenario("tutorial")
			if err != nil {
				t.Error(err)
			}
			got[i] = sc
		}()
	}
	wg.Wait()
	for i := 1; i < n; i++ {
		if got[i] != got[0] {
			t.Fatalf("call %d returned a different scenario: each file must be parsed once", i)
		}
	}
}

// TestBundledScenarios checks every bundled scenario's opening position: what
// the parser accepts is not enough for a fair and playable start.
func TestBundledScenarios(t *testing.T) {
	for _, name := range BundledScenarioNames() {
		t.Run(name, func(t *testing.T) {
			sc, err := BundledScenario(name)
			if err != nil {
				t.Fatal(err)
			}
			checkOpening(t, sc)
		})
	}
}

// a core stand or battery on the map at the start.
type piece struct {
	side, who string
	hex       Hex
}

func checkOpening(t *testing.T, sc *Scenario) {
	rs, st := sc.Ruleset, sc.State
	if sc.Title == "" || sc.Description == "" {
		t.Error("a bundled scenario needs a TITLE and a DESCRIPTION")
	}
	if st.Day != 1 || st.Round != 1 || st.Night || st.Turn != 0 {
		t.Errorf("starts on day %d round %d (night %v, turn %d), want the first round", st.Day, st.Round, st.Night, st.Turn)
	}
	terrain := func(h Hex) *TerrainType { return rs.TerrainByLetter(st.Map.Letter(h)) }
	var pieces []piece
	for _, u := range st.Units {
		if len(u.Lost) > 0 {
			t.Errorf("unit %s starts with lost stands", u.ID)
		}
		hq := u.HQ(rs)
		if hq == nil {
			t.Errorf("unit %s has no HQ", u.ID)
			continue
		}
		for _, s := range u.Stands {
			pieces = append(pieces, piece{u.Side, u.ID + " " + s.Name, s.Hex})
			// 1.1: every stand starts in command.
			if d := Distance(hq.Hex, s.Hex); d > rs.CommandRange {
				t.Errorf("%s %s at %s is %d hexes from its HQ at %s (command range %d)", u.ID, s.Name, s.Hex, d, hq.Hex, rs.CommandRange)
			}
		}
	}
	for _, b := range st.Batteries {
		pieces = append(pieces, piece{b.Side, "battery " + b.ID, b.Hex})
	}
	held := map[Hex]string{}
	for _, p := range pieces {
		if !st.Map.OnMap(p.hex) || terrain(p.hex).Impassable {
			t.Errorf("%s at %s is not on passable ground", p.who, p.hex)
		}
		if other, ok := held[p.hex]; ok {
			t.Errorf("%s and %s share %s (1.3)", other, p.who, p.hex)
		}
		held[p.hex] = p.who
	}
	// 2.4: nobody starts in an enemy zone of control.
	for i, a := range pieces {
		for _, b := range pieces[i+1:] {
			if a.side != b.side && Adjacent(a.hex, b.hex) {
				t.Errorf("%s at %s and %s at %s start next to each other", a.who, a.hex, b.who, b.hex)
			}
		}
	}
	for _, sd := range st.Sides {
		if len(st.ActiveUnits(sd.Name)) == 0 {
			t.Errorf("side %s has no units", sd.Name)
		}
	}
	if len(st.Objectives) == 0 {
		t.Error("no objectives (11)")
	}
	for _, o := range st.Objectives {
		if o.Name == o.Hex.String() {
			t.Errorf("objective %s has no name", o.Hex)
		}
	}
	onRoad := map[Hex]bool{}
	for _, road := range st.Map.Roads {
		for _, h := range road {
			onRoad[h] = true
			if terrain(h).Impassable {
				t.Errorf("a road runs through impassable %s at %s", terrain(h).ID, h)
			}
		}
	}
	for r := 1; r <= st.Map.Rows; r++ {
		for c := 1; c <= st.Map.Cols; c++ {
			h := Hex{Col: c, Row: r}
			if terrain(h).ID == "bridge" && !onRoad[h] {
				t.Errorf("bridge at %s carries no road", h)
			}
		}
	}
}

// TestScenarioBriefs checks each bundled scenario against what it was written
// to be: its size, forces and ground.
func TestScenarioBriefs(t *testing.T) {
	briefs := []struct {
		name                   string
		ruleset                string
		minCols, maxCols       int
		minRows, maxRows       int
		minDays, maxDays       int
		minUnits, maxUnits     int // per side
		minBatteries           int // per side
		air                    bool
		terrain                []string
		minObjectives          int
		section12Organisations bool
	}{
		{name: "tutorial", ruleset: "2sg", minCols: 11, maxCols: 14, minRows: 9, maxRows: 11, minDays: 1, maxDays: 1,
			minUnits: 2, maxUnits: 2, terrain: []string{"woods", "town", "stream", "bridge", "rough", "lake"}, minObjectives: 2},
		{name: "krinkelt", ruleset: "2sg", minCols: 30, maxCols: 99, minRows: 20, maxRows: 99, minDays: 2, maxDays: 3,
			minUnits: 6, maxUnits: 99, minBatteries: 3, air: true, terrain: []string{"woods", "town", "stream", "bridge", "lake"},
			minObjectives: 3, section12Organisations: true},
		{name: "arras", ruleset: "3sg", minCols: 14, maxCols: 18, minRows: 10, maxRows: 14, minDays: 1, maxDays: 2,
			minUnits: 3, maxUnits: 3, minBatteries: 2, terrain: []string{"town", "stream", "river", "bridge"}, minObjectives: 3},
	}
	for _, b := range briefs {
		t.Run(b.name, func(t *testing.T) {
			sc, err := BundledScenario(b.name)
			if err != nil {
				t.Fatal(err)
			}
			rs, st := sc.Ruleset, sc.State
			if rs.Name != b.ruleset {
				t.Errorf("ruleset %s, want %s", rs.Name, b.ruleset)
			}
			if st.Map.Cols < b.minCols || st.Map.Cols > b.maxCols || st.Map.Rows < b.minRows || st.Map.Rows > b.maxRows {
				t.Errorf("map %dx%d, want %d-%d by %d-%d", st.Map.Cols, st.Map.Rows, b.minCols, b.maxCols, b.minRows, b.maxRows)
			}
			if st.Days < b.minDays || st.Days > b.maxDays {
				t.Errorf("%d days, want %d to %d", st.Days, b.minDays, b.maxDays)
			}
			for _, sd := range st.Sides {
				units := st.ActiveUnits(sd.Name)
				if len(units) < b.minUnits || len(units) > b.maxUnits {
					t.Errorf("side %s has %d units, want %d to %d", sd.Name, len(units), b.minUnits, b.maxUnits)
				}
				batteries := 0
				for _, bt := range st.Batteries {
					if bt.Side == sd.Name {
						batteries++
					}
				}
				if batteries < b.minBatteries {
					t.Errorf("side %s has %d batteries, want at least %d", sd.Name, batteries, b.minBatteries)
				}
				if b.air && sd.Air == 0 {
					t.Errorf("side %s has no air points", sd.Name)
				}
				if b.section12Organisations {
					for _, u := range units {
						checkSection12(t, rs, u)
					}
				}
			}
			seen := map[string]bool{}
			for _, row := range st.Map.Grid {
				for i := 0; i < len(row); i++ {
					seen[rs.TerrainByLetter(row[i]).ID] = true
				}
			}
			for _, id := range b.terrain {
				if !seen[id] {
					t.Errorf("the map has no %s", id)
				}
			}
			if len(st.Objectives) < b.minObjectives {
				t.Errorf("%d objectives, want at least %d", len(st.Objectives), b.minObjectives)
			}
		})
	}
}

// checkSection12 checks a battalion against the sample organisations of 2SG
// section 12: an HQ and three core stands, and its support platoons.
func checkSection12(t *testing.T, rs *Ruleset, u *Unit) {
	t.Helper()
	roles := map[string]int{}
	for _, s := range u.Stands {
		roles[rs.StandTypes[s.Type].Role]++
		for _, p := range []*Platoon{s.Support, s.Transport} {
			if p != nil {
				roles["+"+rs.StandTypes[p.Type].Role]++
			}
		}
	}
	for _, p := range u.LostPlatoons {
		roles["+"+rs.StandTypes[p.Type].Role]++
	}
	if roles[RoleHQ] != 1 || len(u.Stands) != 4 {
		t.Errorf("%s: %d stands with %d HQ, want an HQ and three core stands (12)", u.ID, len(u.Stands), roles[RoleHQ])
	}
	switch {
	case roles[RoleTank] > 0:
		// A panzer Kampfgruppe or tank battalion: tanks, perhaps infantry in
		// armoured transport, anti-tank and light artillery platoons.
		if roles[RoleTank] < 2 {
			t.Errorf("%s: an armoured battalion with %d tank stands, want at least 2 (12)", u.ID, roles[RoleTank])
		}
	case roles[RoleInfantry] == 3:
		// An infantry battalion: a machine-gun and a light artillery platoon,
		// or armoured transport that counts as machine guns (2.1).
		if roles["+"+RoleMG] == 0 || (roles["+"+RoleLightArtillery] == 0 && roles["+"+RoleMG] < 3) {
			t.Errorf("%s: an infantry battalion needs its machine-gun and mortar platoons (12)", u.ID)
		}
	default:
		t.Errorf("%s is neither an infantry battalion nor an armoured one (12)", u.ID)
	}
}

// TestDocsListEveryTypeAndLetter keeps docs/scenarios.md in step with the
// rulesets: every stand type and terrain of each is documented.
func TestDocsListEveryTypeAndLetter(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "scenarios.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	for _, name := range BundledRulesetNames() {
		rs, err := BundledRuleset(name)
		if err != nil {
			t.Fatal(err)
		}
		for typ := range rs.StandTypes {
			if !strings.Contains(text, "`"+typ+"`") {
				t.Errorf("docs/scenarios.md does not list %s stand type `%s`", name, typ)
			}
		}
		for _, tt := range rs.Terrain {
			if !strings.Contains(text, "`"+tt.Letter+"`") || !strings.Contains(text, tt.ID) {
				t.Errorf("docs/scenarios.md does not list %s terrain %s (`%s`)", name, tt.ID, tt.Letter)
			}
		}
	}
}

// TestDocsExample parses the complete example of docs/scenarios.md and holds
// it to the rules of the bundled scenarios.
func TestDocsExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "scenarios.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "## A complete example")
	if !ok {
		t.Fatal("docs/scenarios.md has no complete example")
	}
	_, rest, ok = strings.Cut(rest, "```text\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("the complete example is not in a text block")
	}
	sc, err := ParseScenario([]byte(example), BundledRuleset)
	if err != nil {
		t.Fatal(err)
	}
	checkOpening(t, sc)
}
