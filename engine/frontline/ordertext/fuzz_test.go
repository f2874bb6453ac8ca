package ordertext

import (
	"fieldpost/engine"
	"testing"

	"fieldpost/engine/frontline/rules"
)

// Any mail, however garbled, gets problems or orders, never a panic; and
// orders Parse accepts always play.
func FuzzParse(f *testing.F) {
	s, err := rules.NewGame("ofanto", 3)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(Form(s, "g", "US"))
	f.Add("MOVE\n JEEP-1 1211 1311 RECON 1310\nCOMBAT\n ENGAGE 1110 WITH RS-1 WITHDRAW IF LOST 2\n  RS-1 AT GE:RS-1 HE\n")
	f.Add("PRODUCE\n BUY SHER 1\n BUY TC 1\n BUILD CP AT 1211 BY RS-1\nREACT\n WITHDRAW any IF ODDS<0.5 TO 1311\n")
	f.Add("MOVE\n ENCIRCLE 1110 OPEN 1009\n HT-1 1311 LOAD RS-3 1211 UNLOAD RS-3\n")
	f.Fuzz(func(t *testing.T, text string) {
		sub, probs := Parse(s, "US", text)
		o := sub.Orders
		if len(probs) > 0 {
			return
		}
		if _, _, err := s.Play(o, engine.NewSeededDice(1)); err != nil {
			t.Fatalf("accepted orders do not play: %v\n%s", err, text)
		}
		Echo(s, o)
	})
}
