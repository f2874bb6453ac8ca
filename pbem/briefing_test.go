package pbem

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// The welcome of every scenario of every system briefs its player: the
// situation, how each side wins and how the score is counted, the turn in
// five steps, and where the whole order language is. FIELDPOST_WELCOMES
// names a folder to write each welcome to, for docs/first-game.md.
func TestEveryWelcomeBriefsThePlayer(t *testing.T) {
	out := os.Getenv("FIELDPOST_WELCOMES")
	for _, sys := range testSystems(t) {
		for _, sc := range sys.Scenarios() {
			j := newJudge(t, &Options{BaseURL: "http://judge.test"})
			var args []string
			for i, sd := range sc.Sides {
				args = append(args, fmt.Sprintf("%s=player%d@example.org", sd.Name, i+1))
			}
			j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=%s id=%s-1 deadline=48h %s", sc.Name, sc.Name, strings.Join(args, " "))))
			for _, m := range j.take() {
				if m.Kind() != kindWelcome {
					continue
				}
				text := m.Text
				for _, want := range []string{"BRIEFING", "How to win:", "The score:", "A turn, in five steps:", "  5. ", "whole order language", "docs/"} {
					if !strings.Contains(text, want) {
						t.Errorf("%s %s: the welcome of %s lacks %q:\n%s", sys.Name(), sc.Name, m.Side(), want, text)
					}
				}
				situation, _, _ := strings.Cut(text[strings.Index(text, "BRIEFING"):], "How to win:")
				if len(strings.Fields(situation)) < 20 {
					t.Errorf("%s %s: the briefing tells no situation:\n%s", sys.Name(), sc.Name, situation)
				}
				briefing, _, _ := strings.Cut(text[strings.Index(text, "BRIEFING"):], "SITUATION")
				for _, line := range strings.Split(briefing, "\n") {
					if len(line) > 76 {
						t.Errorf("%s %s: a briefing line of %d characters:\n%s", sys.Name(), sc.Name, len(line), line)
					}
				}
				if out != "" {
					name := fmt.Sprintf("%s/%s-%s.txt", out, sc.Name, m.Side())
					if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}
