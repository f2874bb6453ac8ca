package pbem

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"go.etcd.io/bbolt"
	"golang.org/x/sys/unix"
)

// The store's buckets. Games are keyed by their id; the per-game buckets
// (states, rounds, submissions) hold one nested bucket per game.
var (
	// settings: "schema" (the layout version) and "key-check" (a MAC that
	// tells whether the server key matches the one the secrets came from).
	bucketSettings = []byte("settings")
	// games: game id -> Game (JSON).
	bucketGames = []byte("games")
	// tokens: hex SHA-256 of a player's secret -> game id, NUL, side. The
	// secret itself is never stored.
	bucketTokens = []byte("tokens")
	// states: game id -> turn (4 bytes, big-endian) -> engine.State (JSON),
	// the position at the start of that turn, kept for HISTORY and ROLLBACK.
	bucketStates = []byte("states")
	// rounds: game id -> turn -> roundRecord (JSON): how the round played
	// from that turn went (seed, orders, events).
	bucketRounds = []byte("rounds")
	// submissions: game id -> turn, NUL, side -> submission (JSON): the
	// latest valid orders of a side for a round not yet played.
	bucketSubmissions = []byte("submissions")
	// processed: dedupe key of every inbound mail handled -> time (8 bytes,
	// Unix nanoseconds), so that a mail delivered twice has one effect.
	bucketProcessed = []byte("processed")
	// outbox: sequence number (8 bytes, big-endian) -> outgoing (JSON),
	// the mails to send, in the order they were queued.
	bucketOutbox = []byte("outbox")
	// outbox-data: sequence number -> the composed message, apart from its
	// outgoing record so that scanning the queue does not read every map.
	bucketOutboxData = []byte("outbox-data")
	// sent: Message-ID of every mail queued -> sentMail (JSON), kept as
	// long as processed mail ids, to tell whose mail a bounce returns.
	bucketSent = []byte("sent")
	// limits: limit kind, NUL, address or player -> limitState (JSON): the
	// rate limits' windows (limit.go).
	bucketLimits = []byte("limits")
)

var allBuckets = [][]byte{bucketSettings, bucketGames, bucketTokens, bucketStates, bucketRounds,
	bucketSubmissions, bucketProcessed, bucketOutbox, bucketOutboxData, bucketSent, bucketLimits,
	bucketTalk, bucketPending, bucketRatings}

// schemaVersion is the layout described above.
const schemaVersion = "1"

// Store is the judge's bbolt database: every game, player, submission,
// processed mail and queued mail.
type Store struct {
	db   *bbolt.DB
	path string
}

// OpenStore opens the database at path, creating it when missing.
func OpenStore(path string) (*Store, error) {
	// The timeout makes a second judge on the same file fail with an error
	// instead of waiting forever for the file lock.
	return openStore(path, false, 5*time.Second)
}

// openStore opens the database at path, waiting at most timeout for the
// file lock. Read-only, it shares the lock with other readers and the
// database must exist already.
func openStore(path string, readOnly bool, timeout time.Duration) (*Store, error) {
	db, damage, err := openFile(path, &bbolt.Options{Timeout: timeout, ReadOnly: readOnly})
	if damage != nil {
		return nil, damagedError(path, damage)
	}
	if err != nil {
		return nil, fmt.Errorf("opening database %s: %w", path, err)
	}
	prepare := func(tx *bbolt.Tx) error {
		for _, name := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		settings := tx.Bucket(bucketSettings)
		switch v := settings.Get([]byte("schema")); {
		case v == nil:
			return settings.Put([]byte("schema"), []byte(schemaVersion))
		case string(v) != schemaVersion:
			return fmt.Errorf("database layout version %q, this program reads %q", v, schemaVersion)
		}
		return nil
	}
	if readOnly {
		damage, err = unpanic(func() error { return db.View(checkSchema) })
	} else {
		damage, err = unpanic(func() error { return db.Update(prepare) })
	}
	if damage != nil {
		db.Close()
		return nil, damagedError(path, damage)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("preparing database %s: %w", path, err)
	}
	return &Store{db: db, path: path}, nil
}

// DamagedError says that the database file at Path is damaged: a page
// does not read (Damage says which and how).
type DamagedError struct {
	Path   string
	Damage error
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("database %s is damaged (%v): restore it from a backup", e.Path, e.Damage)
}

func damagedError(path string, damage error) error {
	return &DamagedError{Path: path, Damage: damage}
}

// unpanic runs fn, turning a panic into damage: bbolt panics when a read
// reaches a damaged page.
func unpanic(fn func() error) (damage, err error) {
	defer func() {
		if r := recover(); r != nil {
			damage, err = fmt.Errorf("%v", r), nil
		}
	}()
	return nil, fn()
}

// CopyChecker checks every page of the copy of a database at path, which
// nobody writes, as CheckDatabase does. It returns the damage found, or
// err when it could not check. The judge's checker runs the check in a
// child process, so that the copy read through bbolt's memory map is not
// counted in the judge's own memory.
type CopyChecker func(ctx context.Context, path string) (damage, err error)

// Check reads every page of the database, as bbolt's consistency check
// does, and returns the first damage found, naming the file. The judge runs
// it in the background after it starts: on a large file it takes seconds
// and reads the whole file, which must not hold up the first mail. bbolt's
// check is only sound while nothing writes, so it checks a copy, taken in
// one read transaction beside the file, with checkCopy (in this process
// when nil).
func (s *Store) Check(ctx context.Context, checkCopy CopyChecker) error {
	// A judge killed during an earlier check left its copy behind; only one
	// judge runs on a database (its lock), so no copy here is in use.
	if err := removeCheckCopies(s.path); err != nil {
		return fmt.Errorf("checking database %s: %w", s.path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(s.path), checkCopyPattern)
	if err != nil {
		return fmt.Errorf("checking database %s: %w", s.path, err)
	}
	defer os.Remove(f.Name())
	err = s.db.View(func(tx *bbolt.Tx) error {
		_, err := tx.WriteTo(f)
		return err
	})
	if err := errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("checking database %s: %w", s.path, err)
	}
	// The copy read the whole file into the page cache: dropped again, the
	// pages the judge does not use stay out of its memory (a read of the
	// memory-mapped file maps the cached pages around it too).
	dropCache(s.path)
	defer dropCache(f.Name())
	if checkCopy == nil {
		checkCopy = checkCopyHere
	}
	damage, err := checkCopy(ctx, f.Name())
	if damage != nil {
		return damagedError(s.path, damage)
	}
	if err != nil {
		return fmt.Errorf("checking database %s: %w", s.path, err)
	}
	return nil
}

// checkCopyHere is the CopyChecker that checks in this process.
func checkCopyHere(_ context.Context, path string) (damage, err error) {
	err = CheckDatabase(path)
	if d, ok := errors.AsType[*DamagedError](err); ok {
		return d.Damage, nil
	}
	return nil, err
}

// checkCopyPattern names the copies Check takes beside the database.
const checkCopyPattern = ".check-*.db"

// removeCheckCopies removes the copies earlier checks left beside path.
func removeCheckCopies(path string) error {
	left, err := filepath.Glob(filepath.Join(filepath.Dir(path), checkCopyPattern))
	if err != nil {
		return err
	}
	for _, name := range left {
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// dropCache asks the kernel to drop a file's pages from the page cache
// (those no process has mapped); a failure only costs memory.
func dropCache(path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	_ = unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
}

// readEveryPage runs bbolt's consistency check on a store nobody writes.
func (s *Store) readEveryPage() error {
	damage, err := unpanic(func() error { return s.db.View(checkPages) })
	if damage == nil {
		damage = err
	}
	return damage
}

// CheckDatabase opens a judge's database read-only and checks every page
// of it (fieldpost check-db checks a copy with it).
func CheckDatabase(path string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("database %s: %w", path, err)
	}
	s, err := openStore(path, true, adminOpenTimeout)
	if err != nil {
		return err
	}
	defer s.Close()
	if damage := s.readEveryPage(); damage != nil {
		return damagedError(path, damage)
	}
	return nil
}

// openFile opens the bbolt file. A damaged file makes bbolt panic, at open
// (a bad freelist) or later when a read reaches the damage: the damage met
// at open is returned as damage; Check finds the rest.
func openFile(path string, opts *bbolt.Options) (db *bbolt.DB, damage, err error) {
	defer func() {
		if r := recover(); r != nil {
			db, damage, err = nil, fmt.Errorf("%v", r), nil
		}
	}()
	db, err = bbolt.Open(path, 0o600, opts)
	return db, nil, err
}

// checkPages runs bbolt's consistency check and returns its first finding.
func checkPages(tx *bbolt.Tx) error {
	var first error
	for err := range tx.Check() {
		if first == nil {
			first = err
		}
	}
	return first
}

// checkSchema checks that a database opened read-only is the judge's, in
// the layout this program reads.
func checkSchema(tx *bbolt.Tx) error {
	for _, name := range allBuckets {
		if tx.Bucket(name) == nil {
			return fmt.Errorf("not a Fieldpost database (no %s bucket)", name)
		}
	}
	if v := tx.Bucket(bucketSettings).Get([]byte("schema")); string(v) != schemaVersion {
		return fmt.Errorf("database layout version %q, this program reads %q", v, schemaVersion)
	}
	return nil
}

// Close closes the database.
func (s *Store) Close() error {
	return s.db.Close()
}

// checkKey records the server key's check value on first use and refuses a
// different key afterwards: players' secrets are derived from the key, so
// with another one every secret mailed so far would stop matching.
func (s *Store) checkKey(check []byte) error {
	return s.db.Update(func(tx *bbolt.Tx) error {
		settings := tx.Bucket(bucketSettings)
		stored := settings.Get([]byte("key-check"))
		if stored == nil {
			return settings.Put([]byte("key-check"), check)
		}
		if string(stored) != string(check) {
			return errors.New("the server key is not the one this database was made with; " +
				"restore the key file that belongs to the database")
		}
		return nil
	})
}

func turnKey(turn int) []byte {
	return binary.BigEndian.AppendUint32(nil, uint32(turn))
}

func seqKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(nil, seq)
}

func getJSON(b *bbolt.Bucket, key []byte, v any) (bool, error) {
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

// gameBucket returns the nested bucket of a game inside a per-game bucket,
// creating it when create is set; nil when it does not exist.
func gameBucket(tx *bbolt.Tx, parent []byte, game string, create bool) (*bbolt.Bucket, error) {
	p := tx.Bucket(parent)
	if !create {
		return p.Bucket([]byte(game)), nil
	}
	b, err := p.CreateBucketIfNotExists([]byte(game))
	if err != nil {
		return nil, fmt.Errorf("bucket %s/%s: %w", parent, game, err)
	}
	return b, nil
}
