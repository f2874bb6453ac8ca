package pbem

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fieldpost/engine/stargeneral/rules"
	"fieldpost/pbem/store"
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

	err = s.db.Update(func(tx *store.Tx) error {
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
	err = s.db.Update(func(tx *store.Tx) error {
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

func TestStoreRefusesAnotherKey(t *testing.T) {
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
	s.Close()
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
