package rules

import (
	"errors"
	"fmt"
)

// Forecast works out the dice pools of a unit's plotted attack as if it were
// made at the start of the coming round (shots and air points issued), with
// every plotted move of the unit made in full: what the order echo's odds are
// computed from (Ruleset.PoolOdds). Every air point called is in the pool,
// with the number of enemy AA platoons that would fire at it, so that the
// odds count it only with its chance of getting through. The enemy is taken
// where it stands and on its present orders.
func Forecast(rs *Ruleset, st *State, o *Orders, unitID string) (*Combat, error) {
	c, _, err := ForecastWithNotes(rs, st, o, unitID)
	return c, err
}

// ForecastWithNotes is Forecast, and also says why each plotted stand that
// would take no part in the attack cannot (out of range, no line of sight,
// ...), as the round's report would: the echo tells the player before the
// round rather than after.
func ForecastWithNotes(rs *Ruleset, st *State, o *Orders, unitID string) (*Combat, []string, error) {
	uo := o.For(unitID)
	if uo == nil || uo.Attack == nil {
		return nil, nil, fmt.Errorf("%s plots no attack", unitID)
	}
	orders := map[string]*Orders{o.Side: o}
	enemy := st.Enemy(o.Side)
	orders[enemy] = DefaultOrders(rs, st, enemy)
	r := newResolver(rs, st, orders, aaMisses{})
	u := r.st.Unit(unitID)
	if u == nil || u.Side != o.Side {
		return nil, nil, fmt.Errorf("%s is not a unit of %s", unitID, o.Side)
	}
	u.Status = uo.Status
	r.issueShotsAndAir() // as the round will have started when the unit acts
	for _, m := range uo.Moves {
		s := u.Stand(m.Stand)
		if s == nil || len(m.Path) == 0 {
			continue
		}
		if end := m.Path[len(m.Path)-1]; r.b.at(end).empty() {
			r.b.moveStand(u, s, end)
		}
	}
	e := r.engage(u, uo.Attack)
	if e == nil {
		for _, ev := range r.events {
			if ev.Kind == EvAttackCancel {
				return nil, nil, errors.New(ev.Text)
			}
		}
		return nil, nil, errors.New("the attack cannot be made from that position")
	}
	var notes []string
	for _, ev := range r.events {
		if ev.Kind == EvAttackCancel {
			notes = append(notes, ev.Text)
		}
	}
	return e.c, notes, nil
}

// aaMisses is the die of a forecast: the only dice rolled before the pools
// are the AA's, and a forecast lets every air point through, counting the AA
// that fires at it (PoolOdds weighs it by its chance).
type aaMisses struct{}

func (aaMisses) D6() int { return 1 }
