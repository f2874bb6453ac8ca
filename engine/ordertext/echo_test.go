package ordertext

import (
	"strings"
	"testing"

	"fieldpost/engine"
)

// The echo's odds are worked out from the same dice pools the round then
// rolls: when nothing changes before the attack, the forecast pools and the
// combat's pools are the same.
func TestEchoOddsMatchTheRound(t *testing.T) {
	rs, st := testState(t)
	body := `BN I/77 M
  ATTACK 0505 WITH 1C CLOSE SUPPORT mortar, ART 2/26
`
	sub, errs := Parse(rs, st, "axis", body)
	if errs != nil {
		t.Fatal(errs)
	}
	echo := Echo(rs, st, sub.Orders)
	for _, want := range []string{
		"attacks 0505 with 1C (close combat); support: mortar, battery 2/26",
		"target now: E/505 E1 infantry, 5/5 SP, on Dig In (D)",
		"you roll ", "they roll ", "chance to win the close combat: ",
	} {
		if !strings.Contains(echo, want) {
			t.Errorf("echo lacks %q:\n%s", want, echo)
		}
	}
	fc, err := engine.Forecast(rs, st, sub.Orders, "I/77")
	if err != nil {
		t.Fatal(err)
	}
	_, events, err := engine.Resolve(rs, st, []*engine.Orders{sub.Orders}, engine.NewSeededDice(3))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if e.Kind == engine.EvCombat && e.Unit == "I/77" {
			c := e.Combat
			if c.Attacker.Dice != fc.Attacker.Dice || c.Defender.Dice != fc.Defender.Dice ||
				c.Attacker.Rule != fc.Attacker.Rule || c.Defender.Rule != fc.Defender.Rule {
				t.Fatalf("forecast %d on %s v %d on %s; the round rolled %d on %s v %d on %s",
					fc.Attacker.Dice, fc.Attacker.Rule, fc.Defender.Dice, fc.Defender.Rule,
					c.Attacker.Dice, c.Attacker.Rule, c.Defender.Dice, c.Defender.Rule)
			}
			return
		}
	}
	t.Fatal("the attack was not made")
}

func TestErrorReport(t *testing.T) {
	rs, st := testState(t)
	_, errs := Parse(rs, st, "axis", "BN I/77 M\n  1A 0404 0606\n")
	got := ErrorReport(errs)
	for _, want := range []string{"NOT accepted: 1 error", "line 2: 1A 0404 0606", "0606 is not adjacent to 0404", "(rule 2)", "hint: did you mean"} {
		if !strings.Contains(got, want) {
			t.Errorf("error report lacks %q:\n%s", want, got)
		}
	}
}
