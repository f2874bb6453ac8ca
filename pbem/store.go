package pbem

import (
	"context"
	"time"

	"fieldpost/pbem/store"
)

// Store is the judge's database (package store): every game, player,
// submission, processed mail and queued mail.
type Store struct {
	db *store.DB
}

// CopyChecker checks a copy of the database (store.CopyChecker).
type CopyChecker = store.CopyChecker

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
	db, err := store.Open(path, store.Options{ReadOnly: readOnly, Timeout: timeout})
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// Check reads every page of the database (store.DB.Check).
func (s *Store) Check(ctx context.Context, checkCopy CopyChecker) error {
	return s.db.Check(ctx, checkCopy)
}

// Close closes the database.
func (s *Store) Close() error {
	return s.db.Close()
}
