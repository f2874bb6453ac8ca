package pbem

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"fieldpost/engine"
)

// Every hosted game system plays a whole game by mail through the judge:
// the GM creates it, each side's player answers every mail that carries an
// order form with its bot's orders, read from the situation the mail
// attaches, until the game is over. Every round is played once and
// reported to both sides; where the system hides things, the sides'
// situations differ.
func TestEveryGameSystemPlaysAWholeGameByMail(t *testing.T) {
	for _, sys := range testSystems(t) {
		planner, ok := sys.(engine.Planner)
		if !ok {
			t.Errorf("%s has no bot", sys.Name())
			continue
		}
		sc := sys.Scenarios()[0]
		t.Run(sys.Name()+"/"+sc.Name, func(t *testing.T) {
			j := newJudge(t, nil)
			players := map[string]string{} // side -> address
			var args []string
			for i, sd := range sc.Sides {
				players[sd.Name] = fmt.Sprintf("player%d@example.org", i+1)
				args = append(args, sd.Name+"="+players[sd.Name])
			}
			j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=%s id=g1 deadline=none %s", sc.Name, strings.Join(args, " "))))
			inbox := j.take()
			reports := map[string]int{} // side -> reports received
			over := false
			for steps := 0; !over; steps++ {
				if steps > 400 {
					t.Fatal("the game does not end")
				}
				views := map[string][]byte{}
				var answers []clientMail
				for _, m := range inbox {
					side := m.Side()
					switch m.Kind() {
					case kindReport:
						reports[side]++
					case kindGameOver:
						reports[side]++
						over = true
						continue
					case kindRejected:
						t.Fatalf("%s's bot orders were refused:\n%s", side, m.Text)
					}
					if m.Form() == "" || side == "" {
						continue
					}
					views[side] = m.part(t, "situation.json")
					plan, err := planner.Plan(views[side], side, "g1", uint64(steps))
					if err != nil {
						t.Fatalf("%s: %v", side, err)
					}
					if plan.Orders != "" {
						answers = append(answers, m.reply(players[side], plan.Orders))
					}
				}
				if len(views) == 2 && sc.Sides[0].Name != sc.Sides[1].Name {
					a, b := views[sc.Sides[0].Name], views[sc.Sides[1].Name]
					hides := !bytes.Equal(a, b)
					pos, _ := sys.NewGame(sc.Name, 1)
					if pos.HidesInformation() != hides && steps == 0 {
						t.Errorf("hides information: %v, but the sides' situations differ: %v", pos.HidesInformation(), hides)
					}
				}
				if over {
					break
				}
				if len(answers) == 0 {
					t.Fatalf("nobody has orders to send, and the game is not over:\n%s", describe(inbox))
				}
				for _, a := range answers {
					j.handle(a)
				}
				inbox = j.take()
			}
			g := gameRecord(t, j.store, "g1")
			if !g.Ended || g.Turn == 0 {
				t.Fatalf("game: ended %v after %d rounds", g.Ended, g.Turn)
			}
			t.Logf("%d rounds played by mail: %s", g.Turn, g.Result)
			for side := range players {
				if reports[side] != g.Turn {
					t.Errorf("%s received %d reports of %d rounds", side, reports[side], g.Turn)
				}
			}
			storeView(t, j.store, func(tx storeTx) error {
				for turn := range g.Turn {
					if _, err := tx.round("g1", turn); err != nil {
						return fmt.Errorf("round %s: %w", strconv.Itoa(turn+1), err)
					}
				}
				return nil
			})
		})
	}
}
