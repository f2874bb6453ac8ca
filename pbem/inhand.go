package pbem

import (
	"fmt"

	"fieldpost/mail"
	"fieldpost/pbem/store"
)

// The crash-loop guard. A mail that kills the judge (an out-of-memory kill,
// a crash) while in hand would be read again at every start, and kill it
// again, for ever. So each mail is recorded in hand, durably, before it is
// handled, and the record goes with the commit of what the mail did. A
// record found at the next start says the judge died with the mail in hand;
// a mail found so at two deaths in a row is set aside as Unreadable (its
// sender and the GM told) instead of being handled a third time. The
// guard is here, where every intake (IMAP, LMTP, a pipe) hands its mails
// over, keyed by the mail's dedupe key, which does not depend on the way
// it came.

// deathsBeforeSetAside is how many deaths with a mail in hand make it set
// aside.
const deathsBeforeSetAside = 2

// inHand is a mail's record in hand, kept by the store under its dedupe
// key.
type inHand struct {
	// Deaths counts the handlings of the mail begun and never finished
	// (nor failed with an error: the judge died), the one under way
	// included while it is under way.
	Deaths int `json:"deaths"`
}

// inHandRecords reads the in-hand records of mails, by dedupe key; a mail
// without one has the zero record.
func (s *Store) inHandRecords(keys []string) ([]inHand, error) {
	records := make([]inHand, len(keys))
	err := s.db.View(func(tx *store.Tx) error {
		for i, k := range keys {
			if _, err := tx.InHand(k, &records[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the mails in hand: %w", err)
	}
	return records, nil
}

// takeInHand records mails in hand, one more handling of each begun, in one
// commit: the record must be on disk before the handling can kill the
// judge.
func (s *Store) takeInHand(keys []string, records []inHand) error {
	err := s.db.Update(func(tx *store.Tx) error {
		for i, k := range keys {
			if err := tx.PutInHand(k, &inHand{Deaths: records[i].Deaths + 1}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("recording the mails in hand: %w", err)
	}
	return nil
}

// putBackInHand undoes takeInHand for the mails whose handling failed with
// an error, not a death: their records say again what they said before.
// The mails whose handling committed have no record left.
func (s *Store) putBackInHand(keys []string, before []inHand) error {
	err := s.db.Update(func(tx *store.Tx) error {
		for i, k := range keys {
			var now inHand
			held, err := tx.InHand(k, &now)
			switch {
			case err != nil:
				return err
			case !held: // handled
			case before[i].Deaths == 0:
				if err := tx.DeleteInHand(k); err != nil {
					return err
				}
			default:
				if err := tx.PutInHand(k, &before[i]); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("putting back the records of mails in hand: %w", err)
	}
	return nil
}

// doneInHand removes a mail's in-hand record, in the transaction that
// commits what the mail did.
func (t storeTx) doneInHand(key string) error {
	return t.tx.DeleteInHand(key)
}

// setAsideKiller sets aside a mail that was in hand at deathsBeforeSetAside
// deaths of the judge: its sender (unless the mail is automatic) and the
// game master are told, and its record is removed. It returns the error
// that has the intake put the mail in the set-aside mailbox, where a
// person can look at it; moved back to the inbox, it is read again (and
// set aside again if it kills the judge twice more).
func (s *Service) setAsideKiller(msg *mail.Inbound, key string, record inHand) error {
	log := s.log.With("message_id", msg.MessageID)
	err := s.update(msg, log, func(t *txn) error {
		t.log.Error("the judge died with this mail in hand at its last starts: set aside, not read",
			"deaths", record.Deaths, "from", msg.From.Email, "size", msg.Size)
		if err := t.doneInHand(key); err != nil {
			return err
		}
		if _, auto := mail.DetectAutomatic(msg, []string{t.s.opts.Address}); !auto {
			if err := t.answerSender(kindError, "Your mail could not be read",
				"The judge stopped while reading your mail, twice: the mail is kept aside for the club's\n"+
					"administrator and was not read. Nothing it asked was done. If it held orders or a\n"+
					"command, send them again in a plain, short mail."); err != nil {
				return err
			}
		}
		if t.s.opts.GMAddress == "" {
			return nil
		}
		return t.letters().answerGM(kindGM, nil, "A mail that stopped the judge was set aside",
			fmt.Sprintf("The judge stopped (killed, or crashed) while handling this mail at its last %d starts:\n\n"+
				"  From:       %s\n  Subject:    %s\n  Message-ID: %s\n  Size:       %s\n\n"+
				"It is set aside (in the Unreadable folder of the judge's mailbox, when the judge reads\n"+
				"IMAP) and was not read; its sender is told. Look at it, and at the judge's log and\n"+
				"memory; moved back to the inbox, it is read again.",
				record.Deaths, msg.From.Email, msg.Subject, msg.MessageID, byteSize(msg.Size)))
	})
	if err != nil {
		return fmt.Errorf("setting aside mail %s: %w", msg.MessageID, err)
	}
	return fmt.Errorf("%w: the judge died %d times while handling it", mail.ErrSetAside, record.Deaths)
}
