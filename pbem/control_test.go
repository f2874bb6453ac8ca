package pbem

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fieldpost/engine/systems"
	"fieldpost/pbem/store"
)

// waitSocket waits until the judge of w answers on its control socket.
func (w *world) waitSocket() {
	w.t.Helper()
	waitFor(w.t, "the control socket", func() bool {
		conn, err := net.Dial("unix", ControlSocket(w.cfg.Database))
		if err == nil {
			conn.Close()
		}
		return err == nil
	})
}

func openAdmin(t *testing.T, opts AdminOptions) *AdminConn {
	t.Helper()
	a, err := OpenAdmin(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// staleSocket leaves a socket file at path that nothing listens on, as a
// judge killed leaves it.
func staleSocket(t *testing.T, path string) {
	t.Helper()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
}

// The administration through the running judge's control socket: GM
// commands whose mails go out at once, the views, a hot backup; the
// socket is private and removed at shutdown.
func TestControlSocketWhileRunning(t *testing.T) {
	w := newWorld(t)
	w.start()
	w.waitSocket()
	socket := ControlSocket(w.cfg.Database)
	if fi, err := os.Stat(socket); err != nil || fi.Mode().Perm() != 0o600 || fi.Mode().Type() != fs.ModeSocket {
		t.Fatalf("the socket: %v %v", fi.Mode(), err)
	}
	a := openAdmin(t, AdminOptions{Games: systems.New, Database: w.cfg.Database, Write: true})
	if !a.Live() {
		t.Fatal("the running judge is not reached")
	}
	ctx := context.Background()
	answer, err := a.Command(ctx, "NEWGAME", "scenario=tutorial", "id=tutorial-1", "us="+alice, "german="+bob)
	if err != nil || answer.Refused || len(answer.Mails) != 3 {
		t.Fatalf("NEWGAME: %+v %v", answer, err)
	}
	w.settle()
	mails := w.take(3)
	byKind(t, mails, kindWelcome, alice)
	byKind(t, mails, kindWelcome, bob)
	if m := byKind(t, mails, kindGM, testGM); !strings.Contains(m.Text, "Game tutorial-1 is created") {
		t.Errorf("the GM's answer:\n%s", m.Text)
	}

	if answer, err = a.Command(ctx, "PAUSE", "tutorial-1"); err != nil || answer.Subject != "Game paused" {
		t.Fatalf("PAUSE: %+v %v", answer, err)
	}
	w.settle()
	w.take(3)
	if answer, err = a.Command(ctx, "RESUME", "nosuch"); err != nil || !answer.Refused || !strings.Contains(answer.Text, "no game") {
		t.Errorf("RESUME nosuch: %+v %v", answer, err)
	}
	if _, err := a.Command(ctx, "STATUS", "tutorial-1"); err == nil || !strings.Contains(err.Error(), "not a GM command") {
		t.Errorf("STATUS: %v", err)
	}
	games, err := a.Games(ctx)
	if err != nil || len(games) != 1 || !games[0].Paused {
		t.Fatalf("games: %+v %v", games, err)
	}
	g, err := a.Game(ctx, "tutorial-1")
	if err != nil || g.Status() != "paused" || len(g.Sides) != 2 {
		t.Errorf("game: %+v %v", g, err)
	}
	if _, err := a.Game(ctx, "nosuch"); err == nil || !strings.Contains(err.Error(), `no game "nosuch"`) {
		t.Errorf("no such game: %v", err)
	}

	backup := filepath.Join(t.TempDir(), "backup.db")
	info, err := a.Backup(ctx, backup)
	if err != nil || info.Games != 1 || info.Path != backup || info.Size == 0 {
		t.Fatalf("backup: %+v %v", info, err)
	}
	if fi, _ := os.Stat(backup); fi.Mode().Perm() != 0o600 {
		t.Errorf("the backup's mode: %v", fi.Mode())
	}
	copied, err := openStore(backup, true, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if g := gameRecord(t, copied, "tutorial-1"); !g.Paused {
		t.Errorf("the backup's game: %+v", g)
	}
	copied.Close()
	if _, err := a.Backup(ctx, w.cfg.Database); err == nil || !strings.Contains(err.Error(), "is the database itself") {
		t.Errorf("backup over the database: %v", err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(backup), "*.tmp")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}

	w.stop()
	if _, err := os.Stat(socket); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the socket is left after shutdown: %v", err)
	}
	if _, err := a.Games(ctx); err == nil {
		t.Error("a stopped judge answers")
	}
}

// Without a running judge the administration opens the database itself:
// read-only for the views, with the judge's configuration for commands,
// whose mails wait in the outbox until the judge starts. A stale socket
// is no obstacle, to the administration or to the judge starting.
func TestAdminWithoutJudge(t *testing.T) {
	w := newWorld(t)
	if _, err := OpenAdmin(AdminOptions{Games: systems.New, Database: w.cfg.Database}); err == nil || !strings.Contains(err.Error(), "there is no database") {
		t.Fatalf("no database: %v", err)
	}
	w.start() // creates the database and the key
	w.waitSocket()
	w.stop()
	staleSocket(t, ControlSocket(w.cfg.Database))

	if _, err := OpenAdmin(AdminOptions{Games: systems.New, Database: w.cfg.Database, Write: true}); !errors.Is(err, ErrNeedConfig) {
		t.Errorf("a command without the configuration: %v", err)
	}
	a := openAdmin(t, AdminOptions{Games: systems.New, Config: w.cfg, Write: true})
	if a.Live() {
		t.Fatal("a stale socket is taken for a judge")
	}
	ctx := context.Background()
	answer, err := a.Command(ctx, "NEWGAME", "scenario=tutorial", "id=tutorial-1", "us="+alice, "german="+bob)
	if err != nil || answer.Refused || len(answer.Mails) != 3 {
		t.Fatalf("NEWGAME: %+v %v", answer, err)
	}
	if answer, err = a.Command(ctx, "FORCE", "tutorial-1"); err != nil || answer.Subject != "Round 1 played" {
		t.Fatalf("FORCE: %+v %v", answer, err)
	}
	backup := filepath.Join(t.TempDir(), "backup.db")
	if info, err := a.Backup(ctx, backup); err != nil || info.Games != 1 {
		t.Fatalf("backup: %+v %v", info, err)
	}
	a.Close()

	reader := openAdmin(t, AdminOptions{Games: systems.New, Database: w.cfg.Database})
	if g, err := reader.Game(ctx, "tutorial-1"); err != nil || g.Round != 2 || g.MailWaiting != 8 {
		t.Errorf("game: %+v %v", g, err)
	}
	if _, err := reader.Command(ctx, "PAUSE", "tutorial-1"); err == nil {
		t.Error("a read-only administration changed a game")
	}
	reader.Close()

	// The judge replaces the stale socket and sends what was queued, by
	// the system's clock, which the world's fake clock is moved to.
	w.clock.Advance(time.Since(w.clock.Now()))
	w.start()
	w.waitSocket()
	w.settle()
	mails := w.take(8)
	byKind(t, mails, kindWelcome, alice)
	byKind(t, mails, kindReport, bob)
	if live := openAdmin(t, AdminOptions{Games: systems.New, Database: w.cfg.Database}); !live.Live() {
		t.Error("the restarted judge is not reached")
	}
}

// A database another program holds is reported at once, clearly.
func TestAdminDatabaseLocked(t *testing.T) {
	w := newWorld(t)
	w.start()
	w.waitSocket()
	w.stop()
	db, err := store.Open(w.cfg.Database, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	_, err = OpenAdmin(AdminOptions{Games: systems.New, Database: w.cfg.Database})
	if err == nil || !strings.Contains(err.Error(), "is in use by another program") || time.Since(start) > 3*time.Second {
		t.Errorf("after %v: %v", time.Since(start), err)
	}
}

// Something that is not a socket where the socket goes is left alone: the
// judge runs without the control socket and says so.
func TestControlSocketPathTaken(t *testing.T) {
	w := newWorld(t)
	socket := ControlSocket(w.cfg.Database)
	if err := os.WriteFile(socket, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.start()
	waitFor(t, "the judge to start", func() bool { return strings.Contains(w.logs.String(), "no control socket") })
	w.stop()
	if raw, err := os.ReadFile(socket); err != nil || string(raw) != "mine" {
		t.Errorf("the file was touched: %q %v", raw, err)
	}
}
