package engine

// PLACEHOLDER: replaced by artillery.go.

func (r *resolver) artilleryPhase() {}
