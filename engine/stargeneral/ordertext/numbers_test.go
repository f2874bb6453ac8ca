package ordertext

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"fieldpost/engine/stargeneral/rules"
)

// Numbers are bounded where they are read (issue 15 item 12): two attacks
// with AIR 9223372036854775807 added up past the int range and were
// accepted.
func TestHugeNumbersAreRefused(t *testing.T) {
	rs, st := testState(t)
	huge := "9223372036854775807"
	for name, c := range map[string]struct{ body, want string }{
		"air on two attacks": {"BN I/77 M\n  1A 0404\n  ATTACK 0505 WITH 1A SUPPORT AIR " + huge + "\n" +
			"BN II/77 M\n  2A 0407\n  ATTACK 0606 WITH 2A SUPPORT AIR " + huge + "\n",
			"line 3: AIR 9223372036854775807 is too large: numbers in orders are at most 9999"},
		"air past the int range": {"BN I/77 M\n  1A 0404\n  ATTACK 0505 WITH 1A SUPPORT AIR 99999999999999999999999\n",
			"line 3: AIR 99999999999999999999999 is too large"},
		"keep":  {"ARTILLERY 2/26 KEEP " + huge + "\n", "line 1: KEEP 9223372036854775807 is too large"},
		"round": {"GAME g SIDE axis ROUND " + huge + "\nBN I/77 H\n", "line 1: ROUND 9223372036854775807 is too large"},
	} {
		_, errs := Parse(rs, st, "axis", c.body)
		if errs == nil || !strings.Contains(fmt.Sprint(errs), c.want) {
			t.Errorf("%s: errors %v, want %q", name, errs, c.want)
		}
	}
}

// Orders that do not come from text (a bot's, a stored submission) are
// bounded by the rules' validation: the air points of two attacks near the
// int range must not add up to a small number.
func TestValidateBoundsAirPoints(t *testing.T) {
	rs, st := testState(t)
	noCap := *rs
	noCap.MaxAirPerCombat = 0
	sub, errs := Parse(&noCap, st, "axis", "BN I/77 M\n  1A 0403 0504\n  HQ 0203 0303\n  ATTACK 0505 WITH 1A SUPPORT AIR 1\n"+
		"BN II/77 M\n  2A 0407\n  ATTACK 0606 WITH 2A SUPPORT AIR 1\n")
	if errs != nil {
		t.Fatal(errs)
	}
	for i := range sub.Orders.Units {
		if a := sub.Orders.Units[i].Attack; a != nil {
			a.Air = math.MaxInt
		}
	}
	probs := rules.Validate(&noCap, st, sub.Orders)
	if len(probs) != 2 || !strings.Contains(probs[0].Msg, "the attack calls 9223372036854775807 air points, but axis has 2 this round") {
		t.Errorf("problems %v, want one per attack", probs)
	}
}
