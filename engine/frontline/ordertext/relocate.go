package ordertext

import (
	"fmt"
	"strings"

	"fieldpost/engine/frontline/rules"
)

// relocate reads RELOCATE cp TO hex BY unit (§IV.1.3), a line of its own
// like CONVERT: the post is taken down now and set up at the hex later.
func (p *parser) relocate(f []string) {
	if len(f) != 6 || f[2] != "TO" || f[4] != "BY" {
		p.bad("IV.1.3", "want: RELOCATE cp TO hex BY unit")
		return
	}
	if h, ok := p.hex(f[3]); ok {
		p.o.Relocate = append(p.o.Relocate, rules.Relocate{Line: p.n, Post: f[1], To: h, By: f[5]})
	}
}

// echoCommandPosts says the price of each command post staged (half in a
// Key City the side holds or within its pillbox) and when each relocated post works again.
func echoCommandPosts(b *strings.Builder, s *rules.State, o rules.Orders) {
	for _, bu := range o.Builds {
		if bu.Code != "CP" {
			continue
		}
		cost, half := s.CommandPostCost(o.Side, bu.Hex)
		why := ""
		if half {
			why = ", half price in a Key City you hold or within your pillbox"
		}
		fmt.Fprintf(b, "  command post at %s costs %d%s\n", bu.Hex, cost, why)
	}
	up := s.Player(o.Side).OwnTurn + s.Lib().Rules.CPRelocateTurns
	for _, rl := range o.Relocate {
		fmt.Fprintf(b, "  %s is taken down now and set up at %s at the end of your turn %d if a land unit of yours holds it then (%s stands there); it works the turn after\n", rl.Post, rl.To, up, rl.By)
	}
}

// describeMore names the states of command posts, captured equipment,
// ships and momentum groups in a unit's description.
func describeMore(u *rules.Unit) []string {
	var w []string
	if u.Captured {
		w = append(w, "captured")
	}
	if u.Momentum != 0 {
		w = append(w, fmt.Sprintf("momentum %+d", u.Momentum))
	}
	return w
}

// arrival notes when a large ship held back by Table V.2 arrives, and
// where a staged work or command post will be set up.
func arrival(s *rules.State, u *rules.Unit) string {
	switch k := s.Card(u).Kind; {
	case u.Arrives != 0:
		return fmt.Sprintf(", held back: arrives at the end of turn %d", u.Arrives)
	case k == "structure" || k == "obstacle":
		// Works and posts are not deployed: they go up where they were staged.
		return fmt.Sprintf(", set up at %s, not deployed", u.Hex)
	}
	return ""
}
