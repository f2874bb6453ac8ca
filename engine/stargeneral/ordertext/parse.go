package ordertext

import (
	"cmp"
	"fmt"
	"slices"
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

// unitHeader starts a unit's block: ID [STATUS].
//
// When the unit is the side's but its line is wrong, the lines below are
// still read as its stands' (and checked), so that one error does not make
// the next lines errors too.
func (p *parser) unitHeader(l kernel.Line, args []string) {
	p.endUnit()
	u := p.findUnit(args[0])
	if u == nil || u.Side != p.side {
		p.errorf(l, rules.SecNone, p.unitHint(args[0]), "%q is not a unit of %s", args[0], p.side)
		p.refusedUnit = true
		return
	}
	if line, dup := p.unitLine[u.ID]; dup {
		p.errorf(l, rules.SecNone, "", "%s already has orders at line %d: give each unit one block", u.ID, line)
		p.refusedUnit = true
		return
	}
	status := u.Status
	refuse := func(hint, format string, args ...any) {
		p.unit, p.uo = u, &rules.UnitOrders{Unit: u.ID, Status: u.Status} // read on, store nothing
		p.errorf(l, rules.SecNone, hint, format, args...)
	}
	if len(args) > 1 {
		s, ok := parseStatus(args[1])
		if !ok {
			refuse("statuses are M (move), H (hold), D (dig in) and R (retreat)", "%q is not a status", args[1])
			return
		}
		status = s
	}
	if len(args) > 2 {
		refuse("put each stand's path on its own line below the unit", "unexpected %q after %s's status", args[2], u.ID)
		return
	}
	p.sub.Orders.Units = append(p.sub.Orders.Units, rules.UnitOrders{Unit: u.ID, Status: status})
	p.unit = u
	p.uo = &p.sub.Orders.Units[len(p.sub.Orders.Units)-1]
	p.unitLine[u.ID] = l.N
}

func (p *parser) unitHint(word string) string {
	var ids []string
	for _, u := range p.st.ActiveUnits(p.side) {
		ids = append(ids, u.ID)
	}
	if best := kernel.Closest(word, ids); best != "" {
		return fmt.Sprintf("did you mean %s?", best)
	}
	return "your units are " + strings.Join(slices.Sorted(slices.Values(ids)), ", ")
}

func parseStatus(w string) (rules.Status, bool) {
	switch strings.ToUpper(w) {
	case "M", "MOVE", "MOVING":
		return rules.Move, true
	case "H", "HOLD", "HOLDING":
		return rules.Hold, true
	case "D", "DIG", "DIG-IN", "DIGIN", "DUG-IN", "DUGIN":
		return rules.DigIn, true
	case "R", "RETREAT", "RETREATING":
		return rules.Retreat, true
	}
	return "", false
}

func findStand(u *rules.Unit, name string) *rules.Stand {
	for _, s := range u.Stands {
		if strings.EqualFold(s.Name, name) {
			return s
		}
	}
	return nil
}

// standPath reads "1A 0506 0606" (also "1A MOVE 0506 0606", "1A stays").
// A path that begins with the stand's own hex starts from there, so that the
// order form's "1A 0505" means the stand stays.
func (p *parser) standPath(l kernel.Line, s *rules.Stand) {
	key := p.unit.ID + " " + s.Name
	if line, dup := p.standLine[key]; dup {
		p.errorf(l, rules.SecNone, "", "%s already has a path at line %d", s.Name, line)
		return
	}
	p.standLine[key] = l.N
	args := l.Words[1:]
	if len(args) > 0 && (strings.EqualFold(args[0], "MOVE") || strings.EqualFold(args[0], "TO") || strings.EqualFold(args[0], "MOVES")) {
		args = args[1:]
	}
	if len(args) == 1 && isStayWord(args[0]) || len(args) == 0 {
		return
	}
	path, ok := p.hexes(l, args)
	if !ok {
		return
	}
	if len(path) > 0 && path[0] == s.Hex {
		path = path[1:]
	}
	prev := s.Hex
	for _, h := range path {
		if !rules.Adjacent(prev, h) {
			p.errorf(l, rules.SecMovement, adjacentHint(prev, h), "%s is not adjacent to %s: a path lists every hex in turn", h, prev)
			return
		}
		prev = h
	}
	if len(path) > 0 {
		p.uo.Moves = append(p.uo.Moves, rules.StandMove{Stand: s.Name, Path: path})
	}
}

func isStayWord(w string) bool {
	switch strings.ToUpper(w) {
	case "-", "STAY", "STAYS", "HOLD", "HOLDS", "STOP":
		return true
	}
	return false
}

// adjacentHint suggests the neighbour of prev that the player most likely
// meant: one a single digit away from what was written (a typo), or else
// any; of those, the one nearest to what was written.
func adjacentHint(prev, got rules.Hex) string {
	const notTypo = 1000
	best, bestD := "", 2*notTypo
	for _, n := range prev.Neighbours() {
		if n.Col < 1 || n.Row < 1 {
			continue
		}
		d := rules.Distance(n, got)
		if digitsDiffer(n.String(), got.String()) != 1 {
			d += notTypo
		}
		if d < bestD {
			best, bestD = n.String(), d
		}
	}
	return "did you mean " + best + "?"
}

func digitsDiffer(a, b string) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

func (p *parser) hexes(l kernel.Line, args []string) ([]rules.Hex, bool) {
	var out []rules.Hex
	for _, a := range args {
		h, err := rules.ParseHex(a)
		if err != nil {
			p.errorf(l, rules.SecNone, "hexes are four digits, column then row, e.g. 0707", "%q is not a hex number", a)
			return nil, false
		}
		if !p.st.Map.OnMap(h) {
			p.errorf(l, rules.SecNone, "", "%s is off the map (%d columns, %d rows)", h, p.st.Map.Cols, p.st.Map.Rows)
			return nil, false
		}
		out = append(out, h)
	}
	return out, true
}

func (p *parser) unitOrder(l kernel.Line, w string) {
	args := l.Words[1:]
	switch w {
	case "SWAP":
		p.swap(l, args)
	case "ATTACK", "ASSAULT", "FIRE":
		p.attack(l, w, args)
	case "HQRETURN":
		if len(args) > 0 && strings.EqualFold(args[0], "AT") {
			args = args[1:]
		}
		hs, ok := p.hexes(l, args)
		if !ok {
			return
		}
		if len(hs) != 1 {
			p.errorf(l, rules.SecHQ, "", "HQ-RETURN takes one hex: where the new HQ should appear")
			return
		}
		p.uo.HQPlacement = hs[0]
		p.otherLine["hq "+p.unit.ID] = l.N
	}
}

// swap reads "SWAP mg TO 1B".
func (p *parser) swap(l kernel.Line, args []string) {
	if len(args) == 3 && strings.EqualFold(args[1], "TO") {
		args = []string{args[0], args[2]}
	}
	if len(args) != 2 {
		p.errorf(l, rules.SecSupportSwap, "", "write SWAP PLATOON TO STAND, e.g. SWAP mg TO 1B")
		return
	}
	_, pl := p.unit.Platoon(args[0])
	if pl == nil {
		for _, s := range p.unit.Stands {
			for _, cand := range []*rules.Platoon{s.Support, s.Transport} {
				if cand != nil && strings.EqualFold(cand.Name, args[0]) {
					pl = cand
				}
			}
		}
	}
	if pl == nil {
		p.errorf(l, rules.SecSupportSwap, p.platoonHint(args[0]), "%s has no platoon %q", p.unit.ID, args[0])
		return
	}
	to := findStand(p.unit, args[1])
	if to == nil {
		p.errorf(l, rules.SecSupportSwap, p.standHint(args[1]), "%s has no stand %q", p.unit.ID, args[1])
		return
	}
	p.uo.Swaps = append(p.uo.Swaps, rules.Swap{Platoon: pl.Name, To: to.Name})
	p.swapLine[p.unit.ID+" "+pl.Name] = l.N
}

func (p *parser) platoonHint(word string) string {
	var names []string
	for _, s := range p.unit.Stands {
		for _, pl := range []*rules.Platoon{s.Support, s.Transport} {
			if pl != nil {
				names = append(names, pl.Name)
			}
		}
	}
	if best := kernel.Closest(word, names); best != "" {
		return "did you mean " + best + "?"
	}
	if len(names) == 0 {
		return p.unit.ID + " has no platoons"
	}
	return "its platoons are " + strings.Join(slices.Sorted(slices.Values(names)), ", ")
}

func (p *parser) standHint(word string) string {
	var names []string
	for _, s := range p.unit.Stands {
		names = append(names, s.Name)
	}
	if best := kernel.Closest(word, names); best != "" {
		return "did you mean " + best + "?"
	}
	return "its stands are " + strings.Join(slices.Sorted(slices.Values(names)), ", ")
}

// attack reads
//
//	ATTACK 0707 WITH 1A 1B [CLOSE|FIRE] [SUPPORT mortar ART 2/26 AIR [n]]
//	ATTACK 0707 WITH 1A CLOSE 1B FIRE ...
//	ASSAULT 0707 WITH 1A      (close combat)
//	FIRE 0909 WITH 2C         (distant fire)
//
// A stand with no mode fights in close combat when its end hex is adjacent to
// the target and by distant fire otherwise.
func (p *parser) attack(l kernel.Line, verb string, args []string) {
	if len(args) > 0 && strings.EqualFold(args[0], "AT") {
		args = args[1:]
	}
	if len(args) == 0 {
		p.errorf(l, rules.SecInitiating, "e.g. ATTACK 0707 WITH 1A 1B", "%s needs a target hex", verb)
		return
	}
	target, ok := p.hexes(l, args[:1])
	if !ok {
		return
	}
	a := &rules.Attack{Target: target[0]}
	args = args[1:]
	if len(args) > 0 && strings.EqualFold(args[0], "WITH") {
		args = args[1:]
	}
	defaultMode := ""
	switch verb {
	case "ASSAULT":
		defaultMode = "close"
	case "FIRE":
		defaultMode = "fire"
	}
	var modes []string
	i := 0
	for ; i < len(args); i++ {
		w := strings.ToUpper(args[i])
		if w == "SUPPORT" || w == "SUPPORTED" || w == "WITH" {
			break
		}
		if m := modeWord(w); m != "" {
			if len(a.Stands) == 0 {
				p.errorf(l, rules.SecInitiating, "", "%s before any stand: name the attacking stands first", args[i])
				return
			}
			// A mode applies to the stands named since the last mode word.
			for j := len(modes) - 1; j >= 0 && modes[j] == ""; j-- {
				modes[j] = m
			}
			continue
		}
		s := findStand(p.unit, args[i])
		if s == nil {
			p.errorf(l, rules.SecInitiating, p.standHint(args[i]), "%s has no stand %q", p.unit.ID, args[i])
			return
		}
		a.Stands = append(a.Stands, rules.AttackStand{Stand: s.Name})
		modes = append(modes, "")
	}
	if len(a.Stands) == 0 {
		p.errorf(l, rules.SecInitiating, "e.g. ATTACK 0707 WITH 1A 1B", "name the stands that attack")
		return
	}
	for j := range a.Stands {
		m := modes[j]
		if m == "" {
			m = defaultMode
		}
		if m == "" {
			m = "fire"
			if rules.Adjacent(p.endHex(a.Stands[j].Stand), a.Target) {
				m = "close"
			}
		}
		a.Stands[j].Close = m == "close"
	}
	if i < len(args) {
		if !p.support(l, a, args[i+1:]) {
			return
		}
	}
	if p.uo.Attack != nil {
		p.errorf(l, rules.SecInitiating, "", "%s already attacks at line %d: a unit makes one attack a round", p.unit.ID, p.attackLine[p.unit.ID])
		return
	}
	p.uo.Attack = a
	p.attackLine[p.unit.ID] = l.N
}

func modeWord(w string) string {
	switch w {
	case "CLOSE", "CC", "ASSAULT", "CLOSE-COMBAT":
		return "close"
	case "FIRE", "DF", "DISTANT", "RANGED", "DISTANT-FIRE":
		return "fire"
	}
	return ""
}

// endHex is where a stand's plotted path ends (so far in the block).
func (p *parser) endHex(stand string) rules.Hex {
	for _, m := range p.uo.Moves {
		if m.Stand == stand {
			return m.Path[len(m.Path)-1]
		}
	}
	return p.unit.Stand(stand).Hex
}

// support reads "mortar ART 2/26 ART 3/26 AIR [n]": the unit's light
// artillery by platoon name, batteries by id (ART optional), air points.
func (p *parser) support(l kernel.Line, a *rules.Attack, args []string) bool {
	for i := 0; i < len(args); i++ {
		w := strings.ToUpper(args[i])
		switch {
		case w == "AIR":
			n := 1
			if i+1 < len(args) {
				v, isNumber, err := kernel.Number(args[i+1])
				if err != nil {
					p.errorf(l, rules.SecAir, "", "AIR %v", err)
					return false
				}
				if isNumber {
					n = v
					i++
				}
			}
			a.Air += n
		case w == "ART" || w == "ARTY" || w == "ARTILLERY" || w == "BATTERY" || w == "BTY":
			if i+1 >= len(args) {
				p.errorf(l, rules.SecSupport, "", "%s needs a battery id", args[i])
				return false
			}
			i++
			bt := p.findBattery(args[i])
			if bt == nil {
				p.errorf(l, rules.SecSupport, p.batteryHint(args[i]), "%q is not a battery of %s", args[i], p.side)
				return false
			}
			a.Batteries = append(a.Batteries, bt.ID)
		default:
			if bt := p.findBattery(args[i]); bt != nil {
				a.Batteries = append(a.Batteries, bt.ID)
				continue
			}
			if _, pl := p.unit.Platoon(args[i]); pl != nil {
				a.LightArtillery = append(a.LightArtillery, pl.Name)
				continue
			}
			if pl := p.platoonNamed(args[i]); pl != nil {
				a.LightArtillery = append(a.LightArtillery, pl.Name)
				continue
			}
			p.errorf(l, rules.SecSupport, p.platoonHint(args[i]), "%q is neither a platoon of %s nor a battery of %s", args[i], p.unit.ID, p.side)
			return false
		}
	}
	return true
}

func (p *parser) platoonNamed(name string) *rules.Platoon {
	for _, s := range p.unit.Stands {
		for _, pl := range []*rules.Platoon{s.Support, s.Transport} {
			if pl != nil && strings.EqualFold(pl.Name, name) {
				return pl
			}
		}
	}
	return nil
}

func (p *parser) findBattery(id string) *rules.Battery {
	for _, bt := range p.st.Batteries {
		if strings.EqualFold(bt.ID, id) && bt.Side == p.side && !bt.Removed {
			return bt
		}
	}
	return nil
}

func (p *parser) batteryHint(word string) string {
	var ids []string
	for _, bt := range p.st.Batteries {
		if bt.Side == p.side && !bt.Removed {
			ids = append(ids, bt.ID)
		}
	}
	if best := kernel.Closest(word, ids); best != "" {
		return "did you mean " + best + "?"
	}
	if len(ids) == 0 {
		return p.side + " has no batteries"
	}
	return "your batteries are " + strings.Join(slices.Sorted(slices.Values(ids)), ", ")
}

func (p *parser) priority(l kernel.Line, args []string) {
	if len(p.sub.Orders.Priority) > 0 {
		p.errorf(l, rules.SecSequence, "", "a second PRIORITY line")
		return
	}
	seen := map[string]bool{}
	for _, a := range args {
		u := p.findUnit(a)
		if u == nil || u.Side != p.side {
			p.errorf(l, rules.SecSequence, p.unitHint(a), "%q is not a unit of %s", a, p.side)
			return
		}
		if seen[u.ID] {
			p.errorf(l, rules.SecSequence, "", "%s is listed twice", u.ID)
			return
		}
		seen[u.ID] = true
		p.sub.Orders.Priority = append(p.sub.Orders.Priority, u.ID)
	}
	p.otherLine["priority"] = l.N
}

// choices reads "LOSSES keep-strength PURSUE yes HOLD-AT-COST no DEFENSIVE-SUPPORT yes".
func (p *parser) choices(l kernel.Line) {
	c := &p.sub.Orders.Choices
	toks := l.Words
	for i := 0; i < len(toks); i += 2 {
		key := strings.ToUpper(toks[i])
		if i+1 >= len(toks) {
			p.errorf(l, rules.SecNone, "", "%s needs a value", toks[i])
			return
		}
		val := strings.ToLower(toks[i+1])
		if p.choiceSeen[key] {
			p.errorf(l, rules.SecNone, "", "%s is given twice", toks[i])
			return
		}
		p.choiceSeen[key] = true
		yes, isBool := map[string]bool{"yes": true, "y": true, "on": true, "true": true, "no": false, "n": false, "off": false, "false": false}[val]
		switch key {
		case "LOSSES":
			switch val {
			case "keep-strength", "strength", "keep":
				c.Losses = rules.LossesKeepStrength
			case "platoons-first", "platoons", "support-first":
				c.Losses = rules.LossesPlatoonsFirst
			default:
				p.errorf(l, rules.SecLosses, "", "LOSSES %q: choose keep-strength or platoons-first", toks[i+1])
				return
			}
		case "PURSUE", "PURSUIT", "HOLD-AT-COST", "DEFENSIVE-SUPPORT":
			if !isBool {
				p.errorf(l, rules.SecNone, "", "%s %q: answer yes or no", toks[i], toks[i+1])
				return
			}
			switch key {
			case "PURSUE", "PURSUIT":
				c.NoPursuit = !yes
			case "HOLD-AT-COST":
				c.NoHoldAtCost = !yes
			default:
				c.NoDefensiveSupport = !yes
			}
		default:
			p.errorf(l, rules.SecNone, "the standing choices are LOSSES, PURSUE, HOLD-AT-COST and DEFENSIVE-SUPPORT", "%q is not a standing choice", toks[i])
			return
		}
	}
}

// artillery reads "ARTILLERY 2/26 FIRE 0808 KEEP 1  3/26 MOVE 0304 0305".
func (p *parser) artillery(l kernel.Line, args []string) {
	var cur *rules.BatteryOrders
	for i := 0; i < len(args); i++ {
		w := strings.ToUpper(args[i])
		switch w {
		case "FIRE", "MOVE", "KEEP", "HOLD":
			if cur == nil {
				p.errorf(l, rules.SecArtillery, p.batteryHint(args[i]), "%s before a battery id", args[i])
				return
			}
		}
		switch w {
		case "FIRE":
			if i+1 >= len(args) {
				p.errorf(l, rules.SecArtilleryPhase, "", "FIRE needs a target hex")
				return
			}
			hs, ok := p.hexes(l, args[i+1:i+2])
			if !ok {
				return
			}
			cur.Fire = hs[0]
			i++
		case "MOVE":
			j := i + 1
			for j < len(args) && isHexWord(args[j]) {
				j++
			}
			hs, ok := p.hexes(l, args[i+1:j])
			if !ok {
				return
			}
			if len(hs) == 0 {
				p.errorf(l, rules.SecArtilleryPhase, "", "MOVE needs the hexes of the battery's path")
				return
			}
			bt := p.st.Battery(cur.Battery)
			if hs[0] == bt.Hex {
				hs = hs[1:]
			}
			if len(hs) == 0 {
				// Its own hex alone is no move: HOLD says that.
				p.errorf(l, rules.SecArtilleryPhase, "", "MOVE %s: battery %s is at %s already; write the hexes it moves into, or HOLD", bt.Hex, bt.ID, bt.Hex)
				return
			}
			cur.Move = hs
			i = j - 1
		case "KEEP":
			if i+1 >= len(args) {
				p.errorf(l, rules.SecArtillery, "", "KEEP needs a number of shots")
				return
			}
			n, isNumber, err := kernel.Number(args[i+1])
			if err != nil {
				p.errorf(l, rules.SecArtillery, "", "KEEP %v", err)
				return
			}
			if !isNumber || n < 0 {
				p.errorf(l, rules.SecArtillery, "", "KEEP %q: want a number of shots", args[i+1])
				return
			}
			cur.Keep = n
			i++
		case "HOLD":
		default:
			bt := p.findBattery(args[i])
			if bt == nil {
				p.errorf(l, rules.SecArtillery, p.batteryHint(args[i]), "%q is not a battery of %s", args[i], p.side)
				return
			}
			if p.battSeen[bt.ID] {
				p.errorf(l, rules.SecArtillery, "", "battery %s has orders already", bt.ID)
				return
			}
			p.battSeen[bt.ID] = true
			p.sub.Orders.Batteries = append(p.sub.Orders.Batteries, rules.BatteryOrders{Battery: bt.ID})
			cur = &p.sub.Orders.Batteries[len(p.sub.Orders.Batteries)-1]
			p.batLine[bt.ID] = l.N
		}
	}
	if cur == nil {
		p.errorf(l, rules.SecArtillery, p.batteryHint(""), "ARTILLERY needs a battery id and FIRE hex, MOVE hexes, KEEP n or HOLD")
	}
}

func isHexWord(s string) bool {
	_, err := rules.ParseHex(s)
	return err == nil
}

func (p *parser) airStrikes(l kernel.Line, args []string) {
	hs, ok := p.hexes(l, args)
	if !ok {
		return
	}
	if len(hs) == 0 {
		p.errorf(l, rules.SecAir, "", "AIR needs target hexes for the artillery phase (air support for an attack goes on its ATTACK line)")
		return
	}
	p.sub.Orders.AirStrikes = append(p.sub.Orders.AirStrikes, hs...)
	p.otherLine["air"] = l.N
}

// night reads the night round's orders:
//
//	RECOVER I/77 1A 2            strength points to a stand (9.1)
//	PLATOON I/77 mg TO 1A        a lost platoon back to a stand of its unit
//	PLATOON II/77 mg FROM I/77 TO 1A  one another unit lost (3SG 8)
//	REBUILD I/77 1C AT 0505 SP 2 a lost stand back, next to its unit
//	RESHUFFLE I/77 1A TO 0506    a stand to another hex its unit holds (9.2)
func (p *parser) night(l kernel.Line, kw string, args []string) {
	n := p.sub.Orders.Night
	if n == nil {
		n = &rules.NightOrders{}
		p.sub.Orders.Night = n
	}
	fillers := []string{"TO", "AT", "SP"}
	if kw == "PLATOON" {
		fillers = []string{"TO"} // a platoon may be named "at" (anti-tank)
	}
	args = dropWords(args, fillers...)
	if len(args) == 0 {
		p.errorf(l, rules.SecNight, "", "%s needs a unit", kw)
		return
	}
	u := p.findUnit(args[0])
	if u == nil || u.Side != p.side {
		p.errorf(l, rules.SecNight, p.unitHint(args[0]), "%q is not a unit of %s", args[0], p.side)
		return
	}
	bad := func(form string) { p.errorf(l, rules.SecNight, "", "write %s", form) }
	num := func(s string) (int, bool) {
		v, isNumber, err := kernel.Number(s)
		if err != nil {
			p.errorf(l, rules.SecNight, "", "%v", err)
		}
		return v, isNumber && err == nil && v > 0
	}
	p.otherLine["night "+u.ID] = l.N
	switch kw {
	case "RECOVER":
		if len(args) != 3 {
			bad("RECOVER UNIT STAND SP, e.g. RECOVER I/77 1A 2")
			return
		}
		sp, ok := num(args[2])
		s := findStand(u, args[1])
		if s == nil || !ok {
			bad("RECOVER UNIT STAND SP with a stand of the unit and a number of points")
			return
		}
		n.Strength = append(n.Strength, rules.Recovery{Unit: u.ID, Stand: s.Name, SP: sp})
	case "PLATOON":
		from := ""
		if len(args) == 5 && strings.EqualFold(args[2], "FROM") {
			lost := p.findUnit(args[3])
			if lost == nil || lost.Side != p.side {
				p.errorf(l, rules.SecNight, p.unitHint(args[3]), "%q is not a unit of %s", args[3], p.side)
				return
			}
			from, args = lost.ID, []string{args[0], args[1], args[4]}
		}
		if len(args) != 3 {
			bad("PLATOON UNIT PLATOON TO STAND, e.g. PLATOON I/77 mg TO 1A, or PLATOON UNIT PLATOON FROM UNIT TO STAND for a platoon another unit lost")
			return
		}
		s := findStand(u, args[2])
		if s == nil {
			p.errorf(l, rules.SecNight, "", "%s has no stand %q", u.ID, args[2])
			return
		}
		n.Platoons = append(n.Platoons, rules.PlatoonRecovery{Unit: u.ID, Platoon: args[1], To: s.Name, From: from})
	case "REBUILD":
		if len(args) != 4 {
			bad("REBUILD UNIT STAND AT HEX SP N, e.g. REBUILD I/77 1C AT 0505 SP 2")
			return
		}
		hs, ok := p.hexes(l, args[2:3])
		if !ok {
			return
		}
		sp, ok := num(args[3])
		if !ok {
			bad("REBUILD UNIT STAND AT HEX SP N with a number of points")
			return
		}
		n.Rebuild = append(n.Rebuild, rules.Rebuild{Unit: u.ID, Stand: args[1], Hex: hs[0], SP: sp})
	case "RESHUFFLE":
		if len(args) != 3 {
			bad("RESHUFFLE UNIT STAND TO HEX, e.g. RESHUFFLE I/77 1A TO 0506")
			return
		}
		s := findStand(u, args[1])
		hs, ok := p.hexes(l, args[2:3])
		if s == nil || !ok {
			bad("RESHUFFLE UNIT STAND TO HEX with a stand of the unit")
			return
		}
		n.Reshuffle = append(n.Reshuffle, rules.NightMove{Unit: u.ID, Stand: s.Name, To: hs[0]})
	}
}

func dropWords(args []string, words ...string) []string {
	var out []string
next:
	for _, a := range args {
		for _, w := range words {
			if strings.EqualFold(a, w) {
				continue next
			}
		}
		out = append(out, a)
	}
	return out
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
