package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"go.etcd.io/bbolt"
	"golang.org/x/sys/unix"
)

// DB is the judge's database file, open.
type DB struct {
	bolt *bbolt.DB
	path string
}

// Options say how to open a database.
type Options struct {
	// ReadOnly shares the file lock with other readers; the database must
	// exist already and be in this layout.
	ReadOnly bool
	// Timeout is how long to wait for the file lock; zero waits for ever.
	Timeout time.Duration
}

// ErrLocked is the error (wrapped) of Open when another program held the
// file lock for all of Options.Timeout.
var ErrLocked = bbolt.ErrTimeout

// Open opens the database at path, creating it (and every bucket) when
// missing unless opts.ReadOnly. It refuses a damaged file (*DamagedError)
// and a database of another layout.
func Open(path string, opts Options) (*DB, error) {
	db, damage, err := openFile(path, &bbolt.Options{Timeout: opts.Timeout, ReadOnly: opts.ReadOnly})
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
		switch v := settings.Get(keySchema); {
		case v == nil:
			return settings.Put(keySchema, []byte(schemaVersion))
		case string(v) != schemaVersion:
			return fmt.Errorf("database layout version %q, this program reads %q", v, schemaVersion)
		}
		return nil
	}
	if opts.ReadOnly {
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
	return &DB{bolt: db, path: path}, nil
}

// Path is the database file's name.
func (d *DB) Path() string { return d.path }

// Close closes the database.
func (d *DB) Close() error {
	return d.bolt.Close()
}

// View runs fn in a read transaction: it sees the database as it was
// when the transaction began.
func (d *DB) View(fn func(*Tx) error) error {
	return d.bolt.View(func(tx *bbolt.Tx) error { return fn(&Tx{tx}) })
}

// Update runs fn in a write transaction, committed (and synced to disk)
// when fn returns nil and rolled back otherwise.
func (d *DB) Update(fn func(*Tx) error) error {
	return d.bolt.Update(func(tx *bbolt.Tx) error { return fn(&Tx{tx}) })
}

// Tx is one transaction on the database; its collections are in
// records.go. What it returns is valid only within the transaction,
// unless said otherwise.
type Tx struct {
	tx *bbolt.Tx
}

// Size is the size of the database file as this transaction sees it.
func (t *Tx) Size() int64 { return t.tx.Size() }

// WriteTo writes the whole database as this transaction sees it: a
// consistent copy, whatever is written meanwhile.
func (t *Tx) WriteTo(w io.Writer) (int64, error) { return t.tx.WriteTo(w) }

// CheckKey records the server key's check value on first use and refuses
// a different key afterwards: players' secrets are derived from the key,
// so with another one every secret mailed so far would stop matching.
func (d *DB) CheckKey(check []byte) error {
	return d.bolt.Update(func(tx *bbolt.Tx) error {
		settings := tx.Bucket(bucketSettings)
		stored := settings.Get(keyKeyCheck)
		if stored == nil {
			return settings.Put(keyKeyCheck, check)
		}
		if string(stored) != string(check) {
			return errors.New("the server key is not the one this database was made with; " +
				"restore the key file that belongs to the database")
		}
		return nil
	})
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

// CatchDamage runs fn, which reads the database, and returns its error,
// or a *DamagedError naming the file when a read reaches a damaged page
// (bbolt panics then).
func (d *DB) CatchDamage(fn func() error) error {
	damage, err := unpanic(fn)
	if damage != nil {
		return damagedError(d.path, damage)
	}
	return err
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
func (d *DB) Check(ctx context.Context, checkCopy CopyChecker) error {
	// A judge killed during an earlier check left its copy behind; only one
	// judge runs on a database (its lock), so no copy here is in use.
	if err := removeCheckCopies(d.path); err != nil {
		return fmt.Errorf("checking database %s: %w", d.path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(d.path), checkCopyPattern)
	if err != nil {
		return fmt.Errorf("checking database %s: %w", d.path, err)
	}
	defer os.Remove(f.Name())
	err = d.bolt.View(func(tx *bbolt.Tx) error {
		_, err := tx.WriteTo(f)
		return err
	})
	if err := errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("checking database %s: %w", d.path, err)
	}
	// The copy read the whole file into the page cache: dropped again, the
	// pages the judge does not use stay out of its memory (a read of the
	// memory-mapped file maps the cached pages around it too).
	dropCache(d.path)
	defer dropCache(f.Name())
	if checkCopy == nil {
		checkCopy = checkCopyHere
	}
	damage, err := checkCopy(ctx, f.Name())
	if damage != nil {
		return damagedError(d.path, damage)
	}
	if err != nil {
		return fmt.Errorf("checking database %s: %w", d.path, err)
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

// checkOpenTimeout is how long CheckDatabase waits for the file lock.
const checkOpenTimeout = time.Second

// CheckDatabase opens a judge's database read-only and checks every page
// of it (fieldpost check-db checks a copy with it).
func CheckDatabase(path string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("database %s: %w", path, err)
	}
	d, err := Open(path, Options{ReadOnly: true, Timeout: checkOpenTimeout})
	if err != nil {
		return err
	}
	defer d.Close()
	damage, err := unpanic(func() error { return d.bolt.View(checkPages) })
	if damage == nil {
		damage = err
	}
	if damage != nil {
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
	if v := tx.Bucket(bucketSettings).Get(keySchema); string(v) != schemaVersion {
		return fmt.Errorf("database layout version %q, this program reads %q", v, schemaVersion)
	}
	return nil
}
