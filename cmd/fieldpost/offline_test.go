package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden reports")

// fieldpost runs the command in-process and returns its exit status and output.
func fieldpost(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := fieldpost(t, args...)
	if code != 0 {
		t.Fatalf("fieldpost %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// docExample returns the complete example orders docs/orders.md gives for a scenario.
func docExample(t *testing.T, scenario string) string {
	doc, err := os.ReadFile("../../docs/orders.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```orders " + scenario + " \\S+\n(.*?)```").FindStringSubmatch(string(doc))
	if m == nil {
		t.Fatalf("no example for %s in docs/orders.md", scenario)
	}
	return m[1]
}

// A whole tutorial game played with the offline commands alone, from new to
// the victory report: each round both sides take their order form, check it
// and send it (round 1 with real plans), and the round is resolved.
func TestFullTutorialGameThroughCLI(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	mustRun(t, "new", "--scenario", "tutorial", "--out", at("s0.json"), "--seed", "1944")
	state := at("s0.json")
	var report string
	for round := 1; round <= 20; round++ {
		orders := map[string]string{}
		for _, side := range []string{"us", "german"} {
			form := mustRun(t, "form", "--state", state, "--side", side, "--game", "tut")
			orders[side] = write(t, at(side+".txt"), form)
		}
		if round == 1 {
			write(t, orders["us"], docExample(t, "tutorial"))
			ger, _ := os.ReadFile("testdata/tutorial-german-1.txt")
			write(t, orders["german"], string(ger))
		}
		for side, file := range orders {
			if out := mustRun(t, "check", "--state", state, "--side", side, file); !strings.Contains(out, "Orders accepted") {
				t.Fatalf("round %d %s: check says:\n%s", round, side, out)
			}
		}
		next := at("s" + string(rune('0'+round)) + ".json")
		out := mustRun(t, "resolve", "--state", state, "--orders", "us="+orders["us"], "--orders", "german="+orders["german"],
			"--out", next, "--report", at("report.txt"), "--map", at("map.png"))
		raw, err := os.ReadFile(at("report.txt"))
		if err != nil {
			t.Fatal(err)
		}
		report = string(raw)
		state = next
		if strings.Contains(out, "the battle is over") {
			break
		}
	}
	if !strings.Contains(report, "THE BATTLE IS OVER") || !regexp.MustCompile(`wins|draw`).MatchString(report) {
		t.Fatalf("the last report names no result:\n%s", report)
	}
	code, _, errOut := fieldpost(t, "form", "--state", state, "--side", "us")
	if code == 0 || !strings.Contains(errOut, "the game is over") {
		t.Fatalf("a form after the end: exit %d %s", code, errOut)
	}
	f, err := os.Open(at("map.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatalf("the map is not a PNG: %v", err)
	}
}

// The reports of the tutorial's first rounds, with fixed seeds and orders,
// are golden files: any change to the rules or the wording shows up here.
func TestTutorialReportsGolden(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	mustRun(t, "new", "--scenario", "tutorial", "--out", at("s0.json"), "--seed", "7")
	us := write(t, at("us.txt"), docExample(t, "tutorial"))
	ger := "testdata/tutorial-german-1.txt"
	state := at("s0.json")
	for round := 1; round <= 3; round++ {
		next := at("next.json")
		mustRun(t, "resolve", "--state", state, "--orders", "us="+us, "--orders", "german="+ger, "--out", next, "--report", at("report.txt"))
		got, _ := os.ReadFile(at("report.txt"))
		golden := filepath.Join("testdata", "tutorial-round"+string(rune('0'+round))+".golden")
		if *update {
			write(t, golden, string(got))
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("round %d report differs from %s (go test -update to accept):\n%s", round, golden, got)
		}
		state = at("s.json")
		if err := os.Rename(next, state); err != nil {
			t.Fatal(err)
		}
		// Round 2 brings the armour to blows; round 3 both sides send their
		// forms unchanged.
		if round == 1 {
			us, ger = "testdata/tutorial-us-2.txt", "testdata/tutorial-german-2.txt"
			continue
		}
		us = write(t, at("us.txt"), mustRun(t, "form", "--state", state, "--side", "us"))
		ger = write(t, at("ger.txt"), mustRun(t, "form", "--state", state, "--side", "german"))
	}
}

func TestCheckRefusesBadOrders(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "s.json")
	mustRun(t, "new", "--scenario", "tutorial", "--out", state, "--seed", "1")
	bad := write(t, filepath.Join(dir, "bad.txt"), "BN 743 M\n  A 0303 0505\n  ATTACK 0705 WITH Q\n")
	code, out, _ := fieldpost(t, "check", "--state", state, "--side", "us", bad)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	for _, want := range []string{"NOT accepted: 2 errors", "line 2: A 0303 0505", "0505 is not adjacent to 0303", "line 3", `has no stand "Q"`} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	code, _, errOut := fieldpost(t, "resolve", "--state", state, "--orders", "us="+bad, "--out", filepath.Join(dir, "n.json"))
	if code != 1 || !strings.Contains(errOut, "refused") {
		t.Fatalf("resolve with bad orders: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "n.json")); err == nil {
		t.Fatal("resolve wrote a state from refused orders")
	}
}

func TestCommandLineMistakes(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"new", "--scenario", "nowhere", "--out", filepath.Join(dir, "x.json")}, 1, `unknown scenario "nowhere"`},
		{[]string{"new"}, 2, "usage: fieldpost new"},
		{[]string{"form", "--state", filepath.Join(dir, "missing.json"), "--side", "us"}, 1, "no such file"},
		{[]string{"form", "--state", write(t, filepath.Join(dir, "junk.json"), "{}"), "--side", "us"}, 1, "not a Fieldpost state file"},
		{[]string{"map", "--state", "x"}, 2, "usage: fieldpost map"},
	}
	for _, c := range cases {
		code, _, errOut := fieldpost(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("fieldpost %v: exit %d, stderr %q; want exit %d with %q", c.args, code, errOut, c.code, c.want)
		}
	}
	state := filepath.Join(dir, "s.json")
	mustRun(t, "new", "--scenario", "tutorial", "--out", state)
	if code, _, errOut := fieldpost(t, "form", "--state", state, "--side", "russians"); code != 1 || !strings.Contains(errOut, "us or german") {
		t.Errorf("unknown side: exit %d %q", code, errOut)
	}
	for name := range commands {
		if code, _, errOut := fieldpost(t, name, "--help"); code != 0 || !strings.Contains(errOut, "usage: fieldpost "+name) {
			t.Errorf("%s --help: exit %d %q", name, code, errOut)
		}
	}
}

func TestScenariosJSON(t *testing.T) {
	out := mustRun(t, "scenarios", "--json")
	for _, want := range []string{`"name": "tutorial"`, `"ruleset": "2sg"`, `"sides": [`, `"us"`, `"arras"`} {
		if !strings.Contains(out, want) {
			t.Errorf("scenarios --json lacks %s:\n%s", want, out)
		}
	}
}

func TestMapCommand(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "s.json")
	mustRun(t, "new", "--scenario", "tutorial", "--out", state)
	if out := mustRun(t, "map", "--state", state, "--ascii"); !strings.Contains(out, "Saint-Aubin bridge") {
		t.Fatalf("ascii map:\n%s", out)
	}
	mustRun(t, "map", "--state", state, "--png", filepath.Join(dir, "m.png"))
	f, err := os.Open(filepath.Join(dir, "m.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() < 300 {
		t.Fatalf("png: %v %v", err, img)
	}
}

// A report carries everything needed to replay its round: with the
// situation before it (what the judge attaches as situation.json), the
// orders it publishes and the seed it reveals, resolve gives the same result.
func TestReplayFromTheReport(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	mustRun(t, "new", "--scenario", "tutorial", "--out", at("s0.json"), "--seed", "99")
	us := write(t, at("us.txt"), docExample(t, "tutorial"))
	mustRun(t, "resolve", "--state", at("s0.json"), "--orders", "us="+us, "--orders", "german=testdata/tutorial-german-1.txt",
		"--out", at("s1.json"), "--report", at("r1.txt"))
	raw, _ := os.ReadFile(at("r1.txt"))
	rep := string(raw)

	// The situation as the judge attaches it: the ruleset and the state.
	s0, _ := os.ReadFile(at("s0.json"))
	var gf struct {
		State json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal(s0, &gf); err != nil {
		t.Fatal(err)
	}
	write(t, at("situation.json"), `{"ruleset": "2sg", "state": `+string(gf.State)+`}`)

	seed := regexp.MustCompile(`Dice seed for this round: (\d+)`).FindStringSubmatch(rep)
	if seed == nil {
		t.Fatal("the report reveals no seed")
	}
	args := []string{"resolve", "--state", at("situation.json"), "--seed", seed[1], "--out", at("replay.json")}
	for _, m := range regexp.MustCompile(`(?s)ORDERS PLAYED: (\S+)\n(.*?\nEND\n)`).FindAllStringSubmatch(rep, -1) {
		args = append(args, "--orders", m[1]+"="+write(t, at(m[1]+"-played.txt"), m[2]))
	}
	if len(args) != 11 {
		t.Fatalf("the report does not publish both sides' orders:\n%s", rep)
	}
	mustRun(t, args...)
	stateOf := func(path string) string {
		raw, _ := os.ReadFile(path)
		var f struct {
			State json.RawMessage `json:"state"`
		}
		if err := json.Unmarshal(raw, &f); err != nil {
			t.Fatal(err)
		}
		return string(f.State)
	}
	if stateOf(at("replay.json")) != stateOf(at("s1.json")) {
		t.Fatal("the replay from the report differs from the round played")
	}
	// Without the seed, a situation cannot be resolved: it carries none.
	code, _, errOut := fieldpost(t, "resolve", "--state", at("situation.json"), "--out", at("x.json"))
	if code != 1 || !strings.Contains(errOut, "give the round's --seed") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// The scenarios' table lines up whatever the rulesets' names (issue 25:
// "frontline" pushed its row out of line).
func TestScenariosColumnsLineUp(t *testing.T) {
	out := mustRun(t, "scenarios")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	mapColumn := -1
	for _, l := range lines {
		col := regexp.MustCompile(`\d+x\d+`).FindStringIndex(l)
		if col == nil {
			t.Fatalf("no map size in %q", l)
		}
		if mapColumn >= 0 && col[0] != mapColumn {
			t.Errorf("the map column is not in line:\n%s", out)
			break
		}
		mapColumn = col[0]
	}
}
