// Package ordertext is Brigadier General Commands' order language: the
// mail a side sends each turn, read with every error by line, the form that
// lists every platoon with its order and is valid sent back unchanged, and
// the echo with the odds of each fire plan.
package ordertext

import (
	"cmp"
	"fmt"
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
		if best := kernel.Closest(f[0], p.vocabulary()); best != "" {
			p.bad(n, "", "%q is not an order word or a platoon of %s; did you mean %s?", f[0], p.side, best)
			return
		}
		if !p.namesAHex(f) {
			// No near-miss and no hex: below the last order, a sign-off.
			p.notOrders[n] = len(p.errs)
		}
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

// vocabulary is what a line's first word may be: the order words, the
// headings and the side's platoons.
func (p *parser) vocabulary() []string {
	words := []string{"COMPANY", "BATTALION", "END"}
	for w := range keywords {
		words = append(words, w)
	}
	for _, pl := range p.st.Platoons {
		if pl.Side == p.side {
			words = append(words, pl.Name)
		}
	}
	return words
}

// namesAHex reports whether a line names a hex of the map: below the
// orders such a line is an order written wrong, not a sign-off (a phone
// number or a year names none).
func (p *parser) namesAHex(f []string) bool {
	for _, w := range f {
		if h, err := rules.ParseHex(strings.TrimRight(w, ",.;:!?")); err == nil && p.st.Map.On(h) {
			return true
		}
	}
	return false
}

// ignoreSignOff takes the lines after the last order out of the errors
// when none of them is an order, a near-miss of one or names a hex: they
// are a sign-off.
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
