package ordertext

import (
	"fieldpost/engine"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fieldpost/engine/frontline/rules"
)

// docsBlock returns the text of the first fenced block of the given kind
// in docs/rules-frontline.md, and the next plain block after it.
func docsBlock(t *testing.T, kind string) (string, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "rules-frontline.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```"+kind+"\n")
	if !ok {
		t.Fatalf("no ```%s block in the docs", kind)
	}
	block, rest, _ := strings.Cut(rest, "```")
	_, after, _ := strings.Cut(rest, "```\n")
	answer, _, _ := strings.Cut(after, "```")
	return block, answer
}

// The full example of docs/rules-frontline.md gets exactly the answer the
// docs print, and without its COMBAT lines it is accepted and plays.
func TestDocsExample(t *testing.T) {
	orders, answer := docsBlock(t, "orders")
	s, err := rules.NewGame("ofanto", 1)
	if err != nil {
		t.Fatal(err)
	}
	_, probs := Parse(s, "US", orders)
	var got []string
	for _, p := range probs {
		got = append(got, p.String())
	}
	if strings.Join(got, "\n") != strings.TrimSpace(answer) {
		t.Errorf("the docs print:\n%s\nthe judge answers:\n%s", strings.TrimSpace(answer), strings.Join(got, "\n"))
	}
	var kept []string
	skip := false
	for _, line := range strings.Split(orders, "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && (f[0] == "COMBAT" || f[0] == "DEPLOY") {
			skip = f[0] == "COMBAT"
		}
		if !skip {
			kept = append(kept, line)
		}
	}
	sub, probs := Parse(s, "US", strings.Join(kept, "\n"))
	o := sub.Orders
	if len(probs) > 0 {
		t.Fatalf("without COMBAT: %v", probs)
	}
	if _, _, err := s.Play(o, engine.NewSeededDice(1)); err != nil {
		t.Fatal(err)
	}
	if e := Echo(s, o); !strings.Contains(e, "recon 1310") {
		t.Errorf("echo:\n%s", e)
	}
}
