package mail

import (
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
)

// mailboxState is what Run remembers about the watched mailbox across
// connections.
type mailboxState struct {
	uidValidity uint32
	// lastUID is the highest UID fetched; newer messages have higher UIDs.
	lastUID imap.UID
	// retries holds the messages at or below lastUID still in the mailbox
	// because handling or moving them failed.
	retries map[imap.UID]*retryState
}

type retryState struct {
	attempts  int
	notBefore time.Time
	// handled is set once the handler succeeded: only the move to the
	// mailbox moveTo is left to do, the handler is not called again.
	handled bool
	moveTo  string
}

// useUIDValidity records the UIDVALIDITY of a newly selected mailbox. When
// it changed, the UIDs remembered are meaningless and are forgotten, so
// that every message in the mailbox is fetched again.
func (st *mailboxState) useUIDValidity(v uint32) (changed bool) {
	changed = st.uidValidity != 0 && st.uidValidity != v
	if changed {
		st.lastUID = 0
		clear(st.retries)
	}
	st.uidValidity = v
	return changed
}

// fail records a failed attempt on uid and schedules the next one.
func (st *mailboxState) fail(uid imap.UID, first, last time.Duration) *retryState {
	r := st.retries[uid]
	if r == nil {
		r = &retryState{}
		st.retries[uid] = r
	}
	r.attempts++
	r.notBefore = time.Now().Add(backoff(r.attempts, first, last))
	return r
}

// due returns the UIDs whose retry time has come, in ascending order.
func (st *mailboxState) due(now time.Time) []imap.UID {
	var uids []imap.UID
	for uid, r := range st.retries {
		if !r.notBefore.After(now) {
			uids = append(uids, uid)
		}
	}
	slices.Sort(uids)
	return uids
}

// nextRetry returns the earliest scheduled retry.
func (st *mailboxState) nextRetry() (time.Time, bool) {
	var next time.Time
	for _, r := range st.retries {
		if next.IsZero() || r.notBefore.Before(next) {
			next = r.notBefore
		}
	}
	return next, !next.IsZero()
}
