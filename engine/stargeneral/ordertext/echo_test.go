package ordertext

import (
	"fmt"
	"strings"
	"testing"

	"fieldpost/engine"
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
	text := "BN I/77 M\n  1A 0404 0606\n"
	_, errs := Parse(rs, st, "axis", text)
	got := engine.Refusal(text, errs, 0)
	for _, want := range []string{"NOT accepted: 1 error", "line 2: 1A 0404 0606", "0606 is not adjacent to 0404", "[§2]", "did you mean"} {
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
	sc, err := rules.BundledScenario("tutorial")
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

// The echo's odds count the chance that enemy AA stops an air point (3SG
// 9): its stated chance to win must be the exact one, worked out here by
// going through every roll of the AA's two dice (a 6 stops the point, which
// then adds none of its 2 dice).
func TestEchoOddsCountTheAA(t *testing.T) {
	const position = `
RULESET 3sg
MAP 10 10 open
SIDE red air=1
UNIT A1 M
  HQ hq 0503
  1A infantry 0504
SIDE blue
UNIT B1 H
  HQ hq 0508
  X infantry 0505
  Y infantry 0506 +aa
`
	sc, err := rules.ParseScenario([]byte(position), loadTestRuleset)
	if err != nil {
		t.Fatal(err)
	}
	rs, st := sc.Ruleset, sc.NewGame()
	sub, errs := Parse(rs, st, "red", "BN A1 M\n  ATTACK 0505 WITH 1A CLOSE SUPPORT AIR\n")
	if errs != nil {
		t.Fatal(errs)
	}
	echo := Echo(rs, st, sub.Orders)
	// 1A throws 3 dice on "6" (M against H), and 2 more when the air point
	// gets through; X throws 3 on "5,6" (H defending).
	six, _ := rules.ParseHitRule("6")
	fiveSix, _ := rules.ParseHitRule("5,6")
	def := fiveSix.HitDistribution(3)
	var win, lose, through float64
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			dice := 3
			if a != 6 && b != 6 {
				dice += 2
				through += 1.0 / 36
			}
			att := six.HitDistribution(dice)
			win += rules.ChanceMore(att, def) / 36
			lose += rules.ChanceMore(def, att) / 36
		}
	}
	for _, want := range []string{
		"you roll 3 dice hitting on 6, 5 if your air point gets past their AA",
		fmt.Sprintf("it gets through %.0f%% of the time, and the odds count that", 100*through),
		fmt.Sprintf("chance to win the close combat: %.0f%% (they win %.0f%%, a draw %.0f%%)", 100*win, 100*lose, 100*(1-win-lose)),
	} {
		if !strings.Contains(echo, want) {
			t.Errorf("echo lacks %q:\n%s", want, echo)
		}
	}
}
