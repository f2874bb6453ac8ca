package rules

// Engineers building and units repairing are idle, but when attacked they
// may fight back (Inset VI.2 #3): each Combat Phase they fight puts their
// work back one operational turn. By mail the choice is the standing
// ENGINEERS-FIGHT and IDLE-FIGHT (design 3.4, reading 23); units idle for
// lack of supply never fight (§V.3.2).

// holdsFire: a building or repairing unit that its side's standing orders
// keep out of the fight.
func holdsFire(u *Unit, st Standing) bool {
	return (u.Building != "" && !st.EngineersFight) || (u.Repairing != 0 && !st.IdleFight)
}

// putBack delays the work of the building and repairing units that fight
// on the defending side of an engagement, once per Combat Phase.
func (r *resolver) putBack(b *battle) {
	s := r.s
	for _, f := range b.fighters[b.def] {
		u := f.u
		if (u.Building == "" && u.Repairing == 0) || r.foughtIdle[u.Key()] {
			continue
		}
		r.foughtIdle[u.Key()] = true
		own := s.Player(u.Side).OwnTurn
		if u.Building != "" {
			if u.Ready == 0 {
				every := r.r.ProductionEvery
				u.Ready = (own/every+1)*every + 1
			} else {
				u.Ready++
			}
			// The item itself is staged, so secret: the public line names
			// only the engineer.
			r.emit("build", "Inset VI.2", u.Hex, "", "%s leaves its construction to fight as infantry: the work is put back a turn, complete at the end of %s's turn %d", u.ID, u.Side, u.Ready)
			continue
		}
		// Fighting voids the idle turn: the repair (or merge) restarts and
		// is done at the opening of the owner's turn after next.
		for _, x := range s.Units {
			if x.Side == u.Side && x.Repairing != 0 && (x == u || x.MergeWith == u.ID || u.MergeWith == x.ID) {
				x.Repairing = own + 1
			}
		}
		r.emit("repair", "reading 23", u.Hex, "", "%s leaves its repair to fight: the repair is put back a turn, done when %s's turn %d opens", u.ID, u.Side, own+2)
	}
}

// constructionDue: an engineer's item completes at the Deployment Phase
// of its side's deployment turns, or, put back by fighting, at the end of
// the turn its Ready names.
func (r *resolver) constructionDue(eng *Unit, scheduled bool) bool {
	if eng.Ready != 0 {
		return r.own >= eng.Ready
	}
	return scheduled
}
