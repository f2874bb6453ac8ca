package mapview

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fieldpost/engine/stargeneral/data"
	"fieldpost/engine/stargeneral/rules"
)

func loadRuleset(name string) (*rules.Ruleset, error) {
	data, err := data.Files.ReadFile("rulesets/" + name + ".json")
	if err != nil {
		return nil, err
	}
	return rules.ParseRuleset(data)
}

func parse(t testing.TB, text string) (*rules.Ruleset, *rules.State) {
	t.Helper()
	sc, err := rules.ParseScenario([]byte(text), loadRuleset)
	if err != nil {
		t.Fatalf("scenario: %v", err)
	}
	return sc.Ruleset, sc.NewGame()
}

// tutorial is a 12x10 position with every terrain of 2SG, a road, names,
// objectives, both sides' stands with support, and a battery.
const tutorial = `RULESET 2sg
TITLE Tutorial: the crossroads at Les Landes
START 1 3
MAP 12 10
....WW......
...WWW..TT..
..RR.W..TT..
..RR...ss...
.....ss..BB.
..Fss....BB.
.ss......BB.
~~~=~~~~~~~~
.....LL..RR.
....LLL...R.
ROAD 0105 0205 0305 0405 0505 0605 0705 0805 0905 1005 1105 1205
ROAD 0901 0902 0903 0904 0905 0906 0907
ROAD 0405 0406 0407 0408 0409 0410
NAME 0902 Les Landes
NAME 0408 Pont-Hébert
NAME 0301 Hill 112
OBJECTIVE 0902 value=2 owner=axis Les Landes crossroads
OBJECTIVE 0408 Pont-Hébert bridge
OBJECTIVE 1005 owner=allies
SIDE axis German 352nd Infantry Division
UNIT I/914 H
  HQ hq 0903 +truck
  1A infantry 0902 +mg
  2A infantry 0803 sp=3
  3A infantry 1003 +at
UNIT Pz/6 M
  HQ armoured_hq 0704
  1P medium_armour 0605
  2P heavy_armour 0506 sp=4
BATTERY 1/352 artillery 1101 shots=1 per=2
SIDE allies US 29th Infantry Division
UNIT 2/116 M
  HQ hq 0307
  E infantry 0406 +engineers
  F infantry 0505 +mg
  G infantry 0206 sp=2
UNIT 747 M
  HQ hq 0209
  A medium_armour 0407
  B armoured_car 0305
  C infantry 0306 +armoured_transport
BATTERY 110FA artillery 0109
`

// tutorialEvents is a round's worth of moves, combats and a barrage.
func tutorialEvents() []rules.Event {
	h := rules.MustHex
	return []rules.Event{
		{Kind: rules.EvRoundStart, SP: 2, Text: "Day 1, round 2 begins"},
		{Kind: rules.EvMove, Side: "allies", Unit: "747", Stand: "A", From: h("0210"), Path: []rules.Hex{h("0309"), h("0308"), h("0408"), h("0407")}},
		{Kind: rules.EvMove, Side: "allies", Unit: "2/116", Stand: "E", From: h("0307"), Path: []rules.Hex{h("0306")}},
		{Kind: rules.EvMove, Side: "axis", Unit: "Pz/6", Stand: "1P", From: h("0804"), Path: []rules.Hex{h("0704"), h("0605")}},
		{Kind: rules.EvCombat, Side: "allies", Unit: "2/116", Combat: &rules.Combat{Number: 1, Target: h("0605")}},
		{Kind: rules.EvFallBack, Side: "axis", Unit: "Pz/6", Stand: "2P", From: h("0406"), Path: []rules.Hex{h("0506")}},
		{Kind: rules.EvPursuit, Side: "allies", Unit: "2/116", Stand: "E", From: h("0306"), Path: []rules.Hex{h("0406")}},
		{Kind: rules.EvBarrage, Side: "axis", Unit: "1/352", Combat: &rules.Combat{Number: 2, Target: h("0506"), Barrage: true}},
		{Kind: rules.EvCombat, Side: "axis", Unit: "I/914", Combat: &rules.Combat{Number: 3, Target: h("0506")}},
		{Kind: rules.EvEliminated, Side: "allies", Unit: "2/116", Stand: "H", From: h("0705")},
	}
}

// bigScenario is a 30x20 division battle with many stands on both sides.
func bigScenario() string {
	var b strings.Builder
	b.WriteString("RULESET 2sg\nTITLE Operation Cobra: the breakout at Saint-Lô\nDAYS 2\nSTART 1 5\nMAP 30 20\n")
	for row := 1; row <= 20; row++ {
		line := make([]byte, 30)
		for col := 1; col <= 30; col++ {
			ch := byte('.')
			switch {
			case col == 16 && row != 10:
				ch = '~'
			case col == 16 && row == 10:
				ch = '='
			case (col+row)%11 == 0 && col < 14:
				ch = 's'
			case (col*7+row*3)%17 < 3:
				ch = 'W'
			case col >= 20 && col <= 22 && row >= 4 && row <= 6:
				ch = 'T'
			case col >= 5 && col <= 7 && row >= 14 && row <= 15:
				ch = 'T'
			case (col*5+row*11)%23 < 3:
				ch = 'B'
			case (col*3+row*13)%29 < 2:
				ch = 'R'
			case row >= 18 && col >= 25:
				ch = 'L'
			case col >= 24 && col <= 26 && row >= 10 && row <= 11:
				ch = 'F'
			}
			line[col-1] = ch
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	var road []string
	for col := 1; col <= 30; col++ {
		road = append(road, fmt.Sprintf("%02d10", col))
	}
	b.WriteString("ROAD " + strings.Join(road, " ") + "\n")
	b.WriteString("ROAD 2101 2102 2103 2104 2105 2106 2107 2108 2109 2110\n")
	b.WriteString("NAME 2105 Saint-Lô\nNAME 0614 Marigny\nNAME 1610 Pont de la Vire\n")
	b.WriteString("OBJECTIVE 2105 value=3 owner=germans Saint-Lô\nOBJECTIVE 1610 value=2 Vire bridge\nOBJECTIVE 0614 owner=americans Marigny\n")
	types := []string{"infantry", "infantry", "infantry", "medium_armour", "light_armour"}
	supports := []string{"+mg", "+at", "", "+engineers", "+truck"}
	side := func(name, title string, col0, dir int) {
		fmt.Fprintf(&b, "SIDE %s %s\n", name, title)
		for u := range 6 {
			fmt.Fprintf(&b, "UNIT %s%d/%d %s\n", strings.ToUpper(name[:1]), u+1, 20+u, []string{"M", "H", "D", "R", "M", "H"}[u])
			row := 2 + u*3
			fmt.Fprintf(&b, "  HQ hq %02d%02d\n", col0, row+1)
			for s := range 5 {
				col := col0 + dir*(1+s%2)
				r := row + s/2
				sup := supports[(u+s)%5]
				if types[s] != "infantry" && sup == "+truck" {
					sup = ""
				}
				sp := ""
				if (u+s)%4 == 0 {
					sp = " sp=2"
				}
				fmt.Fprintf(&b, "  %d%c %s %02d%02d%s %s\n", s+1, 'A'+u, types[s], col, r, sp, sup)
			}
		}
	}
	side("germans", "Panzer-Lehr-Division", 19, 1)
	fmt.Fprintf(&b, "BATTERY 1/130 artillery 2815 shots=1 per=2\nBATTERY 2/130 armoured_artillery 2816\n")
	side("americans", "US VII Corps: the 4th, 9th and 30th Infantry Divisions with Combat Command B of the 3rd Armored Division", 10, -1)
	fmt.Fprintf(&b, "BATTERY 957FA artillery 0215\n")
	return b.String()
}

// bigEvents moves a few stands into their present hexes and fights.
func bigEvents(st *rules.State) []rules.Event {
	var out []rules.Event
	n := 0
	for i, u := range st.Units {
		if i%2 == 1 {
			continue
		}
		s := u.Stands[1]
		step := s.Hex.Neighbours()[4]
		start := step.Neighbours()[4]
		kind := rules.EvMove
		if i%3 == 0 {
			kind = rules.EvFallBack
		}
		out = append(out, rules.Event{Kind: kind, Side: u.Side, Unit: u.ID, Stand: s.Name, From: start, Path: []rules.Hex{step, s.Hex}})
		n++
		out = append(out, rules.Event{Kind: rules.EvCombat, Side: u.Side, Unit: u.ID, Combat: &rules.Combat{Number: n, Target: u.Stands[2].Hex}})
	}
	out = append(out, rules.Event{Kind: rules.EvBarrage, Side: "germans", Unit: "1/130", Combat: &rules.Combat{Number: n + 1, Target: rules.MustHex("0905"), Barrage: true}})
	out = append(out, rules.Event{Kind: rules.EvEliminated, Side: "americans", Unit: "A1/20", Stand: "9Z", From: rules.MustHex("1208")})
	return out
}

// TestWritePreviews writes the test pictures and text maps to the folder
// named by MAPVIEW_PREVIEW, for looking at them, with every scenario in the
// folder named by MAPVIEW_SCENARIOS (by default the bundled ones).
func TestWritePreviews(t *testing.T) {
	dir := os.Getenv("MAPVIEW_PREVIEW")
	if dir == "" {
		t.Skip("set MAPVIEW_PREVIEW to a folder to write preview pictures")
	}
	write := func(name string, rs *rules.Ruleset, st *rules.State, ev []rules.Event, opt Options) {
		f, err := os.Create(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := PNG(f, rs, st, ev, opt); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(ASCII(rs, st)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rs, st := parse(t, tutorial)
	write("tutorial", rs, st, tutorialEvents(), Options{})
	write("tutorial-small", rs, st, tutorialEvents(), Options{HexRadius: 22})
	rs, st = parse(t, bigScenario())
	write("big", rs, st, bigEvents(st), Options{})
	scenarios, err := fs.Sub(data.Files, "scenarios")
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("MAPVIEW_SCENARIOS"); dir != "" {
		scenarios = os.DirFS(dir)
	}
	files, _ := fs.Glob(scenarios, "*.txt")
	for _, f := range files {
		text, err := fs.ReadFile(scenarios, f)
		if err != nil {
			t.Fatal(err)
		}
		rs, st := parse(t, string(text))
		write("scenario-"+strings.TrimSuffix(filepath.Base(f), ".txt"), rs, st, nil, Options{})
	}
}
