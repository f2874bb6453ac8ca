package ordertext

import (
	"fmt"

	"fieldpost/engine/frontline/rules"
)

// shipDelayNote tells the chance that a large ship deploys on time
// (Table V.2).
func shipDelayNote(s *rules.State, side, id string) string {
	u := s.Unit(side, id)
	if u == nil || s.Card(u).Ship != "large" {
		return ""
	}
	onTime := s.Lib().Rules.ShipDelay[0]
	return fmt.Sprintf(" (on time on d10 1-%d = %d%%, else 1-3 turns late: Table V.2)", onTime, onTime*10)
}
