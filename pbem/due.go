package pbem

import (
	"slices"
	"sync"
	"time"

	"fieldpost/pbem/store"
)

// dueIndex keeps when each game next needs the deadline loop (nextEvent),
// so that a mail costs the same whatever the number of games: it is built
// by one reading of every game at start, and after each transaction only
// the games it changed are read again.
type dueIndex struct {
	mu     sync.Mutex
	loaded bool
	at     map[string]time.Time // games with something due, by id
}

// set records a game's next event; zero for none.
func (d *dueIndex) set(id string, at time.Time) {
	if at.IsZero() {
		delete(d.at, id)
		return
	}
	d.at[id] = at
}

// refreshDue reads again the games a transaction changed, now committed:
// read after the commit, they are the latest whatever order transactions'
// refreshes run in.
func (s *Service) refreshDue(ids map[string]bool) error {
	if len(ids) == 0 {
		return nil
	}
	s.due.mu.Lock()
	defer s.due.mu.Unlock()
	if !s.due.loaded {
		return nil // the first pass reads every game
	}
	return s.store.db.View(func(tx *store.Tx) error {
		st := storeTx{tx}
		for id := range ids {
			g, err := st.game(id)
			if err != nil {
				return err
			}
			if g == nil {
				s.due.set(id, time.Time{})
				continue
			}
			s.due.set(id, s.nextEvent(g))
		}
		return nil
	})
}

// dueGames returns the games with something due at now, and when the next
// thing falls due after now (zero for never). The first call reads every
// game.
func (s *Service) dueGames(now time.Time) (due []string, next time.Time, err error) {
	s.due.mu.Lock()
	defer s.due.mu.Unlock()
	if !s.due.loaded {
		start := time.Now()
		s.due.at = map[string]time.Time{}
		n := 0
		err := s.store.db.View(func(tx *store.Tx) error {
			games, err := storeTx{tx}.games()
			for _, g := range games {
				s.due.set(g.ID, s.nextEvent(g))
			}
			n = len(games)
			return err
		})
		if err != nil {
			return nil, time.Time{}, err
		}
		s.due.loaded = true
		s.log.Info("deadline index built", "games", n, "waiting", len(s.due.at), "took", time.Since(start).Round(time.Millisecond))
	}
	for id, at := range s.due.at {
		switch {
		case !at.After(now):
			due = append(due, id)
		case next.IsZero() || at.Before(next):
			next = at
		}
	}
	slices.Sort(due)
	return due, next, nil
}
