package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

// buildFieldpost builds the fieldpost binary into dir.
func buildFieldpost(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "fieldpost")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// damageAState overwrites with garbage the last page holding a game's
// opening state (a leaf holding the start of its stored value): the
// judge reads it only for a mail of that game, and opening the database
// does not read it either.
func damageAState(t *testing.T, path string) {
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
		// The start of the last game's opening state, as stored.
		var state []byte
		tx.Bucket([]byte("states")).ForEachBucket(func(game []byte) error {
			state = tx.Bucket([]byte("states")).Bucket(game).Get([]byte{0, 0, 0, 0})
			return nil
		})
		if len(state) < 32 {
			return errors.New("no stored state")
		}
		for id := 2; id < int(tx.Size())/page; id++ {
			if p, err := tx.Page(id); err == nil && p != nil && p.Type == "leaf" && bytes.Contains(raw[id*page:(id+1)*page], state[:32]) {
				leaf = id
			}
		}
		return nil
	})
	if err := errors.Join(err, db.Close()); err != nil || leaf == 0 {
		t.Fatalf("no page of a state: %v", err)
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

// The judge's page check after its start runs in a child process, the
// fieldpost binary itself: damage it finds there stops the judge with an
// error naming the database, and the copy it checked is removed.
func TestServeCheckInChildFindsDamage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fieldpost and waits for the judge's check")
	}
	bin := buildFieldpost(t, t.TempDir())
	j := newJudge(t)
	j.start() // creates the database and its key
	j.stop()
	for i := range 6 {
		mustRun(t, "game", "new", "--scenario", "tutorial", "--id", fmt.Sprintf("tutorial-%d", i),
			"--player", "us="+alice, "--player", "german="+bob, "--deadline", "none", "--config", j.conf)
	}
	damageAState(t, j.db)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	serve := exec.CommandContext(ctx, bin, "serve", "--config", j.conf)
	serve.Stderr = &stderr
	err := serve.Run()
	if exit, ok := errors.AsType[*exec.ExitError](err); !ok || exit.ExitCode() != 1 {
		t.Fatalf("the judge on a damaged database: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "database "+j.db+" is damaged") || !strings.Contains(stderr.String(), "the database is damaged: the judge stops") {
		t.Errorf("the judge does not say its database is damaged:\n%s", stderr.String())
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(j.db), ".check-*.db")); len(left) > 0 {
		t.Errorf("the checked copy is left: %v", left)
	}
}

// The child check tells a sound copy, a damaged one and a check that could
// not run apart.
func TestCheckCopyInChild(t *testing.T) {
	j := newJudge(t)
	j.start()
	j.stop()
	mustRun(t, "game", "new", "--scenario", "tutorial", "--id", "tutorial-1",
		"--player", "us="+alice, "--player", "german="+bob, "--config", j.conf)
	if damage, err := checkCopyInChild(t.Context(), j.db); damage != nil || err != nil {
		t.Errorf("a sound database: damage %v, err %v", damage, err)
	}
	missing := filepath.Join(t.TempDir(), "missing.db")
	if damage, err := checkCopyInChild(t.Context(), missing); damage != nil || err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing file: damage %v, err %v", damage, err)
	}
	damageAState(t, j.db)
	if damage, err := checkCopyInChild(t.Context(), j.db); damage == nil || err != nil {
		t.Errorf("a damaged database: damage %v, err %v", damage, err)
	}
}
