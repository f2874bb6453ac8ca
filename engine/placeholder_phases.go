package engine

// PLACEHOLDER: replaced by artillery.go, hq.go, night.go, victory.go.

func (r *resolver) night()                           {}
func (r *resolver) returnHQ(u *Unit, uo *UnitOrders) {}
func (r *resolver) updateObjectives()                {}
func (r *resolver) endGame(why string)               { r.st.Ended = true; r.st.Result = why }
func (r *resolver) checkCollapse()                   {}
