package ordertext_test

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral/data"
	"fieldpost/engine/stargeneral/ordertext"
	"fieldpost/engine/stargeneral/rules"
)

// fuzzPosition is a real position the order parser is fuzzed on.
type fuzzPosition struct {
	name string
	rs   *rules.Ruleset
	st   *rules.State
}

// fuzzPositions are the starts of the bundled scenarios and the positions
// of a few random rounds of each, worn and at night (samplePositions).
func fuzzPositions(f *testing.F) []fuzzPosition {
	var out []fuzzPosition
	for _, name := range rules.BundledScenarioNames() {
		sc, err := rules.BundledScenario(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, st := range samplePositions(f, sc.Ruleset, sc.NewGame(), rand.New(rand.NewPCG(7, uint64(len(name))))) {
			out = append(out, fuzzPosition{name: name, rs: sc.Ruleset, st: st})
		}
	}
	return out
}

// FuzzOrders reads order texts on real positions. Orders the parser
// accepts must be valid by the rules, read back the same from Format's
// text, and play through Resolve against the other side's default orders.
// Every error is on a line of the text.
func FuzzOrders(f *testing.F) {
	positions := fuzzPositions(f)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i, p := range positions {
		for j, sd := range p.st.Sides {
			f.Add(uint16(i), j == 1, ordertext.Form(p.rs, p.st, sd.Name, p.name+"-1"))
			f.Add(uint16(i), j == 1, ordertext.Format(p.rs, p.st, randomOrders(p.rs, p.st, sd.Name, rnd), p.name+"-1"))
		}
	}
	f.Add(uint16(0), false, "BN 743 M\n  A 0303 0403\n  ATTACK 0504 WITH A SUPPORT AIR 9223372036854775807\n")
	f.Fuzz(func(t *testing.T, pos uint16, second bool, body string) {
		p := positions[int(pos)%len(positions)]
		side, other := p.st.Sides[0].Name, p.st.Sides[1].Name
		if second {
			side, other = other, side
		}
		sub, errs := ordertext.Parse(p.rs, p.st, side, body)
		lines := strings.Count(body, "\n") + 1
		for _, e := range errs {
			if e.Text == "" || e.Line < 0 || e.Line > lines {
				t.Fatalf("error %+v: no message, or not on one of the %d lines", e, lines)
			}
		}
		if errs != nil {
			return
		}
		if probs := rules.Validate(p.rs, p.st, sub.Orders); len(probs) > 0 {
			t.Fatalf("accepted orders are invalid: %v", probs)
		}
		text := ordertext.Format(p.rs, p.st, sub.Orders, p.name+"-1")
		again, errs := ordertext.Parse(p.rs, p.st, side, text)
		if errs != nil {
			t.Fatalf("Format's text of accepted orders is refused: %v\n%s", errs, text)
		}
		if !reflect.DeepEqual(normalised(again.Orders), normalised(sub.Orders)) {
			t.Fatalf("Format and Parse changed the orders:\n got %+v\nwant %+v\n%s", again.Orders, sub.Orders, text)
		}
		orders := []*rules.Orders{sub.Orders, rules.DefaultOrders(p.rs, p.st, other)}
		if _, _, err := rules.Resolve(p.rs, p.st, orders, engine.NewSeededDice(uint64(len(body)))); err != nil && !p.st.Ended {
			t.Fatalf("accepted orders do not play: %v", err)
		}
	})
}

// FuzzScenario loads scenario texts. The loader never panics, puts every
// error on a line of the text, and a scenario it accepts can be played by
// mail: the unchanged order form of each side, day and night, is accepted
// and orders nothing.
func FuzzScenario(f *testing.F) {
	for _, name := range rules.BundledScenarioNames() {
		text, err := data.Files.ReadFile("scenarios/" + name + ".txt")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(text))
	}
	f.Add("RULESET 2sg\nMAP 10 10 0\nTERRAIN woods 0101\n")
	f.Add("RULESET 2sg\nMAP 3 2 open\nSIDE 0\nUNIT a M\n  HQ hq 0101\n  1b infantry 0102\n  1B infantry 0201\nSIDE b\nUNIT c H\n  HQ hq 0302\n")
	f.Fuzz(func(t *testing.T, text string) {
		sc, err := rules.ParseScenario([]byte(text), rules.BundledRuleset)
		lines := strings.Count(text, "\n") + 1
		if err != nil {
			errs, ok := err.(rules.LineErrors)
			if !ok {
				t.Fatalf("error %T, want LineErrors: %v", err, err)
			}
			for _, e := range errs {
				if e.Msg == "" || e.Line < 1 || e.Line > lines {
					t.Fatalf("error %+v: not on one of the %d lines", e, lines)
				}
			}
			return
		}
		st := sc.NewGame()
		night := st.Clone()
		night.Night = true
		for _, pos := range []*rules.State{st, night} {
			for _, sd := range pos.Sides {
				form := ordertext.Form(sc.Ruleset, pos, sd.Name, "g-1")
				sub, errs := ordertext.Parse(sc.Ruleset, pos, sd.Name, form)
				if errs != nil {
					t.Fatalf("the unchanged form of %s (night %v) is refused:\n%v\n%s", sd.Name, pos.Night, errs, form)
				}
				for _, uo := range sub.Orders.Units {
					if len(uo.Moves) > 0 || uo.Attack != nil || len(uo.Swaps) > 0 {
						t.Fatalf("the unchanged form of %s orders %+v", sd.Name, uo)
					}
				}
			}
		}
	})
}
