package pbem

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"time"

	"fieldpost/mail"
	"fieldpost/pbem/store"
)

// Sender submits a composed message; *mail.Sender is one.
type Sender interface {
	Send(ctx context.Context, envelopeFrom string, to []string, msg []byte) error
}

// outgoing is a queued mail's record in the outbox. The store keeps the
// message itself apart, so that scanning the queue does not read every
// map.
type outgoing struct {
	Kind      string    `json:"kind"`
	Game      string    `json:"game,omitempty"`
	Side      string    `json:"side,omitempty"`
	MessageID string    `json:"message_id"`
	To        []string  `json:"to"`
	Queued    time.Time `json:"queued"`
	Attempts  int       `json:"attempts,omitempty"`
	NextTry   time.Time `json:"next_try"`
	// Failed: given up on (a permanent SMTP error, or temporary ones for
	// longer than Options.GiveUp). Kept for the operator to look at.
	Failed    bool   `json:"failed,omitempty"`
	LastError string `json:"last_error,omitempty"`
}

func (t letters) enqueue(o *outgoing, raw []byte) error {
	if err := t.tx.Queue(o, raw); err != nil {
		return err
	}
	if err := t.putSent(o.MessageID, &sentMail{Kind: o.Kind, Game: o.Game, Side: o.Side, To: o.To[0], Queued: o.Queued}); err != nil {
		return err
	}
	t.queued++
	if t.answer != nil {
		t.answer.Mails = append(t.answer.Mails, QueuedMail{Kind: o.Kind, To: o.To[0]})
	}
	return nil
}

// sendBatch is how many mails one pass over the outbox takes at most, so
// that a long queue is read a part at a time.
const sendBatch = 100

type dueMail struct {
	seq uint64
	o   outgoing
	raw []byte
}

// sendDue sends the mails due now, in the order they were queued, and
// returns when the next one falls due (zero when none waits), counting the
// retries of the mails it just failed to send: without them the loop would
// sleep past their retry time until some other mail woke it.
func (s *Service) sendDue(ctx context.Context) (time.Time, error) {
	now := s.clock.Now()
	var due []dueMail
	var next time.Time
	err := s.store.db.View(func(tx *store.Tx) error {
		for seq, v := range tx.Queued() {
			var o outgoing
			if err := v.Decode(&o); err != nil {
				return fmt.Errorf("decoding queued mail %d: %w", seq, err)
			}
			switch {
			case o.Failed:
			case o.NextTry.After(now):
				if next.IsZero() || o.NextTry.Before(next) {
					next = o.NextTry
				}
			case len(due) == sendBatch:
				// More is due than one pass takes: the next pass comes at
				// once, and reads the rest of a long queue then.
				next = now
				return nil
			default:
				due = append(due, dueMail{seq: seq, o: o, raw: tx.QueuedMessage(seq)})
			}
		}
		return nil
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("reading the outbox: %w", err)
	}
	sent := s.sendAll(ctx, due)
	retry, err := s.recordSends(sent)
	if err != nil {
		return time.Time{}, err
	}
	if ctx.Err() != nil {
		return now, nil
	}
	// A mail that failed falls due again, even when nothing else waits.
	if !retry.IsZero() && (next.IsZero() || retry.Before(next)) {
		next = retry
	}
	return next, nil
}

// sendAll sends mails over Options.SendSessions sessions at once, the
// mails to one address over one of them, in the order they were queued,
// and returns what came of each attempt made. A mail interrupted by a
// shutdown is not counted as attempted: it stays due, for Flush or the
// next start.
func (s *Service) sendAll(ctx context.Context, due []dueMail) []sendResult {
	lanes := min(s.opts.SendSessions, len(due))
	results := make([]*sendResult, len(due))
	var wg sync.WaitGroup
	for lane := range lanes {
		wg.Go(func() {
			for i, m := range due {
				if laneOf(m.o.To[0], lanes) != lane {
					continue
				}
				if ctx.Err() != nil {
					return
				}
				err := s.sender.Send(ctx, s.opts.Address, m.o.To, m.raw)
				if err != nil && ctx.Err() != nil {
					return // interrupted, not refused
				}
				results[i] = &sendResult{m, err}
			}
		})
	}
	wg.Wait()
	var sent []sendResult
	for _, r := range results {
		if r != nil {
			sent = append(sent, *r)
		}
	}
	return sent
}

// laneOf is the session a recipient's mails go over, of lanes.
func laneOf(addr string, lanes int) int {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(addr)))
	return int(h.Sum32() % uint32(lanes))
}

// sendResult is what came of one attempt to send a mail.
type sendResult struct {
	m   dueMail
	err error
}

// recordSends records a pass's attempts in one commit: a mail sent leaves
// the outbox, one that failed has its retry scheduled (the earliest is
// returned) or is given up on, its player then marked unreachable. A kill
// before the commit sends the pass's mails again at the next start, under
// the same Message-ID.
func (s *Service) recordSends(sent []sendResult) (retry time.Time, err error) {
	if len(sent) == 0 {
		return time.Time{}, nil
	}
	now := s.clock.Now()
	updated := make([]outgoing, len(sent))
	for i, r := range sent {
		updated[i] = s.afterAttempt(r.m.o, r.err, now)
		if o := updated[i]; r.err != nil && !o.Failed && (retry.IsZero() || o.NextTry.Before(retry)) {
			retry = o.NextTry
		}
	}
	err = s.update(nil, s.log, func(t *txn) error {
		for i, r := range sent {
			if r.err == nil {
				if err := t.tx.Dequeue(r.m.seq); err != nil {
					return err
				}
				continue
			}
			// A mail given up on keeps its message, for the operator to look
			// at; sendDue skips it.
			o := &updated[i]
			if err := t.tx.PutQueued(r.m.seq, o); err != nil {
				return err
			}
			if o.Failed {
				how := "could not be sent for " + formatDuration(s.opts.GiveUp) + " and was given up"
				if mail.IsPermanent(r.err) {
					how = "was refused by the mail server"
				}
				if err := t.seats().seatUnreachable(o.Game, o.Side, o.To[0], o.Kind, how, o.LastError); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("recording the sending of %d mails: %w", len(sent), err)
	}
	return retry, nil
}

// afterAttempt is a mail's outbox record after an attempt to send it that
// ended with sendErr (nil: sent), logged.
func (s *Service) afterAttempt(o outgoing, sendErr error, now time.Time) outgoing {
	log := s.log.With("kind", o.Kind, "game", o.Game, "side", o.Side, "mail_id", o.MessageID)
	switch {
	case sendErr == nil:
		log.Info("mail sent", "attempts", o.Attempts+1)
	case mail.IsPermanent(sendErr):
		o.Attempts++
		o.Failed, o.LastError = true, sendErr.Error()
		log.Error("mail refused by the server; given up", "to", o.To, "err", sendErr)
	default:
		o.Attempts++
		o.LastError = sendErr.Error()
		if now.Sub(o.Queued) >= s.opts.GiveUp {
			o.Failed = true
			log.Error("mail not sent for too long; given up", "to", o.To, "attempts", o.Attempts, "err", sendErr)
			break
		}
		// The last attempt is made when GiveUp has passed, so that a mail is
		// given up on time rather than at the next attempt after it.
		o.NextTry = now.Add(retryWait(now.Sub(o.Queued), s.opts.RetryMin, s.opts.RetryMax))
		if lastTry := o.Queued.Add(s.opts.GiveUp); o.NextTry.After(lastTry) {
			o.NextTry = lastTry
		}
		log.Warn("sending failed; will retry", "attempts", o.Attempts, "retry_at", o.NextTry, "err", sendErr)
	}
	return o
}

// retryWait is the wait before the next attempt to send a mail queued age
// ago: as long as the mail has waited, at least first and at most last.
// The attempts thus come at most twice as late as the mail's age, so that
// a mail caught in an outage is sent no later than the longer of first and
// the outage's length after the server returns (a backoff counted in
// attempts would double the wait however short the failures were).
func retryWait(age, first, last time.Duration) time.Duration {
	return min(max(age, first), last)
}

// runOutbox sends queued mail until ctx is done: at once when a
// transaction queued some, and when a retry falls due.
func (s *Service) runOutbox(ctx context.Context) {
	s.loop(ctx, "outbox", s.outboxKick, func() (time.Time, error) { return s.sendDue(ctx) })
}

// Flush sends what is due now, once, for a shutdown: the mails queued by
// the last transactions go out before the program ends, unless the server
// is unreachable, in which case they wait in the outbox for the next start.
func (s *Service) Flush(ctx context.Context) error {
	_, err := s.sendDue(ctx)
	return err
}
