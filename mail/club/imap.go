package club

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"go.etcd.io/bbolt"
)

// newIMAPServer returns the IMAP server over the mail file.
func (s *Server) newIMAPServer() *imapserver.Server {
	log := s.log.With("protocol", "imap")
	return imapserver.New(&imapserver.Options{
		NewSession: func(conn *imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &imapSession{server: s, store: s.store, log: log.With("remote", conn.NetConn().RemoteAddr().String())}, nil, nil
		},
		// The set the judge's intake and common mail programs use; MOVE and
		// UIDPLUS spare the judge a COPY, STORE and EXPUNGE per message.
		Caps: imap.CapSet{
			imap.CapIMAP4rev1: {},
			imap.CapNamespace: {},
			imap.CapMove:      {},
			imap.CapUIDPlus:   {},
		},
		// There is no TLS at all (see the package documentation): without
		// this no client could log in.
		InsecureAuth: true,
		Logger:       slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	})
}

// imapSession is one IMAP connection. Its commands read and change the
// mail file (see mailStore); every change is committed before the command
// is answered, and wakes the account's idling connections.
type imapSession struct {
	server   *Server
	store    *mailStore
	log      *slog.Logger
	account  *account   // nil until Login
	selected *selection // nil unless a mailbox is selected
}

var (
	_ imapserver.SessionIMAP4rev2   = (*imapSession)(nil)
	_ imapserver.SessionAppendLimit = (*imapSession)(nil)
)

// selection is the selected mailbox of a session.
type selection struct {
	id        uint32 // the mailbox's id, which a RENAME keeps
	readOnly  bool
	tracker   *imapserver.SessionTracker
	searchRes imap.UIDSet // the saved result of SEARCH ... RETURN (SAVE)
}

// match is a message of the selected mailbox that a command names, with
// the sequence number its session knows it by (0 if the session has not
// been told of it yet).
type match struct {
	stored
	clientSeq uint32
}

// Login checks the credentials against the club's accounts, by name or
// address.
func (sess *imapSession) Login(username, password string) error {
	a := sess.server.authenticate(username, password)
	if a == nil {
		sess.log.Warn("IMAP login failed", "user", username)
		return imapserver.ErrAuthFailed
	}
	sess.account = a
	sess.log.Debug("IMAP login", "account", a.Name)
	return nil
}

// Close ends the session. It leaves selected as it is: an IDLE still
// winding down on its own goroutine may read it (the tracker is safe to
// close under it).
func (sess *imapSession) Close() error {
	if sess.selected != nil {
		sess.selected.tracker.Close()
	}
	return nil
}

// AppendLimit applies the message size limit to APPEND as well.
func (sess *imapSession) AppendLimit() uint32 {
	return uint32(min(sess.server.cfg.MaxMessageSize, math.MaxUint32))
}

func (sess *imapSession) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Delim: mailboxDelim}}}, nil
}

// systemFlags are the flags every mailbox offers.
var systemFlags = []imap.Flag{imap.FlagAnswered, imap.FlagDeleted, imap.FlagDraft, imap.FlagFlagged, imap.FlagSeen}

func (sess *imapSession) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	var data *imap.SelectData
	err := sess.store.view(func(tx *bbolt.Tx) error {
		bx, err := openBox(tx, sess.account.Name, name)
		if err != nil {
			return err
		}
		data = &imap.SelectData{NumMessages: bx.info.count, UIDNext: bx.info.uidNext, UIDValidity: bx.id}
		flags := slices.Clone(systemFlags)
		err = bx.each(func(m stored) error {
			if data.FirstUnseenSeqNum == 0 && !m.has(imap.FlagSeen) {
				data.FirstUnseenSeqNum = m.seq
			}
			for _, f := range m.flags {
				if !slices.Contains(flags, f) {
					flags = append(flags, f)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		data.Flags = flags
		data.PermanentFlags = append(slices.Clone(flags), imap.FlagWildcard)
		sess.selected = &selection{id: bx.id, readOnly: options.ReadOnly, tracker: sess.store.tracker(bx.id, bx.info.count).NewSession()}
		return nil
	})
	return data, err
}

func (sess *imapSession) Unselect() error {
	sess.selected.tracker.Close()
	sess.selected = nil
	return nil
}

func (sess *imapSession) Create(name string, _ *imap.CreateOptions) error {
	name = strings.TrimRight(name, string(mailboxDelim))
	if name == "" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "A mailbox needs a name"}
	}
	return sess.store.change(func(tx *bbolt.Tx, _ *queue) error {
		acct, err := accountBucket(tx, sess.account.Name)
		if err != nil {
			return err
		}
		if acct.Bucket(bucketNames).Get([]byte(name)) != nil {
			return errMailboxExists
		}
		_, err = createMailbox(tx, acct, name)
		return err
	})
}

var errMailboxExists = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}

// Delete deletes a mailbox and its messages. INBOX cannot be deleted (RFC
// 3501, 6.3.4): deliveries need it.
func (sess *imapSession) Delete(name string) error {
	if name == "INBOX" { // the parser writes INBOX in upper case
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be deleted"}
	}
	var id uint32
	err := sess.store.change(func(tx *bbolt.Tx, _ *queue) error {
		bx, err := openBox(tx, sess.account.Name, name)
		if err != nil {
			return err
		}
		id = bx.id
		acct, err := accountBucket(tx, sess.account.Name)
		if err != nil {
			return err
		}
		if err := acct.Bucket(bucketNames).Delete([]byte(name)); err != nil {
			return err
		}
		return acct.Bucket(bucketBoxes).DeleteBucket(u32key(id))
	})
	if err == nil {
		sess.store.forgetTracker(id)
	}
	return err
}

// Rename renames a mailbox and the mailboxes below it; they keep their
// UIDVALIDITY, since their messages keep their UIDs. INBOX cannot be
// renamed: RFC 3501 (6.3.5) wants its messages moved to the new mailbox
// and INBOX left empty, which this server does not do.
func (sess *imapSession) Rename(oldName, newName string, _ *imap.RenameOptions) error {
	if oldName == "INBOX" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be renamed on this server"}
	}
	newName = strings.TrimRight(newName, string(mailboxDelim))
	return sess.store.change(func(tx *bbolt.Tx, _ *queue) error {
		acct, err := accountBucket(tx, sess.account.Name)
		if err != nil {
			return err
		}
		names := acct.Bucket(bucketNames)
		if names.Get([]byte(oldName)) == nil {
			return errNoMailbox
		}
		renames := map[string]string{oldName: newName}
		prefix := oldName + string(mailboxDelim)
		err = names.ForEach(func(k, _ []byte) error {
			if rest, ok := strings.CutPrefix(string(k), prefix); ok {
				renames[string(k)] = newName + string(mailboxDelim) + rest
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, to := range renames {
			if names.Get([]byte(to)) != nil {
				return errMailboxExists
			}
		}
		for from, to := range renames {
			id := bytes.Clone(names.Get([]byte(from)))
			if err := names.Delete([]byte(from)); err != nil {
				return err
			}
			if err := names.Put([]byte(to), id); err != nil {
				return err
			}
		}
		return nil
	})
}

func (sess *imapSession) Subscribe(name string) error   { return sess.setSubscribed(name, true) }
func (sess *imapSession) Unsubscribe(name string) error { return sess.setSubscribed(name, false) }

func (sess *imapSession) setSubscribed(name string, subscribed bool) error {
	return sess.store.change(func(tx *bbolt.Tx, _ *queue) error {
		bx, err := openBox(tx, sess.account.Name, name)
		if err != nil {
			return err
		}
		bx.info.subscribed = subscribed
		return bx.saveInfo()
	})
}

func (sess *imapSession) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: mailboxDelim})
	}
	var list []imap.ListData
	err := sess.store.db.View(func(tx *bbolt.Tx) error {
		acct, err := accountBucket(tx, sess.account.Name)
		if err != nil {
			return err
		}
		return acct.Bucket(bucketNames).ForEach(func(k, _ []byte) error {
			name := string(k)
			if !slices.ContainsFunc(patterns, func(p string) bool { return imapserver.MatchList(name, mailboxDelim, ref, p) }) {
				return nil
			}
			bx, err := openBox(tx, sess.account.Name, name)
			if err != nil {
				return err
			}
			// No mailbox has a special use.
			if (options.SelectSubscribed && !bx.info.subscribed) || options.SelectSpecialUse {
				return nil
			}
			data := imap.ListData{Mailbox: name, Delim: mailboxDelim}
			if bx.info.subscribed {
				data.Attrs = append(data.Attrs, imap.MailboxAttrSubscribed)
			}
			if options.ReturnStatus != nil {
				if data.Status, err = statusData(bx, name, options.ReturnStatus); err != nil {
					return err
				}
			}
			list = append(list, data)
			return nil
		})
	})
	if err != nil {
		return err
	}
	for i := range list {
		if err := w.WriteList(&list[i]); err != nil {
			return err
		}
	}
	return nil
}

func (sess *imapSession) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	var data *imap.StatusData
	err := sess.store.db.View(func(tx *bbolt.Tx) error {
		bx, err := openBox(tx, sess.account.Name, name)
		if err != nil {
			return err
		}
		data, err = statusData(bx, name, options)
		return err
	})
	return data, err
}

func statusData(bx *box, name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	data := &imap.StatusData{Mailbox: name}
	if options.NumMessages {
		data.NumMessages = &bx.info.count
	}
	if options.UIDNext {
		data.UIDNext = bx.info.uidNext
	}
	if options.UIDValidity {
		data.UIDValidity = bx.id
	}
	if options.NumRecent { // there is no \Recent (IMAP4rev2 dropped it)
		data.NumRecent = new(uint32)
	}
	if !options.NumUnseen && !options.NumDeleted && !options.Size {
		return data, nil
	}
	var unseen, deleted uint32
	var size int64
	err := bx.each(func(m stored) error {
		if !m.has(imap.FlagSeen) {
			unseen++
		}
		if m.has(imap.FlagDeleted) {
			deleted++
		}
		size += m.size
		return nil
	})
	if options.NumUnseen {
		data.NumUnseen = &unseen
	}
	if options.NumDeleted {
		data.NumDeleted = &deleted
	}
	if options.Size {
		data.Size = &size
	}
	return data, err
}

// errTryCreate answers a command whose destination mailbox is missing.
var errTryCreate = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}

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

func (sess *imapSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	if sess.selected == nil {
		return nil
	}
	return sess.selected.tracker.Poll(w, allowExpunge)
}

// Idle reports the selected mailbox's changes until stop is closed.
//
// It first reports what is pending, so that a message delivered between a
// client's last command and its IDLE is announced at once, then waits for
// the account's change signal, which every delivery and every command that
// changes a mailbox raises. The signal is taken before polling, so a
// change during the poll wakes the next round rather than being missed.
func (sess *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for {
		changed := sess.account.changes.next()
		if err := sess.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-changed:
		}
	}
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

// changeSignal wakes the IDLE commands of one account when one of its
// mailboxes may have changed. Waiters take the current channel with next;
// broadcast closes it, waking them all, and the next call to next makes a
// new one.
type changeSignal struct {
	mu sync.Mutex
	ch chan struct{}
}

func (c *changeSignal) next() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ch == nil {
		c.ch = make(chan struct{})
	}
	return c.ch
}

func (c *changeSignal) broadcast() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ch != nil {
		close(c.ch)
		c.ch = nil
	}
}
