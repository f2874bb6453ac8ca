package ordertext

import (
	"encoding/json"
	"slices"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/frontline/bot"
	"fieldpost/engine/frontline/rules"
)

// Every side's bot orders, in every position of whole bot games of both
// scenarios, read back unchanged from their text: the active side's full
// orders and the waiting side's standing orders.
func TestFormatRoundTripsBotOrders(t *testing.T) {
	checked, moves, engagements, buys, deploys := 0, 0, 0, 0, 0
	for _, sc := range []string{"ofanto", "foggia"} {
		for seed := uint64(1); seed <= 20; seed++ {
			s, err := rules.NewGame(sc, seed)
			if err != nil {
				t.Fatal(err)
			}
			for turn := 0; !s.Over; turn++ {
				if turn > 100 {
					t.Fatalf("%s seed %d: no end after 100 player turns", sc, seed)
				}
				for _, side := range s.Sides {
					o := bot.Plan(s, side)
					text := Format(s, o, "g1")
					sub, probs := Parse(s, side, text)
					got := sub.Orders
					if len(probs) > 0 {
						t.Fatalf("%s seed %d turn %d %s: refused: %v\n%s", sc, seed, turn, side, probs, text)
					}
					if want, have := normalised(t, o), normalised(t, got); want != have {
						t.Fatalf("%s seed %d turn %d %s: read back differently\nwant %s\ngot  %s\n%s", sc, seed, turn, side, want, have, text)
					}
					checked++
					moves += len(o.Moves)
					engagements += len(o.Engagements)
					buys += len(o.Buys)
					deploys += len(o.Deploys)
				}
				n, _, err := s.Play(bot.Plan(s, s.Active), engine.NewSeededDice(engine.RoundSeed(seed, turn)))
				if err != nil {
					t.Fatal(err)
				}
				s = n
			}
		}
	}
	t.Logf("%d orders read back unchanged: %d moves, %d engagements, %d buys, %d deploys", checked, moves, engagements, buys, deploys)
}

// Every option of the language is written so that it reads back: the
// check is of the text, so the rules may refuse these orders here.
func TestFormatRoundTripsEveryOption(t *testing.T) {
	s, err := rules.NewGame("ofanto", 1)
	if err != nil {
		t.Fatal(err)
	}
	hex := func(c, r int) rules.Hex { return rules.Hex{Col: c, Row: r} }
	o := rules.Orders{
		Side:   s.Active,
		Buys:   []rules.Buy{{Code: "RS", Count: 2}, {Code: "PZ4", Count: 1, XP: 2}},
		Builds: []rules.Build{{Code: "MINES", Hex: hex(3, 4), By: "ENG-1"}},
		Idle:   []string{"RS-1", "RS-2"},
		Moves: []rules.Move{
			{Unit: "TC-1", Push: true, HitAndRun: true, Steps: []rules.Step{
				{Hex: hex(3, 4)}, {Act: rules.ActLoad, Unit: "RS-1"}, {Hex: hex(3, 5)},
				{Act: rules.ActUnload, Unit: "RS-1"}, {Act: rules.ActHitch, Unit: "AT-1"},
				{Act: rules.ActUnhitch, Unit: "AT-1"}, {Act: rules.ActDig}, {Act: rules.ActRecon, Hex: hex(3, 6)},
				{Act: rules.ActDetonate, Hex: hex(4, 6)}, {Act: rules.ActClear, Unit: "MINES-1"},
				{Act: rules.ActRepair}, {Act: rules.ActMerge, Unit: "RS-3"}, {Act: rules.ActMan, Unit: "PZ4-2"}}},
			{Unit: "JU87-1", Land: hex(2, 2), Steps: []rules.Step{{Hex: hex(2, 3)}}},
		},
		Encircle: []rules.Encircle{{Hex: hex(5, 5), Open: hex(5, 6)}},
		Engagements: []rules.Engagement{
			{Hex: hex(3, 5), Units: []string{"RS-1", "PZ4-1", "AT-1"},
				Targets: map[string]string{"PZ4-1": "US:SHER-1", "RS-1": "US:RS-2", "AT-1": "BRIDGE:0305-0306"},
				HE:      []string{"RS-1", "AT-1"},
				Mission: &rules.Mission{FO: "FO-1", Guns: []string{"ART-1", "ART-2"}, FFE: true, Pin: true},
				Suspend: &rules.Condition{Kind: "LOST", N: 2}, Withdraw: &rules.Condition{Kind: "ODDS<", R: 0.5},
				CeaseFire: &rules.Condition{Kind: "ROUND>=", N: 3}, Surrender: &rules.Condition{Kind: "ENEMY-HAS", What: "tank"},
				Inspire: true, Exit: 2},
			{Hex: hex(4, 4), Units: []string{"HT-1", "RS-5"}, Dismount: []rules.DismountOrder{{Carrier: "HT-1", Unit: "RS-5"}}},
			{Hex: hex(4, 5), Units: []string{"RS-4"}, Withdraw: &rules.Condition{Kind: "ENEMY-COST>", N: 40},
				Suspend: &rules.Condition{Kind: "ODDS>", R: 2.5}, Mission: &rules.Mission{FO: "FO-1", Guns: []string{"ART-1"}, Blind: true}},
		},
		Deploys:  []rules.Deploy{{Unit: "RS-9", Hex: hex(1, 1)}, {Unit: "RS-11", On: "LST-1"}},
		Rush:     []string{"RS-10"},
		Convert:  "CP-1",
		Relocate: []rules.Relocate{{Post: "CP-2", To: hex(6, 6), By: "RS-4"}},
		Standing: &rules.Standing{
			Retaliate: "list", RetaliateUnits: []string{"RS-1", "AT-1"}, Targets: "armour-first", AP: "never",
			DefensiveCombat: true,
			Withdraw:        []rules.HexOrder{{Hex: hex(3, 4), If: &rules.Condition{Kind: "LOST", N: 1}, To: hex(3, 3)}, {}},
			Inspire:         []rules.HexOrder{{Hex: hex(3, 4)}},
			Interdict:       []rules.HexOrder{{FO: "FO-1", Guns: []string{"ART-1"}}},
			Support:         []rules.HexOrder{{Hex: hex(3, 4), FO: "FO-1", Guns: []string{"ART-1"}, Mission: "PIN", FFE: true}},
			Cover:           []rules.HexOrder{{Hex: hex(3, 6), FO: "FO-1", Guns: []string{"ART-2"}}},
			CeaseFire:       []rules.HexOrder{{If: &rules.Condition{Kind: "ODDS<", R: 0.25}}},
			Surrender:       []rules.HexOrder{{Hex: hex(3, 4), If: &rules.Condition{Kind: "ALWAYS"}}},
			AcceptCeasefire: "if-losing", AcceptSurrender: "no",
			Scramble: []string{"ME109-1"}, Captured: "destroy",
		},
	}
	text := Format(s, o, "g1")
	sub, _ := Parse(s, o.Side, text)
	got := sub.Orders
	if want, have := normalised(t, o), normalised(t, got); want != have {
		t.Errorf("read back differently\nwant %s\ngot  %s\n%s", want, have, text)
	}
}

// normalised returns orders as JSON without their Line fields and with the
// defaults Parse fills in written out: a standing order's empty choices
// (retaliate all, best-odds, AP auto, accept no ceasefire, accept
// surrender, DESTROY missions), a missing standing condition as ALWAYS, and
// a condition's number in both its fields (Parse reads ODDS<1.5 as R 1.5
// and N 1, ROUND>=3 as N 3 and R 3). HE is a set: Parse lists it in the
// order of the target lines.
func normalised(t *testing.T, o rules.Orders) string {
	t.Helper()
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	var c rules.Orders
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	for i := range c.Buys {
		c.Buys[i].Line = 0
	}
	for i := range c.Builds {
		c.Builds[i].Line = 0
	}
	for i := range c.Moves {
		c.Moves[i].Line = 0
		if len(c.Moves[i].Steps) == 0 {
			c.Moves[i].Steps = nil
		}
	}
	for i := range c.Encircle {
		c.Encircle[i].Line = 0
	}
	for i := range c.Deploys {
		c.Deploys[i].Line = 0
	}
	for i := range c.Relocate {
		c.Relocate[i].Line = 0
	}
	for i := range c.Engagements {
		e := &c.Engagements[i]
		e.Line, e.TargetLines = 0, nil
		for k := range e.Smoke {
			e.Smoke[k].Line = 0
			fillCondition(e.Smoke[k].If)
		}
		for k := range e.Dismount {
			e.Dismount[k].Line = 0
		}
		slices.Sort(e.HE)
		for _, cond := range []*rules.Condition{e.Suspend, e.Withdraw, e.CeaseFire, e.Surrender} {
			fillCondition(cond)
		}
	}
	if st := c.Standing; st != nil {
		st.Retaliate = orWord(st.Retaliate, "all")
		st.Targets = orWord(st.Targets, "best-odds")
		st.AP = orWord(st.AP, "auto")
		st.AcceptCeasefire = orWord(st.AcceptCeasefire, "never")
		st.AcceptSurrender = orWord(st.AcceptSurrender, "yes")
		st.Captured = orWord(st.Captured, "keep")
		for _, list := range [][]rules.HexOrder{st.Withdraw, st.Inspire, st.Interdict, st.Support, st.Cover, st.CeaseFire, st.Surrender, st.Smoke} {
			for i := range list {
				list[i].Line = 0
				fillCondition(list[i].If)
			}
		}
		for _, list := range [][]rules.HexOrder{st.Withdraw, st.CeaseFire, st.Surrender} {
			for i := range list {
				if list[i].If == nil {
					list[i].If = &rules.Condition{Kind: "ALWAYS"}
				}
			}
		}
		for i := range st.Support {
			st.Support[i].Mission = orWord(st.Support[i].Mission, "DESTROY")
		}
	}
	b, err = json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func fillCondition(c *rules.Condition) {
	if c == nil {
		return
	}
	switch c.Kind {
	case "ODDS<", "ODDS>":
		c.N = int(c.R)
	case "ROUND>=", "ENEMY-COST>":
		c.R = float64(c.N)
	}
}
