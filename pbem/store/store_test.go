package store

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"fieldpost/pbem/store/storetest"
)

func openTemp(t *testing.T) *DB {
	t.Helper()
	d, err := Open(filepath.Join(t.TempDir(), "s.db"), Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

type record struct {
	Name string `json:"name"`
	N    int    `json:"n,omitempty"`
}

func update(t *testing.T, d *DB, fn func(tx *Tx) error) {
	t.Helper()
	if err := d.Update(fn); err != nil {
		t.Fatal(err)
	}
}

func view(t *testing.T, d *DB, fn func(tx *Tx) error) {
	t.Helper()
	if err := d.View(fn); err != nil {
		t.Fatal(err)
	}
}

func all(errs ...error) error { return errors.Join(errs...) }

// Every collection keeps its records in layout "1", byte for byte: the
// keys and the values as the releases before this package wrote them, so
// that their databases read on.
func TestLayoutIsByteForByteVersionOne(t *testing.T) {
	d := openTemp(t)
	at := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	update(t, d, func(tx *Tx) error {
		return all(tx.PutGame("g1", record{Name: "g1"}), tx.PutState("g1", 2, []byte(`{"turn":2}`)),
			tx.PutRound("g1", 1, record{Name: "round"}), tx.PutSubmission("g1", 2, "us", record{Name: "orders"}),
			tx.PutToken("abc", "g1", "us"), tx.MarkProcessed("id:m1", at), tx.Queue(record{Name: "mail"}, []byte("raw mail")),
			tx.PutSent("<m1@x>", record{Name: "sent"}), tx.PutLimit(LimitKey{"stranger", "a@b.c"}, record{N: 1}),
			tx.AddTalk("g1", record{Name: "hello"}), tx.PutPending("hash", record{Name: "pending"}),
			tx.PutRating("a@b.c", record{N: 1500}), tx.PutInHand("id:m2", record{N: 1}))
	})
	want := []struct {
		bucket []string
		key    []byte
		value  []byte // nil: packed, checked unpacked
	}{
		{[]string{"settings"}, []byte("schema"), []byte("1")},
		{[]string{"games"}, []byte("g1"), []byte(`{"name":"g1"}`)},
		{[]string{"states", "g1"}, []byte{0, 0, 0, 2}, nil},
		{[]string{"rounds", "g1"}, []byte{0, 0, 0, 1}, nil},
		{[]string{"submissions", "g1"}, []byte{0, 0, 0, 2, 0, 'u', 's'}, []byte(`{"name":"orders"}`)},
		{[]string{"tokens"}, []byte("abc"), []byte("g1\x00us")},
		{[]string{"processed"}, []byte("id:m1"), binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano()))},
		{[]string{"outbox"}, []byte{0, 0, 0, 0, 0, 0, 0, 1}, []byte(`{"name":"mail"}`)},
		{[]string{"outbox-data"}, []byte{0, 0, 0, 0, 0, 0, 0, 1}, []byte("raw mail")},
		{[]string{"sent"}, []byte("<m1@x>"), []byte(`{"name":"sent"}`)},
		{[]string{"limits"}, []byte("stranger\x00a@b.c"), []byte(`{"name":"","n":1}`)},
		{[]string{"talk", "g1"}, []byte{0, 0, 0, 0, 0, 0, 0, 1}, []byte(`{"name":"hello"}`)},
		{[]string{"pending"}, []byte("hash"), []byte(`{"name":"pending"}`)},
		{[]string{"ratings"}, []byte("a@b.c"), []byte(`{"name":"","n":1500}`)},
		{[]string{"in-hand"}, []byte("id:m2"), []byte(`{"name":"","n":1}`)},
	}
	err := d.bolt.View(func(tx *bbolt.Tx) error {
		for _, w := range want {
			b := tx.Bucket([]byte(w.bucket[0]))
			for _, nested := range w.bucket[1:] {
				b = b.Bucket([]byte(nested))
			}
			got := b.Get(w.key)
			if w.value == nil {
				if !bytes.HasPrefix(got, packedPrefix) {
					t.Errorf("%v %x: not packed: %q", w.bucket, w.key, got)
				}
				continue
			}
			if !bytes.Equal(got, w.value) {
				t.Errorf("%v %x: %q, want %q", w.bucket, w.key, got, w.value)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// What is stored reads back after the database is closed and opened
// again; what is deleted is gone.
func TestRecordsReadBackAndDelete(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	d, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	state := []byte(`{"units":[` + strings.Repeat(`{"id":"1/9","hex":"0505"},`, 100) + `{}]}`)
	update(t, d, func(tx *Tx) error {
		return all(tx.PutGame("g1", record{Name: "one"}), tx.PutGame("g2", record{Name: "two"}),
			tx.PutState("g1", 0, state), tx.PutState("g1", 1, state), tx.PutRound("g1", 0, record{Name: "r0"}),
			tx.PutSubmission("g1", 1, "us", record{Name: "us1"}), tx.PutSubmission("g1", 1, "german", record{Name: "de1"}),
			tx.PutSubmission("g1", 2, "us", record{Name: "us2"}),
			tx.MarkProcessed("id:old", at.Add(-40*24*time.Hour)), tx.MarkProcessed("id:new", at),
			tx.Queue(record{Name: "first"}, []byte("1")), tx.Queue(record{Name: "second"}, []byte("2")),
			tx.AddTalk("g1", record{Name: "a"}), tx.AddTalk("g1", record{Name: "b"}))
	})
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	update(t, d, func(tx *Tx) error {
		var r record
		if found, err := tx.Game("g2", &r); !found || err != nil || r.Name != "two" {
			t.Errorf("game g2: %v %v %+v", found, err, r)
		}
		if found, err := tx.Game("g3", &r); found || err != nil {
			t.Errorf("game g3: %v %v", found, err)
		}
		var ids []string
		for id, v := range tx.Games() {
			var g record
			if err := v.Decode(&g); err != nil {
				return err
			}
			ids = append(ids, id+"="+g.Name)
		}
		if strings.Join(ids, " ") != "g1=one g2=two" {
			t.Errorf("games: %v", ids)
		}
		if got, err := tx.State("g1", 1); err != nil || !bytes.Equal(got, state) {
			t.Errorf("state: %v %q", err, got)
		}
		if got, err := tx.State("g2", 0); err != nil || got != nil {
			t.Errorf("a state of a game without any: %v %q", err, got)
		}
		if found, err := tx.Round("g1", 0, &r); !found || err != nil || r.Name != "r0" {
			t.Errorf("round: %v %v %+v", found, err, r)
		}
		if tx.TurnBytes("g1", 0) == 0 || tx.TurnBytes("g2", 0) != 0 {
			t.Errorf("turn bytes: %d %d", tx.TurnBytes("g1", 0), tx.TurnBytes("g2", 0))
		}
		if err := tx.DeleteSubmissions("g1", 1); err != nil {
			return err
		}
		if found, _ := tx.Submission("g1", 1, "german", &r); found {
			t.Error("turn 1's orders are not deleted")
		}
		if found, _ := tx.Submission("g1", 2, "us", &r); !found || r.Name != "us2" {
			t.Error("turn 2's orders are deleted")
		}
		if n, err := tx.PruneProcessed(at.Add(-30 * 24 * time.Hour)); n != 1 || err != nil || tx.Processed("id:old") || !tx.Processed("id:new") {
			t.Errorf("pruned %d (%v)", n, err)
		}
		var queued []string
		for seq, v := range tx.Queued() {
			var o record
			if err := v.Decode(&o); err != nil {
				return err
			}
			queued = append(queued, fmt.Sprintf("%d:%s:%s", seq, o.Name, tx.QueuedMessage(seq)))
		}
		if strings.Join(queued, " ") != "1:first:1 2:second:2" {
			t.Errorf("outbox: %v", queued)
		}
		if err := tx.Dequeue(1); err != nil {
			return err
		}
		if tx.QueuedMessage(1) != nil {
			t.Error("a mail dequeued keeps its message")
		}
		var talk []string
		for _, v := range tx.Talk("g1") {
			var m record
			if err := v.Decode(&m); err != nil {
				return err
			}
			talk = append(talk, m.Name)
		}
		if strings.Join(talk, "") != "ab" {
			t.Errorf("talk: %v", talk)
		}
		if err := tx.CopyHistory("g1", "g9"); err != nil {
			return err
		}
		if got, err := tx.State("g9", 0); err != nil || !bytes.Equal(got, state) {
			t.Errorf("a copied state: %v", err)
		}
		return nil
	})
}

// The collections created at their first use (in hand, set aside) read
// as empty in a database that has none, read-only too.
func TestCollectionsCreatedOnFirstUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	d, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	d, err = Open(path, Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	view(t, d, func(tx *Tx) error {
		var r record
		if found, err := tx.InHand("id:x", &r); found || err != nil {
			t.Errorf("in hand: %v %v", found, err)
		}
		for id := range tx.SetAsideMails() {
			t.Errorf("a mail set aside: %s", id)
		}
		if tx.SetAsideMessage("x") != nil {
			t.Error("a message set aside")
		}
		return nil
	})
	d.Close()
	d, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	update(t, d, func(tx *Tx) error {
		again, err := tx.SetAside("x", record{Name: "first"}, []byte("mail"))
		if again || err != nil {
			t.Errorf("set aside: %v %v", again, err)
		}
		again, err = tx.SetAside("x", record{Name: "second"}, []byte("other"))
		if !again || err != nil || string(tx.SetAsideMessage("x")) != "mail" {
			t.Errorf("set aside again: %v %v", again, err)
		}
		return all(tx.PutInHand("id:x", record{N: 1}), tx.DeleteInHand("id:x"), tx.DeleteInHand("id:never"))
	})
}

// A database written by the release before the game-system seam reads:
// its game, positions, round and orders (pbem's legacy test plays it on).
func TestDatabaseOfThePreviousReleaseReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "judge.db")
	in, err := os.Open("../testdata/release-2026-11.db.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	z, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(z)
	if err != nil || os.WriteFile(path, raw, 0o600) != nil {
		t.Fatal(err)
	}
	// Read-write: the collections added since are created.
	d, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	view(t, d, func(tx *Tx) error {
		var g struct {
			Turn    int `json:"turn"`
			Players []struct {
				Side string `json:"side"`
			} `json:"players"`
		}
		if found, err := tx.Game("tutorial-1", &g); !found || err != nil || g.Turn != 1 || len(g.Players) != 2 {
			t.Fatalf("game: %v %v %+v", found, err, g)
		}
		for turn := range 2 {
			if state, err := tx.State("tutorial-1", turn); err != nil || !bytes.HasPrefix(state, []byte("{")) {
				t.Errorf("state at turn %d: %v %.20q", turn, err, state)
			}
		}
		var round struct {
			Seed uint64 `json:"seed"`
		}
		if found, err := tx.Round("tutorial-1", 0, &round); !found || err != nil || round.Seed == 0 {
			t.Errorf("round 1: %v %v", found, err)
		}
		var sub struct {
			MessageID string `json:"message_id"`
		}
		if found, err := tx.Submission("tutorial-1", 1, "us", &sub); !found || err != nil || sub.MessageID == "" {
			t.Errorf("us's orders for round 2: %v %v", found, err)
		}
		if found, err := tx.Submission("tutorial-1", 1, "german", &sub); found || err != nil {
			t.Errorf("german's orders for round 2: %v %v", found, err)
		}
		return nil
	})
}

// A database of another layout version is refused.
func TestOpenRefusesAnotherLayout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	d, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.bolt.Update(func(tx *bbolt.Tx) error { return tx.Bucket(bucketSettings).Put(keySchema, []byte("0")) }); err != nil {
		t.Fatal(err)
	}
	d.Close()
	for _, readOnly := range []bool{false, true} {
		if _, err := Open(path, Options{ReadOnly: readOnly, Timeout: time.Second}); err == nil || !strings.Contains(err.Error(), `layout version "0"`) {
			t.Errorf("another layout (read-only %v): %v", readOnly, err)
		}
	}
}

// A second program on the file waits at most its timeout for the lock.
func TestOpenLockedFails(t *testing.T) {
	d := openTemp(t)
	_, err := Open(d.Path(), Options{Timeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		t.Errorf("open of a locked file: %v", err)
	}
}

// The server key's check value is kept at first use; another is refused.
func TestCheckKey(t *testing.T) {
	d := openTemp(t)
	if err := d.CheckKey([]byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := d.CheckKey([]byte("one")); err != nil {
		t.Errorf("the same key: %v", err)
	}
	if err := d.CheckKey([]byte("two")); err == nil || !strings.Contains(err.Error(), "server key") {
		t.Errorf("another key: %v", err)
	}
}

// Transactions run side by side: readers see a consistent database while
// writers add to it (go test -race).
func TestTransactionsSideBySide(t *testing.T) {
	d := openTemp(t)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 10 {
				err := d.Update(func(tx *Tx) error {
					return all(tx.AddTalk("g", record{Name: fmt.Sprint(w), N: i}), tx.Queue(record{N: i}, []byte("m")))
				})
				if err != nil {
					t.Error(err)
				}
			}
		})
		wg.Go(func() {
			for range 10 {
				err := d.View(func(tx *Tx) error {
					talk, queued := 0, 0
					for range tx.Talk("g") {
						talk++
					}
					for range tx.Queued() {
						queued++
					}
					if talk != queued {
						t.Errorf("a reader saw %d messages and %d mails", talk, queued)
					}
					return nil
				})
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	view(t, d, func(tx *Tx) error {
		var seqs []uint64
		for seq := range tx.Talk("g") {
			seqs = append(seqs, seq)
		}
		if len(seqs) != 40 || !slices.IsSorted(seqs) {
			t.Errorf("%d messages, in order %v", len(seqs), slices.IsSorted(seqs))
		}
		return nil
	})
}

// A database file damaged on disk is refused when it is opened, with an
// error that names it and says what to do, instead of a panic in the
// middle of the judge's work when a read reaches the damage.
func TestOpenRefusesADamagedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fieldpost.db")
	d, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	// Everything after the two meta pages: the buckets' pages.
	page := int64(os.Getpagesize())
	if _, err := f.WriteAt([]byte(strings.Repeat("\xa5", int(info.Size()-2*page))), 2*page); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = Open(path, Options{})
	if _, damaged := errors.AsType[*DamagedError](err); !damaged || !strings.Contains(err.Error(), path) {
		t.Fatalf("Open of a damaged file: %v", err)
	}
}

// Damage deep in the file, which opening does not read, is found by the
// check the judge runs after it starts, by check-db, and by a read in
// CatchDamage.
func TestCheckFindsDamageOpeningDoesNotRead(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "fieldpost.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	state := bytes.Repeat([]byte(`{"units":"a unit"},`), 2000)
	for i := range 6 {
		update(t, d, func(tx *Tx) error {
			return all(tx.PutGame(fmt.Sprintf("g%d", i), record{Name: "g"}), tx.PutState(fmt.Sprintf("g%d", i), 0, state))
		})
	}
	if err := d.Check(t.Context(), nil); err != nil {
		t.Fatalf("a sound database: %v", err)
	}
	path := d.Path()
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	storetest.DamageAPosition(t, path)
	d, err = Open(path, Options{})
	if err != nil {
		t.Fatalf("opening reads the damaged pages after all: %v", err)
	}
	if err := d.Check(t.Context(), nil); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("Check of a damaged file: %v", err)
	}
	err = d.CatchDamage(func() error {
		return d.View(func(tx *Tx) error {
			return tx.Each(func(string, []byte, []byte) error { return nil })
		})
	})
	if _, damaged := errors.AsType[*DamagedError](err); !damaged {
		t.Errorf("reading every record of a damaged file: %v", err)
	}
	d.Close()
	if err := CheckDatabase(path); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("CheckDatabase of a damaged file: %v", err)
	}
}

// A copy left beside the database by a judge killed during its check is
// removed by the next check, and the check leaves nothing behind itself.
func TestCheckRemovesACopyAKilledJudgeLeft(t *testing.T) {
	d := openTemp(t)
	update(t, d, func(tx *Tx) error { return tx.PutGame("g1", record{Name: "g1"}) })
	left := filepath.Join(filepath.Dir(d.Path()), ".check-123456.db")
	if err := os.WriteFile(left, []byte("half a copy"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := d.Check(t.Context(), nil); err != nil {
		t.Fatalf("a sound database: %v", err)
	}
	copies, err := filepath.Glob(filepath.Join(filepath.Dir(d.Path()), ".check-*"))
	if err != nil || len(copies) != 0 {
		t.Errorf("copies left after the check: %v (%v)", copies, err)
	}
}

// Positions and round records are stored packed, and values stored
// unpacked (by releases before packing) read as they are.
func TestPackedValuesAndOldOnesRead(t *testing.T) {
	raw := []byte(`{"ruleset":"2sg","units":[` + strings.Repeat(`{"id":"1/9","hex":"0505"},`, 200) + `{}]}`)
	packed := pack(raw)
	if len(packed) >= len(raw)/4 {
		t.Errorf("packed %d bytes into %d", len(raw), len(packed))
	}
	for _, stored := range [][]byte{packed, raw} {
		got, err := unpack(stored)
		if err != nil || !bytes.Equal(got, raw) {
			t.Errorf("unpack: %v, %q", err, got)
		}
	}
	if _, err := unpack(append(slices.Clone(packedPrefix), "not deflate"...)); err == nil {
		t.Error("a damaged packed value reads")
	}
}
