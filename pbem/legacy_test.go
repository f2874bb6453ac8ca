package pbem

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A database written by the release before the game-system seam (testdata/
// release-2026-11.db.gz: game tutorial-1 after round 1, with us's orders
// for round 2 in) opens and plays on: its games carry no system name, and
// their positions, orders and events are Star General's JSON as it was.
func TestDatabaseOfThePreviousReleasePlaysOn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "judge.db")
	unzipFile(t, "testdata/release-2026-11.db.gz", path)
	store, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	j := newJudgeOn(t, store, nil)

	info, err := store.Game(testSystems(t), "tutorial-1")
	if err != nil {
		t.Fatal(err)
	}
	if info.System != "stargeneral" || info.Round != 2 || strings.Join(info.Waiting, ",") != "german" || info.Sides[0].SP == 0 {
		t.Fatalf("game show of the old game: %+v", info)
	}

	// The round played by the old release is reported again.
	g := gameRecord(t, store, "tutorial-1")
	password := "PASSWORD " + deriveSecret(testServerKey, g, "german") + "\n"
	j.handle(clientMail{From: bob, To: testJudge, Subject: "history", Body: password + "HISTORY 1 tutorial-1\n"})
	h := byKind(t, j.takeN(1), kindHistory, bob)
	if !strings.Contains(h.Text, "ORDERS PLAYED: us") || !strings.Contains(h.Text, "Dice seed for this round") {
		t.Errorf("HISTORY 1 of the old round:\n%s", h.Text)
	}

	// German's orders complete round 2 with us's orders stored by the old
	// release.
	j.handle(clientMail{From: bob, To: testJudge, Subject: "status", Body: password + "STATUS tutorial-1\n"})
	status := byKind(t, j.takeN(1), kindStatus, bob)
	j.handle(status.reply(bob, status.Form()))
	mails := j.takeN(3)
	for _, to := range []string{alice, bob} {
		r := byKind(t, mails, kindReport, to)
		if r.Round() != "2" || !strings.Contains(r.Text, "day 1 of 1, round 2 of 5") {
			t.Errorf("report of round 2 to %s: %s\n%s", to, r, r.Text)
		}
	}
}

func unzipFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	z, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, z); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
