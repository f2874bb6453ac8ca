package ordertext

// Orders written back as text: the form of a side's accepted orders.

import (
	"fmt"
	"strconv"
	"strings"

	"fieldpost/engine/brigadier/rules"
)

// Format writes orders in the order language, as the bot mails them.
func Format(rs *rules.Ruleset, st *rules.State, o *rules.Orders, game string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "GAME %s SIDE %s TURN %d\n", game, o.Side, st.Turn+1)
	if o.Initiative != "" && st.Initiative == o.Side {
		fmt.Fprintf(&b, "INITIATIVE %s\n", o.Initiative)
	}
	if o.Pursue != nil {
		fmt.Fprintf(&b, "PURSUE %s\n", yesNo(*o.Pursue))
	}
	if o.BugoutDefault != nil {
		fmt.Fprintf(&b, "BUGOUT-DEFAULT %s\n", bugoutText(*o.BugoutDefault))
	}
	for _, po := range o.Platoons {
		fmt.Fprintf(&b, "%s\n", PlatoonLine(rs, po))
	}
	for _, c := range o.Calls {
		fmt.Fprintf(&b, "CALL %s ON %s BY %s", strings.Join(c.Batteries, " "), c.Target, c.By)
		if c.Delay {
			b.WriteString(" DELAY")
		}
		b.WriteString("\n")
	}
	for _, sk := range o.Strikes {
		fmt.Fprintf(&b, "%s\n", strikeLine(sk))
	}
	for _, c := range o.Cancels {
		fmt.Fprintf(&b, "CANCEL %s BY %s\n", c.Target, c.By)
	}
	b.WriteString("END\n")
	return b.String()
}

func strikeLine(sk rules.Strike) string {
	if sk.By != "" {
		return fmt.Sprintf("AIR %s ON %s BY %s", sk.Flight, sk.Target, sk.By)
	}
	return fmt.Sprintf("AIR %s ON %s", sk.Flight, sk.Target)
}

// PlatoonLine writes one platoon's order line.
func PlatoonLine(rs *rules.Ruleset, po rules.PlatoonOrder) string {
	if po.Follow != "" {
		return fmt.Sprintf("%s FOLLOW %s", po.Platoon, po.Follow)
	}
	parts := []string{po.Platoon, strings.ToUpper(rs.OrderName(po.Order))}
	if po.By != "" {
		parts = append(parts, "BY", po.By)
	}
	for _, h := range po.Path {
		parts = append(parts, h.String())
	}
	if !po.Fire.IsZero() {
		parts = append(parts, "FIRE", po.Fire.String())
	}
	if !po.Assault.IsZero() {
		parts = append(parts, "ASSAULT", po.Assault.String())
	}
	if po.Delay {
		parts = append(parts, "DELAY")
	}
	if po.ElseNearest {
		parts = append(parts, "ELSE", "NEAREST")
	}
	if r := po.Reserve; r != nil {
		parts = append(parts, "RESERVE")
		if r.At > 0 {
			parts = append(parts, "AT", strconv.Itoa(r.At))
		}
		if r.Min > 0 {
			parts = append(parts, "MIN", strconv.Itoa(r.Min))
		}
		if r.Only != "" {
			parts = append(parts, strings.ToUpper(r.Only))
		}
	}
	if po.Bugout > 0 {
		parts = append(parts, "BUGOUT", strconv.Itoa(po.Bugout))
	}
	return strings.Join(parts, " ")
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

func bugoutText(v int) string {
	if v == 0 {
		return "never"
	}
	return strconv.Itoa(v)
}
