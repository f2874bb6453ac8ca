package club

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"go.etcd.io/bbolt"
)

func (sess *imapSession) Append(name string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	body, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	m := msgMeta{date: options.Time, flags: canonicalFlags(options.Flags)}
	if m.date.IsZero() {
		m.date = time.Now()
	}
	var data imap.AppendData
	err = sess.store.change(func(tx *bbolt.Tx, q *queue) error {
		bx, err := openBox(tx, sess.account.Name, name)
		if errors.Is(err, errNoMailbox) {
			return errTryCreate
		}
		if err != nil {
			return err
		}
		if data.UID, err = bx.add(body, m); err != nil {
			return err
		}
		data.UIDValidity = bx.id
		q.exists(bx.id, bx.info.count)
		return bx.saveInfo()
	})
	if err != nil {
		return nil, err
	}
	sess.account.changes.broadcast()
	return &data, nil
}

// matching returns the messages of bx, the selected mailbox, that numSet
// names.
func (sess *imapSession) matching(bx *box, numSet imap.NumSet) ([]match, error) {
	sel := sess.selected
	numSet = sess.staticNumSet(bx, numSet)
	var ms []match
	err := bx.each(func(m stored) error {
		clientSeq := sel.tracker.EncodeSeqNum(m.seq)
		var in bool
		switch set := numSet.(type) {
		case imap.SeqSet:
			in = clientSeq != 0 && set.Contains(clientSeq)
		case imap.UIDSet:
			in = set.Contains(m.uid)
		}
		if in {
			ms = append(ms, match{stored: m, clientSeq: clientSeq})
		}
		return nil
	})
	return ms, err
}

// staticNumSet returns numSet with "*" replaced by the last message's
// number, and the saved search result for "$" (RFC 5182).
func (sess *imapSession) staticNumSet(bx *box, numSet imap.NumSet) imap.NumSet {
	if imap.IsSearchRes(numSet) {
		return sess.selected.searchRes
	}
	switch set := numSet.(type) {
	case imap.SeqSet:
		set = slices.Clone(set)
		for i := range set {
			staticRange(&set[i].Start, &set[i].Stop, bx.info.count)
		}
		return set
	case imap.UIDSet:
		set = slices.Clone(set)
		last := uint32(bx.lastUID())
		for i := range set {
			staticRange((*uint32)(&set[i].Start), (*uint32)(&set[i].Stop), last)
		}
		return set
	}
	return numSet
}

// staticRange replaces a "*" (0) bound by last; "n:*" is the same range as
// "*:n", even when n is above last.
func staticRange(start, stop *uint32, last uint32) {
	dynamic := *start == 0 || *stop == 0
	if *start == 0 {
		*start = last
	}
	if *stop == 0 {
		*stop = last
	}
	if dynamic && *start > *stop {
		*start, *stop = *stop, *start
	}
}

// Fetch writes the messages that numSet names. Fetching a body without
// PEEK sets \Seen first, in its own transaction; the messages are then
// listed with the store locked, and their texts read one at a time
// without it, so that a slow client holds up no delivery.
func (sess *imapSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	sel := sess.selected
	markSeen := !sel.readOnly && slices.ContainsFunc(options.BodySection, func(bs *imap.FetchItemBodySection) bool { return !bs.Peek })
	if markSeen {
		if err := sess.setFlags(numSet, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen}}, nil); err != nil {
			return err
		}
	}
	var ms []match
	err := sess.store.view(func(tx *bbolt.Tx) error {
		bx, err := openBoxID(tx, sess.account.Name, sel.id)
		if err != nil {
			return err
		}
		ms, err = sess.matching(bx, numSet)
		return err
	})
	if err != nil {
		return err
	}
	needBody := options.Envelope || options.BodyStructure != nil || len(options.BodySection) > 0 ||
		len(options.BinarySection) > 0 || len(options.BinarySectionSize) > 0
	for _, m := range ms {
		if m.clientSeq == 0 {
			continue // the session learns of it after this command
		}
		var body []byte
		if needBody {
			if body, err = sess.store.body(sess.account.Name, sel.id, m.uid); err != nil {
				return err
			}
			if body == nil {
				continue // expunged meanwhile
			}
		}
		if err := writeFetch(w.CreateMessage(m.clientSeq), m.stored, body, options); err != nil {
			return err
		}
	}
	return nil
}

func (sess *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, _ *imap.StoreOptions) error {
	if err := sess.setFlags(numSet, flags, sess.selected.tracker); err != nil {
		return err
	}
	if flags.Silent {
		return nil
	}
	return sess.Fetch(w, numSet, &imap.FetchOptions{Flags: true})
}

// setFlags changes the flags of the messages numSet names and tells every
// session but source.
func (sess *imapSession) setFlags(numSet imap.NumSet, flags *imap.StoreFlags, source *imapserver.SessionTracker) error {
	changed := false
	err := sess.store.change(func(tx *bbolt.Tx, q *queue) error {
		bx, err := openBoxID(tx, sess.account.Name, sess.selected.id)
		if err != nil {
			return err
		}
		ms, err := sess.matching(bx, numSet)
		if err != nil {
			return err
		}
		for _, m := range ms {
			var ok bool
			if m.flags, ok = m.withFlags(flags); !ok {
				continue
			}
			if err := bx.setMeta(m.uid, m.msgMeta); err != nil {
				return err
			}
			q.flags(bx.id, m.stored, source)
			changed = true
		}
		return nil
	})
	if changed {
		sess.account.changes.broadcast()
	}
	return err
}

// Expunge removes the messages flagged \Deleted (of uids, if not nil).
// The session hears of it with the others, when it polls after the
// command.
func (sess *imapSession) Expunge(_ *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	n := 0
	err := sess.store.change(func(tx *bbolt.Tx, q *queue) error {
		bx, err := openBoxID(tx, sess.account.Name, sess.selected.id)
		if err != nil {
			return err
		}
		var gone []stored
		err = bx.each(func(m stored) error {
			if m.has(imap.FlagDeleted) && (uids == nil || uids.Contains(m.uid)) {
				gone = append(gone, m)
			}
			return nil
		})
		if err != nil {
			return err
		}
		n = len(gone)
		return expunge(bx, gone, q)
	})
	if n > 0 {
		sess.account.changes.broadcast()
	}
	return err
}

// expunge removes the messages gone, in UID order, from bx and notes the
// expunges from the last, so that each sequence number is right when it
// is told.
func expunge(bx *box, gone []stored, q *queue) error {
	for i := len(gone) - 1; i >= 0; i-- {
		if err := bx.remove(gone[i].uid); err != nil {
			return err
		}
		q.expunge(bx.id, gone[i].seq)
	}
	return bx.saveInfo()
}

func (sess *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	data, n, err := sess.copy(numSet, dest, false)
	if n > 0 {
		sess.account.changes.broadcast()
	}
	return data, err
}

// Move is COPY and EXPUNGE of the copied messages in one transaction (RFC
// 6851). The session hears of the expunges when it polls after the
// command, after the COPYUID written here.
func (sess *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	data, n, err := sess.copy(numSet, dest, true)
	if n > 0 {
		sess.account.changes.broadcast()
	}
	if err != nil {
		return err
	}
	return w.WriteCopyData(data)
}

// copy copies the messages numSet names to the mailbox dest, keeping their
// flags and dates, and with move removes them from the selected mailbox.
// n is how many it copied.
func (sess *imapSession) copy(numSet imap.NumSet, dest string, move bool) (data *imap.CopyData, n int, err error) {
	err = sess.store.change(func(tx *bbolt.Tx, q *queue) error {
		src, err := openBoxID(tx, sess.account.Name, sess.selected.id)
		if err != nil {
			return err
		}
		dst, err := openBox(tx, sess.account.Name, dest)
		if errors.Is(err, errNoMailbox) {
			return errTryCreate
		}
		if err != nil {
			return err
		}
		if dst.id == src.id {
			if move {
				return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Source and destination mailboxes are identical"}
			}
			dst = src // one record of its UIDNEXT and count
		}
		ms, err := sess.matching(src, numSet)
		if err != nil {
			return err
		}
		data = &imap.CopyData{UIDValidity: dst.id}
		moved := make([]stored, 0, len(ms))
		for _, m := range ms {
			// A value read in a write transaction may not outlive the
			// next change.
			body := bytes.Clone(src.body(m.uid))
			uid, err := dst.add(body, msgMeta{date: m.date, flags: m.flags})
			if err != nil {
				return err
			}
			q.exists(dst.id, dst.info.count)
			data.SourceUIDs.AddNum(m.uid)
			data.DestUIDs.AddNum(uid)
			moved = append(moved, m.stored)
		}
		n = len(ms)
		if err := dst.saveInfo(); err != nil {
			return err
		}
		if move {
			return expunge(src, moved, q)
		}
		return nil
	})
	return data, n, err
}

func (sess *imapSession) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, options *imap.SearchOptions) (*imap.SearchData, error) {
	var data imap.SearchData
	var seqSet imap.SeqSet
	var uidSet imap.UIDSet
	err := sess.store.view(func(tx *bbolt.Tx) error {
		bx, err := openBoxID(tx, sess.account.Name, sess.selected.id)
		if err != nil {
			return err
		}
		sess.staticSearchCriteria(bx, criteria)
		return bx.each(func(m stored) error {
			clientSeq := sess.selected.tracker.EncodeSeqNum(m.seq)
			if !matchSearch(m, clientSeq, func() []byte { return bx.body(m.uid) }, criteria) {
				return nil
			}
			uidSet.AddNum(m.uid) // kept for SEARCHRES too
			num := uint32(m.uid)
			if kind == imapserver.NumKindSeq {
				if clientSeq == 0 {
					return nil
				}
				seqSet.AddNum(clientSeq)
				num = clientSeq
			}
			if data.Min == 0 || num < data.Min {
				data.Min = num
			}
			data.Max = max(data.Max, num)
			data.Count++
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	data.All = uidSet
	if kind == imapserver.NumKindSeq {
		data.All = seqSet
	}
	if options.ReturnSave {
		sess.selected.searchRes = uidSet
	}
	return &data, nil
}

// staticSearchCriteria makes the number sets of criteria static, as
// staticNumSet does.
func (sess *imapSession) staticSearchCriteria(bx *box, criteria *imap.SearchCriteria) {
	var seqSets []imap.SeqSet
	for _, set := range criteria.SeqNum {
		switch set := sess.staticNumSet(bx, set).(type) {
		case imap.SeqSet:
			seqSets = append(seqSets, set)
		case imap.UIDSet: // "$"
			criteria.UID = append(criteria.UID, set)
		}
	}
	criteria.SeqNum = seqSets
	for i, set := range criteria.UID {
		criteria.UID[i] = sess.staticNumSet(bx, set).(imap.UIDSet)
	}
	for i := range criteria.Not {
		sess.staticSearchCriteria(bx, &criteria.Not[i])
	}
	for i := range criteria.Or {
		sess.staticSearchCriteria(bx, &criteria.Or[i][0])
		sess.staticSearchCriteria(bx, &criteria.Or[i][1])
	}
}
