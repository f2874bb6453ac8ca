package ordertext_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"fieldpost/engine/stargeneral/ordertext"
	"fieldpost/engine/stargeneral/rules"
)

// docs/orders.md carries a complete example for every bundled scenario; each
// must be valid orders for the scenario's first round.
func TestDocumentedExamplesAreValid(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/orders.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```orders (\\S+) (\\S+)\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	seen := map[string]bool{}
	for _, b := range blocks {
		name, side, body := b[1], b[2], b[3]
		seen[name] = true
		sc, err := rules.BundledScenario(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, errs := ordertext.Parse(sc.Ruleset, sc.NewGame(), side, body); errs != nil {
			t.Errorf("docs/orders.md example for %s (%s):\n%v", name, side, errs)
		}
	}
	for _, name := range rules.BundledScenarioNames() {
		if !seen[name] {
			t.Errorf("docs/orders.md has no complete example for scenario %s", name)
		}
	}
}

// The order form of every side of every bundled scenario, sent back as it
// is, is valid and changes nothing.
func TestEveryFormRoundTrips(t *testing.T) {
	for _, name := range rules.BundledScenarioNames() {
		sc, err := rules.BundledScenario(name)
		if err != nil {
			t.Fatal(err)
		}
		st := sc.NewGame()
		for _, sd := range st.Sides {
			form := ordertext.Form(sc.Ruleset, st, sd.Name, name+"-1")
			night := st.Clone()
			night.Night = true
			for _, f := range []string{form, ordertext.Form(sc.Ruleset, night, sd.Name, name+"-1")} {
				for i, line := range strings.Split(f, "\n") {
					if n := utf8.RuneCountInString(line); n > ordertext.FormWidth {
						t.Errorf("%s %s form line %d has %d characters, more than a mail program keeps on a line: %q", name, sd.Name, i+1, n, line)
					}
				}
			}
			sub, errs := ordertext.Parse(sc.Ruleset, st, sd.Name, form)
			if errs != nil {
				t.Errorf("%s %s form is refused:\n%v", name, sd.Name, errs)
				continue
			}
			for _, uo := range sub.Orders.Units {
				if len(uo.Moves) > 0 || uo.Attack != nil || len(uo.Swaps) > 0 || uo.Status != st.Unit(uo.Unit).Status {
					t.Errorf("%s %s: the unchanged form changes %s", name, sd.Name, uo.Unit)
				}
			}
			if sub.Game != name+"-1" || sub.Side != sd.Name || sub.Round != 1 {
				t.Errorf("%s %s: form header read as %q %q %d", name, sd.Name, sub.Game, sub.Side, sub.Round)
			}
			if _, errs := ordertext.Parse(sc.Ruleset, night, sd.Name, ordertext.Form(sc.Ruleset, night, sd.Name, name+"-1")); errs != nil {
				t.Errorf("%s %s night form is refused:\n%v", name, sd.Name, errs)
			}
		}
	}
}
