package pbem

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"fieldpost/mail"
	"fieldpost/pbem/store"
)

// Mail the mail server hands over itself (over LMTP, or `fieldpost
// deliver` on a pipe) is taken as the IMAP intake takes a mail: handled
// once (Handle's dedupe by Message-ID), acknowledged only after its
// transaction committed. A mail that cannot be read cannot be moved to an
// Unreadable folder, and refusing it would only have the mail server
// bounce it back and forth: it is kept aside in the database instead, for
// the administrator (fieldpost unreadable), and acknowledged.

// SetAsideMail describes a delivered mail the judge could not read. The
// store keeps it, with the mail as delivered (at most MaxMessageSize and
// one byte of it), under its ID.
type SetAsideMail struct {
	// ID is the start of the mail's SHA-256, in hex: a mail delivered
	// twice is kept once.
	ID       string    `json:"id"`
	Received time.Time `json:"received"`
	From     string    `json:"from,omitempty"`
	Subject  string    `json:"subject,omitempty"`
	Size     int64     `json:"size"`
	Reason   string    `json:"reason"`
}

// Deliver takes one mail handed over by the mail server: raw as
// mail.ReadMessage kept it, size its whole size; it is a mail.Deliverer.
// nil means the mail's effects are committed, or it is kept aside: the
// mail server may forget it. An error means nothing was done: the mail
// server must keep it and hand it over again.
func (s *Service) Deliver(ctx context.Context, raw []byte, size int64) error {
	msg, err := mail.ParseDelivered(raw, size, s.opts.MaxMessageSize, s.opts.MailLimits)
	if err != nil {
		return s.setAside(raw, size, nil, err)
	}
	err = s.handleSafely(ctx, msg)
	if errors.Is(err, mail.ErrSetAside) {
		return s.setAside(raw, size, msg, err)
	}
	return err
}

// handleSafely handles a mail, taking a panic for a mail that cannot be
// read: it would panic again at every delivery.
func (s *Service) handleSafely(ctx context.Context, msg *mail.Inbound) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: the handler panicked: %v\n%s", mail.ErrSetAside, p, debug.Stack())
		}
	}()
	return s.Handle(ctx, msg)
}

// setAside keeps a delivered mail that cannot be read (msg, when it could
// be parsed at all, says whose it is), once however often it is delivered.
func (s *Service) setAside(raw []byte, size int64, msg *mail.Inbound, why error) error {
	sum := sha256.Sum256(raw)
	rec := SetAsideMail{ID: hex.EncodeToString(sum[:8]), Received: s.clock.Now(), Size: size, Reason: why.Error()}
	if msg != nil {
		rec.From, rec.Subject = msg.From.Email, msg.Subject
	}
	var again bool
	err := s.store.db.Update(func(tx *store.Tx) (err error) {
		again, err = tx.SetAside(rec.ID, &rec, raw)
		return err
	})
	if err != nil {
		return fmt.Errorf("keeping an unreadable mail aside: %w", err)
	}
	if again {
		s.log.Info("delivered mail set aside before; delivered again", "set_aside_id", rec.ID)
		return nil
	}
	s.log.Error("delivered mail set aside (fieldpost unreadable lists it)", "set_aside_id", rec.ID, "from", rec.From, "size", size, "err", why)
	return nil
}

// SetAside returns the delivered mails kept aside, oldest first.
func (s *Store) SetAside() ([]SetAsideMail, error) {
	var out []SetAsideMail
	err := s.db.View(func(tx *store.Tx) error {
		for id, v := range tx.SetAsideMails() {
			var rec SetAsideMail
			if err := v.Decode(&rec); err != nil {
				return fmt.Errorf("decoding %s: %w", id, err)
			}
			out = append(out, rec)
		}
		return nil
	})
	slices.SortFunc(out, func(a, b SetAsideMail) int { return a.Received.Compare(b.Received) })
	return out, err
}

// SetAsideRaw returns a mail kept aside, as it was delivered.
func (s *Store) SetAsideRaw(id string) ([]byte, error) {
	var raw []byte
	err := s.db.View(func(tx *store.Tx) error {
		raw = tx.SetAsideMessage(id)
		return nil
	})
	if err == nil && raw == nil {
		err = fmt.Errorf("no mail set aside has the id %q (fieldpost unreadable lists them)", id)
	}
	return raw, err
}
