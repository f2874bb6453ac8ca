package rules

import (
	"errors"
	"strings"
	"testing"
)

// lines joins scenario lines so that the n-th argument is line n.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// validScenario is a small complete position that every error case below
// breaks in one place.
var validScenario = []string{
	"SCENARIO test",               // 1
	"TITLE A test",                // 2
	"RULESET 2sg",                 // 3
	"MAP 6 4",                     // 4
	"......",                      // 5
	"..W...",                      // 6
	"..L=s.",                      // 7
	"......",                      // 8
	"SIDE axis",                   // 9
	"UNIT A1 H",                   // 10
	"  HQ hq 0101 +mg",            // 11
	"  1A infantry 0102",          // 12
	"SIDE allies",                 // 13
	"UNIT B1 H",                   // 14
	"  HQ hq 0604",                // 15
	"  1A infantry 0603",          // 16
	"BATTERY 2/26 artillery 0504", // 17
}

// edit returns validScenario with line n (1-based) replaced by repl (none: deleted).
func edit(n int, repl ...string) string {
	out := append([]string(nil), validScenario[:n-1]...)
	out = append(out, repl...)
	out = append(out, validScenario[n:]...)
	return lines(out...)
}

// with returns validScenario with extra lines inserted before line n.
func with(n int, extra ...string) string {
	out := append([]string(nil), validScenario[:n-1]...)
	out = append(out, extra...)
	out = append(out, validScenario[n-1:]...)
	return lines(out...)
}

func TestValidScenarioParses(t *testing.T) {
	sc, err := ParseScenario([]byte(lines(validScenario...)), BundledRuleset)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Name != "test" || sc.Title != "A test" || len(sc.State.Units) != 2 || len(sc.State.Batteries) != 1 {
		t.Errorf("parsed %+v", sc)
	}
}

type wantErr struct {
	line int
	msg  string
}

func TestScenarioErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []wantErr
		// more: other errors may follow from the same mistake.
		more bool
	}{
		{"unknown keyword", with(9, "WEATHER rain"),
			[]wantErr{{9, `unknown keyword "WEATHER"`}}, false},
		{"bad hex", edit(12, "  1A infantry 01x2"),
			[]wantErr{{12, `hex "01x2": want four digits CCRR`}}, false},
		{"hex numbered from 00", edit(12, "  1A infantry 0002"),
			[]wantErr{{12, "columns and rows are numbered from 01"}}, false},
		{"off-map hex", edit(16, "  1A infantry 0605"),
			[]wantErr{{16, "hex 0605 is off the 6x4 map"}}, false},
		{"unknown terrain letter", edit(6, "..X..."),
			[]wantErr{{6, "map row 2 column 3: unknown terrain letter 'X'"}}, false},
		{"short row", edit(6, "....."),
			[]wantErr{{6, "map row 2 has 5 letters, want 6"}}, false},
		{"long row", edit(8, "......."),
			[]wantErr{{8, "map row 4 has 7 letters, want 6"}}, false},
		{"missing rows", lines("RULESET 2sg", "SIDE axis", "SIDE allies", "MAP 6 4", "......", "......"),
			[]wantErr{{4, "MAP promised 4 rows but the file ended after 2"}}, true},
		{"unknown terrain name", with(9, "TERRAIN jungle 0101"),
			[]wantErr{{9, `unknown terrain "jungle"`}}, false},
		{"unknown stand type", edit(12, "  1A tiger 0102"),
			[]wantErr{{12, `stand 1A: "tiger" is not a core stand type of 2sg`}}, false},
		{"support type as a stand", edit(12, "  1A mg 0102"),
			[]wantErr{{12, `"mg" is not a core stand type`}}, false},
		{"two core stands in a hex", edit(16, "  1A infantry 0604"),
			[]wantErr{{16, "B1 HQ and B1 1A share hex 0604: one core stand a hex (1.3)"}}, false},
		{"battery on a stand", edit(17, "BATTERY 2/26 artillery 0603"),
			[]wantErr{{17, "B1 1A and battery 2/26 share hex 0603"}}, false},
		{"stand in a lake", edit(12, "  1A infantry 0303"),
			[]wantErr{{12, "A1 1A at 0303 stands in impassable lake"}}, false},
		{"lake drawn under a stand later", with(13, "TERRAIN lake 0102"),
			[]wantErr{{12, "A1 1A at 0102 stands in impassable lake"}}, false},
		{"unit without HQ", edit(15, "  2A infantry 0604"),
			[]wantErr{{14, "unit B1 has no HQ stand (mark hqlost=TURN if it was lost)"}}, false},
		{"unit with no stands", edit(15),
			[]wantErr{{14, "unit B1 has no HQ stand"}}, false},
		{"unit without stands at all", edit(16, "UNIT B2 H"),
			[]wantErr{{16, "unit B2 has no stands on the map"}}, false},
		{"duplicate unit", edit(14, "UNIT A1 H"),
			[]wantErr{{14, `unit "A1" listed twice`}}, true},
		{"duplicate stand", edit(12, "  HQ infantry 0102"),
			[]wantErr{{12, "unit A1 has two stands named HQ"}}, false},
		{"duplicate side", edit(13, "SIDE axis"),
			[]wantErr{{13, `side "axis" listed twice`}}, true},
		{"duplicate battery", with(18, "BATTERY 2/26 artillery 0501"),
			[]wantErr{{18, `battery "2/26" listed twice`}}, false},
		{"duplicate objective", with(9, "OBJECTIVE 0101 Hill", "OBJECTIVE 0101 Wood"),
			[]wantErr{{10, "objective 0101 listed twice"}}, false},
		{"duplicate platoon", edit(12, "  1A infantry 0102 +mg"),
			[]wantErr{{12, "unit A1 has two platoons named mg: name them TYPE:NAME"}}, false},
		{"named platoons may share a type", edit(12, "  1A infantry 0102 +mg:mg2"), nil, false},
		{"a platoon that is not a platoon", edit(12, "  1A infantry 0102 +infantry"),
			[]wantErr{{12, `stand 1A: "infantry" is not a support platoon or transport of 2sg`}}, false},
		{"two support platoons on a stand", edit(12, "  1A infantry 0102 +at +engineers"),
			[]wantErr{{12, "stand 1A: a second support platoon (1.3: one a hex)"}}, false},
		{"two trucks on a stand", edit(12, "  1A infantry 0102 +truck:t1 +truck:t2"),
			[]wantErr{{12, "stand 1A: a second transport (1.3: one truck a hex)"}}, false},
		{"armoured transport shares with nothing", edit(12, "  1A infantry 0102 +armoured_transport +truck"),
			[]wantErr{{12, "nothing else may share a hex with armoured_transport (2.1)"}}, false},
		{"unknown stand option", edit(12, "  1A infantry 0102 veteran"),
			[]wantErr{{12, `stand 1A: unknown option "veteran"`}}, false},
		{"strength above maximum", edit(12, "  1A infantry 0102 sp=6"),
			[]wantErr{{12, "stand 1A: sp=6 is more than its maximum 5"}}, false},
		{"a third side", with(17, "SIDE neutrals"),
			[]wantErr{{17, "a third side: a game has two sides"}}, true},
		{"one side only", lines(validScenario[:12]...),
			[]wantErr{{1, "a scenario needs two SIDE lines, found 1"}}, false},
		{"no RULESET", lines(append([]string{"SCENARIO test"}, validScenario[3:]...)...),
			[]wantErr{{2, "MAP before RULESET: the ruleset must be named first"}, {1, "no RULESET line"}}, true},
		{"unknown ruleset", edit(3, "RULESET 5sg"),
			[]wantErr{{3, `ruleset "5sg"`}}, true},
		{"no MAP", lines(append(validScenario[:3:3], validScenario[8:]...)...),
			[]wantErr{{6, "hex 0101 before the MAP line"}, {1, "no MAP"}}, true},
		{"victory for an unknown side", with(9, "VICTORY hold russians 3"),
			[]wantErr{{1, `VICTORY hold names side "russians", which is not a SIDE`}}, false},
		{"unterminated quote", with(9, `NAME 0101 "Hill 112`),
			[]wantErr{{9, "unterminated quote"}}, false},
		{"several errors at once", lines(
			"RULESET 2sg",              // 1
			"MAP 4 2",                  // 2
			"..Q.",                     // 3
			"...",                      // 4
			"SIDE axis",                // 5
			"UNIT A1 X",                // 6
			"UNIT A2 H",                // 7
			"  HQ hq 0501",             // 8
			"  1A panther 0102",        // 9
			"SIDE allies",              // 10
			"UNIT B1 H",                // 11
			"  HQ hq 0402 +mg +at",     // 12
			"  1A infantry 0401 elite", // 13
		), []wantErr{
			{3, "unknown terrain letter 'Q'"},
			{4, "map row 2 has 3 letters, want 4"},
			{6, `unit A1: status "X": want M, H, D or R`},
			{8, "hex 0501 is off the 4x2 map"},
			{9, `"panther" is not a core stand type`},
			{12, "a second support platoon"},
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseScenario([]byte(tc.text), BundledRuleset)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("want no error, got:\n%v", err)
				}
				return
			}
			var errs LineErrors
			if !errors.As(err, &errs) {
				t.Fatalf("want LineErrors, got %T: %v", err, err)
			}
			for _, w := range tc.want {
				found := false
				for _, e := range errs {
					if e.Line == w.line && strings.Contains(e.Msg, w.msg) {
						found = true
					}
				}
				if !found {
					t.Errorf("no error at line %d containing %q; got:\n%v", w.line, w.msg, errs)
				}
			}
			if !tc.more && len(errs) != len(tc.want) {
				t.Errorf("got %d errors, want %d:\n%v", len(errs), len(tc.want), errs)
			}
			for i := 1; i < len(errs); i++ {
				if errs[i].Line < errs[i-1].Line && errs[i].Line != 1 {
					t.Errorf("errors out of line order:\n%v", errs)
				}
			}
		})
	}
}

func TestScenarioErrorText(t *testing.T) {
	_, err := ParseScenario([]byte(edit(12, "  1A infantry 0102 +infantry")), BundledRuleset)
	want := `line 12: stand 1A: "infantry" is not a support platoon or transport of 2sg`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error text %q, want it to start %q", err, want)
	}
}

// TestScenarioOptions reads every option of the format and checks where each
// lands in the state, including the variations of 2SG section 12.
func TestScenarioOptions(t *testing.T) {
	text := lines(
		"SCENARIO options",
		"TITLE Every option",
		"DESCRIPTION First paragraph,",
		"DESCRIPTION continued.",
		"DESCRIPTION",
		"DESCRIPTION Second paragraph.",
		"RULESET 2sg",
		"DAYS 2",
		"START 1 3",
		"MAP 8 6 open",
		"TERRAIN woods 0201 0202",
		"TERRAIN stream 0503 0504",
		"TERRAIN bridge 0504",
		"ROAD 0104 0204 0304 0404 0504 0604",
		`NAME 0201 "Bois  du Roi"`,
		"OBJECTIVE 0504 value=2 owner=axis the bridge",
		"OBJECTIVE 0202",
		"VICTORY hold allies 2",
		"SIDE axis air=2 nightsp=3 nightsupport=0 Kampfgruppe Peiper",
		"UNIT I/1 H hqlost=2 I./SS-Panzer-Regiment 1",
		"  2Kp heavy_armour 0302 maxsp=6 superior",
		"  3Kp heavy_armour 0303 sp=4 maxsp=6 superior",
		"  1Kp medium_armour 0301 lost",
		"  LOSTPLATOON at pak",
		"BATTERY I/AR1 armoured_artillery 0102 shots=1 per=2 range=10 sp=3 Wespe",
		"SIDE allies",
		"REGIMENT 4RTR M reinforcement 4th Royal Tank Regiment",
		"  HQ hq 0806 move=foot +at:2pdr",
		"  A medium_armour 0706 maxsp=5 fs=3 move=slow_tracked",
		"  B infantry 0705 elite armoured fs=2 +engineers:sappers +truck",
	)
	sc, err := ParseScenario([]byte(text), BundledRuleset)
	if err != nil {
		t.Fatal(err)
	}
	st := sc.State
	if sc.Description != "First paragraph, continued.\n\nSecond paragraph." {
		t.Errorf("description %q", sc.Description)
	}
	if st.Days != 2 || st.Day != 1 || st.Round != 3 || st.Turn != 2 {
		t.Errorf("calendar: days %d, day %d round %d turn %d", st.Days, st.Day, st.Round, st.Turn)
	}
	if st.Map.Letter(MustHex("0201")) != 'W' || st.Map.Letter(MustHex("0504")) != '=' || st.Map.Letter(MustHex("0503")) != 's' {
		t.Errorf("terrain: %q", st.Map.Grid)
	}
	if len(st.Map.Roads) != 1 || len(st.Map.Roads[0]) != 6 || st.Map.Names["0201"] != "Bois  du Roi" {
		t.Errorf("roads %v, names %v", st.Map.Roads, st.Map.Names)
	}
	if o := st.SortedObjectives(); len(o) != 2 || o[0].Name != "0202" || o[0].Value != 1 || o[1].Name != "the bridge" || o[1].Value != 2 || o[1].Owner != "axis" {
		t.Errorf("objectives %+v %+v", *o[0], *o[1])
	}
	if st.Victory != (Victory{Kind: VictoryHold, Side: "allies", Need: 2}) {
		t.Errorf("victory %+v", st.Victory)
	}
	if ax := st.Side("axis"); ax.Air != 2 || ax.AirLeft != 2 || ax.NightSP != 3 || ax.NightSupport != 0 || ax.Title != "Kampfgruppe Peiper" {
		t.Errorf("side %+v", *ax)
	}
	if al := st.Side("allies"); al.Title != "allies" {
		t.Errorf("side %+v", *al)
	}
	u := st.Unit("I/1")
	if u.Status != Hold || u.HQLostTurn != 2 || !u.Initial || u.Title != "I./SS-Panzer-Regiment 1" {
		t.Errorf("unit %+v", *u)
	}
	// 12: a Tiger company, 6 strength points, 4 fighting dice and a superior gun.
	if s := u.Stand("2Kp"); s.SP != 6 || s.MaxSP != 6 || s.FS != 4 || !s.SuperiorGun || !s.Armoured {
		t.Errorf("Tiger %+v", *s)
	}
	if s := u.Stand("3Kp"); s.SP != 4 || s.MaxSP != 6 {
		t.Errorf("worn Tiger %+v", *s)
	}
	if len(u.Lost) != 1 || u.Lost[0].Name != "1Kp" || u.Lost[0].SP != 0 || len(u.LostPlatoons) != 1 || u.LostPlatoons[0].Name != "pak" {
		t.Errorf("lost %v %v", u.Lost, u.LostPlatoons)
	}
	b := st.Battery("I/AR1")
	if b.Shots != 1 || b.ShotsPerRound != 2 || b.Range != 10 || b.SP != 3 || b.MaxSP != 4 || !b.Armoured || b.Title != "Wespe" {
		t.Errorf("battery %+v", *b)
	}
	r := st.Unit("4RTR")
	if r.Status != Move || r.Initial || r.Title != "4th Royal Tank Regiment" || r.HQLostTurn != -1 {
		t.Errorf("regiment %+v", *r)
	}
	if hq := r.Stand("HQ"); hq.MoveClass != "foot" || hq.Support == nil || hq.Support.Name != "2pdr" || hq.Support.Type != "at" || hq.Support.Home != "4RTR" {
		t.Errorf("HQ %+v", *hq)
	}
	// 12: an early-war Matilda company, 5 strength points but 3 fighting dice.
	if s := r.Stand("A"); s.SP != 5 || s.MaxSP != 5 || s.FS != 3 || s.MoveClass != "slow_tracked" {
		t.Errorf("Matilda %+v", *s)
	}
	if s := r.Stand("B"); !s.Elite || !s.Armoured || s.FS != 2 || s.Support.Name != "sappers" || s.Transport.Name != "truck" {
		t.Errorf("infantry %+v", *s)
	}
}
