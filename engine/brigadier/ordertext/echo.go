package ordertext

// The echo of accepted orders, with the odds of their fire.

import (
	"fmt"
	"math"
	"strings"

	"fieldpost/engine/brigadier/rules"
)

// Echo is the reply to valid orders: each line as read, each fire plan
// with its expected sixes, kills and rungs.
func Echo(rs *rules.Ruleset, st *rules.State, o *rules.Orders) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Orders accepted for %s, turn %d. You may send new orders until the turn is played; the last accepted ones count.\n\n", o.Side, st.Turn+1)
	if o.Initiative != "" {
		fmt.Fprintf(&b, "INITIATIVE %s\n", o.Initiative)
	}
	for _, po := range o.Platoons {
		p := st.Platoon(o.Side, po.Platoon)
		fmt.Fprintf(&b, "%s\n", PlatoonLine(rs, po))
		if po.Fire.IsZero() || p == nil {
			continue
		}
		if t := st.At(po.Fire); t != nil {
			fmt.Fprintf(&b, "    %s\n", odds(rs, st, p, po.Order, t))
		}
	}
	for _, sk := range o.Strikes {
		fmt.Fprintf(&b, "%s\n", strikeLine(sk))
	}
	for _, c := range o.Cancels {
		fmt.Fprintf(&b, "CANCEL %s BY %s\n", c.Target, c.By)
	}
	for _, c := range o.Calls {
		fmt.Fprintf(&b, "CALL %s ON %s BY %s", strings.Join(c.Batteries, " "), c.Target, c.By)
		if t := st.At(c.Target); t != nil {
			dice := 0
			for _, bn := range c.Batteries {
				if bt := st.Battery(o.Side, bn); bt != nil {
					w := rs.Weapons[rs.Batteries[bt.Type].Weapon]
					dice += int(math.Ceil(float64(rs.Count.I()) * w.FD(rs.Types[t.Type].Class)))
				} else if g := st.Artillery(rs, o.Side, bn); g != nil {
					_, d := rules.BestWeapon(rs, g, t, rules.Distance(g.Hex, t.Hex))
					dice += d
				}
			}
			fmt.Fprintf(&b, "\n    %s", expect(rs, st, t, dice, "area", true))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func odds(rs *rules.Ruleset, st *rules.State, p *rules.Platoon, order int, t *rules.Platoon) string {
	w, dice := rules.BestWeapon(rs, p, t, rules.Distance(p.Hex, t.Hex))
	mode := rs.Rung(order).Fire
	indirect := w != "" && rs.Weapons[w].Indirect
	if indirect {
		mode = "area"
	}
	return fmt.Sprintf("%s with %s: %s", p.Name, w, expect(rs, st, t, dice, mode, indirect))
}

// expect is the expected result of dice at t: sixes, kills and rungs.
func expect(rs *rules.Ruleset, st *rules.State, t *rules.Platoon, dice int, mode string, indirect bool) string {
	mult := float64(rs.Rung(t.Order).EnemyDice.I())
	cover := rules.CoverOf(rs, st, t, indirect)
	div := rs.Cover[cover].AimedDiv.V
	stepFrom := rs.AimedStepFrom.V
	if mode == "area" {
		div = rs.Cover[cover].AreaDiv.V
		stepFrom = rs.AreaStepFrom.V
	}
	sixes := float64(dice) * mult / 6
	steps := float64(dice) * mult * (7 - stepFrom) / 6
	exp := t.Exp
	if exp == "" {
		exp = "regular" // an enemy's experience is not known: Regular assumed
	}
	rungs := math.Max(0, steps-rs.Absorb[exp].V)
	return fmt.Sprintf("%d dice (%s) at %s %s (%s, %s cover): expect %.1f sixes, %.1f kills, %.1f rungs down",
		dice, mode, t.Name, t.Hex, rs.OrderName(t.Order), cover, sixes, sixes/div, rungs)
}
