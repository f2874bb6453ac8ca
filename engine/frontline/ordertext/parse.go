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

func (p *parser) standing() *rules.Standing {
	if p.o.Standing == nil {
		p.o.Standing = &rules.Standing{}
	}
	return p.o.Standing
}

var sections = map[string]bool{"PRODUCE": true, "IDLE": true, "MOVE": true, "COMBAT": true, "DEPLOY": true, "RUSH": true, "REACT": true, "END": true, "GAME": true, "CONVERT": true, "RELOCATE": true}

// upperWords are a line's words in upper case: the language is read in
// any case.
func upperWords(s string) []string { return strings.Fields(strings.ToUpper(s)) }

// standingWords open the lines of the REACT section (design 3.4).
var standingWords = []string{"RETALIATE", "TARGETS", "AP", "DEFENSIVE-COMBAT", "WITHDRAW", "INSPIRE", "INTERDICT",
	"SUPPORT", "COVER", "CEASEFIRE", "SURRENDER", "ACCEPT-CEASEFIRE", "ACCEPT-SURRENDER", "SCRAMBLE", "SMOKE",
	"ENGINEERS-FIGHT", "IDLE-FIGHT", "CAPTURED"}

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

func (p *parser) combat(f []string) {
	switch {
	case f[0] == "ENGAGE":
		if len(f) < 4 || f[2] != "WITH" {
			p.bad("V.5", "want: ENGAGE hex WITH units [SUSPEND IF cond] [WITHDRAW IF cond] [CEASEFIRE IF cond] [SURRENDER IF cond] [INSPIRE]")
			return
		}
		h, ok := p.hex(f[1])
		if !ok {
			return
		}
		e := rules.Engagement{Line: p.n, Hex: h, Targets: map[string]string{}}
		k := 3
		conditional := map[string]bool{"SUSPEND": true, "WITHDRAW": true, "CEASEFIRE": true, "SURRENDER": true}
		for ; k < len(f) && !conditional[f[k]] && f[k] != "INSPIRE" && f[k] != "EXIT"; k++ {
			e.Units = append(e.Units, f[k])
		}
		for k < len(f) {
			switch f[k] {
			case "INSPIRE":
				e.Inspire = true
				k++
			case "EXIT":
				if k+1 >= len(f) {
					p.bad("VI.2.3", "EXIT takes an even number of rounds")
					return
				}
				n, ok := p.num(f[k+1])
				if !ok {
					return
				}
				e.Exit = n
				k += 2
			case "SUSPEND", "WITHDRAW", "CEASEFIRE", "SURRENDER":
				word := f[k]
				if k+1 >= len(f) || f[k+1] != "IF" {
					p.bad("IV.3", "%s IF condition", word)
					return
				}
				c, used := p.condition(f[k+2:])
				if c == nil {
					return
				}
				switch word {
				case "SUSPEND":
					e.Suspend = c
				case "WITHDRAW":
					e.Withdraw = c
				case "CEASEFIRE":
					e.CeaseFire = c
				default:
					e.Surrender = c
				}
				k += 2 + used
			default:
				p.bad("V.5", "%q unexpected after the units", f[k])
				return
			}
		}
		p.o.Engagements = append(p.o.Engagements, e)
		p.eng = &p.o.Engagements[len(p.o.Engagements)-1]
	case p.eng == nil:
		p.bad("V.5", "%q: ENGAGE first", f[0])
	case f[0] == "MISSION":
		// MISSION fo [PIN] WITH guns [THEN FFE]
		m := &rules.Mission{}
		if len(f) > 2 && (f[2] == "PIN" || f[2] == "BLIND") {
			m.Pin, m.Blind = f[2] == "PIN", f[2] == "BLIND"
			f = append(f[:2], f[3:]...)
		}
		if len(f) < 4 || f[2] != "WITH" {
			p.bad("VI.7.6", "want: MISSION fo [PIN|BLIND] WITH guns [THEN FFE]")
			return
		}
		m.FO = f[1]
		for k := 3; k < len(f); k++ {
			if f[k] == "THEN" && k+1 < len(f) && f[k+1] == "FFE" {
				m.FFE = true
				break
			}
			m.Guns = append(m.Guns, f[k])
		}
		p.eng.Mission = m
	case len(f) >= 2 && f[1] == "UNLOAD":
		// carrier UNLOAD unit: disembark in combat (§VI.3.3-3.4)
		if len(f) != 3 {
			p.bad("VI.3.3", "want: carrier UNLOAD unit")
			return
		}
		p.eng.Dismount = append(p.eng.Dismount, rules.DismountOrder{Line: p.n, Carrier: f[0], Unit: f[2]})
	case len(f) >= 2 && f[1] == "SMOKE":
		// unit SMOKE [IF condition] (Glossary Smoke)
		so := rules.SmokeOrder{Line: p.n, Unit: f[0]}
		if len(f) > 2 {
			if f[2] != "IF" {
				p.bad("Glossary Smoke", "want: unit SMOKE [IF condition]")
				return
			}
			c, used := p.condition(f[3:])
			if c == nil {
				return
			}
			if len(f) > 3+used {
				p.bad("Glossary Smoke", "want: unit SMOKE [IF condition]")
				return
			}
			so.If = c
		}
		p.eng.Smoke = append(p.eng.Smoke, so)
	case len(f) >= 3 && f[1] == "AT":
		if !strings.Contains(f[2], ":") {
			p.bad("V.5.2", "target %q: enemy units carry their side, like GE:RS-1 (a bridge: BRIDGE:CCRR-CCRR)", f[2])
			return
		}
		p.eng.Targets[f[0]] = f[2]
		if p.eng.TargetLines == nil {
			p.eng.TargetLines = map[string]int{}
		}
		p.eng.TargetLines[f[0]] = p.n
		if len(f) == 4 && f[3] == "HE" {
			p.eng.HE = append(p.eng.HE, f[0])
		} else if len(f) == 4 && f[3] != "AP" || len(f) > 4 {
			p.bad("VI.7.3", "want: unit AT target [AP|HE]")
		}
	default:
		p.bad("V.5", "%q: want unit AT target, MISSION, or a new ENGAGE", strings.Join(f, " "))
	}
}

// condition reads LOST n, ODDS<r, ODDS>r, ROUND>=n, ENEMY-HAS x,
// ENEMY-COST>n, ALWAYS; it returns how many words it used.
func (p *parser) condition(f []string) (*rules.Condition, int) {
	if len(f) == 0 {
		p.bad("IV.3", "a condition is missing (LOST n, ODDS<r, ODDS>r, ROUND>=n, ENEMY-HAS x, ENEMY-COST>n, ALWAYS)")
		return nil, 0
	}
	w := f[0]
	for _, pre := range []string{"ODDS<", "ODDS>", "ROUND>=", "ENEMY-COST>"} {
		if strings.HasPrefix(w, pre) {
			c := &rules.Condition{Kind: pre}
			v, err := strconv.ParseFloat(w[len(pre):], 64)
			if err != nil {
				p.bad("IV.3", "condition %q: want a number after %s", w, pre)
				return nil, 0
			}
			c.R, c.N = v, int(v)
			return c, 1
		}
	}
	switch w {
	case "ALWAYS":
		return &rules.Condition{Kind: "ALWAYS"}, 1
	case "LOST":
		if len(f) < 2 {
			p.bad("IV.3", "LOST n")
			return nil, 0
		}
		n, ok := p.num(f[1])
		if !ok {
			return nil, 0
		}
		return &rules.Condition{Kind: "LOST", N: n}, 2
	case "ENEMY-HAS":
		if len(f) < 2 || (f[1] != "TANK" && f[1] != "GUN" && f[1] != "AIRCRAFT") {
			p.bad("IV.3", "ENEMY-HAS tank|gun|aircraft")
			return nil, 0
		}
		return &rules.Condition{Kind: "ENEMY-HAS", What: strings.ToLower(f[1])}, 2
	}
	p.bad("IV.3", "condition %q unknown (LOST n, ODDS<r, ODDS>r, ROUND>=n, ENEMY-HAS x, ENEMY-COST>n, ALWAYS)", w)
	return nil, 0
}

func (p *parser) react(f []string) {
	st := p.standing()
	switch f[0] {
	case "RETALIATE":
		switch {
		case len(f) == 2 && (f[1] == "ALL" || f[1] == "NONE"):
			st.Retaliate = strings.ToLower(f[1])
		case len(f) >= 2:
			st.Retaliate, st.RetaliateUnits = "list", f[1:]
		default:
			p.bad("V.5.5", "RETALIATE all|none|units")
		}
	case "TARGETS":
		if len(f) != 2 || !strings.Contains("BEST-ODDS ARMOUR-FIRST INFANTRY-FIRST DAMAGED-FIRST", f[1]) {
			p.bad("V.5.3", "TARGETS best-odds|armour-first|infantry-first|damaged-first")
			return
		}
		st.Targets = strings.ToLower(f[1])
	case "AP":
		if len(f) != 2 || (f[1] != "AUTO" && f[1] != "NEVER") {
			p.bad("VI.7.3", "AP auto|never")
			return
		}
		st.AP = strings.ToLower(f[1])
	case "DEFENSIVE-COMBAT":
		if len(f) != 2 || (f[1] != "YES" && f[1] != "NO") {
			p.bad("VI.2.1", "DEFENSIVE-COMBAT yes|no")
			return
		}
		st.DefensiveCombat = f[1] == "YES"
	case "ACCEPT-CEASEFIRE":
		if len(f) != 2 || (f[1] != "NEVER" && f[1] != "IF-LOSING" && f[1] != "ALWAYS") {
			p.bad("IV.3.1", "ACCEPT-CEASEFIRE never|if-losing|always")
			return
		}
		st.AcceptCeasefire = strings.ToLower(f[1])
	case "ACCEPT-SURRENDER":
		if len(f) != 2 || (f[1] != "YES" && f[1] != "NO") {
			p.bad("IV.3.2", "ACCEPT-SURRENDER yes|no")
			return
		}
		st.AcceptSurrender = strings.ToLower(f[1])
	case "CAPTURED":
		p.captured(st, f)
	case "SCRAMBLE":
		if len(f) < 2 {
			p.bad("VI.7.1", "SCRAMBLE aircraft...")
			return
		}
		st.Scramble = append(st.Scramble, f[1:]...)
	case "SUPPORT":
		// SUPPORT hex|any WITH fo guns [DESTROY|PIN] [THEN FFE]
		if len(f) < 5 || f[2] != "WITH" {
			p.bad("VI.7.6", "SUPPORT hex|any WITH fo guns [DESTROY|PIN] [THEN FFE]")
			return
		}
		o := rules.HexOrder{Line: p.n, FO: f[3], Mission: "DESTROY"}
		if f[1] != "ANY" {
			h, ok := p.hex(f[1])
			if !ok {
				return
			}
			o.Hex = h
		}
		for k := 4; k < len(f); k++ {
			switch {
			case f[k] == "DESTROY" || f[k] == "PIN":
				o.Mission = f[k]
			case f[k] == "THEN" && k+1 < len(f) && f[k+1] == "FFE":
				o.FFE = true
				k++
			default:
				o.Guns = append(o.Guns, f[k])
			}
		}
		st.Support = append(st.Support, o)
	case "COVER":
		if len(f) < 5 || f[2] != "WITH" {
			p.bad("VI.7.6.2", "COVER hex WITH fo guns")
			return
		}
		if h, ok := p.hex(f[1]); ok {
			st.Cover = append(st.Cover, rules.HexOrder{Line: p.n, Hex: h, FO: f[3], Guns: f[4:]})
		}
	case "WITHDRAW", "INSPIRE", "INTERDICT", "CEASEFIRE", "SURRENDER":
		if len(f) < 2 {
			p.bad("IV.3", "%s hex|any ...", f[0])
			return
		}
		o := rules.HexOrder{Line: p.n}
		if f[1] != "ANY" {
			h, ok := p.hex(f[1])
			if !ok {
				return
			}
			o.Hex = h
		}
		rest := f[2:]
		switch f[0] {
		case "CEASEFIRE", "SURRENDER":
			if len(rest) < 2 || rest[0] != "IF" {
				p.bad("IV.3", "%s hex|any IF condition", f[0])
				return
			}
			c, used := p.condition(rest[1:])
			if c == nil {
				return
			}
			if len(rest) > 1+used {
				p.bad("IV.3", "%s hex|any IF condition", f[0])
				return
			}
			o.If = c
			if f[0] == "CEASEFIRE" {
				st.CeaseFire = append(st.CeaseFire, o)
			} else {
				st.Surrender = append(st.Surrender, o)
			}
		case "WITHDRAW":
			if len(rest) < 2 || rest[0] != "IF" {
				p.bad("IV.3.8", "WITHDRAW hex|any IF condition [TO hex]")
				return
			}
			c, used := p.condition(rest[1:])
			if c == nil {
				return
			}
			o.If = c
			rest = rest[1+used:]
			if len(rest) == 2 && rest[0] == "TO" {
				if h, ok := p.hex(rest[1]); ok {
					o.To = h
				}
			} else if len(rest) > 0 {
				p.bad("IV.3.8", "WITHDRAW hex|any IF condition [TO hex]")
				return
			}
			st.Withdraw = append(st.Withdraw, o)
		case "INSPIRE":
			st.Inspire = append(st.Inspire, o)
		case "INTERDICT":
			if len(rest) < 3 || rest[0] != "WITH" {
				p.bad("VI.7.6.2", "INTERDICT hex|any WITH fo guns")
				return
			}
			o.FO, o.Guns = rest[1], rest[2:]
			st.Interdict = append(st.Interdict, o)
		}
	case "ENGINEERS-FIGHT", "IDLE-FIGHT":
		if len(f) != 2 || (f[1] != "YES" && f[1] != "NO") {
			p.bad("Inset VI.2", "%s yes|no", f[0])
			return
		}
		if f[0] == "ENGINEERS-FIGHT" {
			st.EngineersFight = f[1] == "YES"
		} else {
			st.IdleFight = f[1] == "YES"
		}
	case "SMOKE":
		// SMOKE hex|any IF condition (Glossary Smoke)
		if len(f) < 4 || f[2] != "IF" {
			p.bad("Glossary Smoke", "SMOKE hex|any IF condition")
			return
		}
		o := rules.HexOrder{Line: p.n}
		if f[1] != "ANY" {
			h, ok := p.hex(f[1])
			if !ok {
				return
			}
			o.Hex = h
		}
		c, used := p.condition(f[3:])
		if c == nil {
			return
		}
		if len(f) > 3+used {
			p.bad("Glossary Smoke", "SMOKE hex|any IF condition")
			return
		}
		o.If = c
		st.Smoke = append(st.Smoke, o)
	default:
		p.bad("design 3.4", "%q is not a standing order (%s)", f[0], strings.Join(standingWords, " "))
	}
}
