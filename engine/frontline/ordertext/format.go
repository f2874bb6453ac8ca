package ordertext

import (
	"fmt"
	"sort"
	"strings"

	"fieldpost/engine/frontline/rules"
)

// Format writes a side's orders in the order language, so that Parse reads
// them back to the same orders (their Line fields aside). Empty sections
// are left out; REACT is written only when the orders replace the
// standing orders, since Parse reads a REACT section as a replacement.
func Format(s *rules.State, o rules.Orders, game string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "GAME %s SIDE %s ROUND %d\n", game, o.Side, s.Plays+1)
	if len(o.Buys)+len(o.Builds) > 0 {
		b.WriteString("PRODUCE\n")
		for _, x := range o.Buys {
			fmt.Fprintf(&b, "  BUY %s %d", x.Code, x.Count)
			if x.XP != 0 {
				fmt.Fprintf(&b, " XP %d", x.XP)
			}
			b.WriteString("\n")
		}
		for _, x := range o.Builds {
			at := x.Hex.String()
			if !x.Across.IsZero() {
				at += "-" + x.Across.String()
			}
			fmt.Fprintf(&b, "  BUILD %s AT %s BY %s\n", x.Code, at, x.By)
		}
	}
	if len(o.Idle) > 0 {
		fmt.Fprintf(&b, "IDLE %s\n", strings.Join(o.Idle, " "))
	}
	if len(o.Moves)+len(o.Encircle) > 0 {
		b.WriteString("MOVE\n")
		for _, m := range o.Moves {
			b.WriteString("  " + formatMove(m) + "\n")
		}
		for _, e := range o.Encircle {
			fmt.Fprintf(&b, "  ENCIRCLE %s OPEN %s\n", e.Hex, e.Open)
		}
	}
	if len(o.Engagements) > 0 {
		b.WriteString("COMBAT\n")
		for _, e := range o.Engagements {
			formatEngagement(&b, e)
		}
	}
	if len(o.Deploys) > 0 {
		b.WriteString("DEPLOY\n")
		for _, d := range o.Deploys {
			if d.On != "" {
				fmt.Fprintf(&b, "  %s ON %s\n", d.Unit, d.On)
				continue
			}
			fmt.Fprintf(&b, "  %s AT %s\n", d.Unit, d.Hex)
		}
	}
	if len(o.Rush) > 0 {
		fmt.Fprintf(&b, "RUSH %s\n", strings.Join(o.Rush, " "))
	}
	if o.Convert != "" {
		fmt.Fprintf(&b, "CONVERT %s\n", o.Convert)
	}
	for _, rl := range o.Relocate {
		fmt.Fprintf(&b, "RELOCATE %s TO %s BY %s\n", rl.Post, rl.To, rl.By)
	}
	if o.Standing != nil {
		b.WriteString("REACT\n")
		b.WriteString(FormatStanding(*o.Standing))
	}
	b.WriteString("END\n")
	return b.String()
}

// formatMove writes a unit's steps in order, then its PUSH, HIT-AND-RUN
// and LAND, which Parse reads wherever they stand on the line.
func formatMove(m rules.Move) string {
	w := []string{m.Unit}
	for _, st := range m.Steps {
		switch st.Act {
		case rules.ActEnter:
			w = append(w, st.Hex.String())
		case rules.ActRecon, rules.ActDetonate:
			w = append(w, st.Act, st.Hex.String())
		case rules.ActDig, rules.ActRepair:
			w = append(w, st.Act)
		default:
			w = append(w, st.Act, st.Unit)
		}
	}
	if m.Push {
		w = append(w, "PUSH")
	}
	if m.HitAndRun {
		w = append(w, "HIT-AND-RUN")
	}
	if !m.Land.IsZero() {
		w = append(w, "LAND", m.Land.String())
	}
	return strings.Join(w, " ")
}

// formatEngagement writes ENGAGE with its conditions, then one line per
// initial target (the engaged units' in their order, then any other
// attacker's by name), then the fire mission. Parse records HE only on a
// target line, so an HE unit without a target is not written.
func formatEngagement(b *strings.Builder, e rules.Engagement) {
	fmt.Fprintf(b, "  ENGAGE %s WITH %s", e.Hex, strings.Join(e.Units, " "))
	for _, c := range []struct {
		word string
		cond *rules.Condition
	}{{"SUSPEND", e.Suspend}, {"WITHDRAW", e.Withdraw}, {"CEASEFIRE", e.CeaseFire}, {"SURRENDER", e.Surrender}} {
		if c.cond != nil {
			fmt.Fprintf(b, " %s IF %s", c.word, FormatCondition(c.cond))
		}
	}
	if e.Inspire {
		b.WriteString(" INSPIRE")
	}
	if e.Exit != 0 {
		fmt.Fprintf(b, " EXIT %d", e.Exit)
	}
	b.WriteString("\n")
	var attackers []string
	written := map[string]bool{}
	for _, u := range e.Units {
		if _, ok := e.Targets[u]; ok && !written[u] {
			attackers = append(attackers, u)
			written[u] = true
		}
	}
	var others []string
	for u := range e.Targets {
		if !written[u] {
			others = append(others, u)
		}
	}
	sort.Strings(others)
	for _, u := range append(attackers, others...) {
		ammo := "AP"
		for _, he := range e.HE {
			if he == u {
				ammo = "HE"
			}
		}
		fmt.Fprintf(b, "    %s AT %s %s\n", u, e.Targets[u], ammo)
	}
	if m := e.Mission; m != nil {
		kind := ""
		switch {
		case m.Pin:
			kind = " PIN"
		case m.Blind:
			kind = " BLIND"
		}
		then := ""
		if m.FFE {
			then = " THEN FFE"
		}
		fmt.Fprintf(b, "    MISSION %s%s WITH %s%s\n", m.FO, kind, strings.Join(m.Guns, " "), then)
	}
	for _, d := range e.Dismount {
		fmt.Fprintf(b, "    %s UNLOAD %s\n", d.Carrier, d.Unit)
	}
	for _, so := range e.Smoke {
		if so.If == nil {
			fmt.Fprintf(b, "    %s SMOKE\n", so.Unit)
		} else {
			fmt.Fprintf(b, "    %s SMOKE IF %s\n", so.Unit, FormatCondition(so.If))
		}
	}
}
