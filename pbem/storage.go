package pbem

import (
	"errors"
	"fmt"

	"fieldpost/pbem/store"
)

// CopyGame adds n copies of game id under the ids copy-1 ... copy-n, each
// with its own nonce (hence its own players' secrets and tokens) and the
// game's history (its positions and played rounds; not the open round's
// orders), as a club's many games stand in a database. It makes a
// test bed of a club's size in seconds instead of by mail: to rehearse an
// upgrade or a restore on a copy, or to measure the judge
// (cmd/fieldpost-load). The copies' players are the game's: a test bed's
// mail must stay on its own server. Only without a running judge, with the
// database opened for Write.
func (a *AdminConn) CopyGame(id string, n int) error {
	if a.live || a.svc == nil {
		return errors.New("copying games needs the database opened for writing, without a running judge")
	}
	const perCommit = 500 // bounds the memory of one transaction
	for done := 0; done < n; done += perCommit {
		err := a.store.db.Update(func(tx *store.Tx) error {
			st := storeTx{tx}
			g, err := st.game(id)
			if err != nil || g == nil {
				return cmpErr(err, fmt.Errorf("no game %s", id))
			}
			for i := done + 1; i <= min(done+perCommit, n); i++ {
				c := *g
				c.ID, c.Nonce = fmt.Sprintf("copy-%d", i), randomHex(8)
				if err := st.putGame(&c); err != nil {
					return err
				}
				if err := tx.CopyHistory(id, c.ID); err != nil {
					return err
				}
				for _, p := range c.Players {
					if err := st.putToken(hashSecret(deriveSecret(a.svc.opts.ServerKey, &c, p.Side)), c.ID, p.Side); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("copying game %s: %w", id, err)
		}
	}
	return nil
}

func cmpErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// Storage is what a judge's database holds, counted as the bytes of its
// keys and values (the file itself is larger: pages are never full, and
// the store keeps freed pages for reuse).
type Storage struct {
	// Total counts every collection.
	Total int64
	// Rounds are, for the game asked about, the bytes of its position at
	// the start of each turn and of that round's record, by turn.
	Rounds []int
}

// MeasureStorage reads a database no judge is running on and counts what
// it holds, and what each round of game stores ("" for no game): what the
// games cost the disk, and whether a long game's rounds grow.
func MeasureStorage(database, game string) (*Storage, error) {
	s, err := openStore(database, true, adminOpenTimeout)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var out Storage
	err = s.db.View(func(tx *store.Tx) error {
		err := tx.Each(func(_ string, k, v []byte) error {
			out.Total += int64(len(k) + len(v))
			return nil
		})
		if err != nil {
			return err
		}
		if game == "" {
			return nil
		}
		st := storeTx{tx}
		g, err := st.game(game)
		if err != nil || g == nil {
			return cmpErr(err, fmt.Errorf("no game %s", game))
		}
		for turn := 0; turn <= g.Turn; turn++ {
			out.Rounds = append(out.Rounds, tx.TurnBytes(game, turn))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("measuring database %s: %w", database, err)
	}
	return &out, nil
}
