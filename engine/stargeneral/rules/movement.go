package rules

import (
	"fmt"
	"strings"
)

// StrategicEnemyGap: a strategic move cannot start, pass or finish within
// this many hexes of an enemy stand (2).
const StrategicEnemyGap = 2

// moveKind is the kind of movement a unit's status allows.
type moveKind int

const (
	moveNormal  moveKind = iota // an M unit: normal or strategic (2, 2.4, 2.5)
	moveShuffle                 // an H or D unit: only within its own hexes (2.2)
	moveRetreat                 // an R unit: strategic distance, into ZOC at a cost (2.6)
)

// halt is where and why a stand stopped short of its plotted path.
type halt struct {
	at      Hex
	why     string
	section string
}

// plannedMove is one core stand's movement in its unit's turn: the hexes it
// can legally walk, then how many of them it keeps once the unit's stands
// have settled who finishes where.
type plannedMove struct {
	stand  *Stand
	start  Hex
	walk   []Hex // hexes the stand can enter along its path, start excluded
	halted *halt // why the walk ended before the plotted path did
	end    int   // the stand finishes at walk[end-1], or at start when 0
	// blocked says why the stand stopped before the end of its walk (1.3).
	blocked string
	// dies is the walk length at which retreat losses destroy the stand; 0 never.
	dies int
}

func (m *plannedMove) at() Hex {
	if m.end == 0 {
		return m.start
	}
	return m.walk[m.end-1]
}

func (m *plannedMove) taken() []Hex { return m.walk[:m.end] }

// moveUnit plays a unit's movement in its turn (1.7, 2): an M unit's stands
// walk their paths, an H or D unit's stands shuffle within its hexes, and
// support platoons change stands before or after, as the ruleset says.
func (r *resolver) moveUnit(u *Unit, uo *UnitOrders) {
	hqStart := u.HQ(r.rs).Hex
	starts := map[*Stand]Hex{}
	for _, s := range u.Stands {
		starts[s] = s.Hex
	}
	if r.rs.SupportSwap == SwapBeforeMove {
		r.swapSupport(u, uo)
	}
	switch u.Status {
	case Move:
		r.moveStands(u, uo, moveNormal)
	case Hold, DigIn:
		r.moveStands(u, uo, moveShuffle)
	}
	if r.rs.SupportSwap == SwapAfterMove {
		r.swapSupport(u, uo)
	}
	hq := u.HQ(r.rs)
	for _, s := range u.Stands {
		if Distance(hqStart, starts[s]) > r.rs.CommandRange && Distance(hq.Hex, s.Hex) > r.rs.CommandRange {
			r.outOfCommandStart[s] = true
			r.emit(Event{Kind: EvNote, Side: u.Side, Unit: u.ID, Stand: s.Name, To: s.Hex, Section: r.sec(SecMoveRestrictions),
				Text: fmt.Sprintf("%s %s started its turn out of command and did not finish in command: it cannot attack or lend its light artillery this round (%s)", u.ID, s.Name, r.sec(SecMoveRestrictions))})
		}
	}
}

// retreatMoves plays an R unit's movement (2.6): up to the strategic
// allowance, into enemy ZOC if need be at 1 SP for each such hex entered,
// after paying for starting in an enemy ZOC where the ruleset says so.
func (r *resolver) retreatMoves(u *Unit, uo *UnitOrders) {
	if r.rs.SupportSwap == SwapBeforeMove {
		r.swapSupport(u, uo)
	}
	if r.rs.RetreatStartZOCLoss > 0 {
		for _, sm := range uo.Moves {
			s := u.Stand(sm.Stand)
			if s == nil || len(sm.Path) == 0 || u.Removed {
				continue
			}
			if e, ok := r.zocOf(s.Hex, u.Side); ok {
				r.emit(Event{Kind: EvNote, Side: u.Side, Unit: u.ID, Stand: s.Name, From: s.Hex, Section: r.sec(SecRetreat),
					Text: fmt.Sprintf("%s %s starts its retreat in the ZOC of %s: it loses %d SP before moving (%s)", u.ID, s.Name, e.name(), r.rs.RetreatStartZOCLoss, r.sec(SecRetreat))})
				r.takeLosses(occupant{unit: u, stand: s}, r.rs.RetreatStartZOCLoss, r.sec(SecRetreat))
			}
		}
	}
	if u.Removed {
		return
	}
	if u.HQ(r.rs) == nil {
		r.emit(Event{Kind: EvNote, Side: u.Side, Unit: u.ID, Section: r.sec(SecHQ),
			Text: fmt.Sprintf("%s has lost its HQ before moving: it does not move until a new HQ appears (%s)", u.ID, r.sec(SecHQ))})
		return
	}
	r.moveStands(u, uo, moveRetreat)
	if r.rs.SupportSwap == SwapAfterMove && !u.Removed && u.HQ(r.rs) != nil {
		r.swapSupport(u, uo)
	}
}

// moveStands moves the stands listed in the unit's orders as one group: each
// walks its path as far as the rules let it, then the group settles who
// finishes where so that no two core stands share a hex (1.3). Stands of the
// unit may swap places or follow one another, because a stand only has to
// find its final hex free once every stand of the unit has moved.
func (r *resolver) moveStands(u *Unit, uo *UnitOrders, kind moveKind) {
	held := map[Hex]bool{}
	for _, s := range u.Stands {
		held[s.Hex] = true
	}
	hq := u.HQ(r.rs)
	var moves []*plannedMove
	for _, sm := range uo.Moves {
		s := u.Stand(sm.Stand)
		if s == nil {
			r.emit(Event{Kind: EvNote, Side: u.Side, Unit: u.ID, Stand: sm.Stand, Section: r.sec(SecStrength),
				Text: fmt.Sprintf("%s %s was destroyed before it could move", u.ID, sm.Stand)})
			continue
		}
		if len(sm.Path) == 0 {
			continue
		}
		m := &plannedMove{stand: s, start: s.Hex}
		if kind == moveShuffle && Distance(hq.Hex, s.Hex) > r.rs.CommandRange {
			m.halted = &halt{at: s.Hex, section: r.sec(SecStatusMovement),
				why: fmt.Sprintf("it is %d hexes from its HQ, out of command, and only stands in command may shuffle", Distance(hq.Hex, s.Hex))}
		} else {
			m.walk, m.halted = r.walkPath(u, s, sm.Path, kind, held)
		}
		m.end = len(m.walk)
		moves = append(moves, m)
	}
	if len(moves) == 0 {
		return
	}
	r.settle(u, moves, kind)
	r.place(u, moves)
	for _, m := range moves {
		if kind == moveNormal && m.end > r.b.allowance(m.stand).Normal {
			r.strategic[m.stand] = true
		}
		r.reportMove(u, m, kind)
		if kind == moveRetreat {
			r.retreatLosses(u, m)
			if u.Removed {
				return
			}
		}
	}
}

// walkPath follows a plotted path hex by hex and returns the hexes the stand
// can enter, stopping where a rule halts it (2, 2.2, 2.4, 2.5, 2.6). Friendly
// stands are passed through freely; where the stand finishes is settled later.
func (r *resolver) walkPath(u *Unit, s *Stand, path []Hex, kind moveKind, held map[Hex]bool) ([]Hex, *halt) {
	allow := r.b.allowance(s)
	limit := allow.Strategic
	if kind == moveShuffle {
		limit = allow.Normal
	}
	var walked []Hex
	cur := s.Hex
	for i, h := range path {
		step := i + 1
		last := i == len(path)-1
		stop := func(section, format string, args ...any) ([]Hex, *halt) {
			return walked, &halt{at: cur, why: fmt.Sprintf(format, args...), section: section}
		}
		if step > limit {
			return stop(r.sec(SecMovement), "it has used its %d hexes of movement", limit)
		}
		if !r.st.Map.OnMap(h) || !Adjacent(cur, h) {
			return stop(r.sec(SecMovement), "its plotted path goes on from %s, which is not next to %s", h, cur)
		}
		if o := r.b.at(h); !o.empty() && o.side() != u.Side {
			return stop(r.sec(SecMoveRestrictions), "%s is held by the enemy (%s)", h, o.name())
		}
		if kind == moveShuffle && !held[h] {
			return stop(r.sec(SecStatusMovement), "%s was not held by %s at the start of its turn, and a shuffle cannot cross a vacant hex", h, u.ID)
		}
		strategicStep := kind != moveShuffle && step > allow.Normal
		if kind == moveNormal && strategicStep {
			if why := r.strategicBar(u.Side, s.Hex, walked, h); why != "" {
				return stop(r.sec(SecMovement), "it cannot go on strategically: %s", why)
			}
		}
		t := r.b.terrain(h)
		effect := t.Normal
		if strategicStep {
			effect = t.Strategic
		}
		if t.Impassable {
			effect = MoveImpassable
		}
		switch effect {
		case MoveImpassable:
			return stop(r.sec(SecTerrain), "%s (%s) is impassable", h, t.Title)
		case MoveHaltBefore:
			return stop(r.sec(SecTerrain), "a strategic move halts before entering %s (%s)", t.Title, h)
		case MoveHaltBeforeAndOnEnter:
			if step != 1 {
				return stop(r.sec(SecTerrain), "a stand must start its move next to %s (%s) to enter it", t.Title, h)
			}
		}
		walked = append(walked, h)
		cur = h
		if last {
			break
		}
		if kind != moveRetreat {
			if e, ok := r.zocOf(h, u.Side); ok {
				return walked, &halt{at: h, section: r.sec(SecMoveRestrictions), why: fmt.Sprintf("entering the ZOC of %s", e.name())}
			}
		}
		if effect == MoveHaltOnEnter || effect == MoveHaltBeforeAndOnEnter {
			return walked, &halt{at: h, section: r.sec(SecTerrain), why: fmt.Sprintf("it halts on entering %s", t.Title)}
		}
	}
	return walked, nil
}

// strategicBar says why a strategic move may not go on into h: it started,
// passed or would finish within 2 hexes of an enemy stand (2). "" if it may.
func (r *resolver) strategicBar(side string, start Hex, walked []Hex, h Hex) string {
	if e, ok := r.enemyWithin(start, side, StrategicEnemyGap); ok {
		return fmt.Sprintf("it started within %d hexes of %s at %s", StrategicEnemyGap, e.name(), e.hex())
	}
	for _, w := range walked {
		if e, ok := r.enemyWithin(w, side, StrategicEnemyGap); ok {
			return fmt.Sprintf("it passed within %d hexes of %s at %s", StrategicEnemyGap, e.name(), e.hex())
		}
	}
	if e, ok := r.enemyWithin(h, side, StrategicEnemyGap); ok {
		return fmt.Sprintf("%s is within %d hexes of %s at %s", h, StrategicEnemyGap, e.name(), e.hex())
	}
	return ""
}

// enemyWithin finds an enemy core stand within d hexes of h, scanning in
// column then row order so that reports name the same stand every time.
func (r *resolver) enemyWithin(h Hex, side string, d int) (occupant, bool) {
	for c := h.Col - d; c <= h.Col+d; c++ {
		for row := h.Row - d - 1; row <= h.Row+d+1; row++ {
			x := Hex{Col: c, Row: row}
			if Distance(h, x) > d {
				continue
			}
			if o := r.b.at(x); !o.empty() && o.side() != side {
				return o, true
			}
		}
	}
	return occupant{}, false
}

// zocOf names an enemy stand whose zone of control covers h (2.4).
func (r *resolver) zocOf(h Hex, side string) (occupant, bool) {
	for _, n := range h.Neighbours() {
		if o := r.b.at(n); !o.empty() && o.side() != side {
			return o, true
		}
	}
	return occupant{}, false
}

// settle decides where each moving stand finishes. A stand whose last hex
// is held by a stand that is not moving, or by a stand that cannot leave its
// hex, or is taken by a stand listed before it, stops at the last free hex
// of its walk (1.3); in 2SG a shuffled stand must also finish in command
// (2.2). A retreating stand that its losses will destroy finishes nowhere:
// it frees its hexes and the others settle again.
func (r *resolver) settle(u *Unit, moves []*plannedMove, kind moveKind) {
	mover := map[*Stand]*plannedMove{}
	for _, m := range moves {
		mover[m.stand] = m
	}
	hq := u.HQ(r.rs)
	for {
		r.settleEnds(u, moves, mover, hq, kind)
		if kind != moveRetreat || !r.markDeaths(u, moves) {
			return
		}
		for _, m := range moves {
			if m.dies == 0 {
				m.end, m.blocked = len(m.walk), ""
			}
		}
	}
}

func (r *resolver) settleEnds(u *Unit, moves []*plannedMove, mover map[*Stand]*plannedMove, hq *Stand, kind moveKind) {
	for changed := true; changed; {
		changed = false
		taken := map[Hex]*Stand{}
		for _, m := range moves {
			if m.end == 0 && m.dies == 0 {
				taken[m.start] = m.stand
			}
		}
		var hqAt Hex
		if kind == moveShuffle {
			hqAt = hq.Hex
			if m := mover[hq]; m != nil {
				hqAt = m.at()
			}
		}
		for _, m := range moves {
			if m.end == 0 || m.dies != 0 {
				continue
			}
			h := m.at()
			why := ""
			if o := r.b.at(h); !o.empty() && (o.stand == nil || mover[o.stand] == nil) {
				why = fmt.Sprintf("%s is held by %s (%s)", h, o.name(), r.sec(SecStacking))
			} else if s := taken[h]; s != nil {
				why = fmt.Sprintf("%s is taken by %s %s (%s)", h, u.ID, s.Name, r.sec(SecStacking))
			} else if kind == moveShuffle && r.rs.ShuffleFinishInCommand && Distance(hqAt, h) > r.rs.CommandRange {
				why = fmt.Sprintf("%s is out of command of the HQ at %s, and a shuffled stand must finish in command (%s)", h, hqAt, r.sec(SecStatusMovement))
			}
			if why != "" {
				if m.blocked == "" {
					m.blocked = why
				}
				m.end--
				changed = true
				continue
			}
			taken[h] = m.stand
		}
	}
}

// markDeaths finds retreating stands that the SP lost for enemy ZOC hexes
// along their settled path will destroy (2.6), and reports whether it found
// new ones. A stand dies at the loss that takes its last strength point,
// after each attached platoon has gone (4), so the count is exact.
func (r *resolver) markDeaths(u *Unit, moves []*plannedMove) bool {
	found := false
	for _, m := range moves {
		if m.dies != 0 {
			continue
		}
		lives := m.stand.SP
		for _, p := range []*Platoon{m.stand.Support, m.stand.Transport} {
			if p != nil {
				lives++
			}
		}
		for i, h := range m.taken() {
			if _, ok := r.zocOf(h, u.Side); ok {
				lives--
				if lives == 0 {
					m.dies, m.end, found = i+1, i+1, true
					break
				}
			}
		}
	}
	return found
}

// place puts the moved stands on their final hexes: all leave first, so
// that stands of the unit can swap places.
func (r *resolver) place(u *Unit, moves []*plannedMove) {
	for _, m := range moves {
		if r.b.at(m.start).stand == m.stand {
			r.b.vacate(m.start)
		}
	}
	for _, m := range moves {
		if m.dies != 0 {
			// It will be destroyed on the way: it holds no hex (retreatLosses).
			m.stand.Hex = m.at()
			continue
		}
		r.b.moveStand(u, m.stand, m.at())
	}
}

// reportMove tells what a stand did and why it stopped where it did.
func (r *resolver) reportMove(u *Unit, m *plannedMove, kind moveKind) {
	s := m.stand
	name := u.ID + " " + s.Name
	if m.end > 0 {
		hexes := []string{m.start.String()}
		for _, h := range m.taken() {
			hexes = append(hexes, h.String())
		}
		text := fmt.Sprintf("%s moves %s", name, strings.Join(hexes, " > "))
		section := r.sec(SecMovement)
		switch kind {
		case moveShuffle:
			text = fmt.Sprintf("%s shuffles %s", name, strings.Join(hexes, " > "))
			section = r.sec(SecStatusMovement)
		case moveRetreat:
			text = fmt.Sprintf("%s retreats %s", name, strings.Join(hexes, " > "))
			section = r.sec(SecRetreat)
		case moveNormal:
			if r.strategic[s] {
				text += fmt.Sprintf(", a strategic move (more than its normal %d hexes): it cannot attack this round", r.b.allowance(s).Normal)
			}
		}
		r.emit(Event{Kind: EvMove, Side: u.Side, Unit: u.ID, Stand: s.Name, From: m.start, To: m.at(),
			Path: append([]Hex(nil), m.taken()...), Section: section, Text: text + " (" + section + ")"})
	}
	if m.halted != nil && m.end == len(m.walk) && m.dies == 0 {
		r.emit(Event{Kind: EvHalt, Side: u.Side, Unit: u.ID, Stand: s.Name, To: m.halted.at, Section: m.halted.section,
			Text: fmt.Sprintf("%s halts at %s: %s (%s)", name, m.halted.at, m.halted.why, m.halted.section)})
	}
	if m.blocked != "" && m.dies == 0 {
		r.emit(Event{Kind: EvHalt, Side: u.Side, Unit: u.ID, Stand: s.Name, To: m.at(), Section: r.sec(SecStacking),
			Text: fmt.Sprintf("%s stops at %s: %s", name, m.at(), m.blocked)})
	}
}

// retreatLosses takes 1 SP for each hex the stand entered in an enemy ZOC (2.6).
func (r *resolver) retreatLosses(u *Unit, m *plannedMove) {
	s := m.stand
	for _, h := range m.taken() {
		e, ok := r.zocOf(h, u.Side)
		if !ok {
			continue
		}
		r.emit(Event{Kind: EvNote, Side: u.Side, Unit: u.ID, Stand: s.Name, To: h, Section: r.sec(SecRetreat),
			Text: fmt.Sprintf("%s %s retreats through %s in the ZOC of %s: 1 SP lost (%s)", u.ID, s.Name, h, e.name(), r.sec(SecRetreat))})
		// A stand destroyed on the way holds no hex on the board: keep the
		// friendly stand it was passing through (place).
		keep := r.b.at(h)
		_, destroyed := r.takeLosses(occupant{unit: u, stand: s}, 1, r.sec(SecRetreat))
		if destroyed {
			if !keep.empty() && keep.stand != s {
				r.b.occ[h] = keep
			}
			return
		}
	}
}
