package rules

import (
	"fmt"
	"strings"
)

// updateObjectives settles the objective hexes after a round (11): a hex
// with a core stand in it (a unit's stand or a battery) belongs to that
// stand's side; an empty one stays with whoever held it last.
func (r *resolver) updateObjectives() {
	for _, o := range r.st.SortedObjectives() {
		occ := r.b.at(o.Hex)
		if occ.empty() || occ.side() == o.Owner {
			continue
		}
		was := o.Owner
		o.Owner = occ.side()
		text := fmt.Sprintf("%s takes objective %s (%s, worth %d) with %s", o.Owner, o.Name, o.Hex, o.Value, occ.name())
		if was != "" {
			text += ", from " + was
		}
		unit := occ.name()
		if occ.unit != nil {
			unit = occ.unit.ID
		}
		r.emit(Event{Kind: EvObjective, Side: o.Owner, Unit: unit, To: o.Hex, SP: o.Value, Section: r.sec(SecVictory), Text: text})
	}
}

// objectivePoints is what each side's objectives are worth now (11).
func (r *resolver) objectivePoints(side string) int {
	total := 0
	for _, o := range r.st.Objectives {
		if o.Owner == side {
			total += o.Value
		}
	}
	return total
}

// endGame decides the battle after its last round (8, 11): a side with no
// unit left has lost whatever it holds; otherwise the victory conditions
// read the objectives.
func (r *resolver) endGame(why string) {
	r.checkCollapse()
	if r.st.Ended {
		return
	}
	a, b := r.st.Sides[0].Name, r.st.Sides[1].Name
	pa, pb := r.objectivePoints(a), r.objectivePoints(b)
	v := r.st.Victory
	var winner, score string
	switch v.Kind {
	case VictoryHold:
		held := r.objectivePoints(v.Side)
		if held >= v.Need {
			winner = v.Side
			score = fmt.Sprintf("%s holds objectives worth %d and needed %d", v.Side, held, v.Need)
		} else {
			winner = r.st.Enemy(v.Side)
			score = fmt.Sprintf("%s holds objectives worth %d but needed %d", v.Side, held, v.Need)
		}
	default:
		score = fmt.Sprintf("%s holds objectives worth %d, %s %d", a, pa, b, pb)
		switch {
		case pa > pb:
			winner = a
		case pb > pa:
			winner = b
		}
	}
	outcome := "the battle is a draw"
	if winner != "" {
		outcome = winner + " wins"
	}
	r.finish(winner, fmt.Sprintf("%s: %s, so %s.", upperFirst(why), score, outcome))
}

// checkCollapse ends the game at once when a side has no unit left in the
// battle: it loses, or the battle is drawn if neither side has one.
func (r *resolver) checkCollapse() {
	if r.st.Ended {
		return
	}
	var gone []string
	for _, sd := range r.st.Sides {
		if len(r.st.ActiveUnits(sd.Name)) == 0 {
			gone = append(gone, sd.Name)
		}
	}
	switch len(gone) {
	case 0:
	case 1:
		winner := r.st.Enemy(gone[0])
		r.finish(winner, fmt.Sprintf("%s has no %s left in the battle, so %s wins.", gone[0], r.rs.UnitWord, winner))
	default:
		r.finish("", fmt.Sprintf("Neither side has a %s left in the battle, so it is a draw.", r.rs.UnitWord))
	}
}

func (r *resolver) finish(winner, result string) {
	r.st.Ended = true
	r.st.Winner = winner
	r.st.Result = result
	r.emit(Event{Kind: EvGameEnd, Side: winner, Section: r.sec(SecVictory), Text: result})
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
