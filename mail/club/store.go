package club

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"go.etcd.io/bbolt"
)

// The mail file is a bbolt database:
//
//	meta/last-uidvalidity            the last UIDVALIDITY given to a mailbox
//	accounts/NAME/names/MAILBOX      the id of the mailbox called MAILBOX
//	accounts/NAME/boxes/ID/info      UIDNEXT, message count, subscription
//	accounts/NAME/boxes/ID/meta/UID  a message's date, size and flags
//	accounts/NAME/boxes/ID/body/UID  a message's text
//
// A mailbox's id is its UIDVALIDITY. Ids come from one counter for the
// whole file that never goes back, so a mailbox deleted and created again,
// or renamed and replaced, never shows a client cached UIDs under the same
// UIDVALIDITY. Numbers are big-endian, so that UIDs sort as keys.
var (
	bucketMeta     = []byte("meta")
	bucketAccounts = []byte("accounts")
	bucketNames    = []byte("names")
	bucketBoxes    = []byte("boxes")
	bucketMsgMeta  = []byte("meta")
	bucketMsgBody  = []byte("body")
	keyLastUIDV    = []byte("last-uidvalidity")
	keyInfo        = []byte("info")
)

// mailboxDelim separates the levels of mailbox names, as in imapmemserver.
const mailboxDelim = '/'

// mailStore keeps every account's mailboxes in the mail file. Each change
// is one bbolt transaction, committed (and so synced to disk) before the
// IMAP or SMTP command that made it is answered.
type mailStore struct {
	db *bbolt.DB

	// mu keeps the sequence numbers that IMAP sessions see in step with
	// the file: a change holds it for writing from its transaction to the
	// updates it queues on the mailbox's tracker, and a command that turns
	// positions in a mailbox into sequence numbers holds it for reading.
	mu sync.RWMutex

	trackersMu sync.Mutex
	// trackers are the mailboxes that sessions have selected, by id; the
	// tracker queues the updates each of their sessions has yet to see.
	trackers map[uint32]*imapserver.MailboxTracker
}

func openMailStore(path string) (*mailStore, error) {
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
	if errors.Is(err, bbolt.ErrTimeout) {
		return nil, fmt.Errorf("club: the mail file %s is in use by another process (is another Fieldpost running in this folder?)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("club: opening the mail file %s: %w", path, err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		for _, name := range [][]byte{bucketMeta, bucketAccounts} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("club: preparing the mail file %s: %w", path, err)
	}
	return &mailStore{db: db, trackers: make(map[uint32]*imapserver.MailboxTracker)}, nil
}

func (st *mailStore) close() error { return st.db.Close() }

// ensureAccount creates the account's mailbox tree with an INBOX, unless
// the file has it already.
func (st *mailStore) ensureAccount(name string) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	err := st.db.Update(func(tx *bbolt.Tx) error {
		acct, err := tx.Bucket(bucketAccounts).CreateBucketIfNotExists([]byte(name))
		if err != nil {
			return err
		}
		for _, b := range [][]byte{bucketNames, bucketBoxes} {
			if _, err := acct.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		if acct.Bucket(bucketNames).Get([]byte("INBOX")) != nil {
			return nil
		}
		_, err = createMailbox(tx, acct, "INBOX")
		return err
	})
	if err != nil {
		return fmt.Errorf("club: creating the mailboxes of %q: %w", name, err)
	}
	return nil
}

// tracker returns the tracker of the mailbox id, made with count messages
// if no session had selected it yet. The caller holds mu for reading or
// writing, so that count is the mailbox's count.
func (st *mailStore) tracker(id, count uint32) *imapserver.MailboxTracker {
	st.trackersMu.Lock()
	defer st.trackersMu.Unlock()
	t := st.trackers[id]
	if t == nil {
		t = imapserver.NewMailboxTracker(count)
		st.trackers[id] = t
	}
	return t
}

// trackerIfAny returns the tracker of the mailbox id, or nil if no session
// ever selected it (so that nobody awaits its updates).
func (st *mailStore) trackerIfAny(id uint32) *imapserver.MailboxTracker {
	st.trackersMu.Lock()
	defer st.trackersMu.Unlock()
	return st.trackers[id]
}

func (st *mailStore) forgetTracker(id uint32) {
	st.trackersMu.Lock()
	defer st.trackersMu.Unlock()
	delete(st.trackers, id)
}

// accountBucket returns the account's bucket in tx.
func accountBucket(tx *bbolt.Tx, account string) (*bbolt.Bucket, error) {
	acct := tx.Bucket(bucketAccounts).Bucket([]byte(account))
	if acct == nil {
		return nil, fmt.Errorf("club: no mailboxes for account %q", account)
	}
	return acct, nil
}

// createMailbox makes an empty mailbox called name in the account acct,
// with a new id, and returns the id.
func createMailbox(tx *bbolt.Tx, acct *bbolt.Bucket, name string) (uint32, error) {
	id, err := nextUIDValidity(tx)
	if err != nil {
		return 0, err
	}
	box, err := acct.Bucket(bucketBoxes).CreateBucket(u32key(id))
	if err != nil {
		return 0, err
	}
	for _, b := range [][]byte{bucketMsgMeta, bucketMsgBody} {
		if _, err := box.CreateBucket(b); err != nil {
			return 0, err
		}
	}
	if err := box.Put(keyInfo, boxInfo{uidNext: 1}.encode()); err != nil {
		return 0, err
	}
	return id, acct.Bucket(bucketNames).Put([]byte(name), u32key(id))
}

// nextUIDValidity takes the next mailbox id: the current time in seconds,
// or one more than the last id if that is later. The time makes a new mail
// file (after the old one was deleted) start above the ids it handed out,
// as long as it gave fewer than one a second.
func nextUIDValidity(tx *bbolt.Tx) (uint32, error) {
	meta := tx.Bucket(bucketMeta)
	var last uint32
	if v := meta.Get(keyLastUIDV); len(v) == 4 {
		last = binary.BigEndian.Uint32(v)
	}
	if last == math.MaxUint32 {
		return 0, errors.New("club: no UIDVALIDITY left for a new mailbox")
	}
	id := max(last+1, uint32(time.Now().Unix()))
	return id, meta.Put(keyLastUIDV, u32key(id))
}

// box is a mailbox opened in a transaction.
type box struct {
	id   uint32
	b    *bbolt.Bucket
	info boxInfo
}

// boxInfo is what a mailbox keeps besides its messages.
type boxInfo struct {
	uidNext    imap.UID
	count      uint32
	subscribed bool
}

func (i boxInfo) encode() []byte {
	v := make([]byte, 9)
	binary.BigEndian.PutUint32(v, uint32(i.uidNext))
	binary.BigEndian.PutUint32(v[4:], i.count)
	if i.subscribed {
		v[8] = 1
	}
	return v
}

func decodeBoxInfo(v []byte) (boxInfo, error) {
	if len(v) != 9 {
		return boxInfo{}, fmt.Errorf("club: damaged mailbox record of %d bytes", len(v))
	}
	return boxInfo{uidNext: imap.UID(binary.BigEndian.Uint32(v)), count: binary.BigEndian.Uint32(v[4:]), subscribed: v[8] == 1}, nil
}

// The IMAP answers for a mailbox that does not exist, and for a selected
// mailbox that another session deleted.
var (
	errNoMailbox  = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "No such mailbox"}
	errBoxDeleted = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "The mailbox was deleted"}
)

// openBox opens the account's mailbox called name.
func openBox(tx *bbolt.Tx, account, name string) (*box, error) {
	acct, err := accountBucket(tx, account)
	if err != nil {
		return nil, err
	}
	id := acct.Bucket(bucketNames).Get([]byte(name))
	if id == nil {
		return nil, errNoMailbox
	}
	return openBoxID(tx, account, binary.BigEndian.Uint32(id))
}

// openBoxID opens the account's mailbox with the given id, which the
// session that selected it keeps across a RENAME.
func openBoxID(tx *bbolt.Tx, account string, id uint32) (*box, error) {
	acct, err := accountBucket(tx, account)
	if err != nil {
		return nil, err
	}
	b := acct.Bucket(bucketBoxes).Bucket(u32key(id))
	if b == nil {
		return nil, errBoxDeleted
	}
	info, err := decodeBoxInfo(b.Get(keyInfo))
	if err != nil {
		return nil, err
	}
	return &box{id: id, b: b, info: info}, nil
}

func (bx *box) saveInfo() error { return bx.b.Put(keyInfo, bx.info.encode()) }

// add stores a message with the next UID and returns that UID. The caller
// saves the info afterwards.
func (bx *box) add(body []byte, m msgMeta) (imap.UID, error) {
	uid := bx.info.uidNext
	m.size = int64(len(body))
	if err := bx.b.Bucket(bucketMsgMeta).Put(u32key(uint32(uid)), m.encode()); err != nil {
		return 0, err
	}
	if err := bx.b.Bucket(bucketMsgBody).Put(u32key(uint32(uid)), body); err != nil {
		return 0, err
	}
	bx.info.uidNext++
	bx.info.count++
	return uid, nil
}

// remove deletes the message uid. The caller saves the info afterwards.
func (bx *box) remove(uid imap.UID) error {
	if err := bx.b.Bucket(bucketMsgMeta).Delete(u32key(uint32(uid))); err != nil {
		return err
	}
	if err := bx.b.Bucket(bucketMsgBody).Delete(u32key(uint32(uid))); err != nil {
		return err
	}
	bx.info.count--
	return nil
}

func (bx *box) setMeta(uid imap.UID, m msgMeta) error {
	return bx.b.Bucket(bucketMsgMeta).Put(u32key(uint32(uid)), m.encode())
}

// body returns the text of the message uid, valid until the transaction
// ends, or nil if there is no such message.
func (bx *box) body(uid imap.UID) []byte {
	return bx.b.Bucket(bucketMsgBody).Get(u32key(uint32(uid)))
}

// stored is a message as listed from a mailbox: its position (the
// sequence number the server sees), UID and metadata.
type stored struct {
	seq uint32
	uid imap.UID
	msgMeta
}

// each calls fn with every message of the mailbox, in UID order.
func (bx *box) each(fn func(m stored) error) error {
	c := bx.b.Bucket(bucketMsgMeta).Cursor()
	seq := uint32(0)
	for k, v := c.First(); k != nil; k, v = c.Next() {
		seq++
		m, err := decodeMsgMeta(v)
		if err != nil {
			return fmt.Errorf("club: message %d of mailbox %d: %w", binary.BigEndian.Uint32(k), bx.id, err)
		}
		if err := fn(stored{seq: seq, uid: imap.UID(binary.BigEndian.Uint32(k)), msgMeta: m}); err != nil {
			return err
		}
	}
	return nil
}

// lastUID returns the highest UID in the mailbox, 0 when it is empty.
func (bx *box) lastUID() imap.UID {
	k, _ := bx.b.Bucket(bucketMsgMeta).Cursor().Last()
	if k == nil {
		return 0
	}
	return imap.UID(binary.BigEndian.Uint32(k))
}

// msgMeta is what the store keeps of a message besides its text.
type msgMeta struct {
	date  time.Time
	size  int64
	flags []imap.Flag // canonical, see canonicalFlag
}

// encode writes the date in Unix nanoseconds and the size, 8 bytes each,
// then the flags separated by spaces (a flag is an atom: it has none).
func (m msgMeta) encode() []byte {
	v := make([]byte, 16, 16+len(m.flags)*8)
	binary.BigEndian.PutUint64(v, uint64(m.date.UnixNano()))
	binary.BigEndian.PutUint64(v[8:], uint64(m.size))
	for i, f := range m.flags {
		if i > 0 {
			v = append(v, ' ')
		}
		v = append(v, f...)
	}
	return v
}

func decodeMsgMeta(v []byte) (msgMeta, error) {
	if len(v) < 16 {
		return msgMeta{}, fmt.Errorf("damaged message record of %d bytes", len(v))
	}
	m := msgMeta{
		date: time.Unix(0, int64(binary.BigEndian.Uint64(v))),
		size: int64(binary.BigEndian.Uint64(v[8:])),
	}
	if len(v) > 16 {
		for f := range strings.SplitSeq(string(v[16:]), " ") {
			m.flags = append(m.flags, imap.Flag(f))
		}
	}
	return m, nil
}

func (m msgMeta) has(flag imap.Flag) bool {
	return slices.Contains(m.flags, canonicalFlag(flag))
}

// withFlags returns the flags after a STORE, sorted, and whether they
// changed.
func (m msgMeta) withFlags(store *imap.StoreFlags) ([]imap.Flag, bool) {
	var flags []imap.Flag
	if store.Op != imap.StoreFlagsSet {
		flags = slices.Clone(m.flags)
	}
	for _, f := range store.Flags {
		f = canonicalFlag(f)
		if store.Op == imap.StoreFlagsDel {
			flags = slices.DeleteFunc(flags, func(have imap.Flag) bool { return have == f })
		} else if !slices.Contains(flags, f) {
			flags = append(flags, f)
		}
	}
	slices.Sort(flags)
	return flags, !slices.Equal(flags, m.flags)
}

// canonicalFlag writes the system flags as RFC 3501 does and keywords in
// lower case, since flags compare without regard to case.
func canonicalFlag(flag imap.Flag) imap.Flag {
	for _, f := range []imap.Flag{imap.FlagSeen, imap.FlagAnswered, imap.FlagFlagged, imap.FlagDeleted, imap.FlagDraft} {
		if strings.EqualFold(string(flag), string(f)) {
			return f
		}
	}
	return imap.Flag(strings.ToLower(string(flag)))
}

// canonicalFlags returns flags canonical, sorted and without repeats.
func canonicalFlags(flags []imap.Flag) []imap.Flag {
	var out []imap.Flag
	for _, f := range flags {
		if f = canonicalFlag(f); !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

func u32key(n uint32) []byte { return binary.BigEndian.AppendUint32(nil, n) }

// change runs fn in a write transaction and, once it is committed, queues
// the tracker updates fn noted. mu is held throughout, so that sessions
// learn of changes in the order of the file.
func (st *mailStore) change(fn func(tx *bbolt.Tx, q *queue) error) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	q := &queue{st: st}
	if err := st.db.Update(func(tx *bbolt.Tx) error {
		q.updates = q.updates[:0]
		return fn(tx, q)
	}); err != nil {
		return err
	}
	for _, u := range q.updates {
		u()
	}
	return nil
}

// view runs fn in a read transaction, with mu held for reading so that no
// change comes between what fn reads and the trackers' state.
func (st *mailStore) view(fn func(tx *bbolt.Tx) error) error {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.db.View(fn)
}

// body returns a copy of the text of a message, or nil when the message or
// its mailbox is gone.
func (st *mailStore) body(account string, id uint32, uid imap.UID) ([]byte, error) {
	var body []byte
	err := st.db.View(func(tx *bbolt.Tx) error {
		bx, err := openBoxID(tx, account, id)
		if err != nil {
			if errors.Is(err, errBoxDeleted) {
				return nil
			}
			return err
		}
		body = bytes.Clone(bx.body(uid))
		return nil
	})
	return body, err
}

// queue collects the updates a change makes to mailboxes that sessions
// may have selected, in the order they are to be told.
type queue struct {
	st      *mailStore
	updates []func()
}

// exists notes that the mailbox id now has count messages.
func (q *queue) exists(id, count uint32) {
	q.updates = append(q.updates, func() {
		if t := q.st.trackerIfAny(id); t != nil {
			t.QueueNumMessages(count)
		}
	})
}

// expunge notes that the message at seq left the mailbox id.
func (q *queue) expunge(id, seq uint32) {
	q.updates = append(q.updates, func() {
		if t := q.st.trackerIfAny(id); t != nil {
			t.QueueExpunge(seq)
		}
	})
}

// flags notes a message's new flags, for every session but source.
func (q *queue) flags(id uint32, m stored, source *imapserver.SessionTracker) {
	q.updates = append(q.updates, func() {
		if t := q.st.trackerIfAny(id); t != nil {
			t.QueueMessageFlags(m.seq, m.uid, m.flags, source)
		}
	})
}
