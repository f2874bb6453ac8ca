package ordertext

import (
	"cmp"
	"fmt"
	"sort"
	"strings"

	"fieldpost/engine"
	kernel "fieldpost/engine/ordertext"
	"fieldpost/engine/stargeneral/rules"
)

// Submission is what a mail's order block says.
type Submission struct {
	Game     string
	Side     string
	Round    int // the ROUND line, 0 if absent
	Seat     int // the SEAT of a side played by a team, 0 if absent
	Password string
	Orders   *rules.Orders
	// Lines counts the order lines read, header lines (GAME, SIDE, ROUND,
	// PASSWORD) aside: a cut-off form of header lines only holds no orders.
	Lines int
	// Ignored are the lines of the block that were read as no order: the
	// sign-off after the last order ("Cheers, Alice", "Sent from my
	// iPhone") and the tails of comments a mail program wrapped.
	Ignored []engine.IgnoredLine
}

// Parse reads a side's orders from a mail body (or a file) for the round st
// is about to play, then checks them against the rules. It returns every
// problem at once; a submission with any problem must be refused whole.
//
// What parses is checked against the rules even when other lines have
// errors, so that one answer lists every error; a rules problem on a line
// with an error, or about a whole unit whose lines have errors, is left
// out, since it may only follow from them.
func Parse(rs *rules.Ruleset, st *rules.State, side, body string) (*Submission, []engine.Problem) {
	p := newParser(rs, st, side)
	lines, _ := kernel.Block{Words: tokens, Start: p.isStart}.Read(body)
	for _, l := range lines {
		p.line(l)
	}
	p.ignoreSignOff(lines)
	for _, l := range lines {
		if !kernel.IsHeader(l.Words) {
			p.sub.Lines++
		}
	}
	p.sub.Lines -= len(p.sub.Ignored)
	// What the errors left after the sign-off was set aside are about.
	errLines, unitErr := map[int]bool{}, map[string]bool{}
	for i, e := range p.errs {
		errLines[e.Line] = true
		if p.errUnits[i] != "" {
			unitErr[p.errUnits[i]] = true
		}
	}
	for _, prob := range rules.Validate(rs, st, p.sub.Orders) {
		e := p.ruleError(prob)
		if prob.Stand == "" && unitErr[prob.Unit] || errLines[e.Line] && e.Line != 0 {
			continue
		}
		p.errs = append(p.errs, e)
	}
	sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
	if len(p.errs) > 0 {
		return p.sub, p.errs
	}
	return p.sub, nil
}

type parser struct {
	rs   *rules.Ruleset
	st   *rules.State
	side string
	sub  *Submission
	errs []engine.Problem
	// errUnits are, for each of errs, the unit whose block its line is in,
	// "" outside one: the rules problems of a unit with errors in its
	// lines are left out.
	errUnits []string
	unit     *rules.Unit
	uo       *rules.UnitOrders
	// where each order came from, to put the engine's rules problems on
	// the right line
	unitLine   map[string]int
	standLine  map[string]int // unit + " " + stand
	attackLine map[string]int
	swapLine   map[string]int
	batLine    map[string]int
	otherLine  map[string]int
	standSeen  map[string]bool
	battSeen   map[string]bool
	choiceSeen map[string]bool
	// refusedUnit is set while reading the lines under a unit line naming
	// no unit of the side, which cannot be checked and are no further
	// errors.
	refusedUnit bool
	// notOrders holds the lines read as no part of the order language,
	// with the index of their error in errs.
	notOrders map[int]int
}

func newParser(rs *rules.Ruleset, st *rules.State, side string) *parser {
	return &parser{
		rs: rs, st: st, side: side,
		sub:      &Submission{Orders: &rules.Orders{Side: side}},
		unitLine: map[string]int{}, standLine: map[string]int{}, attackLine: map[string]int{},
		swapLine: map[string]int{}, batLine: map[string]int{}, otherLine: map[string]int{},
		standSeen: map[string]bool{}, battSeen: map[string]bool{}, choiceSeen: map[string]bool{},
		notOrders: map[int]int{},
	}
}

// errorf records an error on a line, citing the part of the rules it breaks
// by the number the ruleset's book gives it.
func (p *parser) errorf(l kernel.Line, section rules.Sec, hint, format string, args ...any) {
	unit := ""
	if p.unit != nil {
		unit = p.unit.ID
	}
	p.errs = append(p.errs, engine.Problem{Line: l.N, Text: fmt.Sprintf(format, args...), Rule: p.rs.Section(section), Hint: hint})
	p.errUnits = append(p.errUnits, unit)
}

// ignoreSignOff takes the lines after the last order out of the errors
// when none of them is an order, a near-miss of one ("did you mean") or
// names a hex of the map: they are a sign-off, and orders end at the last
// order. Text that is no order between orders stays an error.
func (p *parser) ignoreSignOff(lines []kernel.Line) {
	first := kernel.SignOff(lines, func(l kernel.Line) bool {
		i, notOrder := p.notOrders[l.N]
		return notOrder && p.errs[i].Hint == endHint && !p.hasHex(l.Words)
	})
	drop := map[int]bool{}
	for _, l := range lines[first:] {
		drop[p.notOrders[l.N]] = true
		p.sub.Ignored = append(p.sub.Ignored, engine.IgnoredLine{Line: l.N, Text: l.Raw, Why: kernel.WhySignOff})
	}
	kept, units := p.errs[:0], p.errUnits[:0]
	for i, e := range p.errs {
		if !drop[i] {
			kept, units = append(kept, e), append(units, p.errUnits[i])
		}
	}
	p.errs, p.errUnits = kept, units
}

// hasHex reports whether a line names a hex of the map (a phone number or
// a year in a signature names none).
func (p *parser) hasHex(toks []string) bool {
	for _, t := range toks {
		if h, err := rules.ParseHex(t); err == nil && p.st.Map.OnMap(h) {
			return true
		}
	}
	return false
}

// Keywords, each with the spellings players use.
var keywords = map[string]string{
	"GAME": "GAME", "SIDE": "SIDE", "SEAT": "SEAT", "ROUND": "ROUND", "TURN": "ROUND", "PASSWORD": "PASSWORD", "PASS": "PASSWORD", "SECRET": "PASSWORD",
	"BN": "UNIT", "BATTALION": "UNIT", "UNIT": "UNIT", "REGIMENT": "UNIT", "REGT": "UNIT", "RGT": "UNIT",
	"PRIORITY": "PRIORITY", "ORDER": "PRIORITY",
	"LOSSES": "CHOICES", "PURSUE": "CHOICES", "PURSUIT": "CHOICES", "HOLD-AT-COST": "CHOICES", "DEFENSIVE-SUPPORT": "CHOICES",
	"ARTILLERY": "ARTILLERY", "ART": "ARTILLERY", "ARTY": "ARTILLERY", "BATTERY": "ARTILLERY", "BTY": "ARTILLERY",
	"AIR": "AIR", "AIRSTRIKE": "AIR",
	"RECOVER": "RECOVER", "STRENGTH": "RECOVER", "PLATOON": "PLATOON", "RESTORE": "PLATOON",
	"REBUILD": "REBUILD", "RESHUFFLE": "RESHUFFLE",
}

// Words inside a unit block.
var unitWords = map[string]string{
	"SWAP": "SWAP", "ATTACK": "ATTACK", "ASSAULT": "ASSAULT", "FIRE": "FIRE", "SHOOT": "FIRE",
	"HQ-RETURN": "HQRETURN", "HQRETURN": "HQRETURN", "RETURN": "HQRETURN",
}

// isStart reports whether a line's words start the order block: a unit id,
// or a keyword followed by what fits it (a header line of keywords and
// values; an id, hex or number after the others), so that a greeting such
// as "Turn 1 orders below, thanks" or "Order of battle follows" does not.
func (p *parser) isStart(toks []string) bool {
	if p.findUnit(toks[0]) != nil {
		return true
	}
	kw, ok := keywords[strings.ToUpper(toks[0])]
	switch {
	case !ok:
		return false
	case kernel.HeaderKeyword(kw) != "":
		return kernel.IsHeader(toks)
	case len(toks) < 2:
		return false
	case kw == "CHOICES":
		_, isChoice := keywords[strings.ToUpper(toks[min(2, len(toks)-1)])]
		return len(toks) == 2 || isChoice
	}
	return strings.ContainsAny(toks[1], "0123456789/") || p.findUnit(toks[1]) != nil || p.findBattery(toks[1]) != nil
}

func (p *parser) findUnit(id string) *rules.Unit {
	for _, u := range p.st.Units {
		if strings.EqualFold(u.ID, id) && !u.Removed {
			return u
		}
	}
	return nil
}

func (p *parser) line(l kernel.Line) {
	first := strings.ToUpper(l.Words[0])
	if p.refusedUnit {
		_, isKeyword := keywords[first]
		if !isKeyword && p.findUnit(l.Words[0]) == nil {
			return // under a refused unit line: its error says it all
		}
		p.refusedUnit = false
	}
	if p.unit != nil {
		if w, ok := unitWords[first]; ok {
			p.unitOrder(l, w)
			return
		}
		if s := findStand(p.unit, l.Words[0]); s != nil {
			p.standPath(l, s)
			return
		}
	}
	if kw, ok := keywords[first]; ok {
		if kw != "UNIT" {
			p.endUnit()
		}
		p.keyword(l, kw)
		return
	}
	if u := p.findUnit(l.Words[0]); u != nil {
		p.unitHeader(l, l.Words)
		return
	}
	if l.AfterLongComment {
		p.sub.Ignored = append(p.sub.Ignored, engine.IgnoredLine{Line: l.N, Text: l.Raw, Why: kernel.WhyWrappedTail})
		return
	}
	p.notOrders[l.N] = len(p.errs)
	p.unknownLine(l)
}

func (p *parser) endUnit() { p.unit, p.uo = nil, nil }

// endHint is the hint of a line that is no order and no near-miss of one.
const endHint = "if this line is not an order, end your orders with a line saying END"

func (p *parser) unknownLine(l kernel.Line) {
	word := l.Words[0]
	var cands []string
	for k := range keywords {
		cands = append(cands, k)
	}
	for _, u := range p.st.ActiveUnits(p.side) {
		cands = append(cands, u.ID)
	}
	hint := ""
	if p.unit != nil {
		for _, s := range p.unit.Stands {
			cands = append(cands, s.Name)
		}
		for k := range unitWords {
			cands = append(cands, k)
		}
	}
	if best := kernel.Closest(word, cands); best != "" {
		hint = fmt.Sprintf("did you mean %s?", best)
	} else {
		hint = endHint
	}
	if p.unit != nil {
		p.errorf(l, rules.SecNone, hint, "%q is not a stand of %s, a unit of %s, or an order word", word, p.unit.ID, p.side)
		return
	}
	p.errorf(l, rules.SecNone, hint, "%q is not an order word or a unit of %s", word, p.side)
}

func (p *parser) keyword(l kernel.Line, kw string) {
	args := l.Words[1:]
	switch kw {
	case "GAME", "SIDE", "SEAT", "ROUND", "PASSWORD":
		p.header(l)
	case "UNIT":
		if len(args) == 0 {
			p.errorf(l, rules.SecNone, "write BN and the unit's id, then its status: BN I/77 M", "%s needs a unit id", l.Words[0])
			return
		}
		p.unitHeader(l, args)
	case "PRIORITY":
		p.priority(l, args)
	case "CHOICES":
		p.choices(l)
	case "ARTILLERY":
		p.artillery(l, args)
	case "AIR":
		p.airStrikes(l, args)
	case "RECOVER", "PLATOON", "REBUILD", "RESHUFFLE":
		p.night(l, kw, args)
	}
}

// header reads GAME, SIDE, ROUND and PASSWORD, several to a line.
func (p *parser) header(l kernel.Line) {
	var h kernel.Header
	if err := h.ReadHeader(l.Words); err != nil {
		p.errorf(l, rules.SecNone, err.Hint, "%s", err.Msg)
		return
	}
	if h.Side != "" && !engine.SameSide(h.Side, p.side) {
		p.errorf(l, rules.SecNone, "", "these orders say SIDE %s, but they are being checked for %s", h.Side, p.side)
		return
	}
	p.sub.Game = cmp.Or(h.Game, p.sub.Game)
	if h.Side != "" {
		p.sub.Side = p.side
	}
	p.sub.Round = cmp.Or(h.Round, p.sub.Round)
	p.sub.Seat = cmp.Or(h.Seat, p.sub.Seat)
	p.sub.Password = cmp.Or(h.Password, p.sub.Password)
}

// ruleError puts a rules problem from rules.Validate on the line that gave
// the order it is about.
func (p *parser) ruleError(prob rules.Problem) engine.Problem {
	line := 0
	key := prob.Unit + " " + prob.Stand
	switch {
	case prob.Stand != "" && p.attackLine[prob.Unit] != 0 && strings.HasPrefix(prob.Section, p.rs.Section(rules.SecCombat)):
		line = p.attackLine[prob.Unit]
	case prob.Stand != "" && p.standLine[key] != 0:
		line = p.standLine[key]
	case prob.Stand != "" && p.swapLine[key] != 0:
		line = p.swapLine[key]
	case p.batLine[prob.Unit] != 0:
		line = p.batLine[prob.Unit]
	case p.attackLine[prob.Unit] != 0 && strings.HasPrefix(prob.Section, p.rs.Section(rules.SecCombat)):
		line = p.attackLine[prob.Unit]
	case p.otherLine["night "+prob.Unit] != 0 && strings.HasPrefix(prob.Section, p.rs.Section(rules.SecNight)):
		line = p.otherLine["night "+prob.Unit]
	case p.unitLine[prob.Unit] != 0:
		line = p.unitLine[prob.Unit]
	case prob.Section == p.rs.Section(rules.SecSequence):
		line = p.otherLine["priority"]
	case prob.Section == p.rs.Section(rules.SecAir):
		line = p.otherLine["air"]
	}
	e := engine.Problem{Line: line, Text: prob.Msg, Rule: prob.Section}
	if prob.Unit != "" {
		e.Text = prob.Unit + ": " + e.Text
		if prob.Stand != "" {
			e.Text = prob.Unit + " " + prob.Stand + ": " + prob.Msg
		}
	}
	return e
}
