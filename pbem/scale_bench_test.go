package pbem

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"fieldpost/mail"
	"fieldpost/pbem/store"
)

// BenchmarkMailAt60Games and BenchmarkMailAt10000Games time one order mail
// answered (read, checked against the rules, stored, its answer composed)
// plus the deadline loop's pass that follows it, as the judge does for
// every mail, with 60 and with 10,000 games in the database. Target (issue
// 13): the same cost per mail whatever the number of games.
func BenchmarkMailAt60Games(b *testing.B)    { benchmarkMailAt(b, 60) }
func BenchmarkMailAt10000Games(b *testing.B) { benchmarkMailAt(b, 10000) }

func benchmarkMailAt(b *testing.B, games int) {
	j := newJudge(b, &Options{Deadline: 48 * time.Hour})
	w := j.newGame("tutorial-0", "")
	copyGames(b, j, "tutorial-0", games-1)
	if _, _, err := j.svc.dueGames(j.clock.Now()); err != nil {
		b.Fatal(err)
	}
	orders := w["us"].reply(alice, w["us"].Form())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		in := parseClient(b, orders)
		if err := j.svc.Handle(context.Background(), in); err != nil {
			b.Fatal(err)
		}
		if _, err := j.svc.deadlinePass(j.clock.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

// copyGames adds n copies of a game under new ids, as a club's many games
// would stand in the database: each with its position, players' tokens and
// deadline.
func copyGames(b *testing.B, j *judge, id string, n int) {
	b.Helper()
	err := j.store.db.Update(func(tx *store.Tx) error {
		st := storeTx{tx}
		g, err := st.game(id)
		if err != nil {
			return err
		}
		state, err := st.state(id, g.Turn)
		if err != nil {
			return err
		}
		state = append([]byte(nil), state...)
		for i := range n {
			c := *g
			c.ID, c.Nonce = fmt.Sprintf("copy-%d", i), fmt.Sprintf("nonce-%d", i)
			if err := st.putGame(&c); err != nil {
				return err
			}
			if err := st.putState(c.ID, c.Turn, state); err != nil {
				return err
			}
			for _, p := range c.Players {
				if err := st.putToken(hashSecret(deriveSecret(testServerKey, &c, p.Side)), c.ID, p.Side); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// parseClient reads a client's mail as the intake does.
func parseClient(b testing.TB, m clientMail) *mail.Inbound {
	in, err := mail.Parse(bytes.NewReader(m.raw()), 1<<20)
	if err != nil {
		b.Fatal(err)
	}
	return in
}

// BenchmarkNewGameKrinkelt times the GM's NEWGAME of the division scenario
// handled, its welcomes composed and queued (issue 13: 20 ms), once the
// judge has drawn the scenario's opening map (the first NEWGAME of a
// scenario since the start draws it).
func BenchmarkNewGameKrinkelt(b *testing.B) {
	j := newJudge(b, nil)
	i := 0
	newGame := func() {
		i++
		in := parseClient(b, gmMail(fmt.Sprintf("NEWGAME scenario=krinkelt id=k%d us=%s german=%s", i, alice, bob)))
		if err := j.svc.Handle(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
	newGame()
	b.ReportAllocs()
	for b.Loop() {
		newGame()
	}
}
