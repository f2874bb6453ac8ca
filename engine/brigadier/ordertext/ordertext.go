// Package ordertext is Brigadier General Commands' order language: the
// mail a side sends each turn, read with every error by line, the form that
// lists every platoon with its order and is valid sent back unchanged, and
// the echo with the odds of each fire plan.
package ordertext

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"fieldpost/engine"
	"fieldpost/engine/brigadier/rules"
	kernel "fieldpost/engine/ordertext"
)

// Submission is a side's mail read.
type Submission struct {
	Orders *rules.Orders
	Lines  int // order lines found
	Round  int // the turn the header's TURN (or ROUND) says, 0 if none
	// Ignored are the lines after the last order read as no order: a
	// sign-off ("Cheers, Alice").
	Ignored []engine.IgnoredLine
}

// Parse reads a side's mail: every problem is returned, by line. The
// orders start at the first line that reads as one (the lines above are
// the player's greeting) and end at END; every line between must be an
// order, and the lines after the last order that are none are a sign-off.
func Parse(rs *rules.Ruleset, st *rules.State, side, text string) (Submission, []engine.Problem) {
	p := &parser{rs: rs, st: st, side: side, sub: Submission{Orders: &rules.Orders{Side: side}}, notOrders: map[int]int{}}
	lines, _ := kernel.Block{Start: p.opens}.Read(text)
	for _, l := range lines {
		p.line(l)
	}
	p.ignoreSignOff(lines)
	return finish(rs, st, p.sub, p.errs)
}

type parser struct {
	rs   *rules.Ruleset
	st   *rules.State
	side string
	sub  Submission
	errs []engine.Problem
	// notOrders holds the lines read as no order at all, with the index
	// of their error in errs.
	notOrders map[int]int
}

// bad records a problem on a line, citing the rule it breaks ("" for
// none).
func (p *parser) bad(line int, rule, format string, args ...any) {
	p.errs = append(p.errs, engine.Problem{Line: line, Rule: rule, Text: fmt.Sprintf(format, args...)})
}

// keywords are the words that start a line of orders other than a
// platoon's.
var keywords = map[string]bool{"INITIATIVE": true, "PURSUE": true, "BUGOUT-DEFAULT": true, "AIR": true, "CANCEL": true, "CALL": true}

// opens reports whether a line reads as orders, so that the order block
// starts there: a greeting above it ("Here are my orders", "Game on!")
// does not; a header line starts it when it names the side.
func (p *parser) opens(f []string) bool {
	if kernel.IsHeader(f) {
		return slices.ContainsFunc(f, func(w string) bool { return kernel.HeaderKeyword(w) == "SIDE" })
	}
	return kernel.IsEnd(f) || p.reads(f)
}

// reads reports whether a line is one of the order language's.
func (p *parser) reads(f []string) bool {
	key := strings.ToUpper(f[0])
	return kernel.IsHeader(f) || keywords[key] || p.heading(key, f) ||
		p.st.Platoon(p.side, f[0]) != nil || p.namesAnOrder(f)
}

// heading reports whether a line is a COMPANY or BATTALION heading of the
// side's.
func (p *parser) heading(key string, f []string) bool {
	return (key == "COMPANY" || key == "BATTALION") && len(f) == 2 && unitOf(p.st, p.side, key, f[1])
}

// namesAnOrder reports whether a line's second word is an order, as on a
// platoon's line.
func (p *parser) namesAnOrder(f []string) bool {
	return len(f) > 1 && (p.rs.RungOf(f[1]) != 0 || strings.EqualFold(f[1], "FOLLOW"))
}

func (p *parser) line(l kernel.Line) {
	n, f, o := l.N, l.Words, p.sub.Orders
	key := strings.ToUpper(f[0])
	if !p.reads(f) && l.AfterLongComment {
		p.sub.Ignored = append(p.sub.Ignored, engine.IgnoredLine{Line: n, Text: l.Raw, Why: kernel.WhyWrappedTail})
		return
	}
	if !p.reads(f) {
		p.notOrders[n] = len(p.errs)
		p.bad(n, "", "%q is not an order word or a platoon of %s; if this line is not an order, end your orders with a line saying END", f[0], p.side)
		return
	}
	if kernel.IsHeader(f) {
		// The header says whose orders follow; alone, it orders nothing
		// (as in every family: the judge answers that it found no orders).
		p.header(n, f)
		return
	}
	p.sub.Lines++
	switch {
	case p.heading(key, f):
		return // a heading, for reading only
	}
	switch key {
	case "INITIATIVE":
		if len(f) != 2 || (strings.ToLower(f[1]) != "keep" && strings.ToLower(f[1]) != "pass") {
			p.bad(n, "", "INITIATIVE keep or INITIATIVE pass")
			return
		}
		o.Initiative = strings.ToLower(f[1])
		if p.st.Initiative != p.side {
			p.bad(n, "11.1", "INITIATIVE: %s holds the initiative; only the holder keeps or passes it", p.st.Initiative)
		}
		return
	case "PURSUE":
		if len(f) != 2 || (strings.ToLower(f[1]) != "yes" && strings.ToLower(f[1]) != "no") {
			p.bad(n, "", "PURSUE yes or PURSUE no")
			return
		}
		v := strings.ToLower(f[1]) == "yes"
		o.Pursue = &v
		return
	case "BUGOUT-DEFAULT":
		v, err := bugoutValue(f[1:])
		if err != nil {
			p.bad(n, "", "BUGOUT-DEFAULT: %v", err)
			return
		}
		o.BugoutDefault = &v
		return
	case "AIR":
		by := len(f) == 6 && strings.EqualFold(f[4], "BY")
		if (len(f) != 4 && !by) || !strings.EqualFold(f[2], "ON") {
			p.bad(n, "11.4.3, 11.4.4", "write AIR flight ON hex [BY observer]")
			return
		}
		h, err := rules.ParseHex(f[3])
		if err != nil {
			p.bad(n, "", "AIR: %v", err)
			return
		}
		sk := rules.Strike{Line: n, Flight: f[1], Target: h}
		if by {
			sk.By = f[5]
		}
		o.Strikes = append(o.Strikes, sk)
		return
	case "CANCEL":
		if len(f) != 4 || !strings.EqualFold(f[2], "BY") {
			p.bad(n, "11.4.1", "write CANCEL hex BY platoon")
			return
		}
		h, err := rules.ParseHex(f[1])
		if err != nil {
			p.bad(n, "", "CANCEL: %v", err)
			return
		}
		o.Cancels = append(o.Cancels, rules.Cancel{Line: n, Target: h, By: f[3]})
		return
	case "CALL":
		c, prob := parseCall(f[1:])
		if prob != nil {
			p.bad(n, prob.Rule, "CALL: %s", prob.Text)
			return
		}
		c.Line = n
		o.Calls = append(o.Calls, c)
		return
	}
	pl := p.st.Platoon(p.side, f[0])
	if pl == nil {
		p.bad(n, "", "%s: no platoon of yours by that name is on the map", f[0])
		return
	}
	po, err := parsePlatoon(p.rs, f)
	if err != nil {
		p.bad(n, "", "%s: %v", f[0], err)
		return
	}
	po.Line = n
	if po.Follow != "" {
		po.Order = pl.Order // a follower keeps its rung (FP-3)
	}
	o.Platoons = append(o.Platoons, po)
}

// header checks a header line: the side's, for the turn due.
func (p *parser) header(n int, f []string) {
	var h kernel.Header
	if err := h.ReadHeader(f); err != nil {
		p.bad(n, "", "%v", err)
		return
	}
	if h.Side != "" && !engine.SameSide(h.Side, p.side) {
		p.bad(n, "", "these orders are for side %s, but you play %s", h.Side, p.side)
	}
	p.sub.Round = cmp.Or(h.Round, p.sub.Round)
	if h.Round != 0 && h.Round != p.st.Turn+1 {
		p.bad(n, "", "these orders are for turn %d, but turn %d is due", h.Round, p.st.Turn+1)
	}
}

// ignoreSignOff takes the lines after the last order out of the errors
// when none of them is an order: they are a sign-off.
func (p *parser) ignoreSignOff(lines []kernel.Line) {
	first := kernel.SignOff(lines, func(l kernel.Line) bool {
		_, notOrder := p.notOrders[l.N]
		return notOrder
	})
	if first == len(lines) {
		return
	}
	drop := map[int]bool{}
	for _, l := range lines[first:] {
		drop[p.notOrders[l.N]] = true
		p.sub.Ignored = append(p.sub.Ignored, engine.IgnoredLine{Line: l.N, Text: l.Raw, Why: kernel.WhySignOff})
	}
	kept := p.errs[:0]
	for i, e := range p.errs {
		if !drop[i] {
			kept = append(kept, e)
		}
	}
	p.errs = kept
}

// unitOf reports whether side has a company or battalion of that name.
func unitOf(st *rules.State, side, kind, name string) bool {
	for _, p := range st.Active(side) {
		if (kind == "COMPANY" && p.Company == name) || (kind == "BATTALION" && p.Battalion == name) {
			return true
		}
	}
	return false
}

func finish(rs *rules.Ruleset, st *rules.State, sub Submission, errs []engine.Problem) (Submission, []engine.Problem) {
	if sub.Lines == 0 {
		return sub, errs
	}
	errs = append(errs, rules.Validate(rs, st, sub.Orders)...)
	slices.SortStableFunc(errs, func(a, b engine.Problem) int { return a.Line - b.Line })
	return sub, errs
}

func bugoutValue(f []string) (int, error) {
	if len(f) != 1 {
		return 0, fmt.Errorf("give a number of dice or never")
	}
	if strings.EqualFold(f[0], "never") {
		return 0, nil
	}
	v, err := strconv.Atoi(f[0])
	if err != nil || v < 1 {
		return 0, fmt.Errorf("%q: a number of dice from 1, or never", f[0])
	}
	return v, nil
}

func parseCall(f []string) (rules.Call, *engine.Problem) {
	var c rules.Call
	i := 0
	for i < len(f) && !strings.EqualFold(f[i], "ON") {
		c.Batteries = append(c.Batteries, f[i])
		i++
	}
	if i+1 >= len(f) {
		return c, &engine.Problem{Text: "write CALL unit [unit] ON hex BY platoon [DELAY]"}
	}
	h, err := rules.ParseHex(f[i+1])
	if err != nil {
		return c, &engine.Problem{Text: err.Error()}
	}
	c.Target = h
	rest := f[i+2:]
	for j := 0; j < len(rest); j++ {
		switch strings.ToUpper(rest[j]) {
		case "BY":
			if j+1 >= len(rest) {
				return c, &engine.Problem{Text: "BY needs a platoon"}
			}
			c.By = rest[j+1]
			j++
		case "DELAY":
			c.Delay = true
		default:
			return c, &engine.Problem{Text: fmt.Sprintf("unexpected %q", rest[j])}
		}
	}
	if c.By == "" {
		return c, &engine.Problem{Rule: "11.4.1", Text: "say BY which platoon calls"}
	}
	return c, nil
}

func parsePlatoon(rs *rules.Ruleset, f []string) (rules.PlatoonOrder, error) {
	po := rules.PlatoonOrder{Platoon: f[0]}
	if len(f) < 2 {
		return po, fmt.Errorf("give an order: %s", strings.Join(ladder(rs), ", "))
	}
	if strings.EqualFold(f[1], "FOLLOW") {
		if len(f) != 3 {
			return po, fmt.Errorf("write %s FOLLOW commander", f[0])
		}
		po.Follow = f[2]
		return po, nil
	}
	po.Order = rs.RungOf(f[1])
	if po.Order == 0 {
		return po, fmt.Errorf("%q is not an order; the orders are %s", f[1], strings.Join(ladder(rs), ", "))
	}
	hexArg := func(j int, what string) (rules.Hex, error) {
		if j >= len(f) {
			return rules.Hex{}, fmt.Errorf("%s needs a hex", what)
		}
		return rules.ParseHex(f[j])
	}
	for j := 2; j < len(f); j++ {
		w := strings.ToUpper(f[j])
		var err error
		switch {
		case w == "BY":
			if j+1 >= len(f) {
				return po, fmt.Errorf("BY needs a commander")
			}
			po.By = f[j+1]
			j++
		case w == "FIRE":
			po.Fire, err = hexArg(j+1, "FIRE")
			j++
		case w == "ASSAULT":
			po.Assault, err = hexArg(j+1, "ASSAULT")
			j++
		case w == "DELAY":
			po.Delay = true
		case w == "ELSE":
			if j+1 >= len(f) || !strings.EqualFold(f[j+1], "NEAREST") {
				return po, fmt.Errorf("ELSE NEAREST")
			}
			po.ElseNearest = true
			j++
		case w == "BUGOUT":
			if j+1 >= len(f) {
				return po, fmt.Errorf("BUGOUT needs a number of dice or never")
			}
			po.Bugout, err = bugoutValue(f[j+1 : j+2])
			j++
		case w == "RESERVE":
			po.Reserve = &rules.Reserve{}
			for j+1 < len(f) {
				k := strings.ToUpper(f[j+1])
				if k == "VEHICLES" || k == "FOOT" {
					po.Reserve.Only = strings.ToLower(k)
					j++
					continue
				}
				if (k == "AT" || k == "MIN") && j+2 < len(f) {
					v, e := strconv.Atoi(f[j+2])
					if e != nil || v < 1 {
						return po, fmt.Errorf("RESERVE %s %q: a number from 1", k, f[j+2])
					}
					if k == "AT" {
						po.Reserve.At = v
					} else {
						po.Reserve.Min = v
					}
					j += 2
					continue
				}
				break
			}
		case len(f[j]) == 4 && isDigits(f[j]):
			h, e := rules.ParseHex(f[j])
			if e != nil {
				return po, e
			}
			po.Path = append(po.Path, h)
		default:
			return po, fmt.Errorf("unexpected %q (after the order: BY, hexes of the path, FIRE, ASSAULT, DELAY, ELSE NEAREST, RESERVE, BUGOUT)", f[j])
		}
		if err != nil {
			return po, err
		}
	}
	return po, nil
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func ladder(rs *rules.Ruleset) []string {
	var out []string
	for _, r := range rs.Ladder {
		out = append(out, strings.ToUpper(r.Order))
	}
	return out
}

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
