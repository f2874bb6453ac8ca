package pbem

import (
	"fmt"
	"testing"

	"fieldpost/engine"
)

// maxMailSize is the largest mail the judge may send a player (issue 14):
// a phone on a slow line still fetches it in a few seconds.
const maxMailSize = 250 << 10

// Every mail of a whole game of the division scenario, the largest map the
// judge draws, played by the bots by mail, stays under maxMailSize: the
// welcomes with the opening map, every report, and the game over.
func TestDivisionGameMailsStaySmall(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole division game")
	}
	systems := testSystems(t)
	sys, err := systems.Lookup("stargeneral")
	if err != nil {
		t.Fatal(err)
	}
	planner := sys.(engine.Planner)
	const scenario = "krinkelt"
	var sides []engine.Side
	for _, sc := range sys.Scenarios() {
		if sc.Name == scenario {
			sides = sc.Sides
		}
	}
	if len(sides) != 2 {
		t.Fatalf("no two-sided scenario %s", scenario)
	}
	j := newJudge(t, &Options{Systems: systems})
	players := map[string]string{}
	cmd := fmt.Sprintf("NEWGAME scenario=%s id=g1 deadline=none", scenario)
	for i, sd := range sides {
		players[sd.Name] = fmt.Sprintf("player%d@example.org", i+1)
		cmd += " " + sd.Name + "=" + players[sd.Name]
	}
	j.handle(gmMail(cmd))
	largest := map[string]int{} // by kind
	inbox := j.take()
	for steps := 0; len(inbox) > 0; steps++ {
		if steps > 100 {
			t.Fatal("the game does not end")
		}
		var answers []clientMail
		for _, m := range inbox {
			largest[m.Kind()] = max(largest[m.Kind()], len(m.Raw))
			if len(m.Raw) > maxMailSize {
				t.Errorf("%s is %d KB, over %d KB", m, len(m.Raw)>>10, maxMailSize>>10)
			}
			if m.Form() == "" || m.Side() == "" {
				continue
			}
			plan, err := planner.Plan(m.part(t, "situation.json"), m.Side(), "g1", uint64(steps))
			if err != nil {
				t.Fatal(err)
			}
			if plan.Orders != "" {
				answers = append(answers, m.reply(players[m.Side()], plan.Orders))
			}
		}
		for _, a := range answers {
			j.handle(a)
		}
		inbox = j.take()
	}
	if g := gameRecord(t, j.store, "g1"); !g.Ended {
		t.Fatalf("the game stopped after %d rounds without ending", g.Turn)
	}
	for kind, n := range largest {
		t.Logf("largest %s mail: %d KB", kind, n>>10)
	}
	for _, kind := range []string{kindWelcome, kindReport, kindGameOver} {
		if largest[kind] == 0 {
			t.Errorf("the game sent no %s mail", kind)
		}
	}
}
