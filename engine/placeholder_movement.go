package engine

// PLACEHOLDER: replaced by movement.go.

func (r *resolver) moveUnit(u *Unit, uo *UnitOrders)      {}
func (r *resolver) retreatMoves(u *Unit, uo *UnitOrders)  {}
func Validate(rs *Ruleset, st *State, o *Orders) Problems { return nil }
func DefaultOrders(rs *Ruleset, st *State, side string) *Orders {
	return &Orders{Side: side}
}
