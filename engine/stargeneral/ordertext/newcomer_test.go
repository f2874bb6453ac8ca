package ordertext

import (
	"regexp"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral/rules"
)

// The form's example path names a stand of the side, on empty hexes, and
// reads as a valid order; the battery's comment lists every order its
// line may take, HOLD too (issue 25).
func TestFormExampleAndBatteryChoices(t *testing.T) {
	for _, name := range []string{"tutorial", "krinkelt", "arras"} {
		sc, err := rules.BundledScenario(name)
		if err != nil {
			t.Fatal(err)
		}
		rs, st := sc.Ruleset, sc.NewGame()
		for _, sd := range st.Sides {
			// The comments read as one line each, their wrapping undone.
			form := strings.ReplaceAll(Form(rs, st, sd.Name, "g1"), "\n#  ", "")
			m := regexp.MustCompile(`"(\S+ \d{4} \d{4} \d{4})" walks \S+ of (\S+) `).FindStringSubmatch(form)
			if m == nil {
				t.Fatalf("%s %s: no example path in the form:\n%s", name, sd.Name, form)
			}
			orders := "BN " + m[2] + " M\n  " + m[1] + "\n"
			if _, errs := Parse(rs, st, sd.Name, orders); len(errs) > 0 {
				t.Errorf("%s %s: the form's example %q does not read: %v", name, sd.Name, m[1], errs)
			}
			if strings.Contains(form, "ARTILLERY ") && !strings.Contains(form, "HOLD | FIRE hex | MOVE hexes | KEEP n") {
				t.Errorf("%s %s: the battery comment does not list HOLD:\n%s", name, sd.Name, form)
			}
		}
	}
}

// KEEP n is carried into the next round's form and default orders, as a
// unit's status is; a stand moved beyond its normal move is told that the
// rest is a strategic move.
func TestKeepCarriedAndStrategicMoveSaid(t *testing.T) {
	sc, err := rules.BundledScenario("tutorial")
	if err != nil {
		t.Fatal(err)
	}
	rs, st := sc.Ruleset, sc.NewGame()
	form := strings.Replace(Form(rs, st, "us", "g1"), "ARTILLERY 230FA HOLD", "ARTILLERY 230FA KEEP 1", 1)
	form = strings.Replace(form, "  A     0305", "  A     0305 0405 0505 0605", 1)
	sub, errs := Parse(rs, st, "us", form)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	echo := Echo(rs, st, sub.Orders)
	if !strings.Contains(echo, "from hex 3 on a strategic move") {
		t.Errorf("the echo does not say the third hex is a strategic move:\n%s", echo)
	}
	next, _, err := rules.Resolve(rs, st, []*rules.Orders{sub.Orders, rules.DefaultOrders(rs, st, "german")}, engine.NewSeededDice(3))
	if err != nil {
		t.Fatal(err)
	}
	if f := Form(rs, next, "us", "g1"); !strings.Contains(f, "ARTILLERY 230FA KEEP 1") {
		t.Errorf("KEEP 1 is not in the next round's form:\n%s", f)
	}
	if bo := rules.DefaultOrders(rs, next, "us").BatteryOrder("230FA"); bo == nil || bo.Keep != 1 {
		t.Errorf("the default orders do not keep the shot: %+v", bo)
	}
}
