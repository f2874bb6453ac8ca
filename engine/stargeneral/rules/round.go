package rules

import (
	"errors"
	"fmt"
	"strings"
)

// Resolve plays one round (a day round or the night round) from st with each
// side's orders and the dice, and returns the next state and what happened.
// st is not changed. A side without orders gets DefaultOrders. Orders that
// break the rules are refused as a whole, with every problem listed, before
// anything is played.
func Resolve(rs *Ruleset, st *State, orders []*Orders, dice Dice) (*State, []Event, error) {
	if st.Ended {
		return nil, nil, errors.New("the game is over")
	}
	if st.Ruleset != rs.Name {
		return nil, nil, fmt.Errorf("state is for ruleset %q, not %q", st.Ruleset, rs.Name)
	}
	bySide := map[string]*Orders{}
	for _, o := range orders {
		if o == nil {
			continue
		}
		if st.Side(o.Side) == nil {
			return nil, nil, fmt.Errorf("orders for unknown side %q", o.Side)
		}
		if bySide[o.Side] != nil {
			return nil, nil, fmt.Errorf("two sets of orders for side %q", o.Side)
		}
		bySide[o.Side] = o
	}
	var problems Problems
	for _, sd := range st.Sides {
		if bySide[sd.Name] == nil {
			bySide[sd.Name] = DefaultOrders(rs, st, sd.Name)
			continue
		}
		problems = append(problems, Validate(rs, st, bySide[sd.Name])...)
	}
	if len(problems) > 0 {
		return nil, nil, problems
	}
	r := newResolver(rs, st, bySide, dice)
	if r.st.Night {
		r.emit(Event{Kind: EvPhase, Section: r.sec(SecNight), Text: fmt.Sprintf("The night of day %d", r.st.Day)})
		r.night()
	} else {
		r.dayRound()
	}
	return r.st, r.events, nil
}

// resolver holds one round in play.
type resolver struct {
	rs      *Ruleset
	st      *State
	b       *board
	orders  map[string]*Orders
	dice    Dice
	events  []Event
	combats int
	// strategic marks stands that moved strategically this round (2).
	strategic map[*Stand]bool
	// outOfCommandStart marks stands that started their unit's turn out of
	// command and did not finish it in command: they cannot attack or lend
	// their light artillery this round (2.4).
	outOfCommandStart map[*Stand]bool
	// acted marks units that have had their turn this round (1.7).
	acted map[*Unit]bool
	// initiated marks stands that launched an attack this round: they get no
	// cover when attacked later (3.7.2).
	initiated map[*Stand]bool
	// beforeAttack, when set, is shown each attack just before it is made,
	// after the unit's moves: the property tests forecast it there.
	beforeAttack func(u *Unit, a *Attack)
}

// newResolver sets up a round to be played on a copy of st.
func newResolver(rs *Ruleset, st *State, orders map[string]*Orders, dice Dice) *resolver {
	r := &resolver{rs: rs, st: st.Clone(), orders: orders, dice: dice,
		strategic: map[*Stand]bool{}, outOfCommandStart: map[*Stand]bool{}, initiated: map[*Stand]bool{}, acted: map[*Unit]bool{}}
	r.b = newBoard(rs, r.st)
	return r
}

func (r *resolver) emit(e Event) { r.events = append(r.events, e) }

// sec is the number the ruleset's book gives a part of the rules.
func (r *resolver) sec(k Sec) string { return r.rs.Section(k) }

func (r *resolver) note(section, format string, args ...any) {
	r.emit(Event{Kind: EvNote, Section: section, Text: fmt.Sprintf(format, args...)})
}

func (r *resolver) unitOrders(u *Unit) *UnitOrders { return r.orders[u.Side].For(u.ID) }

func (r *resolver) choices(side string) Choices { return r.orders[side].Choices }

func (r *resolver) roll2D6() []int { return rollDice(r.dice, 2) }

// dayRound is the sequence of 1.7, 2.6 and 5.1.
func (r *resolver) dayRound() {
	r.startRound()
	r.retreatPhase()
	r.activationPhase()
	r.emit(Event{Kind: EvPhase, Section: r.sec(SecArtilleryPhase), Text: "Artillery phase"})
	r.artilleryPhase()
	r.endRound()
}

// startRound reveals the orders (1.6) and issues shots and air points (5, 7).
func (r *resolver) startRound() {
	r.emit(Event{Kind: EvRoundStart, SP: r.st.Round, Text: fmt.Sprintf("Day %d, round %d begins", r.st.Day, r.st.Round)})
	for _, u := range r.st.Units {
		if u.Removed {
			continue
		}
		want := u.Status
		if uo := r.unitOrders(u); uo != nil {
			want = uo.Status
		} else if u.Status == Move || u.Status == Retreat {
			want = Hold
		}
		if u.HQ(r.rs) == nil {
			// 6: a unit without its HQ gets no orders; M and R become H.
			if u.Status == Move || u.Status == Retreat {
				r.emit(Event{Kind: EvStatus, Side: u.Side, Unit: u.ID, Section: r.sec(SecHQ),
					Text: fmt.Sprintf("%s has no HQ: goes from %s to H", u.ID, u.Status)})
				u.Status = Hold
			}
			continue
		}
		u.Status = want
		r.emit(Event{Kind: EvStatus, Side: u.Side, Unit: u.ID, Section: r.sec(SecOrders), Text: fmt.Sprintf("%s is on %s orders", u.ID, statusWord(want))})
	}
	r.issueShotsAndAir()
}

// issueShotsAndAir gives every battery its shots and every side its air
// points for the round (5, 7), and notes the shots each keeps back.
func (r *resolver) issueShotsAndAir() {
	for _, bt := range r.st.Batteries {
		if !bt.Removed {
			bt.Shots = bt.ShotsPerRound
			bt.Keep = r.keep(bt)
		}
	}
	for i := range r.st.Sides {
		r.st.Sides[i].AirLeft = r.st.Sides[i].Air
	}
}

func statusWord(s Status) string {
	switch s {
	case Move:
		return "Move (M)"
	case Hold:
		return "Hold (H)"
	case DigIn:
		return "Dig In (D)"
	case Retreat:
		return "Retreat (R)"
	}
	return string(s)
}

// statusList names statuses for a sentence: "Move (M), Hold (H) or Dig In (D)".
func statusList(list []Status) string {
	words := make([]string, len(list))
	for i, s := range list {
		words[i] = statusWord(s)
	}
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// queue returns the side's units still to act in this phase, in its priority order.
func (r *resolver) queue(side string, want func(*Unit) bool) []*Unit {
	var out []*Unit
	seen := map[string]bool{}
	add := func(u *Unit) {
		if u != nil && !seen[u.ID] && u.Side == side && !u.Removed && !r.acted[u] && want(u) {
			out = append(out, u)
		}
		if u != nil {
			seen[u.ID] = true
		}
	}
	for _, id := range r.orders[side].Priority {
		add(r.st.Unit(id))
	}
	for _, u := range r.st.Units {
		add(u)
	}
	return out
}

// rollOff is the 2D6 roll of 1.7: ties are rolled again. It returns the
// winner and the dice, first side's pair first.
func (r *resolver) rollOff(why string) string {
	a, b := r.st.Sides[0].Name, r.st.Sides[1].Name
	for {
		da, db := r.roll2D6(), r.roll2D6()
		sa, sb := da[0]+da[1], db[0]+db[1]
		dice := append(da, db...)
		switch {
		case sa > sb:
			r.emit(Event{Kind: EvInitiative, Side: a, Dice: dice, Section: r.sec(SecSequence), Text: fmt.Sprintf("%s: %s rolls %d, %s rolls %d: %s", why, a, sa, b, sb, a)})
			return a
		case sb > sa:
			r.emit(Event{Kind: EvInitiative, Side: b, Dice: dice, Section: r.sec(SecSequence), Text: fmt.Sprintf("%s: %s rolls %d, %s rolls %d: %s", why, a, sa, b, sb, b)})
			return b
		default:
			r.emit(Event{Kind: EvInitiative, Dice: dice, Section: r.sec(SecSequence), Text: fmt.Sprintf("%s: both roll %d, roll again", why, sa)})
		}
	}
}

// retreatPhase moves every R unit before anything else; when both sides have
// some they alternate, the winner of a 2D6 roll first (2.6).
func (r *resolver) retreatPhase() {
	isR := func(u *Unit) bool { return u.Status == Retreat }
	a, b := r.st.Sides[0].Name, r.st.Sides[1].Name
	qa, qb := r.queue(a, isR), r.queue(b, isR)
	if len(qa) == 0 && len(qb) == 0 {
		return
	}
	turn := a
	if len(qb) > 0 && len(qa) == 0 {
		turn = b
	} else if len(qa) > 0 && len(qb) > 0 {
		turn = r.rollOff("Retreat moves")
	}
	for {
		q := r.queue(turn, isR)
		if len(q) == 0 {
			turn = r.st.Enemy(turn)
			if len(r.queue(turn, isR)) == 0 {
				return
			}
			continue
		}
		r.activate(q[0])
		turn = r.st.Enemy(turn)
	}
}

// activationPhase alternates the rest by 2D6 rolls; no side acts three times
// in a row, and a side with nothing left to act passes (1.7).
func (r *resolver) activationPhase() {
	all := func(*Unit) bool { return true }
	last, run := "", 0
	for {
		a, b := r.st.Sides[0].Name, r.st.Sides[1].Name
		qa, qb := r.queue(a, all), r.queue(b, all)
		var side string
		switch {
		case len(qa) == 0 && len(qb) == 0:
			return
		case len(qa) == 0:
			side = b
		case len(qb) == 0:
			side = a
		case run == 2:
			side = r.st.Enemy(last)
			r.emit(Event{Kind: EvInitiative, Side: side, Section: r.sec(SecSequence), Text: fmt.Sprintf("%s has acted twice in a row: %s acts next", last, side)})
		default:
			side = r.rollOff("Initiative")
		}
		if side == last {
			run++
		} else {
			last, run = side, 1
		}
		r.activate(r.queue(side, all)[0])
	}
}

// activate gives a unit its turn (1.7).
func (r *resolver) activate(u *Unit) {
	r.acted[u] = true
	r.emit(Event{Kind: EvActivate, Side: u.Side, Unit: u.ID, Text: fmt.Sprintf("%s (%s) acts", u.ID, u.Status)})
	uo := r.unitOrders(u)
	if u.HQ(r.rs) == nil {
		r.returnHQ(u, uo)
		return
	}
	if uo == nil {
		return
	}
	if u.Status == Retreat {
		r.retreatMoves(u, uo)
		return
	}
	r.moveUnit(u, uo)
	if uo.Attack != nil && !u.Removed && u.HQ(r.rs) != nil {
		if r.beforeAttack != nil {
			r.beforeAttack(u, uo.Attack)
		}
		r.attack(u, uo.Attack)
	}
}

// endRound settles objectives, then moves the calendar on (1.5, 8, 11).
func (r *resolver) endRound() {
	r.updateObjectives()
	r.st.Turn++
	if r.st.Round >= r.rs.RoundsPerDay {
		if r.st.Day >= r.st.Days {
			r.endGame("the last round of the battle has been played")
			return
		}
		r.st.Night = true
		return
	}
	r.st.Round++
	r.checkCollapse()
}

// removeStand takes a destroyed core stand off the map, with the HQ and
// unit-removal rules of section 6.
func (r *resolver) removeStand(u *Unit, s *Stand, why string) {
	r.b.vacate(s.Hex)
	for i, us := range u.Stands {
		if us == s {
			u.Stands = append(u.Stands[:i], u.Stands[i+1:]...)
			break
		}
	}
	for _, p := range []*Platoon{s.Support, s.Transport} {
		if p != nil {
			u.LostPlatoons = append(u.LostPlatoons, p)
		}
	}
	s.Support, s.Transport = nil, nil
	s.SP = 0
	u.Lost = append(u.Lost, s)
	r.emit(Event{Kind: EvEliminated, Side: u.Side, Unit: u.ID, Stand: s.Name, From: s.Hex, Section: r.sec(SecStrength), Text: fmt.Sprintf("%s %s is destroyed (%s)", u.ID, s.Name, why)})
	if r.rs.StandTypes[s.Type].Role == RoleHQ {
		u.HQLostTurn = r.st.Turn
		r.emit(Event{Kind: EvHQLost, Side: u.Side, Unit: u.ID, Section: r.sec(SecHQ), Text: fmt.Sprintf("%s has lost its HQ: no orders, moves, support or reshuffles until it returns", u.ID)})
	}
	r.checkUnitRemoved(u)
}

// checkUnitRemoved removes a unit reduced to its HQ, or to nothing (6).
func (r *resolver) checkUnitRemoved(u *Unit) {
	if u.Removed {
		return
	}
	others := 0
	for _, s := range u.Stands {
		if r.rs.StandTypes[s.Type].Role != RoleHQ {
			others++
		}
	}
	if others > 0 {
		return
	}
	for _, s := range u.Stands {
		r.b.vacate(s.Hex)
	}
	u.Removed = true
	r.emit(Event{Kind: EvUnitRemoved, Side: u.Side, Unit: u.ID, Section: r.sec(SecHQ), Text: fmt.Sprintf("%s is reduced to its HQ and leaves the battle", u.ID)})
}

func (r *resolver) removeBattery(bt *Battery, why string) {
	r.b.vacate(bt.Hex)
	bt.Removed = true
	bt.SP = 0
	r.emit(Event{Kind: EvEliminated, Side: bt.Side, Unit: bt.ID, From: bt.Hex, Section: r.sec(SecArtillery), Text: fmt.Sprintf("battery %s is destroyed (%s)", bt.ID, why)})
}

// Problem is one thing wrong with a side's orders, with the rule it breaks.
type Problem struct {
	Unit    string `json:"unit,omitempty"`
	Stand   string `json:"stand,omitempty"`
	Section string `json:"section,omitempty"`
	Msg     string `json:"msg"`
}

func (p Problem) Error() string {
	var b strings.Builder
	if p.Unit != "" {
		b.WriteString(p.Unit)
		if p.Stand != "" {
			b.WriteString(" " + p.Stand)
		}
		b.WriteString(": ")
	}
	b.WriteString(p.Msg)
	if p.Section != "" {
		b.WriteString(" (" + p.Section + ")")
	}
	return b.String()
}

// Problems is every problem found in a set of orders.
type Problems []Problem

func (ps Problems) Error() string {
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = p.Error()
	}
	return strings.Join(msgs, "\n")
}
