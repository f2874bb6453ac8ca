package mail

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// pass handles the retry-due messages, then the new ones, a batch at a
// time. It returns an error only when the connection is no longer usable.
func (in *Intake) pass(ctx context.Context, c *imapclient.Client, handle BatchHandler, st *mailboxState) error {
	fresh, err := newUIDs(c, st.lastUID)
	if err != nil {
		return err
	}
	uids := append(st.due(time.Now()), fresh...)
	for len(uids) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(len(uids), fetchBatch)
		if err := in.processBatch(ctx, c, handle, st, uids[:n]); err != nil {
			return err
		}
		uids = uids[n:]
	}
	return nil
}

// newUIDs returns the UIDs above last of the messages not flagged \Deleted.
func newUIDs(c *imapclient.Client, last imap.UID) ([]imap.UID, error) {
	data, err := c.UIDSearch(&imap.SearchCriteria{
		UID:     []imap.UIDSet{{{Start: last + 1, Stop: 0}}}, // last+1:*
		NotFlag: []imap.Flag{imap.FlagDeleted},
	}, nil).Wait()
	if err != nil {
		return nil, fmt.Errorf("imap UID SEARCH: %w", err)
	}
	var uids []imap.UID
	for _, uid := range data.AllUIDs() {
		// "n:*" always includes the highest UID, even when it is below n.
		if uid > last {
			uids = append(uids, uid)
		}
	}
	slices.Sort(uids)
	return uids, nil
}

// processBatch fetches, parses and handles messages and moves them to
// the processed mailbox. Failures that concern only some messages are
// logged and scheduled for retry; the error return is for a connection
// that is no longer usable.
func (in *Intake) processBatch(ctx context.Context, c *imapclient.Client, handle BatchHandler, st *mailboxState, uids []imap.UID) error {
	var toFetch, handled []imap.UID
	for _, uid := range uids {
		if r := st.retries[uid]; r != nil && r.handled {
			handled = append(handled, uid)
			continue
		}
		toFetch = append(toFetch, uid)
	}
	if err := in.moveHandledAgain(c, st, handled); err != nil {
		return err
	}
	if len(toFetch) == 0 {
		return nil
	}
	fetched, err := in.fetch(c, toFetch)
	if err != nil {
		if !isCommandError(err) {
			return err
		}
		for _, uid := range toFetch {
			r := st.fail(uid, in.cfg.RetryMin, in.cfg.RetryMax)
			in.log.Warn("imap server refused to fetch message; will retry", "uid", uid, "attempt", r.attempts, "err", err)
		}
		return nil
	}
	var msgs []*Inbound
	var msgUIDs []imap.UID
	moves := map[string][]imap.UID{}
	for _, uid := range toFetch {
		log := in.log.With("uid", uid)
		st.lastUID = max(st.lastUID, uid)
		f, found := fetched[uid]
		if !found {
			delete(st.retries, uid) // expunged by someone else meanwhile
			continue
		}
		msg, err := parseSafely(f.raw, in.cfg.MaxMessageSize, in.cfg.Limits)
		if errors.Is(err, ErrSetAside) && in.cfg.LeaveSetAside {
			delete(st.retries, uid)
			log.Error("message that cannot be read left in the mailbox", "size", f.size, "err", err)
			continue
		}
		if errors.Is(err, ErrSetAside) {
			log.Error("message set aside", "size", f.size, "moved_to", in.cfg.SetAsideMailbox, "err", err)
			st.retries[uid] = &retryState{handled: true, moveTo: in.cfg.SetAsideMailbox}
			moves[in.cfg.SetAsideMailbox] = append(moves[in.cfg.SetAsideMailbox], uid)
			continue
		}
		if err != nil {
			// Retrying cannot make an unreadable message readable; it stays in
			// the mailbox for a human and is tried again after a restart.
			delete(st.retries, uid)
			log.Error("unreadable message left in mailbox", "size", f.size, "err", err)
			continue
		}
		msg.Size = max(msg.Size, f.size)
		msgs = append(msgs, msg)
		msgUIDs = append(msgUIDs, uid)
	}
	if len(msgs) > 0 {
		errs := handleBatchSafely(ctx, handle, msgs)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		for i, err := range errs {
			uid, msg := msgUIDs[i], msgs[i]
			moveTo := in.cfg.ProcessedMailbox
			if err != nil {
				log := in.log.With("uid", uid, "message_id", msg.MessageID, "from", msg.From.Email)
				if errors.Is(err, ErrLeave) || errors.Is(err, ErrSetAside) && in.cfg.LeaveSetAside {
					delete(st.retries, uid)
					log.Info("message left in the mailbox", "reason", err)
					continue
				}
				if !errors.Is(err, ErrSetAside) {
					r := st.fail(uid, in.cfg.RetryMin, in.cfg.RetryMax)
					log.Warn("handler failed; message stays in mailbox", "attempt", r.attempts,
						"retry_in", time.Until(r.notBefore).Round(time.Millisecond), "err", err)
					continue
				}
				log.Error("message set aside", "size", msg.Size, "moved_to", in.cfg.SetAsideMailbox, "err", err)
				moveTo = in.cfg.SetAsideMailbox
			}
			st.retries[uid] = &retryState{handled: true, moveTo: moveTo}
			moves[moveTo] = append(moves[moveTo], uid)
		}
	}
	return in.moveAllHandled(c, st, moves)
}

// handleBatchSafely calls handle on msgs. A panic is taken as one of a
// single mail: the mails are handed over again one at a time, and the one
// that panics then is set aside (ErrSetAside), as it would crash the
// handler at every retry and after every restart.
func handleBatchSafely(ctx context.Context, handle BatchHandler, msgs []*Inbound) []error {
	var failure error
	errs := func() (errs []error) {
		defer func() {
			if p := recover(); p != nil {
				errs, failure = nil, fmt.Errorf("%w: the handler panicked: %v\n%s", ErrSetAside, p, debug.Stack())
			}
		}()
		return handle(ctx, msgs)
	}()
	if failure == nil && len(errs) != len(msgs) {
		failure = fmt.Errorf("%w: the handler gave %d answers for %d mails", ErrSetAside, len(errs), len(msgs))
	}
	switch {
	case failure == nil:
		return errs
	case len(msgs) == 1:
		return []error{failure}
	}
	errs = make([]error, len(msgs))
	for i, msg := range msgs {
		errs[i] = handleBatchSafely(ctx, handle, []*Inbound{msg})[0]
	}
	return errs
}

// parseSafely parses a fetched message, turning a panic into ErrSetAside.
func parseSafely(raw []byte, limit int64, limits Limits) (msg *Inbound, err error) {
	defer func() {
		if p := recover(); p != nil {
			msg, err = nil, fmt.Errorf("%w: reading it panicked: %v\n%s", ErrSetAside, p, debug.Stack())
		}
	}()
	return parseBytes(raw, limit, limits)
}

// handleSafely calls handle, turning a panic into ErrSetAside: a message
// that crashed the handler once would crash it again at every retry and
// after every restart.
func handleSafely(ctx context.Context, handle Handler, msg *Inbound) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: the handler panicked: %v\n%s", ErrSetAside, p, debug.Stack())
		}
	}()
	return handle(ctx, msg)
}

// fetched is a message fetched: at most MaxMessageSize+1 bytes of it,
// which is enough for Parse to tell it is oversized, and its real size.
type fetched struct {
	raw  []byte
	size int64
}

// fetch fetches the messages with the given UIDs in one command; a UID
// missing from the result names a message that no longer exists.
func (in *Intake) fetch(c *imapclient.Client, uids []imap.UID) (map[imap.UID]fetched, error) {
	limit := in.cfg.MaxMessageSize
	cmd := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{
		UID:        true,
		RFC822Size: true,
		// PEEK leaves \Seen alone, so that a human looking at the mailbox
		// sees what is still unread; the partial range keeps an oversized
		// message from being transferred whole.
		BodySection: []*imap.FetchItemBodySection{{
			Peek:    true,
			Partial: &imap.SectionPartial{Offset: 0, Size: limit + 1},
		}},
	})
	defer cmd.Close()
	out := map[imap.UID]fetched{}
	for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
		var uid imap.UID
		var f fetched
		found := false
		for item := msg.Next(); item != nil; item = msg.Next() {
			switch item := item.(type) {
			case imapclient.FetchItemDataUID:
				uid = item.UID
			case imapclient.FetchItemDataRFC822Size:
				f.size = item.Size
			case imapclient.FetchItemDataBodySection:
				if item.Literal == nil {
					continue
				}
				// The server may ignore the partial range: read no more
				// than the limit needs either way.
				raw, err := io.ReadAll(io.LimitReader(item.Literal, limit+1))
				if err != nil {
					return nil, fmt.Errorf("imap UID FETCH %d: reading body: %w", uid, err)
				}
				f.raw, found = raw, true
			}
		}
		if found && uid != 0 {
			out[uid] = f
		}
	}
	if err := cmd.Close(); err != nil {
		return nil, fmt.Errorf("imap UID FETCH %v: %w", uids, err)
	}
	return out, nil
}
