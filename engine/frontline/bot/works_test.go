package bot

import (
	"testing"

	"fieldpost/engine/frontline/rules"
)

// An engineer standing in a hex the enemy needs to win builds a pillbox
// there, and the garrison occupies a pillbox standing in such a hex
// instead of digging in (§VI.5.3, Glossary Emplacement).
func TestBotFortifiesGuardedHexes(t *testing.T) {
	s, err := rules.ParseScenario(`BOARD ofanto
SIDES US GE
TURN 1 US US=1 GE=0
TREASURY US 30
UNIT US FHQ-1 1812
UNIT GE FHQ-1 0405
CONTROL US 1812
VICTORY GE HOLD 1812
UNIT US ENG-1 1812`)
	if err != nil {
		t.Fatal(err)
	}
	o := Plan(s, "US")
	if len(o.Builds) != 1 || o.Builds[0].Code != "PILLBOX" || o.Builds[0].By != "ENG-1" {
		t.Fatalf("builds %+v, want ENG-1 building a PILLBOX at 1812", o.Builds)
	}
	for _, m := range o.Moves {
		if m.Unit == "ENG-1" {
			t.Errorf("ENG-1 builds, yet the plan moves it: %+v", m)
		}
	}

	s, err = rules.ParseScenario(`BOARD ofanto
SIDES US GE
TURN 2 US US=2 GE=1
TREASURY US 30
UNIT US FHQ-1 1812
UNIT GE FHQ-1 0405
CONTROL US 1812
VICTORY GE HOLD 1812
UNIT US PILLBOX-1 1812
UNIT US RS-1 1812
UNIT US RS-2 1812`)
	if err != nil {
		t.Fatal(err)
	}
	o = Plan(s, "US")
	occupy, dig := 0, 0
	for _, m := range o.Moves {
		for _, st := range m.Steps {
			switch st.Act {
			case rules.ActOccupy:
				occupy++
			case rules.ActDig:
				dig++
			}
		}
	}
	if occupy != 1 || dig != 1 {
		t.Errorf("moves %+v: want one squad into PILLBOX-1 and the other digging in", o.Moves)
	}
}
