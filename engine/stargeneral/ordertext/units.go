package ordertext

// A unit's lines: its header (BN id status), its stands' paths and
// swaps, the hints when a unit, stand or hex is mistyped.

import (
	"fmt"
	"slices"
	"strings"

	kernel "fieldpost/engine/ordertext"
	"fieldpost/engine/stargeneral/rules"
)

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
