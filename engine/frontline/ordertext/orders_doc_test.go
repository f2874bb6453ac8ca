package ordertext

import (
	"fieldpost/engine"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fieldpost/engine/frontline/rules"
)

// The Frontline General orders docs/orders.md shows in brief (every
// ```frontline block) are read by the language without a problem (the
// units are examples, so the rules are not asked).
func TestOrdersDocBrief(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "orders.md"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := rules.NewGame("ofanto", 1)
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(b), "```frontline\n")[1:]
	if len(blocks) < 2 {
		t.Fatalf("%d ```frontline blocks in docs/orders.md, want the two of orders in brief", len(blocks))
	}
	for i, rest := range blocks {
		block, _, _ := strings.Cut(rest, "```")
		p := &parser{s: s, o: rules.Orders{Side: "US"}}
		p.run(block)
		if len(p.probs) > 0 {
			t.Errorf("the language refuses the docs' block %d: %v", i+1, p.probs)
		}
		if i == 0 && (len(p.o.Relocate) != 1 || len(p.o.Deploys) != 2 || p.o.Standing == nil || p.o.Standing.Captured != "keep") {
			t.Errorf("the docs' example read as %+v", p.o)
		}
		if i == 1 && (len(p.o.Builds) != 3 || len(p.o.Engagements) != 3 || len(p.o.Engagements[1].Dismount) != 1 || p.o.Standing == nil || !p.o.Standing.EngineersFight) {
			t.Errorf("the docs' second example read as %+v", p.o)
		}
	}
}

// The whole turn mail of docs/orders.md is the US player's first turn of
// Ofanto Crossing: read with its header and every section, refused
// nowhere, and played, its engagement fought.
func TestOrdersDocFullMail(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "orders.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```frontline-mail\n")
	if !ok {
		t.Fatal("no ```frontline-mail block in docs/orders.md")
	}
	mail, _, _ := strings.Cut(rest, "```")
	s, err := rules.NewGame("ofanto", 1)
	if err != nil {
		t.Fatal(err)
	}
	sub, probs := Parse(s, "US", mail)
	o := sub.Orders
	if len(probs) > 0 {
		t.Fatalf("the judge refuses the docs' mail: %v", probs)
	}
	if len(o.Buys) == 0 || len(o.Builds) == 0 || len(o.Moves) == 0 || len(o.Engagements) == 0 || o.Standing == nil {
		t.Fatalf("the docs' mail lacks a section: %+v", o)
	}
	_, events, err := s.Play(o, engine.NewSeededDice(1))
	if err != nil {
		t.Fatal(err)
	}
	fought := false
	for _, e := range events {
		fought = fought || e.Kind == "engage"
	}
	if !fought {
		t.Error("the docs' mail fights no engagement")
	}
}
