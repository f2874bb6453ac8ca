package ordertext

import (
	"strings"
	"testing"

	"fieldpost/engine/stargeneral/rules"
)

// The scenario loader refuses names spelled like a word of the order
// language (rules.IsOrderWord): its list must hold every word the parser
// gives a meaning of its own.
func TestOrderWordsAreReservedInScenarios(t *testing.T) {
	var words []string
	for w := range keywords {
		words = append(words, w)
	}
	for w := range unitWords {
		words = append(words, w)
	}
	// The words of modeWord, isStayWord, the attack, artillery and night
	// lines, and the end of the orders.
	words = append(words, "CLOSE", "CC", "CLOSE-COMBAT", "DF", "DISTANT", "RANGED", "DISTANT-FIRE",
		"-", "STAY", "STAYS", "HOLDS", "STOP", "WITH", "SUPPORT", "SUPPORTED", "AT", "MOVE", "KEEP", "HOLD",
		"TO", "SP", "END")
	for _, w := range words {
		if !rules.IsOrderWord(w) || !rules.IsOrderWord(strings.ToLower(w)) {
			t.Errorf("%s is a word of the order language, but rules.IsOrderWord does not know it", w)
		}
	}
}

// A platoon may be named "at" (anti-tank), as the bundled scenarios name
// them: the night's PLATOON order must read it, not drop it as the filler
// word of "REBUILD I/77 1C AT 0505".
func TestNightPlatoonNamedAt(t *testing.T) {
	rs, st := testState(t)
	night := st.Clone()
	night.Night = true
	u := night.Unit("I/77")
	for _, s := range u.Stands {
		if s.Support != nil && s.Support.Name == "at" {
			u.LostPlatoons = append(u.LostPlatoons, s.Support)
			s.Support = nil
		}
	}
	sub, errs := Parse(rs, night, "axis", "PLATOON I/77 at TO 1C\n")
	for _, e := range errs {
		if strings.Contains(e.Text, "write PLATOON") {
			t.Fatalf("the order is not read: %v", errs)
		}
	}
	if n := sub.Orders.Night; n == nil || len(n.Platoons) != 1 || n.Platoons[0].Platoon != "at" || n.Platoons[0].To != "1C" {
		t.Errorf("night orders %+v, want platoon at to 1C", sub.Orders.Night)
	}
}
