package engine

// PLACEHOLDER: replaced by combat.go.

func (r *resolver) attack(u *Unit, a *Attack) {}
