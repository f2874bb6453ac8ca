package pbem

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"fieldpost/mail"
)

// Handle handles one inbound mail; it is a mail.Handler. Mail sent by a
// machine is logged and never answered; a bounce of the judge's mail to a
// player marks the player unreachable and tells the game master. Otherwise what the mail does and
// every mail it causes are committed together, once: a mail handled again
// (the same Message-ID) has no effect. An error means nothing was done and
// the mail should be handled again later, except mail.ErrSetAside for an
// Unreadable mail, whose sender has been told.
func (s *Service) Handle(ctx context.Context, msg *mail.Inbound) error {
	return s.HandleBatch(ctx, []*mail.Inbound{msg})[0]
}

// HandleBatch handles mails that arrived together, as Handle does each,
// and returns one error per mail; it is a mail.BatchHandler. The mails
// are handled in order in one transaction, one commit (one disk sync) for
// them all. Each mail's effects stay all or nothing: when one fails, the
// transaction is rolled back, and every mail is handled again alone, so
// that the one that fails fails alone and none is done twice.
//
// The mails are recorded in hand first (inhand.go): when the judge died
// with a mail of the batch in hand, they are handled one at a time, and a
// mail in hand at two deaths is set aside (mail.ErrSetAside).
func (s *Service) HandleBatch(ctx context.Context, msgs []*mail.Inbound) []error {
	errs := make([]error, len(msgs))
	keys := make([]string, len(msgs))
	for i, msg := range msgs {
		keys[i] = dedupeKey(msg)
	}
	records, err := s.store.inHandRecords(keys)
	if err != nil {
		return fill(errs, err)
	}
	if len(msgs) > 1 && slices.ContainsFunc(records, func(r inHand) bool { return r.Deaths > 0 }) {
		s.log.Warn("the judge died with mails of this batch in hand: each is handled alone", "mails", len(msgs))
		for i := range msgs {
			errs[i] = s.HandleBatch(ctx, msgs[i:i+1])[0]
		}
		return errs
	}
	if len(msgs) == 1 && records[0].Deaths >= deathsBeforeSetAside {
		return []error{s.setAsideKiller(msgs[0], keys[0], records[0])}
	}
	if err := s.store.takeInHand(keys, records); err != nil {
		return fill(errs, err)
	}
	errs = s.handleBatch(ctx, msgs, keys)
	if slices.ContainsFunc(errs, func(err error) bool { return err != nil }) {
		// The judge did not die: a mail that failed is as it was before.
		if err := s.store.putBackInHand(keys, records); err != nil {
			s.log.Error("the mails that failed stay recorded in hand", "err", err)
		}
	}
	return errs
}

// fill sets every error to err.
func fill(errs []error, err error) []error {
	for i := range errs {
		errs[i] = err
	}
	return errs
}

// handleBatch is HandleBatch once the mails are recorded in hand (keys are
// their dedupe keys): the transaction of each mail's effects removes its
// record.
func (s *Service) handleBatch(ctx context.Context, msgs []*mail.Inbound, keys []string) []error {
	errs := make([]error, len(msgs))
	var steps []step
	var together []int // the indexes of the mails of steps
	for i, msg := range msgs {
		log := s.log.With("message_id", msg.MessageID)
		key := keys[i]
		if msg.Unreadable != "" {
			errs[i] = fmt.Errorf("%w: %s", mail.ErrSetAside, msg.Unreadable)
		}
		if b, ok := mail.ReadBounce(msg); ok {
			errs[i] = errors.Join(s.handleBounce(msg, b, log), errs[i])
			continue
		}
		fn := func(t *txn) error {
			if t.processed(key) {
				t.log.Info("mail handled before; ignored", "from", t.msg.From.Email)
				return t.doneInHand(key)
			}
			if t.s.opts.InHand != nil {
				if err := t.s.opts.InHand(t.msg); err != nil {
					return err
				}
			}
			if err := t.handle(); err != nil {
				return err
			}
			if err := t.markProcessed(key, t.now); err != nil {
				return err
			}
			return t.doneInHand(key)
		}
		if reason, auto := mail.DetectAutomatic(msg, []string{s.opts.Address}); auto {
			fn = func(t *txn) error {
				t.log.Info("automatic mail ignored", "reason", reason, "from", t.msg.From.Email)
				return t.doneInHand(key)
			}
		}
		steps = append(steps, step{msg, log, fn})
		together = append(together, i)
	}
	if len(steps) == 0 {
		return errs
	}
	err := s.updateAll(steps)
	if err != nil && len(steps) > 1 {
		s.log.Warn("a mail of a batch failed; each is handled alone", "mails", len(steps), "err", err)
		for _, i := range together {
			errs[i] = s.handleBatch(ctx, msgs[i:i+1], keys[i:i+1])[0]
		}
		return errs
	}
	if err != nil {
		i := together[0]
		errs[i] = fmt.Errorf("handling mail %s: %w", msgs[i].MessageID, err)
	}
	return errs
}

// dedupeKey names an inbound mail: its Message-ID, or for the rare mail
// without one a hash of what identifies it.
func dedupeKey(msg *mail.Inbound) string {
	if msg.MessageID != "" {
		return "id:" + msg.MessageID
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", msg.From.Email, msg.Date.UTC().Format(time.RFC3339), msg.Subject, msg.Text)
	return "sum:" + hex.EncodeToString(h.Sum(nil))
}

// handle reads the mail in hand and does what it asks.
func (t *txn) handle() error {
	msg := t.msg
	if msg.Oversized {
		t.log.Info("oversized mail refused", "size", msg.Size, "from", msg.From.Email)
		return t.answerSender(kindError, "Your mail was too large",
			fmt.Sprintf("Your mail (%s) was larger than the judge reads (%s) and was not read.\n"+
				"Orders and commands are plain text: send them without attachments or pictures.",
				byteSize(msg.Size), byteSize(t.s.opts.MaxMessageSize)))
	}
	if msg.Unreadable != "" {
		t.log.Info("unreadable mail set aside", "why", msg.Unreadable, "from", msg.From.Email)
		return t.answerSender(kindError, "Your mail could not be read",
			fmt.Sprintf("Your mail had %s and was not read; it is kept aside for the club's administrator.\n"+
				"Orders and commands are plain text: send them in a plain mail, without attachments.", msg.Unreadable))
	}
	own := mail.StripQuoted(msg.Text)
	if n, limit := lineCount(own), t.s.opts.Limits.MaxLines; n > limit {
		t.log.Info("overlong mail refused", "lines", n, "from", msg.From.Email)
		return t.answerSender(kindError, "Your mail was too long",
			fmt.Sprintf("Your mail has %d lines of text besides quotes; the judge reads at most %d and did\n"+
				"nothing with it. Send only the orders or the command.", n, limit))
	}
	if done, err := t.seats().confirmAddress(); done || err != nil {
		return err
	}
	req := readStripped(msg, own)
	t.req = req
	if req.Empty {
		if strings.TrimSpace(msg.Text) != "" {
			t.log.Info("mail with only quoted text; help sent", "from", msg.From.Email)
			return t.help(onlyQuotedText)
		}
		t.log.Info("mail without text; help sent", "from", msg.From.Email)
		return t.help(noReadableText)
	}
	t.log.Info("mail received", "command", cmp.Or(req.Command, "orders"), "from", msg.From.Email)
	if !gmCommands[req.Command] && req.Command != cmdTimezone || !t.isGM(req) {
		return t.dispatch(req)
	}
	// The game master's mail: every command in it, in order, each
	// answered, each answer naming its line.
	for _, r := range readGMCommands(req.Text, msg.Subject) {
		t.req = r
		if err := t.dispatch(r); err != nil {
			return err
		}
	}
	return nil
}

// dispatch does what a read request asks.
func (t *txn) dispatch(req *request) error {
	switch {
	case req.Command == cmdHelp:
		return t.help("")
	case req.Command == cmdSubscribe || req.Command == cmdUnsubscribe:
		return t.subscribe(req)
	case req.Command == cmdJoin:
		return t.seats().join(req)
	case gmCommands[req.Command], req.Command == cmdTimezone && t.isGM(req):
		return t.gmCommand(req)
	default:
		return t.playerRequest(req)
	}
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
