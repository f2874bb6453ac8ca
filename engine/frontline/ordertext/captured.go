package ordertext

import (
	"strings"

	"fieldpost/engine/frontline/rules"
)

// captured reads the standing CAPTURED keep|destroy: what the side does
// with enemy equipment it captures in a surrender (§VI.1.2).
func (p *parser) captured(st *rules.Standing, f []string) {
	if len(f) != 2 || (f[1] != "KEEP" && f[1] != "DESTROY") {
		p.bad("VI.1.2", "CAPTURED keep|destroy")
		return
	}
	st.Captured = strings.ToLower(f[1])
}
