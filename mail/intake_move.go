package mail

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// purgeInterval is how often the handled messages older than
// ProcessedKeep are deleted; purgeRetry the wait after a failed purge.
const (
	purgeInterval = 24 * time.Hour
	purgeRetry    = time.Hour
)

// keepProcessed deletes the handled messages older than ProcessedKeep at
// the start and once a day, over a connection of its own, so that the
// processed mailbox does not grow for ever.
func (in *Intake) keepProcessed(ctx context.Context) {
	for {
		wait := purgeInterval
		n, err := in.PurgeProcessed(ctx, time.Now().Add(-in.cfg.ProcessedKeep))
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			in.log.Warn("deleting old handled messages failed; will retry", "mailbox", in.cfg.ProcessedMailbox, "retry_in", purgeRetry, "err", err)
			wait = purgeRetry
		case n > 0:
			in.log.Info("old handled messages deleted", "mailbox", in.cfg.ProcessedMailbox, "messages", n, "kept", in.cfg.ProcessedKeep)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// PurgeProcessed deletes the messages of the processed mailbox that
// arrived before the given time, and returns how many it deleted.
func (in *Intake) PurgeProcessed(ctx context.Context, before time.Time) (int, error) {
	c, done, err := in.login(ctx)
	if err != nil {
		return 0, err
	}
	defer done()
	if _, err := c.Select(in.cfg.ProcessedMailbox, nil).Wait(); err != nil {
		if noMailbox(err) {
			// Made by the first message handled: nothing to delete yet.
			return 0, c.Logout().Wait()
		}
		return 0, fmt.Errorf("imap SELECT %q: %w", in.cfg.ProcessedMailbox, err)
	}
	// IMAP's BEFORE compares dates only: a message of the day before is
	// the newest deleted.
	data, err := c.UIDSearch(&imap.SearchCriteria{Before: before}, nil).Wait()
	if err != nil {
		return 0, fmt.Errorf("imap UID SEARCH BEFORE in %q: %w", in.cfg.ProcessedMailbox, err)
	}
	uids := data.AllUIDs()
	if len(uids) == 0 {
		return 0, c.Logout().Wait()
	}
	if err := deleteMessages(c, imap.UIDSetNum(uids...)); err != nil {
		return 0, fmt.Errorf("in %q: %w", in.cfg.ProcessedMailbox, err)
	}
	return len(uids), c.Logout().Wait()
}

// noMailbox reports whether err is a server's answer that a mailbox does
// not exist (NONEXISTENT, or TRYCREATE as some servers answer).
func noMailbox(err error) bool {
	var ie *imap.Error
	return errors.As(err, &ie) && (ie.Code == imap.ResponseCodeNonExistent || ie.Code == imap.ResponseCodeTryCreate)
}

// ensureMailbox creates the named mailbox unless it exists.
func (in *Intake) ensureMailbox(c *imapclient.Client, name string) error {
	list, err := c.List("", name, nil).Collect()
	if err != nil {
		return fmt.Errorf("imap LIST %q: %w", name, err)
	}
	if len(list) > 0 {
		return nil
	}
	if err := c.Create(name, nil).Wait(); err != nil {
		return fmt.Errorf("imap CREATE %q: %w", name, err)
	}
	in.log.Info("created mailbox", "name", name)
	return nil
}

// moveHandledAgain moves handled messages whose move did not complete,
// those still in the mailbox: a move cut off with the connection may have
// been done by the server, and a UID MOVE of messages gone is an empty
// move, which some servers answer badly.
func (in *Intake) moveHandledAgain(c *imapclient.Client, st *mailboxState, uids []imap.UID) error {
	if len(uids) == 0 {
		return nil
	}
	data, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{imap.UIDSetNum(uids...)}}, nil).Wait()
	if err != nil {
		return fmt.Errorf("imap UID SEARCH of messages to move: %w", err)
	}
	present := data.AllUIDs()
	moves := map[string][]imap.UID{}
	for _, uid := range uids {
		if !slices.Contains(present, uid) {
			delete(st.retries, uid)
			in.log.Info("handled message already moved before the connection was lost", "uid", uid)
			continue
		}
		dest := st.retries[uid].moveTo
		moves[dest] = append(moves[dest], uid)
	}
	return in.moveAllHandled(c, st, moves)
}

// moveAllHandled moves handled messages to their mailboxes, one command
// per mailbox.
func (in *Intake) moveAllHandled(c *imapclient.Client, st *mailboxState, moves map[string][]imap.UID) error {
	for _, dest := range []string{in.cfg.ProcessedMailbox, in.cfg.SetAsideMailbox} {
		if len(moves[dest]) == 0 {
			continue
		}
		if err := in.moveHandled(c, st, moves[dest], dest); err != nil {
			return err
		}
	}
	return nil
}

// moveHandled moves handled messages to the mailbox dest, in one
// command. A refused move is logged and retried later without calling the
// handler again.
func (in *Intake) moveHandled(c *imapclient.Client, st *mailboxState, uids []imap.UID, dest string) error {
	var err error
	if dest == in.cfg.SetAsideMailbox {
		// Created only when needed: most accounts never see such a mail.
		err = in.ensureMailbox(c, dest)
	}
	if err == nil {
		err = moveMessages(c, uids, dest)
	}
	if err != nil {
		if !isCommandError(err) {
			return err
		}
		for _, uid := range uids {
			r := st.fail(uid, in.cfg.RetryMin, in.cfg.RetryMax)
			in.log.Warn("imap server refused to move handled message; will retry the move", "uid", uid, "attempt", r.attempts, "err", err)
		}
		return nil
	}
	for _, uid := range uids {
		delete(st.retries, uid)
		in.log.Info("message handled", "uid", uid, "moved_to", dest)
	}
	return nil
}

// moveMessages moves messages with UID MOVE when the server has it, else
// with UID COPY, \Deleted and UID EXPUNGE (plain EXPUNGE without UIDPLUS,
// which also removes other messages already flagged \Deleted).
func moveMessages(c *imapclient.Client, list []imap.UID, dest string) error {
	uids := imap.UIDSetNum(list...)
	if c.Caps().Has(imap.CapMove) {
		if _, err := c.Move(uids, dest).Wait(); err != nil {
			return fmt.Errorf("imap UID MOVE %v to %q: %w", uids, dest, err)
		}
		return nil
	}
	// imapclient's Move has the same fallback, but it pipelines the three
	// commands, so it would delete the messages even if the COPY failed.
	if _, err := c.Copy(uids, dest).Wait(); err != nil {
		return fmt.Errorf("imap UID COPY %v to %q: %w", uids, dest, err)
	}
	return deleteMessages(c, uids)
}

// deleteMessages flags messages \Deleted and expunges them: with UID
// EXPUNGE when the server has it, else with EXPUNGE, which also removes
// the other messages of the mailbox already flagged \Deleted.
func deleteMessages(c *imapclient.Client, uids imap.UIDSet) error {
	deleted := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}
	if err := c.Store(uids, deleted, nil).Close(); err != nil {
		return fmt.Errorf("imap UID STORE %v +FLAGS (\\Deleted): %w", uids, err)
	}
	var err error
	if c.Caps().Has(imap.CapUIDPlus) {
		err = c.UIDExpunge(uids).Close()
	} else {
		err = c.Expunge().Close()
	}
	if err != nil {
		return fmt.Errorf("imap EXPUNGE of UID %v: %w", uids, err)
	}
	return nil
}

// isCommandError reports whether err is the server's NO or BAD answer to
// one command, after which the connection is still usable.
func isCommandError(err error) bool {
	var imapErr *imap.Error
	return errors.As(err, &imapErr)
}
