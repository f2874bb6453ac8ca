package pbem

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fieldpost/engine"
)

// A whole rated game by mail with the people side at work: the players
// answer with their bots' orders; after round 1 the GM gives the German
// seat to carol (bob's secret stops working); in round 3 alice announces
// an absence and the caretaker bot plays her round, not counted missed;
// the game ends, the ladder rates alice and carol, and the seat's history
// says bob played round 1.
func TestWholeGameWithReplacementAbsenceAndCaretaker(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 24 * time.Hour, Grace: time.Hour})
	sys, err := j.svc.opts.Systems.Lookup("stargeneral")
	if err != nil {
		t.Fatal(err)
	}
	planner := sys.(engine.Planner)
	j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=tutorial id=camp us=%s german=%s caretaker=bot absence=caretaker rated=yes", alice, bob)))
	inbox := j.take()
	seat := map[string]string{"us": alice, "german": bob}
	caretakerRounds := 0
	for steps := 0; ; steps++ {
		if steps > 60 {
			t.Fatal("the game does not end")
		}
		g := gameRecord(t, j.store, "camp")
		if g.Ended {
			break
		}
		if g.Round() == 2 && seat["german"] == bob {
			j.handle(gmMail("REPLACE camp german " + carol))
			inbox = append(inbox, j.take()...)
			seat["german"] = carol
		}
		away := g.Round() == 3
		if away {
			now := j.clock.Now()
			j.handle(byKind(t, inbox, kindReport, alice).reply(alice,
				"ABSENCE "+now.Format(time.DateOnly)+" "+now.Add(24*time.Hour).Format(time.DateOnly)+" a wedding\n"))
			if m := byKind(t, j.take(), kindAbsence, carol); strings.Contains(m.Text, "wedding") {
				t.Errorf("the reason was told:\n%s", m.Text)
			}
		}
		var answers []clientMail
		for _, m := range inbox {
			// A report names the round it reports, a welcome the round open.
			side, open := m.Side(), g.Round()
			if m.Kind() == kindReport {
				open--
			}
			if m.Form() == "" || side == "" || m.To() != seat[side] || m.Round() != fmt.Sprint(open) ||
				(m.Kind() != kindReport && m.Kind() != kindWelcome) || away && side == "us" {
				continue
			}
			plan, err := planner.Plan(m.part(t, "situation.json"), side, "camp", uint64(steps))
			if err != nil {
				t.Fatal(err)
			}
			answers = append(answers, m.reply(seat[side], plan.Orders))
		}
		for _, a := range answers {
			j.handle(a)
		}
		if away {
			j.clock.Advance(26 * time.Hour)
			j.deadlines()
			caretakerRounds++
		}
		inbox = j.take()
		if len(answers) == 0 && !away {
			t.Fatalf("round %d: nobody answers:\n%s", g.Round(), describe(inbox))
		}
	}
	g := gameRecord(t, j.store, "camp")
	var rec *roundRecord
	storeView(t, j.store, func(st storeTx) error {
		rec, err = st.round("camp", 2)
		return err
	})
	if caretakerRounds != 1 || !strings.Contains(rec.Caretaker["us"], "bot") {
		t.Errorf("round 3: caretaker %v", rec.Caretaker)
	}
	us, german := g.Player("us"), g.Player("german")
	if us.Missed != 0 || us.OnTime != g.Turn-1 {
		t.Errorf("alice's record after %d rounds: %+v", g.Turn, us.SeatState)
	}
	if len(german.Past) != 1 || german.Past[0] != (Tenure{Address: bob, From: 1, To: 1, OnTime: 1, Left: "replaced"}) || german.OnTime != g.Turn-1 {
		t.Errorf("the German seat: %+v", german.SeatState)
	}
	rows, err := j.store.Ladder()
	if err != nil {
		t.Fatal(err)
	}
	rated := map[string]LadderRow{}
	for _, r := range rows {
		if len(r.Games) > 0 {
			rated[r.Address] = r
		}
	}
	if len(rated) != 2 || rated[alice].Games[0] != "camp" || rated[carol].Games[0] != "camp" ||
		rated[alice].Wins+rated[alice].Draws+rated[alice].Losses != 1 {
		t.Errorf("the ladder: %+v", rows)
	}
	t.Logf("%d rounds: %s; ladder %s %.0f, %s %.0f", g.Turn, g.Result, alice, rated[alice].Rating, carol, rated[carol].Rating)
}
