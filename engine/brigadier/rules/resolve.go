package rules

import (
	"fmt"
	"slices"
	"strings"

	"fieldpost/engine"
)

// Phases are the ten phases of a turn, in order [11].
var Phases = []string{"initiative", "orders", "communications", "calls", "firing", "surrender", "movement", "assault", "medic", "time"}

// Event is one thing that happened in a turn, as the report writes it.
type Event struct {
	Phase string `json:"phase"`
	Step  int    `json:"step,omitempty"`
	Side  string `json:"side,omitempty"` // whose platoon or roll it is
	Text  string `json:"text"`
	// Other is what the other side reads, when it may not read Text
	// (it names nothing that side cannot see); "" when Text serves both.
	Other string   `json:"other,omitempty"`
	Seen  []string `json:"seen"` // the sides that read it
	Dice  []Die    `json:"dice,omitempty"`
	From  Hex      `json:"from,omitzero"`
	To    Hex      `json:"to,omitzero"`
}

// Die is one die rolled, by whom, and what it was checked against.
type Die struct {
	Roll int    `json:"roll"`
	By   string `json:"by"`
	Need string `json:"need"`
}

// PhaseDice are dice that want to know the phase being rolled for, as the
// adjudication cases' scripted dice do.
type PhaseDice interface {
	SetPhase(phase string)
}

// Resolve plays one turn from st with both sides' orders. It changes
// nothing it is given and is deterministic for the same dice.
func Resolve(rs *Ruleset, st *State, orders []*Orders, dice engine.Dice) (*State, []Event, error) {
	return ResolveUpTo(rs, st, orders, dice, "")
}

// ResolveUpTo plays a turn up to and including the phase named ("" for
// the whole turn): the adjudication cases look at one phase at a time.
func ResolveUpTo(rs *Ruleset, st *State, orders []*Orders, dice engine.Dice, upto string) (*State, []Event, error) {
	if st.Ended {
		return nil, nil, fmt.Errorf("the game is over")
	}
	if upto != "" && !slices.Contains(Phases, upto) {
		return nil, nil, fmt.Errorf("no phase %q; the phases are %s", upto, strings.Join(Phases, ", "))
	}
	r := &resolver{rs: rs, st: st.Clone(), dice: dice, orders: map[string]*Orders{},
		po: map[*Platoon]*PlatoonOrder{}, startOrder: map[*Platoon]int{}, spent: map[*Platoon]bool{},
		moved: map[*Platoon]bool{}, bugged: map[*Platoon]bool{}, assaulted: map[*Platoon]bool{}, lostSet: map[*Platoon]bool{}}
	for _, o := range orders {
		if o == nil || r.st.Side(o.Side) == nil {
			return nil, nil, fmt.Errorf("orders for an unknown side")
		}
		r.orders[o.Side] = o
	}
	for _, s := range r.st.Sides {
		if r.orders[s.Name] == nil {
			r.orders[s.Name] = DefaultOrders(rs, r.st, s.Name)
		}
		s.LostThisTurn = 0
	}
	r.st.Turn++
	steps := []func(){r.initiative, r.ordersPhase, r.communications, r.callsPhase, r.firing, r.surrender, r.movement, r.assault, r.medic, r.timePhase}
	for i, f := range steps {
		r.phase = Phases[i]
		if pd, ok := dice.(PhaseDice); ok {
			pd.SetPhase(r.phase)
		}
		f()
		r.revealSeen()
		if r.phase == upto {
			break
		}
	}
	return r.st, r.events, nil
}

type resolver struct {
	rs     *Ruleset
	st     *State
	dice   engine.Dice
	events []Event
	phase  string
	step   int

	orders     map[string]*Orders
	po         map[*Platoon]*PlatoonOrder
	followers  map[*Platoon][]*Platoon
	startOrder map[*Platoon]int
	spent      map[*Platoon]bool // fire used, held fire included (A17)
	moved      map[*Platoon]bool
	bugged     map[*Platoon]bool
	assaulted  map[*Platoon]bool
	lostSet    map[*Platoon]bool
	plans      []*firePlan
}

func (r *resolver) roll() int { return r.dice.Roll(6) }

func (r *resolver) sides() []string {
	return []string{r.st.Initiative, r.st.Contesting()}
}

func (r *resolver) emit(e Event) {
	e.Phase = r.phase
	if e.Step == 0 {
		e.Step = r.step
	}
	r.events = append(r.events, e)
}

// seenBy is p's side, and the enemy when it sees p now.
func (r *resolver) seenBy(p *Platoon) []string {
	out := []string{p.Side}
	if en := r.st.Enemy(p.Side); SideSees(r.rs, r.st, en, p) {
		out = append(out, en)
	}
	return out
}

func (r *resolver) all() []string {
	var out []string
	for _, s := range r.st.Sides {
		out = append(out, s.Name)
	}
	return out
}

func (r *resolver) lose(p *Platoon) {
	if !r.lostSet[p] {
		r.lostSet[p] = true
		r.st.Side(p.Side).LostThisTurn++
	}
}

func (r *resolver) order(p *Platoon) string {
	return strings.ToUpper(r.rs.OrderName(p.Order)[:1]) + r.rs.OrderName(p.Order)[1:]
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
