package rules

import (
	"strings"
	"testing"

	"fieldpost/engine/frontline/data"
)

// TestRuleFileIsDecodedWhole holds rules.json and Rules to each other: a
// rule misspelt, missing or of the wrong kind stops the load and names the
// rule and the file, instead of a panic at the first look-up in a game.
func TestRuleFileIsDecodedWhole(t *testing.T) {
	text, err := data.Files.ReadFile("rules.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := decodeRules("rules.json", text)
	if err != nil {
		t.Fatalf("the bundled rules.json: %v", err)
	}
	if r.StartTreasury != 30 || len(r.ShipDelay) == 0 || r.Sources["start_treasury"] == "" {
		t.Errorf("decoded start_treasury %d, ship_delay %v, source %q: want the file's values", r.StartTreasury, r.ShipDelay, r.Sources["start_treasury"])
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"misspelt", `"hand_limit"`, `"hand_limt"`, `unknown rule "hand_limt"`},
		{"missing", `"hand_limit":            {"value": 5, "source": "book Inset V.2, §III.7"},`, ``, `rule "hand_limit" is missing`},
		{"a list for a number", `"hand_limit":            {"value": 5,`, `"hand_limit":            {"value": [5],`, `rule "hand_limit": want int`},
		{"no source", `{"value": 5, "source": "book Inset V.2, §III.7"}`, `{"value": 5}`, `rule "hand_limit" has no source`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			changed := strings.Replace(string(text), tc.from, tc.to, 1)
			if changed == string(text) {
				t.Fatalf("the test's edit %q does not apply to rules.json", tc.from)
			}
			_, err := decodeRules("rules.json", []byte(changed))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "rules.json") {
				t.Errorf("error %v, want one naming rules.json and saying %q", err, tc.want)
			}
		})
	}
}
