package brigadier

import (
	"fmt"

	"fieldpost/engine"
	"fieldpost/engine/brigadier/rules"
)

// Briefing implements engine.Position: the scenario's situation (its
// DESCRIPTION), the VICTORY line with the objectives' values, and the turn
// in its ten phases (11).
func (p *Position) Briefing(side string) engine.Briefing {
	st := p.st
	b := engine.Briefing{
		Turn: [5]string{
			"Both sides mail one set of orders a turn, checked against the position at its start. The side holding the initiative may keep or pass it.",
			"Orders: each platoon's rung on the ladder, raised by its commander (by radio or within 1 hex) or dropped; paths, fire and calls for artillery or air.",
			"Communications are rolled, indirect fire lands, then the platoons fire: sixes kill and push the target down the ladder.",
			"Surrender, movement with interrupt fire, close assault and the medics follow.",
			fmt.Sprintf("Time moves on 10 to 20 minutes, objectives go to the last side in them, and the report and next form are mailed; the game ends at %s.", rules.ClockText(st.End)),
		},
		Orders: "How to write orders: the order form at the end of this mail lists your platoons with worked lines of each kind of order, and is valid sent back unchanged. Reply HELP for the commands; the whole order language is docs/rules-brigadier.md of Fieldpost, \"The order language\".",
	}
	if sc, err := p.sys.scenario(st.Scenario); err == nil {
		b.Situation = sc.Description
	}
	v := st.Victory
	b.Victory = []string{
		fmt.Sprintf("%s wins if, when the clock reaches %s, it holds objectives worth %d or more.", sideTitle(st, v.Side), rules.ClockText(st.End), v.Value),
		fmt.Sprintf("%s wins if it does not.", sideTitle(st, st.Enemy(v.Side))),
		"A side with no platoon left on the map loses at once.",
	}
	b.Score = []string{"Objective values: an objective belongs to the last side with a platoon in it (11.10)."}
	for _, o := range st.Objectives {
		b.Score = append(b.Score, fmt.Sprintf("%s (%s): %d, %s holds it now", o.Name, o.Hex, o.Value, o.Holder))
	}
	return b
}

// sideTitle names a side for people, with its name in orders.
func sideTitle(st *rules.State, side string) string {
	if sd := st.Side(side); sd != nil && sd.Title != "" {
		return fmt.Sprintf("%s (%s)", sd.Title, side)
	}
	return side
}
