package pbem

import (
	"strings"
	"testing"
	"time"
)

func TestNewGameRefusals(t *testing.T) {
	j := newJudge(t, nil)
	for cmd, want := range map[string]string{
		"NEWGAME scenario=nosuch id=x us=a@b.c german=d@e.f":                  `No scenario "nosuch"`,
		"NEWGAME scenario=tutorial id=Bad_Id us=a@b.c german=d@e.f":           "lower-case letters",
		"NEWGAME scenario=tutorial id=t1 us=a@b.c":                            "Every side needs",
		"NEWGAME scenario=tutorial id=t1 us=a@b.c german=nomail":              "not a mail address",
		"NEWGAME scenario=tutorial id=t1 us=a@b.c german=d@e.f ss=x":          `"ss" is neither`,
		"NEWGAME scenario=tutorial id=t1 us=a@b.c german=d@e.f deadline=soon": "deadline=soon",
		"NEWGAME scenario=tutorial id=t1 us=a@b.c german":                     `"german" has no value`,
	} {
		j.handle(gmMail(cmd))
		if m := j.takeN(1)[0]; m.Kind() != kindGM || m.To() != testGM || !strings.Contains(m.Text, want) {
			t.Errorf("%s: got %s:\n%s", cmd, m, m.Text)
		}
	}
	// Spread over lines, in "key = value" and "key: value" forms.
	j.handle(gmMail("NEWGAME\n  scenario = tutorial\n  id: t1\n  us=a@b.c\n  german=<d@e.f>\n  deadline=2d\nEND\n"))
	if m := j.take(); len(m) != 3 {
		t.Fatalf("got %s\n%s", describe(m), m[0].Text)
	}
	if g := gameRecord(t, j.store, "t1"); g.Period != 48*time.Hour || g.Player("german").Address != "d@e.f" {
		t.Errorf("game %+v", g)
	}
	j.handle(gmMail("NEWGAME scenario=tutorial id=t1 us=a@b.c german=d@e.f"))
	if m := j.takeN(1)[0]; !strings.Contains(m.Text, "already") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
}

func TestDeadlinePauseResume(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 48 * time.Hour})
	w := j.newGame("tutorial-1", "")
	start := j.clock.Now()

	j.handle(gmMail("DEADLINE tutorial-1 2026-03-10 12:00"))
	mails := j.takeN(3)
	if m := byKind(t, mails, kindGM, alice); !strings.Contains(m.Text, "Tue 10 Mar 2026 12:00 UTC") {
		t.Errorf("the players are not told the new deadline:\n%s", m.Text)
	}
	j.handle(gmMail("EXTEND tutorial-1 1d"))
	j.takeN(3)
	if g := gameRecord(t, j.store, "tutorial-1"); !g.Deadline.Equal(time.Date(2026, 3, 11, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("deadline %v", g.Deadline)
	}
	j.handle(gmMail("GAME tutorial-1\nDEADLINE 12h"))
	j.takeN(3)
	if g := gameRecord(t, j.store, "tutorial-1"); !g.Deadline.Equal(start.Add(12 * time.Hour)) {
		t.Errorf("deadline %v", g.Deadline)
	}

	j.clock.Advance(2 * time.Hour)
	j.handle(gmMail("PAUSE tutorial-1"))
	j.takeN(3)
	j.handle(gmMail("DEADLINE tutorial-1 1h"))
	if m := j.takeN(1)[0]; !strings.Contains(m.Text, "RESUME it first") {
		t.Errorf("got %s", m.Text)
	}
	// Paused, the deadline passes and both sides send orders: nothing is
	// played until RESUME, which plays the round at once.
	j.clock.Advance(24 * time.Hour)
	j.deadlines()
	j.takeN(0)
	j.handle(w["us"].reply(alice, w["us"].Form()))
	j.handle(w["german"].reply(bob, w["german"].Form()))
	j.takeN(2)
	if g := gameRecord(t, j.store, "tutorial-1"); g.Turn != 0 || g.Remaining != 10*time.Hour {
		t.Errorf("paused game: turn %d, remaining %v", g.Turn, g.Remaining)
	}
	j.handle(gmMail("RESUME tutorial-1"))
	mails = j.takeN(5) // two notices, the GM's answer, two reports
	byKind(t, mails, kindReport, alice)
	if g := gameRecord(t, j.store, "tutorial-1"); g.Turn != 1 || !g.Deadline.Equal(j.clock.Now().Add(48*time.Hour)) {
		t.Errorf("after RESUME: turn %d, deadline %v", g.Turn, g.Deadline)
	}
	j.handle(gmMail("DEADLINE nosuch 1h"))
	if m := j.takeN(1)[0]; !strings.Contains(m.Text, `no game "nosuch"`) {
		t.Errorf("got %s", m.Text)
	}
}

// FORCE plays the round with default orders for the missing sides, to the
// end of the game; ROLLBACK undoes a round with new dice; END ends a game.
func TestForceRollbackEnd(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.handle(w["us"].reply(alice, w["us"].Form()))
	j.takeN(1)
	j.handle(gmMail("FORCE tutorial-1"))
	mails := j.takeN(4) // defaulted for german, two reports, the GM's answer
	if m := byKind(t, mails, kindDefaulted, bob); !strings.Contains(m.Text, "game master played round 1") {
		t.Errorf("got %s", m.Text)
	}
	report := byKind(t, mails, kindReport, bob)
	if !strings.Contains(report.Text, "german sent no orders") {
		t.Errorf("the report does not say german defaulted:\n%s", report.Text)
	}
	oldSeed := gameRecord(t, j.store, "tutorial-1").Seed

	j.handle(gmMail("ROLLBACK tutorial-1"))
	mails = j.takeN(3)
	m := byKind(t, mails, kindStatus, alice)
	if m.Round() != "1" || !strings.Contains(m.Text, "undone round 1") || !strings.Contains(m.Form(), "ROUND 1\n") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
	if commitment(t, m) == commitment(t, w["us"]) {
		t.Error("the round undone is played again with the same dice")
	}
	g := gameRecord(t, j.store, "tutorial-1")
	if g.Turn != 0 || g.Seed == oldSeed {
		t.Errorf("after ROLLBACK: turn %d, seed changed %v", g.Turn, g.Seed != oldSeed)
	}
	storeView(t, j.store, func(tx storeTx) error {
		missing, err := tx.sidesWithoutOrders(g, nil, bothSides)
		if len(missing) != 2 {
			t.Errorf("the undone round's orders are kept: missing %v", missing)
		}
		return err
	})

	for round := 1; round <= 5; round++ {
		j.handle(gmMail("FORCE tutorial-1"))
		mails = j.takeN(5)
		if round < 5 {
			byKind(t, mails, kindReport, alice)
		}
	}
	over := byKind(t, mails, kindGameOver, alice)
	if over.Form() != "" || !strings.Contains(over.Text, "is over") {
		t.Errorf("the final report: %s\n%s", over, over.Text)
	}
	j.handle(over.reply(alice, w["us"].Form()))
	if m := j.takeN(1)[0]; m.Kind() != kindError || !strings.Contains(m.Text, "is over") {
		t.Errorf("got %s", m)
	}

	j.newGame("tutorial-2", "")
	j.handle(gmMail("END tutorial-2"))
	mails = j.takeN(3)
	if m := byKind(t, mails, kindGameOver, bob); !strings.Contains(m.Text, "ended the game") {
		t.Errorf("got %s", m.Text)
	}
	j.handle(gmMail("END tutorial-2"))
	if m := j.takeN(1)[0]; !strings.Contains(m.Text, "over already") {
		t.Errorf("got %s", m.Text)
	}
}

// Reminders go to the sides that have not sent orders, at the configured
// times before the deadline; after the deadline and the grace period the
// round is played with default orders and the missing side is told.
func TestDeadlineRemindersAndDefaults(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 48 * time.Hour, Reminders: []time.Duration{24 * time.Hour, 2 * time.Hour}, Grace: time.Hour})
	w := j.newGame("tutorial-1", "")
	j.handle(w["us"].reply(alice, w["us"].Form()))
	j.takeN(1)

	j.clock.Advance(23 * time.Hour)
	j.deadlines()
	j.takeN(0)
	j.clock.Advance(time.Hour)
	j.deadlines()
	m := j.takeN(1)[0]
	if m.Kind() != kindReminder || m.To() != bob || !strings.Contains(m.Text, "in 1 day") || !strings.HasSuffix(strings.TrimSpace(m.Form()), "END") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
	j.deadlines()
	j.takeN(0)
	j.clock.Advance(22*time.Hour + 30*time.Minute)
	j.deadlines()
	if m := j.takeN(1)[0]; m.Kind() != kindReminder || !strings.Contains(m.Text, "in 1 hour 30 minutes") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
	// At the deadline orders are still taken during the grace period.
	j.clock.Advance(90 * time.Minute)
	j.deadlines()
	j.takeN(0)
	j.clock.Advance(time.Hour)
	j.deadlines()
	mails := j.takeN(3)
	if m := byKind(t, mails, kindDefaulted, bob); !strings.Contains(m.Text, "deadline for round 1 passed") {
		t.Errorf("got %s", m.Text)
	}
	if r := byKind(t, mails, kindReport, alice); !strings.Contains(r.Text, "german sent no orders") {
		t.Errorf("the report does not name the defaulted side")
	}
	if g := gameRecord(t, j.store, "tutorial-1"); g.Turn != 1 || !g.Deadline.Equal(j.clock.Now().Add(48*time.Hour)) {
		t.Errorf("turn %d, deadline %v", g.Turn, g.Deadline)
	}
	// Reminders due together make one mail per side.
	j.clock.Advance(47 * time.Hour)
	j.deadlines()
	if got := j.takeN(2); got[0].Kind() != kindReminder || got[1].Kind() != kindReminder {
		t.Errorf("got %s", describe(got))
	}
}

// A round set to a deadline closer than a reminder does not get that
// reminder at once.
func TestRemindersAlreadyPastAreSkipped(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 12 * time.Hour, Reminders: []time.Duration{24 * time.Hour, 2 * time.Hour}})
	j.newGame("tutorial-1", "")
	j.deadlines()
	j.takeN(0)
	j.clock.Advance(10 * time.Hour)
	j.deadlines()
	j.takeN(2)
	if next := j.svc.nextEvent(gameRecord(t, j.store, "tutorial-1")); !next.Equal(j.clock.Now().Add(2 * time.Hour)) {
		t.Errorf("next event at %v", next)
	}
}

// REMAIL sends every player its situation and form again, its secret in the
// reply address, so that a player who lost its mail can play on.
func TestRemail(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.handle(gmMail("REMAIL tutorial-1"))
	mails := j.takeN(3) // each player's situation, the GM's answer
	for side, addr := range map[string]string{"us": alice, "german": bob} {
		m := byKind(t, mails, kindStatus, addr)
		if m.Token() != w[side].Token() || !strings.Contains(m.Form(), "SIDE "+side) || m.Round() != "1" {
			t.Errorf("%s's mail: %s\n%s", side, m, m.Text)
		}
		// The form it carries is accepted as orders.
		j.handle(m.reply(addr, m.Form()))
	}
	if got := j.takeN(4); byKind(t, got, kindReport, alice) == nil {
		t.Fatal("orders sent from the remailed forms did not play the round")
	}
	// A player's secret is not the GM's: REMAIL from a player is refused.
	j.handle(clientMail{From: alice, To: testJudge, Subject: "remail", Body: "PASSWORD " + w["us"].Token() + "\nREMAIL tutorial-1\n"})
	if m := j.takeN(1)[0]; m.Kind() != kindAuthFailed {
		t.Errorf("a player's REMAIL: %s", m)
	}
}

// Several commands in one GM mail are done in order, each answered, an
// error naming its line: two NEWGAMEs (the first's settings over two
// lines) are two games, not one; a refused command does not stop the
// others.
func TestSeveralGMCommandsInOneMail(t *testing.T) {
	j := newJudge(t, nil)
	j.handle(clientMail{From: "Game Master <" + testGM + ">", To: testJudge, Subject: "two games",
		Body: "PASSWORD " + testGMSecret + "\n" +
			"NEWGAME scenario=tutorial id=g1\n  us=" + alice + " german=" + bob + "\n" +
			"NEWGAME scenario=nowhere id=g2 us=" + alice + " german=" + bob + "\n" +
			"NEWGAME scenario=tutorial id=g3 us=" + bob + " german=" + alice + " deadline=none\n" +
			"PAUSE g1\n"})
	mails := j.take()
	var gm []*sent
	welcomes := 0
	for _, m := range mails {
		switch {
		case m.To() == testGM:
			gm = append(gm, m)
		case m.Kind() == kindWelcome:
			welcomes++
		}
	}
	if len(gm) != 4 || welcomes != 4 {
		t.Fatalf("want 4 answers to the GM and 4 welcomes, got:\n%s", describe(mails))
	}
	if !strings.Contains(gm[1].Subject, "NEWGAME refused") || !strings.Contains(gm[1].Text, "Line 4 of your mail: NEWGAME scenario=nowhere") {
		t.Errorf("the second NEWGAME's refusal does not name its line:\n%s\n%s", gm[1], gm[1].Text)
	}
	if g := gameRecord(t, j.store, "g1"); g == nil || !g.Paused || g.Player("us").Address != alice {
		t.Errorf("game g1 not created with its settings over two lines, or not paused: %+v", g)
	}
	if g := gameRecord(t, j.store, "g3"); g == nil || g.Player("us").Address != bob {
		t.Errorf("game g3 not created: %+v", g)
	}
}
