package ordertext

import (
	"fieldpost/engine"

	"strings"
	"testing"

	"fieldpost/data"
	"fieldpost/engine/stargeneral/rules"
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
	fc, err := rules.Forecast(rs, st, sub.Orders, "I/77")
	if err != nil {
		t.Fatal(err)
	}
	_, events, err := rules.Resolve(rs, st, []*rules.Orders{sub.Orders}, engine.NewSeededDice(3))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if e.Kind == rules.EvCombat && e.Unit == "I/77" {
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

// A plotted stand that could not take part in the attack from where it
// stands is named in the echo with the reason, as the report would name it
// after the round: here 743 A's fire at the church is blocked by the town
// at 0604 on one side of the line and by 743 B at 0505 on the other (3.3).
func TestEchoNamesAStandThatCannotJoinTheAttack(t *testing.T) {
	sc, err := data.Scenario("tutorial")
	if err != nil {
		t.Fatal(err)
	}
	rs, st := sc.Ruleset, sc.NewGame()
	place := func(unit, stand, hex string) {
		h, err := rules.ParseHex(hex)
		if err != nil {
			t.Fatal(err)
		}
		st.Unit(unit).Stand(stand).Hex = h
	}
	place("743", "HQ", "0403")
	place("743", "A", "0504")
	place("743", "B", "0505")
	place("I/984", "1Kp", "0605")
	body := "GAME - SIDE us ROUND 1\nBN 743 M\n  ATTACK 0605 WITH A FIRE B CLOSE\n"
	sub, errs := Parse(rs, st, "us", body)
	if errs != nil {
		t.Fatal(errs)
	}
	echo := Echo(rs, st, sub.Orders)
	if want := "743 A cannot attack 0605: no line of sight"; !strings.Contains(echo, want) {
		t.Errorf("echo lacks %q:\n%s", want, echo)
	}
}
