// Package storetest damages a judge's database file the way a disk can,
// for the tests of what reads it (the page check, check-db, the judge
// started on a damaged file). It reaches under the store's API, on
// purpose: it knows where layout "1" keeps a game's positions (the
// "states" bucket, keyed by the turn in 4 bytes big-endian, pbem/store's
// layout.go).
package storetest

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"go.etcd.io/bbolt"
)

// DamageAPosition overwrites with garbage the last page holding a game's
// opening position (a leaf holding the start of its stored value), in a
// database no program has open: the judge reads it only for a mail of
// that game, and opening the database does not read it either.
func DamageAPosition(t testing.TB, path string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := bbolt.Open(path, 0o600, nil) // read-write: the free pages are known
	if err != nil {
		t.Fatal(err)
	}
	page := os.Getpagesize()
	var leaf int
	err = db.View(func(tx *bbolt.Tx) error {
		// The start of the last game's opening position, as stored.
		states := tx.Bucket([]byte("states"))
		var state []byte
		states.ForEachBucket(func(game []byte) error {
			state = states.Bucket(game).Get([]byte{0, 0, 0, 0})
			return nil
		})
		if len(state) < 32 {
			return errors.New("no stored position")
		}
		for id := 2; id < int(tx.Size())/page; id++ {
			if p, err := tx.Page(id); err == nil && p != nil && p.Type == "leaf" && bytes.Contains(raw[id*page:(id+1)*page], state[:32]) {
				leaf = id
			}
		}
		return nil
	})
	if err := errors.Join(err, db.Close()); err != nil || leaf == 0 {
		t.Fatalf("no page of a position: %v", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xa5}, page), int64(leaf*page)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
