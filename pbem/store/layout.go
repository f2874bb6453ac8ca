package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"go.etcd.io/bbolt"
)

// The buckets, layout "1". Games are keyed by their id; the per-game
// buckets (states, rounds, submissions, talk) hold one nested bucket per
// game. Values are JSON unless said otherwise.
var (
	// settings: "schema" (the layout version) and "key-check" (a MAC that
	// tells whether the server key matches the one the secrets came from).
	bucketSettings = []byte("settings")
	// games: game id -> game.
	bucketGames = []byte("games")
	// tokens: hex SHA-256 of a player's secret -> game id, NUL, side. The
	// secret itself is never stored.
	bucketTokens = []byte("tokens")
	// states: game id -> turn (4 bytes, big-endian) -> the position at the
	// start of that turn, as its game system wrote it, packed (pack.go).
	bucketStates = []byte("states")
	// rounds: game id -> turn -> how the round played from that turn went,
	// packed.
	bucketRounds = []byte("rounds")
	// submissions: game id -> turn, NUL, side -> the latest valid orders of
	// a side for a round not yet played.
	bucketSubmissions = []byte("submissions")
	// processed: dedupe key of every inbound mail handled -> time (8 bytes,
	// Unix nanoseconds), so that a mail delivered twice has one effect.
	bucketProcessed = []byte("processed")
	// outbox: sequence number (8 bytes, big-endian) -> the queued mail's
	// record, in the order they were queued.
	bucketOutbox = []byte("outbox")
	// outbox-data: sequence number -> the composed message (not JSON),
	// apart from its record so that scanning the queue does not read every
	// map.
	bucketOutboxData = []byte("outbox-data")
	// sent: Message-ID of every mail queued -> whom it was for, kept as
	// long as processed mail ids, to tell whose mail a bounce returns.
	bucketSent = []byte("sent")
	// limits: limit kind, NUL, address or player -> the rate limit's
	// window.
	bucketLimits = []byte("limits")
	// talk: game id -> sequence (8 bytes, big-endian) -> a message of
	// table talk, private until the game ends.
	bucketTalk = []byte("talk")
	// pending: hex SHA-256 of an address change's confirmation code -> the
	// change waiting for it. The code itself is only in the mail to the new
	// address.
	bucketPending = []byte("pending")
	// ratings: address (lower case) -> the address's place on the club
	// ladder.
	bucketRatings = []byte("ratings")

	// The buckets below are created at their first use, so that a database
	// of an older judge opens read-only as it is.

	// in-hand: dedupe key of a mail -> its record while the judge handles
	// it (the crash-loop guard).
	bucketInHand = []byte("in-hand")
	// set-aside: the start of the SHA-256 of a delivered mail the judge
	// could not read, in hex -> its description; set-aside-data: the same
	// key -> the mail as delivered (not JSON).
	bucketSetAside     = []byte("set-aside")
	bucketSetAsideData = []byte("set-aside-data")
)

// allBuckets are the buckets every database of the layout has.
var allBuckets = [][]byte{bucketSettings, bucketGames, bucketTokens, bucketStates, bucketRounds,
	bucketSubmissions, bucketProcessed, bucketOutbox, bucketOutboxData, bucketSent, bucketLimits,
	bucketTalk, bucketPending, bucketRatings}

// schemaVersion is the layout described above.
const schemaVersion = "1"

// The settings' keys.
var (
	keySchema   = []byte("schema")
	keyKeyCheck = []byte("key-check")
)

func turnKey(turn int) []byte {
	return binary.BigEndian.AppendUint32(nil, uint32(turn))
}

func seqKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(nil, seq)
}

// joinKey joins a key's parts with NUL, which no part holds.
func joinKey(a, b string) []byte {
	return []byte(a + "\x00" + b)
}

func submissionKey(turn int, side string) []byte {
	return append(append(turnKey(turn), 0), side...)
}

// Value is a record as stored, its JSON text. It is valid only within its
// transaction: Decode copies what it keeps.
type Value []byte

// Decode decodes the record into v.
func (r Value) Decode(v any) error {
	return json.Unmarshal(r, v)
}

func getJSON(b *bbolt.Bucket, key []byte, v any) (bool, error) {
	if b == nil {
		return false, nil
	}
	raw := b.Get(key)
	if raw == nil {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, fmt.Errorf("decoding %s: %w", key, err)
	}
	return true, nil
}

func putJSON(b *bbolt.Bucket, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", key, err)
	}
	return b.Put(key, raw)
}

func getPackedJSON(b *bbolt.Bucket, key []byte, v any) (bool, error) {
	if b == nil {
		return false, nil
	}
	stored := b.Get(key)
	if stored == nil {
		return false, nil
	}
	raw, err := unpack(stored)
	if err == nil {
		err = json.Unmarshal(raw, v)
	}
	if err != nil {
		return false, fmt.Errorf("decoding %s: %w", key, err)
	}
	return true, nil
}

func putPackedJSON(b *bbolt.Bucket, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", key, err)
	}
	return b.Put(key, pack(raw))
}

// gameBucket returns the nested bucket of a game inside a per-game bucket,
// nil when it does not exist.
func (t *Tx) gameBucket(parent []byte, game string) *bbolt.Bucket {
	return t.tx.Bucket(parent).Bucket([]byte(game))
}

// newGameBucket returns the nested bucket of a game inside a per-game
// bucket, creating it when missing.
func (t *Tx) newGameBucket(parent []byte, game string) (*bbolt.Bucket, error) {
	b, err := t.tx.Bucket(parent).CreateBucketIfNotExists([]byte(game))
	if err != nil {
		return nil, fmt.Errorf("bucket %s/%s: %w", parent, game, err)
	}
	return b, nil
}

// deleteKeys deletes keys collected from b (bbolt forbids deleting while
// iterating).
func deleteKeys(b *bbolt.Bucket, keys [][]byte) error {
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
