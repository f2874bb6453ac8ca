package pbem

import (
	"context"
	"fmt"
	"time"
)

// processedRetention is how long the ids of handled mails are kept to
// recognise a redelivery: mail servers redeliver within hours or days.
const processedRetention = 30 * 24 * time.Hour

// runDeadlines plays the rounds whose deadline (plus grace) has passed and
// sends the reminders before deadlines, until ctx is done. It wakes when
// the next of them falls due and whenever a transaction changed a game.
func (s *Service) runDeadlines(ctx context.Context) {
	if s.opts.DeadlineStartDelay > 0 {
		select {
		case <-ctx.Done():
			return
		case <-time.After(s.opts.DeadlineStartDelay):
		}
	}
	var pruned time.Time
	s.loop(ctx, "deadlines", s.deadlineKick, func() (time.Time, error) {
		now := s.clock.Now()
		if now.Sub(pruned) >= 24*time.Hour {
			s.pruneProcessed(now)
			pruned = now
		}
		return s.deadlinePass(now)
	})
}

// loop runs pass until ctx is done, waiting after each pass until the time
// it returns (none: until kicked) or until kick says the store changed. A
// failed pass is logged and tried again after RetryMin.
func (s *Service) loop(ctx context.Context, what string, kick <-chan struct{}, pass func() (time.Time, error)) {
	for {
		next, err := pass()
		if err != nil {
			s.log.Error(what, "err", err)
			next = s.clock.Now().Add(s.opts.RetryMin)
		}
		var wake <-chan time.Time
		if !next.IsZero() {
			wake = s.clock.Until(next)
		}
		select {
		case <-ctx.Done():
			return
		case <-kick:
		case <-wake:
		}
	}
}

// deadlinePass does what is due at now in every game, each game in its own
// transaction, and returns when the next thing falls due (zero for never).
func (s *Service) deadlinePass(now time.Time) (time.Time, error) {
	due, next, err := s.dueGames(now)
	if err != nil {
		return time.Time{}, fmt.Errorf("reading games: %w", err)
	}
	failed := false
	for _, id := range due {
		log := s.log.With("game", id)
		err := s.update(nil, log, func(t *txn) error {
			g, err := t.game(id)
			if err != nil || g == nil {
				return err
			}
			return t.rounds().deadlineActions(g)
		})
		if err != nil {
			// One game's trouble must not hold up the others' deadlines.
			log.Error("deadline of a game", "err", err)
			failed = true
		}
	}
	switch {
	case failed:
		if retry := now.Add(s.opts.RetryMin); next.IsZero() || retry.Before(next) {
			next = retry
		}
		return next, nil
	case len(due) > 0:
		// What was done moved the games' times on: look again.
		return now, nil
	}
	return next, nil
}

// nextEvent is when a game next needs the deadline loop: a reminder, or
// the end of the grace period after its deadline. Zero for never.
func (s *Service) nextEvent(g *Game) time.Time {
	next := g.due(s.opts.Grace)
	if next.IsZero() {
		return next
	}
	for _, r := range s.opts.Reminders {
		if at := g.Deadline.Add(-r); at.After(g.RemindedUntil) && at.Before(next) {
			next = at
		}
	}
	return next
}

// deadlineActions plays a game's round when its time is up, or sends the
// reminders due. Several reminders due at once (the judge was down, or
// the deadline was set close) make one mail.
func (t roundPlay) deadlineActions(g *Game) error {
	due := g.due(t.s.opts.Grace)
	if due.IsZero() {
		return nil
	}
	if !t.now.Before(due) {
		t.log.Info("deadline passed; playing the round", "round", g.Round())
		return t.playRound(g, deadlineNotice)
	}
	// One reminder per deadline and kind: a kind sent for this deadline
	// already (before the deadline was moved away and back) is not sent
	// again, and kinds due together make one mail.
	reminding := false
	for _, r := range t.s.opts.Reminders {
		if at := g.Deadline.Add(-r); at.After(g.RemindedUntil) && !at.After(t.now) && !g.Reminded[r.String()].Equal(g.Deadline) {
			reminding = true
			if g.Reminded == nil {
				g.Reminded = map[string]time.Time{}
			}
			g.Reminded[r.String()] = g.Deadline
		}
	}
	g.RemindedUntil = t.now
	if err := t.putGame(g); err != nil {
		return err
	}
	if !reminding {
		return nil
	}
	missing, err := t.missingSides(g)
	if err != nil {
		return err
	}
	for _, side := range missing {
		if p := g.Player(side); p != nil && p.absentAt(g.Deadline) {
			continue // away, and said so: the caretaker plays
		}
		t.log.Info("reminder", "side", side, "round", g.Round())
		// The absolute time, in the player's zone: a reminder read late
		// still says when.
		due := formatTimeIn(g.Deadline, zoneOf(g, side))
		body := fmt.Sprintf("The judge has no orders from you yet for round %d. They are due by %s, in %s.\n"+
			"Without them your units hold where they stand.",
			g.Round(), due, formatDuration(g.Deadline.Sub(t.now)))
		if err := t.letters().mailPlayer(g, side, kindReminder, fmt.Sprintf("Reminder: orders for round %d due %s", g.Round(), due), body, true); err != nil {
			return err
		}
	}
	return nil
}

// pruneProcessed forgets the ids of mails handled long ago.
func (s *Service) pruneProcessed(now time.Time) {
	err := s.update(nil, s.log, func(t *txn) error {
		n, err := t.pruneProcessed(now.Add(-processedRetention))
		if err != nil {
			return err
		}
		sent, err := t.pruneSent(now.Add(-processedRetention))
		if err != nil {
			return err
		}
		if n+sent > 0 {
			t.log.Info("forgot old mail ids", "handled", n, "sent", sent)
		}
		held, addresses, err := t.pruneLimits(now, map[string]Limit{limitStranger: t.s.opts.StrangerAnswers,
			limitRefusal: t.s.opts.RefusalNotices, limitTalk: t.s.opts.TalkLimit})
		if held > 0 {
			t.log.Warn("mails held back by the limits, not summed up in a later mail", "held", held, "addresses", addresses)
		}
		return err
	})
	if err != nil {
		s.log.Error("pruning processed mail ids", "err", err)
	}
}
