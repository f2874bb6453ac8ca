package engine

// PLACEHOLDER: replaced by artillery.go, hq.go, night.go, victory.go.

func (r *resolver) artilleryPhase()                  {}
func (r *resolver) returnHQ(u *Unit, uo *UnitOrders) {}
