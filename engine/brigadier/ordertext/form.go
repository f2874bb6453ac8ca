package ordertext

// The order form: valid sent back unchanged, each platoon with its state,
// and a worked line of each kind of order.

import (
	"fmt"
	"strings"

	"fieldpost/engine/brigadier/rules"
)

// Form is the side's order form: every platoon with its order now and its
// standing orders, valid sent back unchanged.
func Form(rs *rules.Ruleset, st *rules.State, side, game string) string {
	var b strings.Builder
	sd := st.Side(side)
	fmt.Fprintf(&b, "GAME %s SIDE %s TURN %d    # %s", game, side, st.Turn+1, rules.ClockText(st.Clock))
	if st.Initiative == side {
		b.WriteString("; you hold the initiative")
	} else {
		fmt.Fprintf(&b, "; %s holds the initiative", st.Initiative)
	}
	b.WriteString("\n")
	if st.Initiative == side {
		b.WriteString("INITIATIVE keep                  # or pass (11.1)\n")
	}
	howTo(&b, rs, st, side)
	fmt.Fprintf(&b, "PURSUE %s\nBUGOUT-DEFAULT %s\n", yesNo(sd.Pursue), bugoutText(sd.BugoutDefault))
	lastBn, lastCo := "", "-"
	for _, p := range st.Active(side) {
		if p.Battalion != lastBn || (p.Company != lastCo && p.Company != "") {
			if p.Company != "" {
				fmt.Fprintf(&b, "COMPANY %s\n", p.Company)
			} else {
				fmt.Fprintf(&b, "BATTALION %s\n", p.Battalion)
			}
			lastBn, lastCo = p.Battalion, p.Company
		}
		po := rules.PlatoonOrder{Platoon: p.Name, Order: p.Order, Reserve: p.Reserve, Bugout: p.Bugout}
		line := PlatoonLine(rs, po)
		commented(&b, "  "+line, fmt.Sprintf("%s %s, Count %d (%d dead, %d wounded), %s%s", p.Hex, typeText(p), p.Count(rs), p.Dead, p.Wounded, p.Exp, marks(p)))
	}
	for _, bt := range st.Batteries {
		if bt.Side == side {
			comment(&b, fmt.Sprintf("CALL %s ON hex BY platoon [DELAY] (%s, %s)", bt.Name, bt.Type, missionsText(bt.Missions)))
		}
	}
	for _, fl := range st.Flights {
		if fl.Side == side {
			comment(&b, fmt.Sprintf("AIR %s ON hex [BY air liaison observer] (%s mission, %d sorties left)", fl.Name, fl.Mission, fl.Sorties))
		}
	}
	for _, pl := range st.Plans {
		if pl.Side == side && !pl.Cancelled && !pl.Fired {
			comment(&b, fmt.Sprintf("%s's barrage is planned on %s for %s: CANCEL %s BY platoon (11.4.1)", pl.Unit, pl.Target, rules.ClockText(pl.At), pl.Target))
		}
	}
	b.WriteString("END\n")
	return b.String()
}

func typeText(p *rules.Platoon) string {
	s := p.Type
	for _, w := range p.Weapons {
		s += "+" + w
	}
	return s
}

func marks(p *rules.Platoon) string {
	var m []string
	if p.DugIn {
		m = append(m, "dug in")
	}
	if p.Hidden {
		m = append(m, "hidden")
	}
	if len(m) == 0 {
		return ""
	}
	return ", " + strings.Join(m, ", ")
}

func missionsText(n int) string {
	if n < 0 {
		return "unlimited missions"
	}
	return fmt.Sprintf("%d missions left", n)
}

// formWidth is the longest line of the form: mail programs wrap longer
// lines (at 72, 76 or 78 characters), and a wrapped tail would read as an
// order of its own.
const formWidth = 72

// commented writes an order line with its comment after it when both fit
// in formWidth, otherwise the comment on lines of its own above it.
func commented(b *strings.Builder, order, note string) {
	if line := fmt.Sprintf("%-24s # %s", order, note); len(line) <= formWidth {
		b.WriteString(line + "\n")
		return
	}
	comment(b, note)
	b.WriteString(order + "\n")
}

// comment writes text as comment lines of at most formWidth characters.
func comment(b *strings.Builder, text string) {
	line := "#"
	for _, word := range strings.Fields(text) {
		if len(line) > 1 && len(line)+1+len(word) > formWidth {
			b.WriteString(line + "\n")
			line = "#  "
		}
		line += " " + word
	}
	b.WriteString(line + "\n")
}

// howTo writes, as comments, one worked line of each kind of order the
// form invites, with the side's own platoons, batteries and flights, and
// where the whole language is: a newcomer sees how to write a path, a
// fire, a raise, a column, standing orders and a call.
func howTo(b *strings.Builder, rs *rules.Ruleset, st *rules.State, side string) {
	var p, hq *rules.Platoon
	// A company's platoon shows best; a battalion's will do.
	for _, q := range st.Active(side) {
		if sup := st.Superiors(q); len(sup) > 0 && q.Type != "hq" && (p == nil || p.Company == "" && q.Company != "") {
			p, hq = q, sup[0]
		}
	}
	if p == nil {
		return
	}
	var path []string
	for _, h := range examplePath(rs, st, p) {
		path = append(path, h.String())
	}
	target := rules.Hex{Col: (st.Map.Cols + 1) / 2, Row: (st.Map.Rows + 1) / 2}
	if seen := rules.Seen(rs, st, side); len(seen) > 0 {
		target = seen[0].Hex
	}
	// The rungs by their order words, as the ruleset spells them.
	word := func(order string) string { return strings.ToUpper(rs.OrderName(rs.RungOf(order))) }
	move, aim, defend := word("move"), word("aim"), word("defend")
	b.WriteString("# HOW TO WRITE ORDERS: one line a platoon, its name, its order on the\n")
	b.WriteString("# ladder " + strings.Join(ladder(rs), " > ") + ",\n")
	b.WriteString("# then what it does. For example:\n")
	worked := func(line, why string) { fmt.Fprintf(b, "#   %-30s %s\n", line, why) }
	if p.Order > rs.RungOf("move") {
		// Below Move on the ladder: only its commander raises it (11.2).
		worked(fmt.Sprintf("%s %s BY %s %s", p.Name, move, hq.Name, strings.Join(path, " ")), "raised by "+hq.Name+", moves")
		b.WriteString("#   " + strings.Repeat(" ", 30) + " through each hex in turn (11.2)\n")
	} else {
		worked(fmt.Sprintf("%s %s %s", p.Name, move, strings.Join(path, " ")), "moves through each hex in turn")
	}
	worked(fmt.Sprintf("%s %s FIRE %s", p.Name, aim, target), "fires at an enemy hex you see")
	worked(fmt.Sprintf("%s FOLLOW %s", p.Name, hq.Name), "in column behind "+hq.Name+" (FP-3)")
	worked(fmt.Sprintf("%s %s RESERVE BUGOUT 12", p.Name, defend), "standing orders (FP-7)")
	for _, bt := range st.Batteries {
		if bt.Side == side {
			worked(fmt.Sprintf("CALL %s ON %s BY %s", bt.Name, target, p.Name), "indirect fire (11.4.1)")
			break
		}
	}
	for _, fl := range st.Flights {
		if fl.Side == side {
			worked(fmt.Sprintf("AIR %s ON %s", fl.Name, target), "an air strike (11.4.3)")
			break
		}
	}
	b.WriteString("# A platoon not named keeps its order. The whole language: reply HELP,\n")
	b.WriteString("# or docs/rules-brigadier.md, \"The order language\".\n")
}

// examplePath is a path the platoon p could walk on Move: two hexes
// where it can, else one; any empty hex next to it when none is walkable.
func examplePath(rs *rules.Ruleset, st *rules.State, p *rules.Platoon) []rules.Hex {
	move := rs.RungOf("move")
	var one []rules.Hex
	for _, a := range p.Hex.Neighbours() {
		if !st.Map.On(a) || st.At(a) != nil {
			continue
		}
		if one == nil {
			one = []rules.Hex{a}
		}
		if rules.CheckPath(rs, st, p, move, []rules.Hex{a}) != nil {
			continue
		}
		for _, b := range a.Neighbours() {
			if b != p.Hex && st.Map.On(b) && st.At(b) == nil && rules.CheckPath(rs, st, p, move, []rules.Hex{a, b}) == nil {
				return []rules.Hex{a, b}
			}
		}
		one = []rules.Hex{a}
	}
	if one == nil {
		return []rules.Hex{p.Hex}
	}
	return one
}
