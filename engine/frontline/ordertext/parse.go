// Package ordertext is the Frontline General order language: reading a
// side's orders (every problem at once, with its line), the order form that
// is valid unchanged, and the echo of accepted orders with their odds.
package ordertext

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fieldpost/engine"
	"fieldpost/engine/frontline/rules"
	kernel "fieldpost/engine/ordertext"
)

// Submission is what a side's mail says.
type Submission struct {
	Orders rules.Orders
	Round  int // the header's ROUND (the player turn, from 1), 0 if none
	// Ignored are the player's own words among the orders: the sign-off
	// after the last order, the tail of a comment the mail program wrapped.
	Ignored []engine.IgnoredLine
}

// Parse reads a side's orders and checks them against the position. It
// returns every problem: the language's, with their lines, then the rules'.
func Parse(s *rules.State, side, text string) (Submission, []engine.Problem) {
	p := &parser{s: s, o: rules.Orders{Side: strings.ToUpper(side)}}
	p.run(text)
	sub := Submission{Orders: p.o, Round: p.round, Ignored: p.ignored}
	switch {
	case len(p.probs) > 0:
		return sub, p.probs
	case p.o.Side != s.Active && p.onlyStanding() && p.o.Standing == nil:
		return sub, nil
	case p.o.Side != s.Active && p.onlyStanding():
		return sub, s.ValidateStanding(p.o.Side, *p.o.Standing)
	}
	return sub, s.Validate(p.o)
}

type parser struct {
	s       *rules.State
	o       rules.Orders
	round   int // the header's ROUND
	probs   []engine.Problem
	section string
	eng     *rules.Engagement
	n       int
	ignored []engine.IgnoredLine
	words   []string // vocabulary, once made
}

func (p *parser) bad(section, format string, a ...any) {
	p.probs = append(p.probs, engine.Problem{Line: p.n, Rule: rules.Reference(section), Text: fmt.Sprintf(format, a...)})
}

func (p *parser) onlyStanding() bool {
	o := p.o
	return len(o.Buys)+len(o.Builds)+len(o.Idle)+len(o.Moves)+len(o.Encircle)+len(o.Engagements)+len(o.Deploys)+len(o.Rush)+len(o.Relocate) == 0 && o.Convert == ""
}

var sections = map[string]bool{"PRODUCE": true, "IDLE": true, "MOVE": true, "COMBAT": true, "DEPLOY": true, "RUSH": true, "REACT": true, "END": true, "GAME": true, "CONVERT": true, "RELOCATE": true}

// upperWords are a line's words in upper case: the language is read in
// any case.
func upperWords(s string) []string { return strings.Fields(strings.ToUpper(s)) }

// orderWords open an order line inside a section, besides a unit's id:
// PRODUCE's BUY and BUILD, MOVE's ENCIRCLE, COMBAT's ENGAGE and MISSION,
// and the standing orders. A line starting with one is an order, however
// wrong.
var orderWords = func() map[string]bool {
	words := map[string]bool{"BUY": true, "BUILD": true, "ENCIRCLE": true, "ENGAGE": true, "MISSION": true}
	for _, w := range standingWords {
		words[w] = true
	}
	return words
}()

// opensAnOrder reports whether a line starts as the order language does:
// with a section, an order word, a unit's id, or a near-miss of one. The
// orders start at the first such line: the lines above it are the
// player's greeting.
func (p *parser) opensAnOrder(f []string) bool {
	return sections[f[0]] || orderWords[f[0]] || slices.Contains(p.vocabulary(), f[0]) ||
		kernel.Closest(f[0], p.vocabulary()) != ""
}

// signOff reports whether a line below the orders is the player's sign-off
// ("Cheers, Alice"): it opens no order and names no hex of the map (a line
// that does is an order written wrong, an error).
func (p *parser) signOff(l kernel.Line) bool {
	if p.opensAnOrder(l.Words) {
		return false
	}
	for _, w := range l.Words {
		if h, err := rules.ParseHex(strings.TrimRight(w, ",.;:!?")); err == nil && p.s.Map.On(h) {
			return false
		}
	}
	return true
}

// vocabulary is what a line's first word may be: the sections, the order
// words and the units' ids.
func (p *parser) vocabulary() []string {
	if p.words == nil {
		for w := range sections {
			p.words = append(p.words, w)
		}
		for w := range orderWords {
			p.words = append(p.words, w)
		}
		for _, u := range p.s.Units {
			p.words = append(p.words, u.ID)
		}
	}
	return p.words
}

// run reads every line of the order block, END aside. The orders start at
// the first line that reads as orders (a greeting above it is the
// player's) and end at the last one (the lines below it that do not are a
// sign-off); a line between them before any section is an error, as is
// one no section reads.
func (p *parser) run(text string) {
	lines, _ := kernel.Block{Words: upperWords, Start: p.opensAnOrder}.Read(text)
	last := kernel.SignOff(lines, p.signOff)
	for _, l := range lines[last:] {
		p.ignored = append(p.ignored, engine.IgnoredLine{Line: l.N, Text: l.Raw, Why: kernel.WhySignOff})
	}
	for _, l := range lines[:last] {
		p.n = l.N
		f := l.Words
		if l.AfterLongComment && !p.opensAnOrder(f) {
			p.ignored = append(p.ignored, engine.IgnoredLine{Line: l.N, Text: l.Raw, Why: kernel.WhyWrappedTail})
			continue
		}
		if sections[f[0]] {
			p.section = f[0]
			p.eng = nil
			switch f[0] {
			case "GAME":
				p.header(f)
			case "IDLE":
				p.o.Idle = append(p.o.Idle, f[1:]...)
			case "RUSH":
				p.o.Rush = append(p.o.Rush, f[1:]...)
			case "CONVERT":
				if len(f) != 2 {
					p.bad("IV.1.9", "want: CONVERT cp")
				} else {
					p.o.Convert = f[1]
				}
			case "RELOCATE":
				p.relocate(f)
			case "END":
				return
			case "REACT":
				p.standing()
			default:
				if len(f) > 1 {
					p.bad("V", "%s stands alone on its line; orders follow on the next lines", f[0])
				}
			}
			continue
		}
		switch p.section {
		case "PRODUCE":
			p.buy(f)
		case "IDLE":
			p.o.Idle = append(p.o.Idle, f...)
		case "RUSH":
			p.o.Rush = append(p.o.Rush, f...)
		case "MOVE":
			p.move(f)
		case "COMBAT":
			p.combat(f)
		case "DEPLOY":
			if len(f) == 3 && f[1] == "ON" {
				p.o.Deploys = append(p.o.Deploys, rules.Deploy{Line: p.n, Unit: f[0], On: f[2]})
				continue
			}
			if len(f) != 3 || f[1] != "AT" {
				p.bad("V.6", "want: unit AT hex, or unit ON ship")
				continue
			}
			if h, ok := p.hex(f[2]); ok {
				p.o.Deploys = append(p.o.Deploys, rules.Deploy{Line: p.n, Unit: f[0], Hex: h})
			}
		case "REACT":
			p.react(f)
		default:
			p.bad("V", "%q before any section (PRODUCE IDLE MOVE COMBAT DEPLOY RUSH REACT)", strings.Fields(l.Text)[0])
		}
	}
}

// header checks the GAME line: the orders are the side's.
func (p *parser) header(f []string) {
	var h kernel.Header
	if err := h.ReadHeader(f); err != nil {
		p.bad("V", "%v", err)
		return
	}
	p.round = cmp.Or(h.Round, p.round)
	if h.Side != "" && h.Side != p.o.Side {
		p.bad("V", "these orders are for %s, sent by %s", h.Side, p.o.Side)
	}
}

func (p *parser) hex(s string) (rules.Hex, bool) {
	h, err := rules.ParseHex(s)
	if err != nil {
		p.bad("III.3", "%v", err)
		return h, false
	}
	if !p.s.Map.On(h) {
		p.bad("III.3", "hex %s is off the map", h)
		return h, false
	}
	return h, true
}

func (p *parser) num(s string) (int, bool) {
	v, err := strconv.Atoi(s)
	if err != nil {
		p.bad("V", "%q is not a number", s)
		return 0, false
	}
	return v, true
}

func (p *parser) buy(f []string) {
	if f[0] == "BUILD" {
		if len(f) != 6 || f[2] != "AT" || f[4] != "BY" {
			p.bad("VI.5.3", "want: BUILD code AT hex BY engineer (a bridge: AT from-to, the engineer in from)")
			return
		}
		if from, to, ok := strings.Cut(f[3], "-"); ok {
			a, okA := p.hex(from)
			b, okB := p.hex(to)
			if okA && okB {
				p.o.Builds = append(p.o.Builds, rules.Build{Line: p.n, Code: f[1], Hex: a, Across: b, By: f[5]})
			}
			return
		}
		if h, ok := p.hex(f[3]); ok {
			p.o.Builds = append(p.o.Builds, rules.Build{Line: p.n, Code: f[1], Hex: h, By: f[5]})
		}
		return
	}
	if f[0] != "BUY" || len(f) < 3 {
		p.bad("V.2", "want: BUY code count [XP n]")
		return
	}
	b := rules.Buy{Line: p.n, Code: f[1]}
	var ok bool
	if b.Count, ok = p.num(f[2]); !ok {
		return
	}
	if len(f) == 5 && f[3] == "XP" {
		b.XP, _ = p.num(f[4])
	} else if len(f) != 3 {
		p.bad("V.2", "want: BUY code count [XP n]")
		return
	}
	p.o.Buys = append(p.o.Buys, b)
}

func (p *parser) move(f []string) {
	if f[0] == "ENCIRCLE" {
		if len(f) != 4 || f[2] != "OPEN" {
			p.bad("IV.3.3", "want: ENCIRCLE hex OPEN hex")
			return
		}
		h, ok1 := p.hex(f[1])
		open, ok2 := p.hex(f[3])
		if ok1 && ok2 {
			p.o.Encircle = append(p.o.Encircle, rules.Encircle{Line: p.n, Hex: h, Open: open})
		}
		return
	}
	m := rules.Move{Line: p.n, Unit: f[0]}
	for k := 1; k < len(f); k++ {
		w := f[k]
		arg := func() string {
			if k+1 >= len(f) {
				p.bad("V.4", "%s needs what it acts on", w)
				return ""
			}
			k++
			return f[k]
		}
		switch w {
		case "PUSH":
			m.Push = true
		case "HIT-AND-RUN":
			m.HitAndRun = true
		case "DIG", "REPAIR":
			m.Steps = append(m.Steps, rules.Step{Act: w})
		case "LOAD", "UNLOAD", "HITCH", "UNHITCH", "CLEAR", "MERGE", "OCCUPY", rules.ActMan:
			if a := arg(); a != "" {
				m.Steps = append(m.Steps, rules.Step{Act: w, Unit: a})
			}
		case "RECON", "DETONATE", "LAND":
			a := arg()
			if a == "" {
				continue
			}
			h, ok := p.hex(a)
			if !ok {
				continue
			}
			if w == "LAND" {
				m.Land = h
			} else {
				m.Steps = append(m.Steps, rules.Step{Act: w, Hex: h})
			}
		default:
			if h, ok := p.hex(w); ok {
				m.Steps = append(m.Steps, rules.Step{Hex: h})
			}
		}
	}
	p.o.Moves = append(p.o.Moves, m)
}
