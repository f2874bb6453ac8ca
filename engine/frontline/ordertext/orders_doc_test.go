package ordertext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fieldpost/engine/frontline/rules"
)

// The Frontline General orders docs/orders.md shows in brief are read by
// the language without a problem (the units are examples, so the rules
// are not asked).
func TestOrdersDocBrief(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "orders.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```frontline\n")
	if !ok {
		t.Fatal("no ```frontline block in docs/orders.md")
	}
	block, _, _ := strings.Cut(rest, "```")
	s, err := rules.NewGame("ofanto", 1)
	if err != nil {
		t.Fatal(err)
	}
	p := &parser{s: s, o: rules.Orders{Side: "US"}}
	p.run(block)
	if len(p.probs) > 0 {
		t.Errorf("the language refuses the docs' example: %v", p.probs)
	}
	if len(p.o.Relocate) != 1 || len(p.o.Deploys) != 2 || p.o.Standing == nil || p.o.Standing.Captured != "keep" {
		t.Errorf("the docs' example read as %+v", p.o)
	}
}
