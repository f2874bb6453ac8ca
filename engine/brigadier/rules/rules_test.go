package rules

import (
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/brigadier/data"
)

func ruleset(t testing.TB) *Ruleset {
	t.Helper()
	rs, err := BundledRuleset()
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func woodEdge(t testing.TB) (*Ruleset, *State) {
	t.Helper()
	rs := ruleset(t)
	text, err := BundledScenarioText("wood-edge")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := ParseScenario(rs, text)
	if err != nil {
		t.Fatal(err)
	}
	return rs, sc.State
}

func TestWoodEdgeLoads(t *testing.T) {
	rs, st := woodEdge(t)
	if len(st.Active("german")) != 8 || len(st.Active("us")) != 7 || len(st.Batteries) != 2 {
		t.Errorf("german %d, us %d platoons, %d batteries", len(st.Active("german")), len(st.Active("us")), len(st.Batteries))
	}
	if st.Map.Kind(MustHex("1303")) != "woods" || st.Map.Kind(MustHex("1808")) != "bridge" || st.Map.Level2(MustHex("1013")) != 2 {
		t.Errorf("terrain: %s %s %d", st.Map.Kind(MustHex("1303")), st.Map.Kind(MustHex("1808")), st.Map.Level2(MustHex("1013")))
	}
	stug := st.Platoon("german", "StuG")
	if stug.Dead != 1 || stug.Exp != "regular" || stug.Order != Move {
		t.Errorf("StuG: %+v", stug)
	}
	hq := st.Platoon("german", "HQ")
	if sup := st.Superiors(st.Platoon("german", "1Zug")); len(sup) != 2 || sup[0] != hq || sup[1] != st.Platoon("german", "BnHQ") {
		t.Errorf("1Zug's superiors: %v", sup)
	}
	if seen := Seen(rs, st, "german"); len(seen) != 0 {
		var names []string
		for _, p := range seen {
			names = append(names, p.Name)
		}
		t.Errorf("the Germans see %v at the start, want none: the Shermans hide in the village (9.1)", names)
	}
	next, events, err := Resolve(rs, st, nil, engine.NewSeededDice(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		t.Log(e.Text)
	}
	if next.Turn != 1 || next.Clock <= st.Clock {
		t.Errorf("turn %d clock %d", next.Turn, next.Clock)
	}
}

// Every tunable number carries its source; a bare number or an unknown
// source is refused when the ruleset loads.
func TestRulesetNumbersAreTagged(t *testing.T) {
	rawBytes, err := data.Files.ReadFile("bgc.json")
	if err != nil {
		t.Fatal(err)
	}
	raw := string(rawBytes)
	for _, bad := range []string{
		strings.Replace(raw, `"count": [4, "book §11.5.2"]`, `"count": 4`, 1),
		strings.Replace(raw, `"count": [4, "book §11.5.2"]`, `"count": [4, "a guess"]`, 1),
	} {
		if bad == raw {
			t.Fatal("the ruleset no longer has the count this test edits")
		}
		if _, err := LoadRuleset([]byte(bad)); err == nil || !strings.Contains(err.Error(), "fieldpost FP-n") {
			t.Errorf("an untagged count loads: %v", err)
		}
	}
}

// A map's LEVELS are checked: a row for each map row, a digit a hex, and
// a slope rising to a level from 1; the error names the row and column.
func TestLevelsChecked(t *testing.T) {
	rs := ruleset(t)
	text, err := BundledScenarioText("river-crest")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := ParseScenario(rs, text)
	if err != nil {
		t.Fatal(err)
	}
	if m := sc.State.Map; m.Level2(MustHex("1308")) != 2 || m.Level2(MustHex("1208")) != 1 || m.Level2(MustHex("1510")) != 2 || m.Level2(MustHex("0908")) != 0 {
		t.Errorf("levels: fort %d, slope %d, hill wood %d, bridge %d", m.Level2(MustHex("1308")), m.Level2(MustHex("1208")), m.Level2(MustHex("1510")), m.Level2(MustHex("0908")))
	}
	for bad, want := range map[string]string{
		"000000000001111100000000\n000000000001111100000000\n000000000001111100000000\n00000000000111110000000x": "levels row 4, column 24",
		"000000000001111100000000\n000000000001111100000000\n000000000001111100000000\n000000000000111100000000": "levels row 4, column 12: a slope rises to a level from 1",
	} {
		broken := strings.Replace(text, "000000000000000000000000\n000000000000000000000000\n000000000000000000000000\n000000000001111100000000", bad, 1)
		if broken == text {
			t.Fatal("the scenario no longer has the levels this test edits")
		}
		if _, err := ParseScenario(rs, broken); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad levels: %v, want %q", err, want)
		}
	}
}
