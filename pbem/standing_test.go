package pbem

import (
	"strings"
	"testing"
)

// In Frontline General the side that waits may still change its standing
// orders (REACT) while the other side's turn is open; other orders from it
// are refused, and the round does not move on.
func TestWaitingSideSendsStandingOrders(t *testing.T) {
	j := newJudge(t, nil)
	j.handle(gmMail("NEWGAME scenario=ofanto id=fl-1 us=" + alice + " ge=" + bob))
	mails := j.takeN(3)
	welcome := byKind(t, mails, kindWelcome, bob)
	if !strings.Contains(welcome.Text, "WAITING") || !strings.Contains(welcome.Form(), "RETALIATE all") {
		t.Fatalf("GE's welcome:\n%s", welcome.Text)
	}

	j.handle(welcome.reply(bob, "REACT\n  RETALIATE none\n  AP never\nEND\n"))
	m := byKind(t, j.takeN(1), kindAccepted, bob)
	if !strings.Contains(m.Text, "Standing orders of GE accepted") || !strings.Contains(m.Text, "RETALIATE none") {
		t.Errorf("the answer to GE's standing orders:\n%s", m.Text)
	}
	j.handle(welcome.reply(bob, "STATUS"))
	if s := byKind(t, j.takeN(1), kindStatus, bob); !strings.Contains(s.Form(), "RETALIATE none") || !strings.Contains(s.Form(), "AP never") {
		t.Errorf("GE's form does not hold its new standing orders:\n%s", s.Form())
	}

	j.handle(welcome.reply(bob, "MOVE\n  RS-1 0909\nEND\n"))
	if r := byKind(t, j.takeN(1), kindRejected, bob); !strings.Contains(r.Subject, "NOT accepted") {
		t.Errorf("GE's moves out of turn: %s\n%s", r, r.Text)
	}
	if g := gameRecord(t, j.store, "fl-1"); g.Turn != 0 {
		t.Errorf("the round moved on to %d", g.Turn)
	}
}
