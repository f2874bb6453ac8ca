package pbem

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"fieldpost/engine/stargeneral/rules"
)

func TestStoreRoundTrips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := rules.BundledScenario("tutorial")
	st := sc.NewGame()
	now := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	g := &Game{ID: "g1", Scenario: "tutorial", Seed: 1<<63 + 12345, Players: []Player{{Side: "us", Address: "a@b.c"}, {Side: "german", Address: "d@e.f"}},
		Deadline: now, Created: now, Thread: "root@x"}
	orders := rules.DefaultOrders(sc.Ruleset, st, "us")
	// Zero hexes (no HQ placement, no barrage target) and events without a
	// place must read back.
	orders.Units = append(orders.Units, rules.UnitOrders{Unit: "743", Status: rules.Hold})
	orders.Batteries = append(orders.Batteries, rules.BatteryOrders{Battery: "230FA", Keep: 1})
	rawOrders, _ := json.Marshal(orders)
	rawEvents, _ := json.Marshal([]rules.Event{{Kind: rules.EvRoundStart, Text: "Day 1, round 1 begins"}})
	rawState, _ := json.Marshal(st)
	rec := &roundRecord{Seed: 42, Orders: []json.RawMessage{rawOrders}, Defaulted: []string{"german"},
		Events: rawEvents, Played: now}

	err = s.db.Update(func(tx *bbolt.Tx) error {
		st2 := storeTx{tx}
		for _, err := range []error{
			st2.putGame(g), st2.putState("g1", 0, rawState), st2.putRound("g1", 0, rec),
			st2.putSubmission("g1", 0, "us", &submission{Orders: rawOrders, MessageID: "m1", Received: now}),
			st2.putSubmission("g1", 1, "us", &submission{Orders: rawOrders, MessageID: "m2", Received: now}),
			st2.putToken(hashSecret("Secret"), "g1", "us"),
			st2.markProcessed("id:old", now.Add(-40*24*time.Hour)), st2.markProcessed("id:new", now),
		} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.db.Update(func(tx *bbolt.Tx) error {
		st2 := storeTx{tx}
		got, err := st2.game("g1")
		if err != nil || got.Seed != g.Seed || got.Player("german").Address != "d@e.f" || !got.Deadline.Equal(now) {
			t.Errorf("game: %+v, %v", got, err)
		}
		if missing, _ := st2.game("nosuch"); missing != nil {
			t.Error("a game that does not exist")
		}
		state, err := st2.state("g1", 0)
		if err != nil || string(state) != string(rawState) {
			t.Errorf("state: %v", err)
		}
		if _, err := st2.state("g1", 1); err == nil {
			t.Error("a state that does not exist")
		}
		r, err := st2.round("g1", 0)
		if err != nil {
			return err
		}
		a, _ := json.Marshal(r)
		b, _ := json.Marshal(rec)
		if string(a) != string(b) {
			t.Errorf("round record:\n%s\n%s", a, b)
		}
		if game, side, ok := st2.tokenOwner(hashSecret("SECRET")); !ok || game != "g1" || side != "us" {
			t.Errorf("token: %s %s %v", game, side, ok)
		}
		if err := st2.deleteSubmissions("g1", 0); err != nil {
			return err
		}
		if sub, _ := st2.submission("g1", 0, "us"); sub != nil {
			t.Error("turn 0's orders are not deleted")
		}
		if sub, _ := st2.submission("g1", 1, "us"); sub == nil || sub.MessageID != "m2" {
			t.Error("turn 1's orders are deleted")
		}
		if n, err := st2.pruneProcessed(now.Add(-processedRetention)); n != 1 || err != nil || st2.processed("id:old") || !st2.processed("id:new") {
			t.Errorf("pruned %d (%v)", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestStoreRefusesAnotherLayoutOrKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewService(s, &recordingSender{t: t}, Options{Systems: testSystems(t), Address: testJudge, ServerKey: testServerKey}); err != nil {
		t.Fatal(err)
	}
	_, err = NewService(s, &recordingSender{t: t}, Options{Systems: testSystems(t), Address: testJudge, ServerKey: []byte(strings.Repeat("k", 32))})
	if err == nil || !strings.Contains(err.Error(), "server key") {
		t.Errorf("another server key: %v", err)
	}
	s.db.Update(func(tx *bbolt.Tx) error { return tx.Bucket(bucketSettings).Put([]byte("schema"), []byte("0")) })
	s.Close()
	if _, err := OpenStore(path); err == nil || !strings.Contains(err.Error(), "layout") {
		t.Errorf("another layout: %v", err)
	}
}

func TestServerKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "judge.key")
	key, err := LoadServerKey(path)
	if err != nil || len(key) != 64 {
		t.Fatalf("%d bytes, %v", len(key), err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, %v", fi.Mode(), err)
	}
	again, err := LoadServerKey(path)
	if err != nil || string(again) != string(key) {
		t.Errorf("the key changed: %v", err)
	}
	os.WriteFile(path, []byte("short\n"), 0o600)
	if _, err := LoadServerKey(path); err == nil {
		t.Error("a short key is accepted")
	}
}

func TestSecrets(t *testing.T) {
	g := &Game{ID: "g1", Nonce: "n1"}
	a, b := deriveSecret(testServerKey, g, "us"), deriveSecret(testServerKey, g, "german")
	if len(a) != secretLength || a == b || a != strings.ToLower(a) || deriveSecret(testServerKey, g, "us") != a {
		t.Errorf("secrets %q %q", a, b)
	}
	if deriveSecret(testServerKey, &Game{ID: "g1", Nonce: "n2"}, "us") == a {
		t.Error("a new game of the same id has the old secrets")
	}
	if !sameSecret("AbC", "abc") || sameSecret("abc", "abd") {
		t.Error("sameSecret")
	}
}

// A database file damaged on disk is refused when it is opened, with an
// error that names it and says what to do, instead of a panic in the
// middle of the judge's work when a read reaches the damage.
func TestStoreRefusesADamagedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fieldpost.db")
	st, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
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
	_, err = OpenStore(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("OpenStore of a damaged file: %v", err)
	}
}

// Damage deep in the file, which opening does not read, is found by the
// check the judge runs after it starts, and by check-db.
func TestCheckFindsDamageOpeningDoesNotRead(t *testing.T) {
	j := newJudge(t, nil)
	for i := range 6 {
		j.newGame(fmt.Sprintf("tutorial-%d", i), "")
	}
	if err := j.store.Check(t.Context(), nil); err != nil {
		t.Fatalf("a sound database: %v", err)
	}
	path := j.store.path
	// The last leaf page in use holds some game's data, which opening and
	// preparing the buckets do not read.
	var leaf int
	err := j.store.db.View(func(tx *bbolt.Tx) error {
		for id := 2; id < int(tx.Size())/os.Getpagesize(); id++ {
			if p, err := tx.Page(id); err == nil && p != nil && p.Type == "leaf" {
				leaf = id
			}
		}
		return nil
	})
	if err != nil || leaf == 0 {
		t.Fatalf("no leaf page: %v", err)
	}
	if err := j.store.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	page := int64(os.Getpagesize())
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xa5}, int(page)), int64(leaf)*page); err != nil {
		t.Fatal(err)
	}
	f.Close()
	st, err := OpenStore(path)
	if err != nil {
		t.Fatalf("opening reads the damaged pages after all: %v", err)
	}
	if err := st.Check(t.Context(), nil); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("Check of a damaged file: %v", err)
	}
	st.Close()
	if err := CheckDatabase(path); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("CheckDatabase of a damaged file: %v", err)
	}
}

// A copy left beside the database by a judge killed during its check is
// removed by the next check, and the check leaves nothing behind itself.
func TestCheckRemovesACopyAKilledJudgeLeft(t *testing.T) {
	j := newJudge(t, nil)
	j.newGame("tutorial-1", "")
	left := filepath.Join(filepath.Dir(j.store.path), ".check-123456.db")
	if err := os.WriteFile(left, []byte("half a copy"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := j.store.Check(t.Context(), nil); err != nil {
		t.Fatalf("a sound database: %v", err)
	}
	copies, err := filepath.Glob(filepath.Join(filepath.Dir(j.store.path), ".check-*"))
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
