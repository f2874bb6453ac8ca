package ordertext

import (
	"encoding/json"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/brigadier/rules"
)

// Any mail, however garbled, gets problems or orders, never a panic;
// orders Parse accepts play, and written back as text they read again as
// the same orders.
func FuzzParse(f *testing.F) {
	rs, err := rules.BundledRuleset()
	if err != nil {
		f.Fatal(err)
	}
	text, _ := rules.BundledScenarioText("wood-edge")
	sc, err := rules.ParseScenario(rs, text)
	if err != nil {
		f.Fatal(err)
	}
	st := sc.State
	for _, side := range []string{"german", "us"} {
		f.Add(side, Form(rs, st, side, "g"))
	}
	f.Add("german", "Hello umpire,\nGAME g1 SIDE german TURN 1\n1Zug CHARGE\n2Zug MOVE 0606 0706 FIRE\nEND\nCheers")
	f.Add("german", "MG AIM RESERVE AT 4 MIN 2 VEHICLES BUGOUT 12\nBUGOUT-DEFAULT 9\nPURSUE no\n")
	f.Add("us", "CALL 10.5 ON 1305 BY 1Plt\nCANCEL 1305\nINITIATIVE pass\n")
	f.Fuzz(func(t *testing.T, side, text string) {
		if side != "german" && side != "us" {
			return
		}
		sub, probs := Parse(rs, st, side, text)
		if len(probs) > 0 {
			return
		}
		Echo(rs, st, sub.Orders)
		if _, _, err := rules.Resolve(rs, st, []*rules.Orders{sub.Orders}, engine.NewSeededDice(1)); err != nil {
			t.Fatalf("accepted orders do not play: %v\n%s", err, text)
		}
		again, probs := Parse(rs, st, side, Format(rs, st, sub.Orders, "g"))
		if len(probs) > 0 {
			t.Fatalf("accepted orders written back do not read: %v\n%s\nwritten:\n%s", probs, text, Format(rs, st, sub.Orders, "g"))
		}
		want, got := withoutLines(sub.Orders), withoutLines(again.Orders)
		if string(want) != string(got) {
			t.Fatalf("orders written back read otherwise:\n%s\n%s\nfrom:\n%s", want, got, text)
		}
	})
}

// withoutLines is the orders as JSON without the line each was read from.
func withoutLines(o *rules.Orders) string {
	c := *o
	c.Platoons = append([]rules.PlatoonOrder(nil), o.Platoons...)
	for i := range c.Platoons {
		c.Platoons[i].Line = 0
	}
	b, _ := json.Marshal(c)
	return string(b)
}
