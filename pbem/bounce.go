package pbem

import (
	"fmt"
	"log/slog"
	"time"

	"fieldpost/mail"
)

// sentMail is whom a mail the judge queued was for, kept under its
// Message-ID so that a bounce quoting the id can be matched to the game and
// player. Only the judge's own, unguessable Message-IDs match, so a forged
// bounce cannot mark a player unreachable without a mail the judge sent.
type sentMail struct {
	Kind   string    `json:"kind"`
	Game   string    `json:"game,omitempty"`
	Side   string    `json:"side,omitempty"`
	To     string    `json:"to"`
	Queued time.Time `json:"queued"`
}

func (t storeTx) putSent(messageID string, m *sentMail) error {
	return t.tx.PutSent(messageID, m)
}

// sent returns the mail queued with a Message-ID, nil when none was.
func (t storeTx) sent(messageID string) (*sentMail, error) {
	var m sentMail
	found, err := t.tx.Sent(messageID, &m)
	if err != nil || !found {
		return nil, err
	}
	return &m, nil
}

// pruneSent forgets the mails queued before a time: bounces come within
// days.
func (t storeTx) pruneSent(before time.Time) (int, error) {
	var old []string
	for id, v := range t.tx.EverySent() {
		var m sentMail
		if err := v.Decode(&m); err != nil {
			return 0, fmt.Errorf("decoding %s: %w", id, err)
		}
		if m.Queued.Before(before) {
			old = append(old, id)
		}
	}
	for _, id := range old {
		if err := t.tx.DeleteSent(id); err != nil {
			return 0, err
		}
	}
	return len(old), nil
}

// handleBounce deals with a delivery failure notice for a mail the judge
// sent: when it returns a mail to a player, the player is marked
// unreachable (game show says so) and the game master is told. A bounce
// is never answered.
func (s *Service) handleBounce(msg *mail.Inbound, b *mail.Bounce, log *slog.Logger) error {
	key := dedupeKey(msg)
	err := s.update(msg, log, func(t *txn) error {
		if t.processed(key) {
			return t.doneInHand(key)
		}
		if err := t.bounce(b); err != nil {
			return err
		}
		if err := t.markProcessed(key, t.now); err != nil {
			return err
		}
		return t.doneInHand(key)
	})
	if err != nil {
		return fmt.Errorf("handling bounce %s: %w", msg.MessageID, err)
	}
	return nil
}

func (t *txn) bounce(b *mail.Bounce) error {
	var returned *sentMail
	for _, id := range b.MessageIDs {
		m, err := t.sent(id)
		if err != nil {
			return err
		}
		if m != nil {
			returned = m
			break
		}
	}
	if returned == nil {
		t.log.Warn("bounce of no mail the judge knows; ignored", "reason", b.Reason(), "quoted_ids", len(b.MessageIDs))
		return nil
	}
	return t.seats().seatUnreachable(returned.Game, returned.Side, returned.To, returned.Kind, "came back undelivered", b.Reason())
}
