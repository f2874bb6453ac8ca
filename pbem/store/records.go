package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"iter"
	"slices"
	"time"

	"go.etcd.io/bbolt"
)

// The collections. A getter decodes a record into v and reports whether
// there was one; a put encodes v as JSON; an iterator yields the records
// in key order and must not be mixed with deletes of the same collection
// (collect the keys, then delete).

// records yields a bucket's keys and values; nothing when b is nil.
func records(b *bbolt.Bucket) iter.Seq2[[]byte, []byte] {
	return func(yield func(k, v []byte) bool) {
		if b == nil {
			return
		}
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if !yield(k, v) {
				return
			}
		}
	}
}

// byName yields a bucket's records by their keys as strings.
func byName(b *bbolt.Bucket) iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) {
		for k, v := range records(b) {
			if !yield(string(k), v) {
				return
			}
		}
	}
}

// bySequence yields a bucket's records keyed by sequence number.
func bySequence(b *bbolt.Bucket) iter.Seq2[uint64, Value] {
	return func(yield func(uint64, Value) bool) {
		for k, v := range records(b) {
			if !yield(binary.BigEndian.Uint64(k), v) {
				return
			}
		}
	}
}

// Games: a game's record by its id.

// Game reads a game's record into v.
func (t *Tx) Game(id string, v any) (bool, error) {
	return getJSON(t.tx.Bucket(bucketGames), []byte(id), v)
}

// PutGame stores a game's record.
func (t *Tx) PutGame(id string, v any) error {
	return putJSON(t.tx.Bucket(bucketGames), []byte(id), v)
}

// Games yields every game's record by its id, in id order.
func (t *Tx) Games() iter.Seq2[string, Value] {
	return byName(t.tx.Bucket(bucketGames))
}

// States: a game's position at the start of each turn, as its game system
// wrote it, stored packed.

// State returns the position of a game at the start of a turn, nil when
// none is stored.
func (t *Tx) State(game string, turn int) ([]byte, error) {
	if b := t.gameBucket(bucketStates, game); b != nil {
		if v := b.Get(turnKey(turn)); v != nil {
			return unpack(v)
		}
	}
	return nil, nil
}

// PutState stores a game's position at the start of a turn.
func (t *Tx) PutState(game string, turn int, raw []byte) error {
	b, err := t.newGameBucket(bucketStates, game)
	if err != nil {
		return err
	}
	return b.Put(turnKey(turn), pack(raw))
}

// DeleteState forgets a game's position at a turn.
func (t *Tx) DeleteState(game string, turn int) error {
	b, err := t.newGameBucket(bucketStates, game)
	if err != nil {
		return err
	}
	return b.Delete(turnKey(turn))
}

// Rounds: how the round played from a game's turn went, stored packed.

// Round reads the record of the round played from a game's turn into v.
func (t *Tx) Round(game string, turn int, v any) (bool, error) {
	return getPackedJSON(t.gameBucket(bucketRounds, game), turnKey(turn), v)
}

// PutRound stores the record of the round played from a game's turn.
func (t *Tx) PutRound(game string, turn int, v any) error {
	b, err := t.newGameBucket(bucketRounds, game)
	if err != nil {
		return err
	}
	return putPackedJSON(b, turnKey(turn), v)
}

// DeleteRound forgets the record of the round played from a turn.
func (t *Tx) DeleteRound(game string, turn int) error {
	b, err := t.newGameBucket(bucketRounds, game)
	if err != nil {
		return err
	}
	return b.Delete(turnKey(turn))
}

// TurnBytes is what a game's turn costs the store: its position and its
// round's record, as stored (packed).
func (t *Tx) TurnBytes(game string, turn int) int {
	n := 0
	for _, parent := range [][]byte{bucketStates, bucketRounds} {
		if b := t.gameBucket(parent, game); b != nil {
			n += len(b.Get(turnKey(turn)))
		}
	}
	return n
}

// CopyHistory copies a game's positions and round records, as stored, to
// another game.
func (t *Tx) CopyHistory(from, to string) error {
	for _, parent := range [][]byte{bucketStates, bucketRounds} {
		src := t.gameBucket(parent, from)
		if src == nil {
			continue
		}
		dst, err := t.newGameBucket(parent, to)
		if err != nil {
			return err
		}
		if err := src.ForEach(func(k, v []byte) error { return dst.Put(k, v) }); err != nil {
			return err
		}
	}
	return nil
}

// Submissions: a side's latest orders for a game's turn.

// Submission reads a side's orders for a game's turn into v.
func (t *Tx) Submission(game string, turn int, side string, v any) (bool, error) {
	return getJSON(t.gameBucket(bucketSubmissions, game), submissionKey(turn, side), v)
}

// PutSubmission stores a side's orders for a game's turn.
func (t *Tx) PutSubmission(game string, turn int, side string, v any) error {
	b, err := t.newGameBucket(bucketSubmissions, game)
	if err != nil {
		return err
	}
	return putJSON(b, submissionKey(turn, side), v)
}

// DeleteSubmissions forgets every side's orders for a turn.
func (t *Tx) DeleteSubmissions(game string, turn int) error {
	b, err := t.newGameBucket(bucketSubmissions, game)
	if err != nil {
		return err
	}
	prefix := turnKey(turn)
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, slices.Clone(k))
	}
	return deleteKeys(b, keys)
}

// Tokens: the hash of a player's secret -> its game and side.

// TokenOwner returns the game and side a secret's hash belongs to.
func (t *Tx) TokenOwner(hash string) (game, side string, found bool) {
	v := t.tx.Bucket(bucketTokens).Get([]byte(hash))
	if v == nil {
		return "", "", false
	}
	g, sd, _ := bytes.Cut(v, []byte{0})
	return string(g), string(sd), true
}

// PutToken gives a secret's hash to a game's side.
func (t *Tx) PutToken(hash, game, side string) error {
	return t.tx.Bucket(bucketTokens).Put([]byte(hash), joinKey(game, side))
}

// DeleteToken forgets a secret's hash: the secret no longer works.
func (t *Tx) DeleteToken(hash string) error {
	return t.tx.Bucket(bucketTokens).Delete([]byte(hash))
}

// Processed mail: the dedupe key of every inbound mail handled, and when.

// Processed reports whether the mail with this dedupe key was handled.
func (t *Tx) Processed(key string) bool {
	return t.tx.Bucket(bucketProcessed).Get([]byte(key)) != nil
}

// MarkProcessed records that the mail with this dedupe key was handled
// at a time.
func (t *Tx) MarkProcessed(key string, at time.Time) error {
	return t.tx.Bucket(bucketProcessed).Put([]byte(key), binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano())))
}

// PruneProcessed forgets the mails handled before a time and returns how
// many.
func (t *Tx) PruneProcessed(before time.Time) (int, error) {
	b := t.tx.Bucket(bucketProcessed)
	var old [][]byte
	for k, v := range records(b) {
		if len(v) == 8 && int64(binary.BigEndian.Uint64(v)) < before.UnixNano() {
			old = append(old, slices.Clone(k))
		}
	}
	return len(old), deleteKeys(b, old)
}

// The outbox: the mails to send, each a record and its composed message,
// by sequence number, the first queued first.

// Queue adds a mail to the outbox.
func (t *Tx) Queue(v any, message []byte) error {
	b := t.tx.Bucket(bucketOutbox)
	seq, err := b.NextSequence()
	if err != nil {
		return fmt.Errorf("outbox sequence: %w", err)
	}
	key := seqKey(seq)
	if err := putJSON(b, key, v); err != nil {
		return err
	}
	if err := t.tx.Bucket(bucketOutboxData).Put(key, message); err != nil {
		return fmt.Errorf("queueing mail: %w", err)
	}
	return nil
}

// Queued yields the outbox's records, the first queued first.
func (t *Tx) Queued() iter.Seq2[uint64, Value] {
	return bySequence(t.tx.Bucket(bucketOutbox))
}

// QueuedMessage returns a copy of a queued mail's message.
func (t *Tx) QueuedMessage(seq uint64) []byte {
	return slices.Clone(t.tx.Bucket(bucketOutboxData).Get(seqKey(seq)))
}

// PutQueued replaces a queued mail's record.
func (t *Tx) PutQueued(seq uint64, v any) error {
	return putJSON(t.tx.Bucket(bucketOutbox), seqKey(seq), v)
}

// Dequeue removes a mail from the outbox.
func (t *Tx) Dequeue(seq uint64) error {
	if err := t.tx.Bucket(bucketOutbox).Delete(seqKey(seq)); err != nil {
		return err
	}
	return t.tx.Bucket(bucketOutboxData).Delete(seqKey(seq))
}

// Sent mail: whom each mail queued was for, by its Message-ID.

// Sent reads the record of the mail queued with a Message-ID into v.
func (t *Tx) Sent(messageID string, v any) (bool, error) {
	return getJSON(t.tx.Bucket(bucketSent), []byte(messageID), v)
}

// PutSent stores whom the mail queued with a Message-ID was for.
func (t *Tx) PutSent(messageID string, v any) error {
	return putJSON(t.tx.Bucket(bucketSent), []byte(messageID), v)
}

// EverySent yields the sent mails' records by Message-ID.
func (t *Tx) EverySent() iter.Seq2[string, Value] {
	return byName(t.tx.Bucket(bucketSent))
}

// DeleteSent forgets a sent mail's record.
func (t *Tx) DeleteSent(messageID string) error {
	return t.tx.Bucket(bucketSent).Delete([]byte(messageID))
}

// Rate limits: a limit's window, by the limit's kind and whom it limits.

// LimitKey names a limit's window.
type LimitKey struct{ Kind, Who string }

// Limit reads a limit's window into v.
func (t *Tx) Limit(k LimitKey, v any) (bool, error) {
	return getJSON(t.tx.Bucket(bucketLimits), joinKey(k.Kind, k.Who), v)
}

// PutLimit stores a limit's window.
func (t *Tx) PutLimit(k LimitKey, v any) error {
	return putJSON(t.tx.Bucket(bucketLimits), joinKey(k.Kind, k.Who), v)
}

// Limits yields every limit's window.
func (t *Tx) Limits() iter.Seq2[LimitKey, Value] {
	return func(yield func(LimitKey, Value) bool) {
		for k, v := range records(t.tx.Bucket(bucketLimits)) {
			kind, who, _ := bytes.Cut(k, []byte{0})
			if !yield(LimitKey{string(kind), string(who)}, v) {
				return
			}
		}
	}
}

// DeleteLimit forgets a limit's window.
func (t *Tx) DeleteLimit(k LimitKey) error {
	return t.tx.Bucket(bucketLimits).Delete(joinKey(k.Kind, k.Who))
}

// Table talk: a game's messages, by sequence number, the first first.

// AddTalk adds a message to a game's table talk.
func (t *Tx) AddTalk(game string, v any) error {
	b, err := t.newGameBucket(bucketTalk, game)
	if err != nil {
		return err
	}
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	return putJSON(b, seqKey(seq), v)
}

// Talk yields a game's table talk, the first first.
func (t *Tx) Talk(game string) iter.Seq2[uint64, Value] {
	return bySequence(t.gameBucket(bucketTalk, game))
}

// Pending address changes, by the hash of their confirmation code.

// Pending reads the address change waiting for a code (its hash) into v.
func (t *Tx) Pending(hash string, v any) (bool, error) {
	return getJSON(t.tx.Bucket(bucketPending), []byte(hash), v)
}

// PutPending stores an address change waiting for a code (its hash).
func (t *Tx) PutPending(hash string, v any) error {
	return putJSON(t.tx.Bucket(bucketPending), []byte(hash), v)
}

// DeletePending forgets an address change.
func (t *Tx) DeletePending(hash string) error {
	return t.tx.Bucket(bucketPending).Delete([]byte(hash))
}

// Ratings: the club ladder, by address.

// Rating reads an address's place on the ladder into v.
func (t *Tx) Rating(address string, v any) (bool, error) {
	return getJSON(t.tx.Bucket(bucketRatings), []byte(address), v)
}

// PutRating stores an address's place on the ladder.
func (t *Tx) PutRating(address string, v any) error {
	return putJSON(t.tx.Bucket(bucketRatings), []byte(address), v)
}

// Ratings yields every rated address's record.
func (t *Tx) Ratings() iter.Seq2[string, Value] {
	return byName(t.tx.Bucket(bucketRatings))
}

// Mails in hand: a record for each mail being handled, by its dedupe key.

// InHand reads the record of a mail in hand into v.
func (t *Tx) InHand(key string, v any) (bool, error) {
	return getJSON(t.tx.Bucket(bucketInHand), []byte(key), v)
}

// PutInHand stores the record of a mail in hand.
func (t *Tx) PutInHand(key string, v any) error {
	b, err := t.tx.CreateBucketIfNotExists(bucketInHand)
	if err != nil {
		return err
	}
	return putJSON(b, []byte(key), v)
}

// DeleteInHand forgets the record of a mail in hand (none is fine).
func (t *Tx) DeleteInHand(key string) error {
	b := t.tx.Bucket(bucketInHand)
	if b == nil {
		return nil
	}
	return b.Delete([]byte(key))
}

// Mails set aside: delivered mails the judge could not read, by an id.

// SetAside keeps a mail aside under id with its description v, unless a
// mail is kept under id already (again).
func (t *Tx) SetAside(id string, v any, message []byte) (again bool, err error) {
	b, err := t.tx.CreateBucketIfNotExists(bucketSetAside)
	if err != nil {
		return false, err
	}
	data, err := t.tx.CreateBucketIfNotExists(bucketSetAsideData)
	if err != nil {
		return false, err
	}
	if b.Get([]byte(id)) != nil {
		return true, nil
	}
	if err := putJSON(b, []byte(id), v); err != nil {
		return false, err
	}
	return false, data.Put([]byte(id), message)
}

// SetAsideMails yields the descriptions of the mails set aside, by id.
func (t *Tx) SetAsideMails() iter.Seq2[string, Value] {
	return byName(t.tx.Bucket(bucketSetAside))
}

// SetAsideMessage returns a copy of a mail set aside, nil when there is
// none of that id.
func (t *Tx) SetAsideMessage(id string) []byte {
	b := t.tx.Bucket(bucketSetAsideData)
	if b == nil {
		return nil
	}
	return slices.Clone(b.Get([]byte(id)))
}

// Each calls fn with every key and value stored, in every collection
// (named as its bucket), nested ones too (a nested bucket's key with a
// nil value, then its records): to measure the store, and for tests that
// look for what must never be stored.
func (t *Tx) Each(fn func(collection string, key, value []byte) error) error {
	return t.tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
		var walk func(b *bbolt.Bucket) error
		walk = func(b *bbolt.Bucket) error {
			return b.ForEach(func(k, v []byte) error {
				if err := fn(string(name), k, v); err != nil {
					return err
				}
				if v == nil {
					return walk(b.Bucket(k))
				}
				return nil
			})
		}
		return walk(b)
	})
}
