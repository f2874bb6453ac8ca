package pbem

import (
	"context"
	"fmt"
	"testing"

	"fieldpost/mail"
	"fieldpost/pbem/store"
)

// Mails handled together in one transaction: each one's effects stay its
// own. One that fails (its game's stored position cannot be read) fails
// alone, the others are done once, and handling the batch again does
// nothing twice.
func TestBatchIsolatesAFailingMail(t *testing.T) {
	j := newJudge(t, nil)
	a := j.newGame("game-a", "")
	b := j.newGame("game-b", "")
	err := j.store.db.Update(func(tx *store.Tx) error {
		g, err := storeTx{tx}.game("game-b")
		if err != nil {
			return err
		}
		return storeTx{tx}.putState("game-b", g.Turn, []byte("not a position"))
	})
	if err != nil {
		t.Fatal(err)
	}
	var batch []*mail.Inbound
	for _, m := range []clientMail{
		a["us"].reply(alice, a["us"].Form()),
		b["us"].reply(alice, b["us"].Form()),
		a["german"].reply(bob, a["german"].Form()),
	} {
		batch = append(batch, parseClient(t, m))
	}
	for pass := range 2 {
		errs := j.svc.HandleBatch(context.Background(), batch)
		if errs[0] != nil || errs[1] == nil || errs[2] != nil {
			t.Fatalf("pass %d: errors %v; want only the mail to game-b to fail", pass, errs)
		}
		j.flush()
		got := j.take()
		if pass == 1 {
			if len(got) != 0 {
				t.Errorf("the batch handled again sent %d mails, want none:\n%s", len(got), describe(got))
			}
			break
		}
		reports := map[string]int{}
		for _, m := range got {
			if m.Game() == "game-b" {
				t.Errorf("a mail about game-b, whose orders failed: %s", m)
			}
			if m.Kind() == kindReport {
				reports[m.To()]++
			}
		}
		if reports[alice] != 1 || reports[bob] != 1 {
			t.Errorf("reports of game-a's round: %v, want one to each player:\n%s", reports, describe(got))
		}
	}
	if g := gameRecord(t, j.store, "game-a"); g.Turn != 1 {
		t.Errorf("game-a is at turn %d, want 1: its round played once", g.Turn)
	}
}

// With several sessions, the outbox sends every mail once, and the mails
// to one address in the order they were queued.
func TestOutboxSessionsKeepEachRecipientsOrder(t *testing.T) {
	j := newJudge(t, &Options{SendSessions: 3})
	for i := range 6 {
		in := parseClient(t, gmMail(fmt.Sprintf("NEWGAME scenario=tutorial id=g%d us=%s german=%s", i, alice, bob)))
		if err := j.svc.Handle(context.Background(), in); err != nil {
			t.Fatal(err)
		}
	}
	j.flush()
	got := j.take()
	if len(got) != 18 {
		t.Fatalf("%d mails sent, want 18 (a welcome to each player and the GM's answer, 6 games):\n%s", len(got), describe(got))
	}
	next := map[string]int{}
	for _, m := range got {
		if want := fmt.Sprintf("g%d", next[m.To()]); m.Game() != want {
			t.Errorf("the mails to %s came out of order: %s before the one of %s", m.To(), m.Game(), want)
		}
		next[m.To()]++
	}
}
