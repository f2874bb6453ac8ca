package ordertext

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fieldpost/engine/stargeneral/data"
	"fieldpost/engine/stargeneral/rules"
)

const testScenario = `
SCENARIO crossroads
TITLE Crossroads test
RULESET 2sg
MAP 12 10 open
TERRAIN woods 0605 0606
TERRAIN town 0808
SIDE axis air=2
UNIT I/77 M
  HQ hq 0203 +light_artillery:mortar
  1A infantry 0304 +mg
  1B infantry 0305
  1C medium_armour 0404 +at
UNIT II/77 H
  HQ hq 0207
  2A infantry 0308
  2B infantry 0309
BATTERY 2/26 artillery 0102
SIDE allies
UNIT E/505 D
  HQ hq 0705
  E1 infantry 0505
  E2 infantry 0606
BATTERY 3/80 artillery 1208
`

func loadTestRuleset(name string) (*rules.Ruleset, error) {
	data, err := data.Files.ReadFile("rulesets/" + name + ".json")
	if err != nil {
		return nil, err
	}
	return rules.ParseRuleset(data)
}

func testState(t testing.TB) (*rules.Ruleset, *rules.State) {
	t.Helper()
	sc, err := rules.ParseScenario([]byte(testScenario), loadTestRuleset)
	if err != nil {
		t.Fatal(err)
	}
	return sc.Ruleset, sc.NewGame()
}

func TestParseEveryConstruct(t *testing.T) {
	rs, st := testState(t)
	body := `Hello judge, here are my orders.

game crossroads   side AXIS   round 1
password tiger-lily-42

bn i/77 m                     # the attack
  1a: 0304 -> 0403 -> 0504    # walks east, starting from its own hex
  1b stays
  hq 0203 0303
  1c
  swap mg to 1b
  ATTACK 0505 WITH 1A CLOSE 1B FIRE SUPPORT mortar, ART 2/26, AIR
I/77x
`
	// The last line is a typo: it must be an error, not ignored.
	_, errs := Parse(rs, st, "axis", body)
	if len(errs) != 1 || errs[0].Line != 13 || !strings.Contains(errs[0].Text, `"I/77x"`) || errs[0].Hint != "did you mean I/77?" {
		t.Fatalf("want one error at line 13 with a hint, got %v", errs)
	}
	body = strings.Replace(body, "I/77x\n", `UNIT II/77 h
  2a 0308 0309
  2b 0308
  assault 0409 with 2a

PRIORITY II/77 I/77
LOSSES platoons-first PURSUE no HOLD-AT-COST no DEFENSIVE-SUPPORT no
ARTILLERY 2/26 KEEP 1 FIRE 0906
AIR 0905
END
Thanks! This is not read.
`, 1)
	sub, errs := Parse(rs, st, "axis", body)
	if errs != nil {
		t.Fatalf("unexpected errors:\n%v", errs)
	}
	want := &rules.Orders{
		Side: "axis",
		Units: []rules.UnitOrders{
			{Unit: "I/77", Status: rules.Move,
				Moves: []rules.StandMove{
					{Stand: "1A", Path: []rules.Hex{rules.MustHex("0403"), rules.MustHex("0504")}},
					{Stand: "HQ", Path: []rules.Hex{rules.MustHex("0303")}},
				},
				Swaps: []rules.Swap{{Platoon: "mg", To: "1B"}},
				Attack: &rules.Attack{Target: rules.MustHex("0505"),
					Stands:         []rules.AttackStand{{Stand: "1A", Close: true}, {Stand: "1B", Close: false}},
					LightArtillery: []string{"mortar"}, Batteries: []string{"2/26"}, Air: 1},
			},
			{Unit: "II/77", Status: rules.Hold,
				Moves: []rules.StandMove{
					{Stand: "2A", Path: []rules.Hex{rules.MustHex("0309")}},
					{Stand: "2B", Path: []rules.Hex{rules.MustHex("0308")}},
				},
				Attack: &rules.Attack{Target: rules.MustHex("0409"), Stands: []rules.AttackStand{{Stand: "2A", Close: true}}},
			},
		},
		Priority:   []string{"II/77", "I/77"},
		Batteries:  []rules.BatteryOrders{{Battery: "2/26", Keep: 1, Fire: rules.MustHex("0906")}},
		AirStrikes: []rules.Hex{rules.MustHex("0905")},
		Choices:    rules.Choices{Losses: rules.LossesPlatoonsFirst, NoHoldAtCost: true, NoPursuit: true, NoDefensiveSupport: true},
	}
	if !reflect.DeepEqual(sub.Orders, want) {
		t.Fatalf("orders:\n got %+v\nwant %+v", sub.Orders, want)
	}
	if sub.Game != "crossroads" || sub.Side != "axis" || sub.Round != 1 || sub.Password != "tiger-lily-42" {
		t.Fatalf("header: %+v", sub)
	}
}

func TestMailNoiseIgnored(t *testing.T) {
	rs, st := testState(t)
	cases := map[string]string{
		"signature":           "BN I/77 H\n  1A 0304\n-- \nFritz\nBN nonsense",
		"quoted report below": "BN I/77 H\n\nOn Tue, 3 Nov 2026, judge wrote:\n> BN I/77 M\n> 1A 0404\n> junk",
		"outlook":             "BN I/77 H\n-----Original Message-----\nFrom: judge\nBN I/77 M",
		"phone":               "BN I/77 H\nSent from my iPhone",
		"quoted above":        "> Day 1 report\n> BN I/77 M\nOn Tue judge wrote: hello\nBN I/77 H",
		"greeting":            "Dear judge,\nmy orders:\nBN I/77 H",
		"crlf":                "BN I/77 H\r\n  1A 0304\r\n",
	}
	for name, body := range cases {
		sub, errs := Parse(rs, st, "axis", body)
		if errs != nil {
			t.Errorf("%s: %v", name, errs)
			continue
		}
		if len(sub.Orders.Units) != 1 || sub.Orders.Units[0].Status != rules.Hold {
			t.Errorf("%s: orders %+v", name, sub.Orders.Units)
		}
	}
}

// Every kind of error, all at once, each with its line, quote, message and hint.
func TestParseErrorsGolden(t *testing.T) {
	rs, st := testState(t)
	body := `SIDE axis ROUND x
BN I/78 M
BN I/77 Q
BN I/77 M
  1A 0404 0606
  1B 0405 05O5
  1A 0404
  1Z 0404
  SWAP xx TO 1B
  SWAP mg TO 9Z
  ATTACK 0605 WITH 1A SUPPORT mortar, ART 9/99
  ATTACK 0605 WITH 1B
  FIRE WITH
  ASSAULT 0605 WITH CLOSE
  ATTACK 0605 WITH 1A SUPPORT ghost
  HQ-RETURN 0102 0103
BN E/505 H
PRIORITY I/77 I/77
PRIORITY I/77
LOSSES sometimes PURSUE maybe
LOSSES keep-strength
ARTILLERY FIRE 0808
ARTILLERY 2/26 FIRE 9999
ARTILLERY 2/26 HOLD
ARTILLERY 2/26 KEEP x
AIR
AIR 1301
RECOVER I/77 1A
RECOVER X/1 1A 2
PLATOON I/77 mg TO 7Q
REBUILD I/77 1C AT 0505 SP none
hello
RESHUFFLE I/77 1A 0505 0606
`
	_, errs := Parse(rs, st, "axis", body)
	var got strings.Builder
	for _, e := range errs {
		got.WriteString(e.String() + "\n")
	}
	golden := filepath.Join("testdata", "errors.golden")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Fatalf("errors differ from %s (UPDATE_GOLDEN=1 to rewrite):\n%s", golden, got.String())
	}
}

func TestUnchangedFormIsValid(t *testing.T) {
	rs, st := testState(t)
	for _, side := range []string{"axis", "allies"} {
		form := Form(rs, st, side, "crossroads")
		sub, errs := Parse(rs, st, side, form)
		if errs != nil {
			t.Fatalf("%s form:\n%s\nerrors:\n%v", side, form, errs)
		}
		for _, uo := range sub.Orders.Units {
			if len(uo.Moves) > 0 || uo.Attack != nil || uo.Status != st.Unit(uo.Unit).Status {
				t.Errorf("%s: the unchanged form changes %s: %+v", side, uo.Unit, uo)
			}
		}
		if len(sub.Orders.Units) != len(st.ActiveUnits(side)) {
			t.Errorf("%s: form names %d units, want %d", side, len(sub.Orders.Units), len(st.ActiveUnits(side)))
		}
	}
}

func FuzzParse(f *testing.F) {
	rs, st := testState(f)
	f.Add("BN I/77 M\n  1A 0404 0504\n  ATTACK 0605 WITH 1A CLOSE SUPPORT mortar ART 2/26 AIR 2\nEND")
	f.Add("GAME g SIDE axis ROUND 3\nPRIORITY I/77\nARTILLERY 2/26 MOVE 0102 0103 KEEP 2\nRECOVER I/77 1A 2")
	f.Add("> quoted\n-- \nsig")
	f.Add(Form(rs, st, "axis", "g"))
	f.Fuzz(func(t *testing.T, body string) {
		sub, errs := Parse(rs, st, "axis", body)
		if sub == nil {
			t.Fatal("nil submission")
		}
		for _, e := range errs {
			if e.Text == "" {
				t.Fatalf("error without a message: %+v", e)
			}
		}
	})
}

// A path's hint names the neighbour the player most likely meant: of those
// a one-digit typo away from what was written, the nearest to it (0202 is
// not next to 0204; 0201 and 0203 are both one digit off, but 0203 is the
// hex on the way, 0201 three hexes from where the player was going).
func TestAdjacentHintPrefersTheNearestTypo(t *testing.T) {
	h := func(s string) rules.Hex {
		x, err := rules.ParseHex(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, c := range []struct{ prev, got, want string }{
		{"0202", "0204", "0203"},
		{"0202", "0304", "0303"},
		{"0203", "0205", "0204"},
		{"0303", "0404", "0403"},
	} {
		if got := adjacentHint(h(c.prev), h(c.got)); got != "did you mean "+c.want+"?" {
			t.Errorf("after %s, %s: %q, want %s", c.prev, c.got, got, c.want)
		}
	}
}

// A team's seat is a header word, read with the rest of the header (issue
// 21, team play).
func TestHeaderSeat(t *testing.T) {
	rs, st := testState(t)
	sub, errs := Parse(rs, st, "axis", "GAME g SIDE axis SEAT 2 ROUND 1\nBN I/77 H\n")
	if errs != nil || sub.Seat != 2 || sub.Round != 1 || sub.Game != "g" {
		t.Errorf("seat %d, round %d, game %q, errors %v", sub.Seat, sub.Round, sub.Game, errs)
	}
	if _, errs := Parse(rs, st, "axis", "GAME g SIDE axis SEAT x\nBN I/77 H\n"); len(errs) != 1 || !strings.Contains(errs[0].Text, `SEAT "x": want the seat number`) {
		t.Errorf("a seat that is no number: %v", errs)
	}
}
