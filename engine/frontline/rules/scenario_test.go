package rules

import (
	"testing"
)

// The bundled scenarios load, and every unit stands where it may: on the
// map, not at sea nor on impassable mountain, aircraft at an airfield of
// their side, crews inside what they crew.
func TestBundledScenarios(t *testing.T) {
	infos, err := Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) < 2 {
		t.Fatalf("want the introductory and the larger scenario, have %v", infos)
	}
	for _, info := range infos {
		s, err := NewGame(info.Name, 1)
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		for _, u := range s.Units {
			if !u.OnMap() {
				continue
			}
			switch s.Map.Terrain(u.Hex) {
			case Sea, Impassable:
				t.Errorf("%s: %s stands in %s (%c)", info.Name, u.Key(), u.Hex, s.Map.Terrain(u.Hex))
			}
			if s.Card(u).Kind == "aircraft" && (s.airfieldAt(u.Hex) == nil || s.Control[u.Hex] != u.Side) {
				t.Errorf("%s: %s is not at a friendly airfield", info.Name, u.Key())
			}
			if s.Card(u).Requires != "" && !s.crewed(u) {
				t.Errorf("%s: %s has no crew", info.Name, u.Key())
			}
		}
		if len(s.Victory) == 0 || s.Turns == 0 {
			t.Errorf("%s: no victory conditions or turn limit", info.Name)
		}
	}
}

// The shipped unit data keeps the book's printed numbers (design 2.1).
func TestBookAnchors(t *testing.T) {
	l, err := Lib()
	if err != nil {
		t.Fatal(err)
	}
	c := l.Cards
	check := func(what string, got, want int) {
		if got != want {
			t.Errorf("%s = %d, the book prints %d", what, got, want)
		}
	}
	check("57mm AT gun attack", c["ATG57"].Weapons[0].Attack, 13)
	check("57mm AT gun DI", c["ATG57"].Weapons[0].DI, 2)
	check("57mm AT gun AP", c["ATG57"].Weapons[0].AP, 3)
	check("Panzer IV Defense", c["PZ4"].Defense, 4)
	check("Panzer IV damaged Defense", *c["PZ4"].Damaged.Defense, 3)
	check("Panzer IV Endurance", c["PZ4"].Endurance, 10)
	check("Panzer IV breakpoint", c["PZ4"].Breakpoint, 5)
	check("Tank Crew Endurance", c["TC"].Endurance, 8)
	check("105mm attack", c["HOW105"].Weapons[0].Attack, 15)
	check("105mm DI", c["HOW105"].Weapons[0].DI, 5)
	check("Fw 190 turns of flight", c["FW190"].TOF, 1)
	check("M3A1 Defense", c["HT"].Defense, 1)
	check("2 RS + 2 Panther + 2 TC", 2*(c["RS"].Cost+c["PANTHER"].Cost+c["TC"].Cost), 54)
	check("FHQ radius", c["FHQ"].Radius, 20)
	check("CP radius", c["CP"].Radius, 15)
	check("CP damaged radius", c["CP"].RadiusDamaged, 8)
	check("FHQ income", c["FHQ"].Income, 30)
	check("Key City command post percent", l.Rules.CPKeyCityPercent, 50)
	check("large ship on time up to", l.Rules.ShipDelay[0], 7)
	check("momentum group", l.Rules.MomentumGroup, 3)
	for name := range l.Rules.Sources {
		if l.Rules.Sources[name] == "" {
			t.Errorf("rule %s has no source", name)
		}
	}
}
