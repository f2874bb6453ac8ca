package stargeneral

import (
	"fmt"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral/rules"
)

// Briefing implements engine.Position: the scenario's introduction, the
// victory conditions and objective points from the scenario, and the
// round as the rules play it (1.6, 1.7, 5.1, 11).
func (p *Position) Briefing(side string) engine.Briefing {
	st := p.st
	b := engine.Briefing{
		Turn: [5]string{
			"Both sides mail their orders for the round at the same time: each battalion's status (M move, H hold, D dig in, R retreat), its stands' paths, its attack, the batteries' fire.",
			"Retreating units move first; then the sides roll 2D6 before every activation and the higher acts with its next unit (your PRIORITY line says which). Every unit acts once.",
			"A unit acting moves its stands, then makes its attack, by fire or in close combat, with the support you gave it; the defender fires back.",
			"When every unit has acted, the batteries and air points left fire in the artillery phase, side by side.",
			"Objectives are taken, the report is mailed with the map and the next order form. " + p.length() + ".",
		},
		Orders: "How to write orders: the order form at the end of this mail says it line by line, and is valid sent back unchanged. Reply HELP for the commands; the whole order language is docs/orders.md of Fieldpost.",
	}
	if sc, err := rules.BundledScenario(st.Scenario); err == nil {
		b.Situation = sc.Description
	}
	var points []string
	for _, o := range st.SortedObjectives() {
		holder := "nobody holds it yet"
		if o.Owner != "" {
			holder = o.Owner + " holds it"
		}
		points = append(points, fmt.Sprintf("%s (%s): %s, %s", o.Name, o.Hex, countOf(o.Value, "point"), holder))
	}
	enemy := st.Enemy(side)
	switch v := st.Victory; v.Kind {
	case rules.VictoryHold:
		b.Victory = []string{
			fmt.Sprintf("%s wins by holding objectives worth %d points or more after the last round.", sideName(st, v.Side), v.Need),
			fmt.Sprintf("%s wins if it does not.", sideName(st, st.Enemy(v.Side))),
		}
	default:
		b.Victory = []string{fmt.Sprintf("After the last round the side holding objectives worth more points wins, %s or %s; equal points are a draw.",
			sideName(st, side), sideName(st, enemy))}
	}
	b.Victory = append(b.Victory, fmt.Sprintf("A side with no %s left in the battle loses at once.", p.rs.UnitWord))
	b.Score = append([]string{"Objective points: an objective belongs to the last side to hold it alone, with a stand or a battery in its hex (11)."}, points...)
	return b
}

// length says how long the game lasts.
func (p *Position) length() string {
	return fmt.Sprintf("The game lasts %s of %d rounds", countOf(p.st.Days, "day"), p.rs.RoundsPerDay)
}

// countOf is n things in words: "1 point", "2 points".
func countOf(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// sideName names a side for people: its title and its name in orders.
func sideName(st *rules.State, side string) string {
	if sd := st.Side(side); sd != nil && sd.Title != "" {
		return fmt.Sprintf("%s (%s)", sd.Title, side)
	}
	return side
}
