package report

import (
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/frontline/fog"
	"fieldpost/engine/frontline/ordertext"
	"fieldpost/engine/frontline/rules"
)

// play plays the active side's turn from scenario with orders and dice,
// and returns each side's sight of it with its events.
func play(t *testing.T, scenario, orders string, dice ...int) (us, ge fog.Sight, ev []rules.Event) {
	t.Helper()
	s, err := rules.ParseScenario(scenario)
	if err != nil {
		t.Fatal(err)
	}
	sub, probs := ordertext.Parse(s, s.Active, orders)
	o := sub.Orders
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	n, ev, err := s.Play(o, &engine.ScriptedDice{Faces: dice})
	if err != nil {
		t.Fatal(err)
	}
	return fog.New("US", s, n, ev), fog.New("GE", s, n, ev), ev
}

// Each side's report keeps its purchases and supply to itself; every die
// rolled in an engagement is shown to both with what it was checked against.
func TestReportPerSide(t *testing.T) {
	usSight, geSight, ev := play(t, `SIZE 6 6
FILL .
SIDES US GE
TURN 1 US US=1 GE=0
TREASURY US 30
UNIT US FHQ-1 0101
UNIT GE FHQ-1 0606
UNIT US RS-1 0303
UNIT GE RS-1 0303`, "PRODUCE\n BUY RS 1\nCOMBAT\n ENGAGE 0303 WITH RS-1\n", 9, 1, 20)
	us, ge := Text(ev, usSight), Text(ev, geSight)
	if !strings.Contains(us, "US buys RS-2") || strings.Contains(ge, "buys") || strings.Contains(ge, "US supply") {
		t.Errorf("purchases and supply must be private:\nUS:\n%s\nGE:\n%s", us, ge)
	}
	for _, want := range []string{"d10=9 (US initiative)", "d20=20 vs 11+ (RS-1 rifles at GE:RS-1)"} {
		if !strings.Contains(us, want) || !strings.Contains(ge, want) {
			t.Errorf("both reports need %q:\nUS:\n%s\nGE:\n%s", want, us, ge)
		}
	}
	if got := len(Dice(ev, geSight)); got != 3 {
		t.Errorf("GE sees %d dice, want 3", got)
	}
}

// Under fog of war the waiting side does not see the active side's moves.
func TestReportFogHidesMoves(t *testing.T) {
	us, ge, ev := play(t, `SIZE 6 6
FILL .
SIDES US GE
OPTIONS fog
UNIT US FHQ-1 0101
UNIT GE FHQ-1 0606
UNIT US RS-1 0303`, "MOVE\n RS-1 0304\n")
	if strings.Contains(Text(ev, ge), "RS-1 moves") || !strings.Contains(Text(ev, us), "RS-1 moves 0303 -> 0304") {
		t.Errorf("fog: US:\n%s\nGE:\n%s", Text(ev, us), Text(ev, ge))
	}
}

// Without fog of war the waiting side sees the active side's moves, but
// not those of a hidden unit it has not found; a shot from a unit it does
// not see keeps its target and result and loses its firer.
func TestReportHidesUnseenUnits(t *testing.T) {
	us, ge, ev := play(t, `SIZE 6 6
FILL .
SIDES US GE
UNIT US FHQ-1 0101
UNIT GE FHQ-1 0606
UNIT US JEEP-1 0303
UNIT US RS-1 0305`, "MOVE\n JEEP-1 0304\n RS-1 0405\n")
	mine, theirs := Text(ev, us), Text(ev, ge)
	if !strings.Contains(mine, "JEEP-1 moves 0303 -> 0304") || !strings.Contains(theirs, "RS-1 moves 0305 -> 0405") {
		t.Errorf("the moves seen are missing:\nUS:\n%s\nGE:\n%s", mine, theirs)
	}
	if strings.Contains(theirs, "JEEP-1") || strings.Contains(theirs, "0304") {
		t.Errorf("GE reads of the hidden jeep:\n%s", theirs)
	}
}
