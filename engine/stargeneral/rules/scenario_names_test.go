package rules

import (
	"errors"
	"strings"
	"testing"
)

// A scenario the order language could not play is refused at the line
// that makes it so, and no scenario text makes the loader panic (issue 15
// item 11).
func TestScenarioRefusesWhatOrdersCannotWrite(t *testing.T) {
	base := []string{
		"RULESET 2sg",                 // 1
		"MAP 6 4 open",                // 2
		"SIDE axis",                   // 3
		"UNIT I/77 M",                 // 4
		"  HQ hq 0101 +at",            // 5
		"  1A infantry 0102",          // 6
		"BATTERY 2/26 artillery 0103", // 7
		"SIDE allies",                 // 8
		"UNIT E/5 H",                  // 9
		"  HQ hq 0601",                // 10
		"  E1 infantry 0602",          // 11
	}
	with := func(line int, text string) string {
		lines := append([]string(nil), base...)
		lines[line-1] = text
		return strings.Join(lines, "\n")
	}
	tests := []struct {
		name, text string
		line       int
		want       string
	}{
		{"a map with a wrong third word", "RULESET 2sg\nMAP 10 10 0\nTERRAIN woods 0101\n", 2, "MAP: the third word can only be open"},
		{"a side named 0", with(3, "SIDE 0"), 3, `side "0": a side's name begins with a letter`},
		{"a side with a comma", with(8, "SIDE al,lies"), 8, "only letters, digits, - and _"},
		{"a side twice in two cases", with(8, "SIDE AXIS"), 8, `side "AXIS" listed twice`},
		{"stands 1a and 1A", with(5, "  1a infantry 0104"), 6, "unit I/77 has two stands named 1A"},
		{"a stand named SWAP", with(6, "  SWAP infantry 0102"), 6, `stand "SWAP": it is a word of the order language`},
		{"a stand named fire", with(6, "  fire infantry 0102"), 6, `stand "fire": it is a word of the order language`},
		{"a stand with a comma", with(6, "  1,A infantry 0102"), 6, `a name cannot contain , ; : # " -> or →`},
		{"a stand with a semicolon", with(6, "  1;A infantry 0102"), 6, "a name cannot contain"},
		{"a stand with an arrow", with(6, "  1->A infantry 0102"), 6, "a name cannot contain"},
		{"a stand with a colon", with(6, "  1A: infantry 0102"), 6, "a name cannot contain"},
		{"a stand with a quoted space", with(6, `  "1 A" infantry 0102`), 6, "a name cannot contain spaces"},
		{"a unit named PRIORITY", with(4, "UNIT priority M"), 4, `unit "priority": it is a word of the order language`},
		{"units in two cases", with(9, "UNIT i/77 H"), 9, `unit "i/77" listed twice`},
		{"a battery named KEEP", with(7, "BATTERY keep artillery 0103"), 7, `battery "keep": it is a word`},
		{"a platoon named AIR", with(5, "  HQ hq 0101 +at:AIR"), 5, `platoon "AIR": it is a word`},
		{"platoons in two cases", with(6, "  1A infantry 0102 +at:AT"), 6, "two platoons named AT"},
		{"a huge number", with(6, "  1A infantry 0102 sp=9223372036854775807"), 6, "want a whole number"},
		{"a huge DAYS", strings.Join(base, "\n") + "\nDAYS 99999", 12, "DAYS \"99999\": want a whole number from 1 to 9999"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseScenario([]byte(tc.text), BundledRuleset)
			var errs LineErrors
			if !errors.As(err, &errs) {
				t.Fatalf("want LineErrors, got %T: %v", err, err)
			}
			for _, e := range errs {
				if e.Line == tc.line && strings.Contains(e.Msg, tc.want) {
					return
				}
			}
			t.Errorf("no error at line %d containing %q; got:\n%v", tc.line, tc.want, errs)
		})
	}
	if _, err := ParseScenario([]byte(strings.Join(base, "\n")), BundledRuleset); err != nil {
		t.Errorf("the base scenario (with a platoon named at) is refused: %v", err)
	}
}

// "an anti-tank platoon", "a machine-gun platoon" (issue 25).
func TestArticle(t *testing.T) {
	for word, want := range map[string]string{"anti-tank platoon": "an", "open ground": "an", "machine-gun platoon": "a", "": "a"} {
		if got := Article(word); got != want {
			t.Errorf("Article(%q) = %q, want %q", word, got, want)
		}
	}
}
