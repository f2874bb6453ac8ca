package ordertext

import (
	"fmt"
	"strings"

	"fieldpost/engine/stargeneral/rules"
)

// Format writes a side's valid orders in the order language, the way a
// player would type them, so that Parse reads back the same orders: what a
// program (the bot, a client) sends instead of an edited form. Every unit
// with orders lists all its stands, each with its hex first, as the order
// form does: the moving stands in the order of the orders, then the others,
// their hex alone. Choices are written in
// full; LOSSES only when the orders name a policy, so that orders that left
// it to the default still do after the round trip.
func Format(rs *rules.Ruleset, st *rules.State, o *rules.Orders, game string) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# Orders for %s, %s\n", o.Side, RoundName(rs, st))
	w("GAME %s  SIDE %s  ROUND %d\n", orDash(game), o.Side, st.Turn+1)
	for _, uo := range o.Units {
		formatUnit(&b, rs, st, &uo)
	}
	if len(o.Priority) > 0 {
		w("\nPRIORITY %s\n", strings.Join(o.Priority, " "))
	}
	if len(o.Batteries) > 0 {
		b.WriteString("\n")
	}
	for _, bo := range o.Batteries {
		w("ARTILLERY %s%s\n", bo.Battery, batteryWords(st, bo))
	}
	if len(o.AirStrikes) > 0 {
		w("AIR %s\n", hexWords(o.AirStrikes))
	}
	if o.Night != nil {
		formatNight(&b, o.Night)
	}
	w("\n%s\n", choiceWords(o.Choices))
	w("END\n")
	return b.String()
}

func formatUnit(b *strings.Builder, rs *rules.Ruleset, st *rules.State, uo *rules.UnitOrders) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("\n%s %s %s\n", unitKeyword(rs), uo.Unit, uo.Status)
	u := st.Unit(uo.Unit)
	// The moving stands come first, in the order of the orders: when two
	// stands of a unit contend for a hex the first one plotted gets it, so
	// the text must replay the round as it was played.
	moved := map[string]bool{}
	for _, m := range uo.Moves {
		if s := u.Stand(m.Stand); s != nil {
			moved[s.Name] = true
			w("  %-5s %s\n", s.Name, hexWords(append([]rules.Hex{s.Hex}, m.Path...)))
		}
	}
	for _, s := range u.Stands {
		if !moved[s.Name] {
			w("  %-5s %s\n", s.Name, s.Hex)
		}
	}
	for _, sw := range uo.Swaps {
		w("  SWAP %s TO %s\n", sw.Platoon, sw.To)
	}
	if !uo.HQPlacement.IsZero() {
		w("  HQ-RETURN %s\n", uo.HQPlacement)
	}
	if a := uo.Attack; a != nil {
		w("  ATTACK %s WITH", a.Target)
		for _, as := range a.Stands {
			mode := "FIRE"
			if as.Close {
				mode = "CLOSE"
			}
			w(" %s %s", as.Stand, mode)
		}
		var support []string
		support = append(support, a.LightArtillery...)
		for _, id := range a.Batteries {
			support = append(support, "ART "+id)
		}
		if a.Air > 0 {
			support = append(support, fmt.Sprintf("AIR %d", a.Air))
		}
		if len(support) > 0 {
			w(" SUPPORT %s", strings.Join(support, ", "))
		}
		w("\n")
	}
}

// batteryWords is a battery's orders after its id; HOLD when it has none.
func batteryWords(st *rules.State, bo rules.BatteryOrders) string {
	var parts []string
	if !bo.Fire.IsZero() {
		parts = append(parts, "FIRE "+bo.Fire.String())
	}
	if len(bo.Move) > 0 {
		// Parse drops a path's first hex when it is the battery's own, so
		// the path starts from there, as a stand's does.
		path := bo.Move
		if bt := st.Battery(bo.Battery); bt != nil {
			path = append([]rules.Hex{bt.Hex}, path...)
		}
		parts = append(parts, "MOVE "+hexWords(path))
	}
	if bo.Keep > 0 {
		parts = append(parts, fmt.Sprintf("KEEP %d", bo.Keep))
	}
	if len(parts) == 0 {
		return " HOLD"
	}
	return " " + strings.Join(parts, " ")
}

func formatNight(b *strings.Builder, n *rules.NightOrders) {
	b.WriteString("\n")
	for _, r := range n.Strength {
		fmt.Fprintf(b, "RECOVER %s %s %d\n", r.Unit, r.Stand, r.SP)
	}
	for _, p := range n.Platoons {
		if p.From != "" {
			fmt.Fprintf(b, "PLATOON %s %s FROM %s TO %s\n", p.Unit, p.Platoon, p.From, p.To)
			continue
		}
		fmt.Fprintf(b, "PLATOON %s %s TO %s\n", p.Unit, p.Platoon, p.To)
	}
	for _, r := range n.Rebuild {
		fmt.Fprintf(b, "REBUILD %s %s AT %s SP %d\n", r.Unit, r.Stand, r.Hex, r.SP)
	}
	for _, m := range n.Reshuffle {
		fmt.Fprintf(b, "RESHUFFLE %s %s TO %s\n", m.Unit, m.Stand, m.To)
	}
}

func choiceWords(c rules.Choices) string {
	var parts []string
	if c.Losses != "" {
		parts = append(parts, "LOSSES "+c.Losses)
	}
	parts = append(parts, "PURSUE "+yesNo(!c.NoPursuit), "HOLD-AT-COST "+yesNo(!c.NoHoldAtCost), "DEFENSIVE-SUPPORT "+yesNo(!c.NoDefensiveSupport))
	return strings.Join(parts, "  ")
}

func hexWords(hs []rules.Hex) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = h.String()
	}
	return strings.Join(parts, " ")
}
