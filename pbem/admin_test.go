package pbem

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// admin runs a GM command as the administration, failing on an error.
func (j *judge) admin(command string, args ...string) *AdminAnswer {
	j.t.Helper()
	a, err := j.svc.Admin(context.Background(), command, args...)
	if err != nil {
		j.t.Fatalf("Admin %s %v: %v", command, args, err)
	}
	return a
}

// queuedTo checks that an answer lists exactly the mails of the kinds to
// the addresses given, as "kind to".
func queuedTo(t *testing.T, a *AdminAnswer, want ...string) {
	t.Helper()
	var got []string
	for _, m := range a.Mails {
		got = append(got, m.Kind+" "+m.To)
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("mails queued: %v, want %v", got, want)
	}
}

// Every GM command through the administration: what it does, its answer,
// and its mails, in the outbox in the same transaction and alike the mail
// command's.
func TestAdminCommands(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 48 * time.Hour})
	a := j.admin("NEWGAME", "scenario=tutorial", "id=tutorial-1", "us="+alice, "german="+bob, "deadline=2d")
	if a.Refused || a.Subject != "Game created" || !strings.Contains(a.Text, "Game tutorial-1 is created") {
		t.Fatalf("NEWGAME: %+v", a)
	}
	queuedTo(t, a, "welcome "+alice, "welcome "+bob, "gm "+testGM)
	if n := len(outboxRecords(t, j.store)); n != 3 {
		t.Fatalf("%d mails in the outbox", n)
	}
	j.flush()
	mails := j.takeN(3)
	welcome := byKind(t, mails, kindWelcome, alice)
	if welcome.Token() == "" || !strings.Contains(welcome.Form(), "ROUND 1") || welcome.Side() != "us" {
		t.Errorf("the welcome: %s\n%s", welcome, welcome.Text)
	}
	// The secret works: the player's orders are accepted.
	j.handle(welcome.reply(alice, welcome.Form()))
	if m := j.takeN(1)[0]; m.Kind() != kindAccepted {
		t.Fatalf("orders after an administration's NEWGAME: %s\n%s", m, m.Text)
	}

	a = j.admin("pause", "tutorial-1")
	queuedTo(t, a, "gm "+alice, "gm "+bob, "gm "+testGM)
	j.flush()
	j.takeN(3)
	a = j.admin("PAUSE", "tutorial-1")
	if !a.Refused || a.Subject != "PAUSE refused" || !strings.Contains(a.Text, "already paused") || len(a.Mails) != 0 {
		t.Errorf("PAUSE again: %+v", a)
	}
	if n := len(outboxRecords(t, j.store)); n != 0 {
		t.Errorf("a refused command queued %d mails", n)
	}
	j.clock.Advance(time.Hour)
	queuedTo(t, j.admin("RESUME", "tutorial-1"), "gm "+alice, "gm "+bob, "gm "+testGM)
	g := gameRecord(t, j.store, "tutorial-1")
	if g.Paused || !g.Deadline.Equal(j.clock.Now().Add(48*time.Hour)) {
		t.Errorf("after RESUME: paused %v, deadline %v", g.Paused, g.Deadline)
	}
	queuedTo(t, j.admin("EXTEND", "tutorial-1", "1d"), "gm "+alice, "gm "+bob, "gm "+testGM)
	if got := gameRecord(t, j.store, "tutorial-1").Deadline; !got.Equal(g.Deadline.Add(24 * time.Hour)) {
		t.Errorf("after EXTEND: deadline %v", got)
	}
	queuedTo(t, j.admin("DEADLINE", "tutorial-1", "2026-03-10", "12:00"), "gm "+alice, "gm "+bob, "gm "+testGM)
	j.flush()
	j.takeN(9)

	a = j.admin("FORCE", "tutorial-1")
	if a.Subject != "Round 1 played" {
		t.Errorf("FORCE: %+v", a)
	}
	queuedTo(t, a, "defaulted "+bob, "report "+alice, "report "+bob, "gm "+testGM)
	j.flush()
	if m := byKind(t, j.takeN(4), kindReport, alice); m.Round() != "1" {
		t.Errorf("the report of round 1 names round %s", m.Round())
	}
	a = j.admin("ROLLBACK", "tutorial-1")
	queuedTo(t, a, "status "+alice, "status "+bob, "gm "+testGM)
	if g := gameRecord(t, j.store, "tutorial-1"); g.Turn != 0 {
		t.Errorf("after ROLLBACK: turn %d", g.Turn)
	}
	queuedTo(t, j.admin("END", "tutorial-1"), "game-over "+alice, "game-over "+bob, "gm "+testGM)
	j.flush()
	j.takeN(6)

	for _, c := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"FORCE", []string{"nosuch"}, `There is no game "nosuch"`},
		{"FORCE", nil, "needs the game's id"},
		{"FORCE", []string{"tutorial-1"}, "is over"},
		{"NEWGAME", []string{"scenario=nowhere", "id=x", "us=" + alice, "german=" + bob}, `No scenario "nowhere"`},
		{"NEWGAME", []string{"scenario=tutorial", "id=tutorial-1", "us=" + alice, "german=" + bob}, "already"},
		{"EXTEND", []string{"tutorial-1", "1d"}, "is over"},
	} {
		a := j.admin(c.cmd, c.args...)
		if !a.Refused || !strings.Contains(a.Text, c.want) || len(a.Mails) != 0 {
			t.Errorf("%s %v: %+v, want refused with %q", c.cmd, c.args, a, c.want)
		}
	}
	j.flush()
	j.takeN(0)
	for _, cmd := range []string{"HELP", "STATUS", "frobnicate", ""} {
		if _, err := j.svc.Admin(context.Background(), cmd, "tutorial-1"); err == nil || !strings.Contains(err.Error(), "not a GM command") {
			t.Errorf("%q: %v", cmd, err)
		}
	}
	if !strings.Contains(j.logs.String(), "GM command from the administration") {
		t.Error("the administration's commands are not logged")
	}
}

// A judge without a GM address runs the administration's commands and
// mails the players only.
func TestAdminWithoutGM(t *testing.T) {
	j := newJudge(t, nil)
	j.svc.opts.GMSecret, j.svc.opts.GMAddress = "", ""
	a := j.admin("NEWGAME", "scenario=tutorial", "id=t1", "us="+alice, "german="+bob)
	queuedTo(t, a, "welcome "+alice, "welcome "+bob)
	if !strings.Contains(a.Text, "Game t1 is created") {
		t.Errorf("NEWGAME: %+v", a)
	}
	if a := j.admin("PAUSE", "nosuch"); !a.Refused || !strings.Contains(a.Text, "no game") {
		t.Errorf("PAUSE: %+v", a)
	}
}

// The views of the games: the list and one game, as data and as text.
func TestAdminViews(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 48 * time.Hour})
	w := j.newGame("tutorial-1", "")
	j.newGame("tutorial-2", "deadline=none")
	j.handle(gmMail("SUBSCRIBE tutorial-1"))
	j.takeN(1)
	j.clock.Advance(time.Hour)
	j.handle(w["us"].reply(alice, w["us"].Form()))
	j.takeN(1)
	j.admin("PAUSE", "tutorial-2") // queued, not sent: the outbox shows it

	games, err := j.store.Games(testSystems(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 || games[0].ID != "tutorial-1" || games[1].ID != "tutorial-2" {
		t.Fatalf("games: %+v", games)
	}
	g := games[0]
	start := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	if g.Round != 1 || g.Status() != "waiting for german" || !g.Deadline.Equal(start.Add(48*time.Hour)) ||
		g.PeriodSeconds != 48*3600 || g.RoundName != "day 1 of 1, round 1 of 5" || g.Title == "" {
		t.Errorf("tutorial-1: %+v", g)
	}
	if len(g.Sides) != 2 || g.Sides[0].Side != "us" || g.Sides[0].Address != alice || !g.Sides[0].OrdersReceived.Equal(start.Add(time.Hour)) ||
		!g.Sides[1].OrdersReceived.IsZero() || g.Sides[0].Units == 0 || g.Sides[0].SP == 0 || len(g.Observers) != 1 || len(g.Objectives) == 0 {
		t.Errorf("tutorial-1's sides: %+v, observers %v, objectives %v", g.Sides, g.Observers, g.Objectives)
	}
	if p := games[1]; !p.Paused || p.Status() != "paused" || !p.Deadline.IsZero() || p.MailWaiting != 3 || g.MailWaiting != 0 {
		t.Errorf("tutorial-2: %+v", p)
	}

	var b bytes.Buffer
	if err := WriteGameList(&b, games, j.clock.Now()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GAME", "tutorial-1  tutorial  1      waiting for german  Wed 4 Mar 2026 18:00 UTC (in 1 day 23 hours)",
		"tutorial-2  tutorial  1      paused"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the list lacks %q:\n%s", want, b.String())
		}
	}

	j.admin("FORCE", "tutorial-1")
	shown, err := j.store.Game(testSystems(t), "Tutorial-1")
	if err != nil {
		t.Fatal(err)
	}
	if shown.Round != 2 || shown.RoundsPlayed != 1 || !shown.LastPlayed.Equal(j.clock.Now()) || shown.MailWaiting != 5 {
		t.Errorf("after FORCE: %+v", shown)
	}
	b.Reset()
	if err := WriteGame(&b, shown, j.clock.Now()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Game:        tutorial-1\n", "Scenario:    tutorial: Saint-Aubin", "(rules 2sg)", "waiting for us, german; round 2 (day 1 of 1, round 2 of 5)",
		"Deadline:    Wed 4 Mar 2026 19:00 UTC (in 2 days)", "Period:      2 days a round", "1 round in all",
		"us      " + alice, "none yet", "Objectives:", "Observers: " + testGM, "Outbox: 5 mails about this game waiting"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the game lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "seed") || strings.Contains(b.String(), w["us"].Token()) {
		t.Errorf("the view shows a secret:\n%s", b.String())
	}

	if _, err := j.store.Game(testSystems(t), "nosuch"); err == nil || !strings.Contains(err.Error(), `no game "nosuch"`) {
		t.Errorf("no such game: %v", err)
	}
	j.admin("END", "tutorial-2")
	ended, _ := j.store.Game(testSystems(t), "tutorial-2")
	b.Reset()
	WriteGame(&b, ended, j.clock.Now())
	if ended.Status() != "over" || ended.Waiting != nil || !strings.Contains(b.String(), "over after 0 rounds: The game master ended the game.") {
		t.Errorf("an ended game: %+v\n%s", ended, b.String())
	}
}
