package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fieldpost/pbem/store/storetest"
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
	storetest.DamageAPosition(t, j.db)

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
	storetest.DamageAPosition(t, j.db)
	if damage, err := checkCopyInChild(t.Context(), j.db); damage == nil || err != nil {
		t.Errorf("a damaged database: damage %v, err %v", damage, err)
	}
}
