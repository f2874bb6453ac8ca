package pbem

import (
	"context"
	"slices"
	"testing"

	"fieldpost/engine/systems"
)

// CopyGame makes copies of a game that stand in the database as games of
// their own, each with the game's position and round; MeasureStorage
// counts what the database holds, more with the copies, and each round a
// game stored.
func TestCopyGameAndMeasureStorage(t *testing.T) {
	w := newWorld(t)
	w.start() // creates the database and the key
	w.waitSocket()
	w.stop()
	ctx := context.Background()
	a := openAdmin(t, AdminOptions{Games: systems.New, Config: w.cfg, Write: true})
	if answer, err := a.Command(ctx, "NEWGAME", "scenario=tutorial", "id=tutorial-1", "us="+alice, "german="+bob); err != nil || answer.Refused {
		t.Fatalf("NEWGAME: %+v %v", answer, err)
	}
	if answer, err := a.Command(ctx, "FORCE", "tutorial-1"); err != nil || answer.Refused {
		t.Fatalf("FORCE: %+v %v", answer, err)
	}
	a.Close()
	before, err := MeasureStorage(w.cfg.Database, "")
	if err != nil {
		t.Fatal(err)
	}

	a = openAdmin(t, AdminOptions{Games: systems.New, Config: w.cfg, Write: true})
	if err := a.CopyGame("tutorial-1", 3); err != nil {
		t.Fatal(err)
	}
	if err := a.CopyGame("no-such-game", 1); err == nil {
		t.Error("a game that does not exist was copied")
	}
	a.Close()

	reader := openAdmin(t, AdminOptions{Games: systems.New, Database: w.cfg.Database})
	games, err := reader.Games(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range games {
		ids = append(ids, g.ID)
		if g.Round != 2 {
			t.Errorf("game %s is at round %d, want the original's 2", g.ID, g.Round)
		}
	}
	slices.Sort(ids)
	if want := []string{"copy-1", "copy-2", "copy-3", "tutorial-1"}; !slices.Equal(ids, want) {
		t.Errorf("games %v, want %v", ids, want)
	}
	if _, err := reader.Game(ctx, "copy-2"); err != nil {
		t.Errorf("a copy cannot be read: %v", err)
	}
	reader.Close()

	after, err := MeasureStorage(w.cfg.Database, "tutorial-1")
	if err != nil {
		t.Fatal(err)
	}
	if after.Total <= before.Total {
		t.Errorf("the database holds %d bytes with the copies, %d without", after.Total, before.Total)
	}
	if len(after.Rounds) != 2 || after.Rounds[0] == 0 || after.Rounds[1] == 0 {
		t.Errorf("tutorial-1's rounds stored %v, want two rounds of some bytes", after.Rounds)
	}
	if _, err := MeasureStorage(w.cfg.Database, "no-such-game"); err == nil {
		t.Error("a game that does not exist was measured")
	}
}
