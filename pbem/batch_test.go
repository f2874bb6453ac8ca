package pbem

import (
	"context"
	"testing"

	"go.etcd.io/bbolt"

	"fieldpost/mail"
)

// Mails handled together in one transaction: each one's effects stay its
// own. One that fails (its game's stored position cannot be read) fails
// alone, the others are done once, and handling the batch again does
// nothing twice.
func TestBatchIsolatesAFailingMail(t *testing.T) {
	j := newJudge(t, nil)
	a := j.newGame("game-a", "")
	b := j.newGame("game-b", "")
	err := j.store.db.Update(func(tx *bbolt.Tx) error {
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
