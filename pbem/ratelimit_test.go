package pbem

import (
	"strings"
	"testing"
	"time"
)

// A stranger's forged mails get one answer a day (the default); the
// answers held back are logged and summed up in the next answer, or in the
// log when none follows. Another stranger, and a player's own address, are
// answered as usual.
func TestStrangerAnswersAreLimited(t *testing.T) {
	j := newJudge(t, nil)
	j.newGame("tutorial-1", "")
	for range 5 {
		j.handle(clientMail{From: "victim@example.net", To: testJudge, Subject: "help", Body: "HELP"})
	}
	j.takeN(1)
	if !strings.Contains(j.logs.String(), "mail held back by a limit") {
		t.Error("the held answers are not logged")
	}
	j.handle(clientMail{From: "other@example.net", To: testJudge, Subject: "help", Body: "HELP"})
	j.takeN(1)
	for range 3 {
		j.handle(clientMail{From: alice, To: testJudge, Subject: "help", Body: "HELP"})
	}
	j.takeN(3)

	j.clock.Advance(24 * time.Hour)
	j.handle(clientMail{From: "victim@example.net", To: testJudge, Subject: "help", Body: "HELP"})
	m := j.takeN(1)[0]
	if !strings.Contains(m.Text, "4 more mails like this one since") || !strings.Contains(m.Text, "at most 1 per 1 day") {
		t.Errorf("the next answer does not sum up those held back:\n%s", m.Text)
	}
	j.handle(clientMail{From: "victim@example.net", To: testJudge, Subject: "help", Body: "HELP"})
	j.takeN(0)
	j.svc.pruneProcessed(j.clock.Now().Add(24 * time.Hour))
	if !strings.Contains(j.logs.String(), "not summed up in a later mail\" held=1 addresses=1") {
		t.Errorf("the daily summary is not logged:\n%s", j.logs.String())
	}
}

// Forged mails in a player's name get the player a few refusal notices an
// hour, never more; the player's own orders are answered at once all the
// same.
func TestRefusalNoticesAreLimited(t *testing.T) {
	j := newJudge(t, &Options{RefusalNotices: Limit{N: 2, Per: time.Hour}})
	w := j.newGame("tutorial-1", "")
	forged := clientMail{From: bob, To: testJudge, Subject: "orders", Body: "GAME tutorial-1 SIDE german ROUND 1\nPASSWORD wrong-secret\nEND\n"}
	for range 6 {
		j.handle(forged)
	}
	for _, m := range j.takeN(2) {
		if m.Kind() != kindAuthFailed || m.To() != bob {
			t.Errorf("got %s", m)
		}
	}
	j.handle(w["german"].reply(bob, w["german"].Form()))
	byKind(t, j.takeN(1), kindAccepted, bob)

	j.clock.Advance(time.Hour)
	j.handle(forged)
	if m := j.takeN(1)[0]; !strings.Contains(m.Text, "4 more mails like this one") {
		t.Errorf("the next notice does not sum up those held back:\n%s", m.Text)
	}
}
