package ordertext

import (
	"fmt"
	"strings"

	"fieldpost/engine/frontline/rules"
)

// echoLandings warns of a sortie that lands on an airfield the enemy
// controls: the aircraft and its pilot are captured there (§VII.5.1).
func echoLandings(b *strings.Builder, s *rules.State, o rules.Orders) {
	for _, m := range o.Moves {
		if m.Land.IsZero() {
			continue
		}
		if c := s.Control[m.Land]; c != "" && c != o.Side {
			fmt.Fprintf(b, "  WARNING: %s lands at %s, an airfield %s controls: it will be captured with its crew (§VII.5.1)\n", m.Unit, m.Land, c)
		}
	}
}
