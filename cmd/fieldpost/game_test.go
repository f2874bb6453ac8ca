package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"fieldpost/engine/systems"
	"fieldpost/mail/mailtest"
	"fieldpost/pbem"
	"fieldpost/pbem/config"
	"fieldpost/pbem/store"
)

const (
	alice = "alice@example.org"
	bob   = "bob@example.de"
	gm    = "gm@club.example"
)

// judge is the mail judge of a configuration file, run in-process between
// in-process IMAP and SMTP servers.
type judge struct {
	t        *testing.T
	conf, db string
	smtp     *mailtest.SMTPServer
	taken    int
	halt     func()
}

func newJudge(t *testing.T) *judge {
	imap := mailtest.NewIMAPServer(t, nil)
	j := &judge{t: t, smtp: mailtest.NewSMTPServer(t, nil)}
	dir := t.TempDir()
	j.db = filepath.Join(dir, "fieldpost.db")
	j.conf = write(t, filepath.Join(dir, "fieldpost.conf"), fmt.Sprintf(
		"address = judge@club.example\ndatabase = %s\nimap_addr = %s\nimap_tls = none\nimap_username = %s\nimap_password = %s\n"+
			"smtp_addr = %s\nsmtp_tls = none\ngm_secret = gm-Xq7vT2pLw9kR\ngm_address = %s\ndeadline = 48h\n",
		j.db, imap.Addr, imap.Username, imap.Password, j.smtp.Addr, gm))
	t.Cleanup(j.stop)
	return j
}

// start runs the judge until stop, and waits until it answers on its
// control socket.
func (j *judge) start() {
	j.t.Helper()
	cfg, err := config.Load(j.conf, func(string) string { return "" })
	if err != nil {
		j.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- pbem.Serve(ctx, cfg, pbem.Hooks{}, systems.New, slog.New(slog.NewTextHandler(j.t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})))
	}()
	j.halt = func() {
		cancel()
		if err := <-done; err != nil {
			j.t.Errorf("the judge: %v", err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, err := net.Dial("unix", pbem.ControlSocket(j.db))
		if err == nil {
			conn.Close()
			return
		}
		if time.Now().After(deadline) {
			j.t.Fatalf("the judge does not answer on its socket: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (j *judge) stop() {
	if j.halt != nil {
		j.halt()
		j.halt = nil
	}
}

// mails returns the mails sent since the last call as "kind to", sorted,
// failing unless there are n.
func (j *judge) mails(n int) []string {
	j.t.Helper()
	all := j.smtp.WaitMessages(j.t, j.taken+n)
	if len(all) != j.taken+n {
		j.t.Fatalf("want %d mails, got %d", n, len(all)-j.taken)
	}
	var out []string
	for _, m := range all[j.taken:] {
		kind := regexp.MustCompile(`(?m)^X-Fieldpost-Kind: (\S+)`).FindSubmatch(m.Data)
		if kind == nil {
			j.t.Fatalf("a mail without a kind:\n%s", m.Data)
		}
		out = append(out, string(kind[1])+" "+strings.Join(m.To, ","))
	}
	j.taken = len(all)
	sort.Strings(out)
	return out
}

func wantMails(t *testing.T, got []string, want ...string) {
	t.Helper()
	sort.Strings(want)
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("mails sent: %v\nwant: %v", got, want)
	}
}

// mustFail runs a command that must fail with the exit status and a
// message containing want.
func mustFail(t *testing.T, code int, want string, args ...string) {
	t.Helper()
	got, out, errOut := fieldpost(t, args...)
	if got != code || !strings.Contains(errOut, want) {
		t.Errorf("fieldpost %s: exit %d, stdout %q, stderr %q; want exit %d with %q", strings.Join(args, " "), got, out, errOut, code, want)
	}
}

func contains(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("the output lacks %q:\n%s", w, out)
		}
	}
}

// backupGames opens a backup and returns its games' ids.
func backupGames(t *testing.T, path string) []string {
	t.Helper()
	db, err := store.Open(path, store.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	defer db.Close()
	var ids []string
	err = db.View(func(tx *store.Tx) error {
		for id := range tx.Games() {
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// Every administration command on the database of a judge that is not
// running: the mails they cause wait in the outbox and go out when the
// judge starts.
func TestGameCommandsWithoutJudge(t *testing.T) {
	j := newJudge(t)
	mustFail(t, 1, "there is no database", "game", "list", "--database", j.db)
	j.start() // creates the database and its key
	j.stop()
	conf, db := []string{"--config", j.conf}, []string{"--database", j.db}
	game := func(args ...string) string { return mustRun(t, append([]string{"game"}, args...)...) }

	if out := game(append([]string{"list"}, db...)...); out != "No games.\n" {
		t.Errorf("list: %q", out)
	}
	out := game(append([]string{"new", "--scenario", "tutorial", "--id", "tutorial-1", "--player", "us=" + alice, "--player", "german=" + bob,
		"--deadline", "2d"}, conf...)...)
	contains(t, out, "Game tutorial-1 is created: Saint-Aubin", "2 days a round", "Mails queued (3):", "welcome    to "+alice,
		"gm         to "+gm, "The judge is not running: they wait in its outbox and are sent when it next starts.")

	out = game(append([]string{"list"}, db...)...)
	contains(t, out, "GAME", "tutorial-1  tutorial  1      waiting for us, german")
	var games []pbem.GameInfo
	if err := json.Unmarshal([]byte(game(append([]string{"list", "--json"}, db...)...)), &games); err != nil || len(games) != 1 || games[0].PeriodSeconds != 2*86400 {
		t.Errorf("list --json: %+v %v", games, err)
	}
	out = game(append([]string{"show", "tutorial-1"}, db...)...)
	contains(t, out, "Game:        tutorial-1", "waiting for us, german; round 1", "Period:      2 days a round", alice, bob,
		"Outbox: 3 mails about this game waiting to be sent")
	var shown pbem.GameInfo
	if err := json.Unmarshal([]byte(game("show", "tutorial-1", "--json", "--database", j.db)), &shown); err != nil || shown.ID != "tutorial-1" || len(shown.Waiting) != 2 {
		t.Errorf("show --json: %+v %v", shown, err)
	}

	contains(t, game(append([]string{"pause", "tutorial-1"}, conf...)...), "paused game tutorial-1", "Mails queued (3)")
	mustFail(t, 1, "PAUSE refused: Game tutorial-1 is already paused", append([]string{"game", "pause", "tutorial-1"}, conf...)...)
	contains(t, game(append([]string{"resume", "tutorial-1"}, conf...)...), "resumed game tutorial-1")
	contains(t, game(append([]string{"extend", "tutorial-1", "1d"}, conf...)...), "The deadline for round 1 is now")
	contains(t, game(append([]string{"deadline", "tutorial-1", "2099-03-01", "18:00"}, conf...)...), "Sun 1 Mar 2099 18:00 UTC")
	contains(t, game(append([]string{"advance", "tutorial-1"}, conf...)...), "Round 1 of game tutorial-1 was played now", "Mails queued (5)",
		"defaulted  to "+bob, "report     to "+alice)
	contains(t, game(append([]string{"show", "tutorial-1"}, db...)...), "round 2", "1 round in all")
	contains(t, game(append([]string{"rollback", "tutorial-1"}, conf...)...), "undone round 1 of game tutorial-1")
	contains(t, game(append([]string{"end", "tutorial-1"}, conf...)...), "Game tutorial-1 is ended")
	contains(t, game(append([]string{"list"}, db...)...), "tutorial-1  tutorial  1      over")

	mustFail(t, 1, "needs the judge's configuration: give it with --config FILE", append([]string{"game", "pause", "tutorial-1"}, db...)...)
	mustFail(t, 1, `there is no game "nosuch"`, append([]string{"game", "show", "nosuch"}, db...)...)
	mustFail(t, 1, `There is no game "nosuch"`, append([]string{"game", "advance", "nosuch"}, conf...)...)
	mustFail(t, 1, `No scenario "nowhere"`, append([]string{"game", "new", "--scenario", "nowhere", "--id", "x", "--player", "us=" + alice}, conf...)...)

	backup := filepath.Join(t.TempDir(), "backup.db")
	out = mustRun(t, "backup", "--database", j.db, backup)
	contains(t, out, "Backed up "+j.db+" (1 game, ", "to "+backup+"; the judge is not running.", "keep a copy of its file too")
	contains(t, mustRun(t, "check-db", "--database", j.db), j.db+": every page reads (1 game, ")
	if ids := backupGames(t, backup); len(ids) != 1 || ids[0] != "tutorial-1" {
		t.Errorf("the backup holds %v", ids)
	}

	// Started, the judge sends everything the commands queued.
	j.start()
	queued := 3 + 3 + 3 + 3 + 3 + 5 + 3 + 3 // new, pause, resume, extend, deadline, advance, rollback, end
	mails := j.mails(queued)
	contains(t, strings.Join(mails, "\n"), "welcome "+alice, "welcome "+bob, "report "+bob, "game-over "+alice)
}

// The administration commands while the judge runs: through its control
// socket, the mails going out at once; a hot backup.
func TestGameCommandsWhileJudgeRuns(t *testing.T) {
	j := newJudge(t)
	j.start()
	conf := []string{"--config", j.conf}
	game := func(args ...string) string { return mustRun(t, append(append([]string{"game"}, args...), conf...)...) }

	out := game("new", "--scenario", "tutorial", "--id", "tutorial-1", "--player", "us="+alice, "--player", "german="+bob)
	contains(t, out, "Game tutorial-1 is created", "The judge is running: it sends them at once.")
	wantMails(t, j.mails(3), "welcome "+alice, "welcome "+bob, "gm "+gm)
	contains(t, game("list"), "tutorial-1  tutorial  1      waiting for us, german")
	contains(t, game("show", "tutorial-1"), "Deadline:", "Deadline:    ", "none yet")

	game("pause", "tutorial-1")
	wantMails(t, j.mails(3), "gm "+alice, "gm "+bob, "gm "+gm)
	contains(t, game("show", "tutorial-1"), "Status:      paused", "paused, 2 days left")
	game("resume", "tutorial-1")
	wantMails(t, j.mails(3), "gm "+alice, "gm "+bob, "gm "+gm)
	game("extend", "tutorial-1", "12h")
	wantMails(t, j.mails(3), "gm "+alice, "gm "+bob, "gm "+gm)
	contains(t, game("show", "tutorial-1"), "(in 2 days 12 hours)")
	game("advance", "tutorial-1")
	wantMails(t, j.mails(5), "defaulted "+alice, "defaulted "+bob, "report "+alice, "report "+bob, "gm "+gm)
	contains(t, game("list"), "tutorial-1  tutorial  2")
	game("rollback", "tutorial-1")
	wantMails(t, j.mails(3), "status "+alice, "status "+bob, "gm "+gm)
	mustFail(t, 1, "ROLLBACK refused: No round of game tutorial-1 has been played.", append([]string{"game", "rollback", "tutorial-1"}, conf...)...)

	// The database's path alone reaches the judge too, for every command.
	mustRun(t, "game", "pause", "tutorial-1", "--database", j.db)
	wantMails(t, j.mails(3), "gm "+alice, "gm "+bob, "gm "+gm)

	backup := filepath.Join(t.TempDir(), "backup.db")
	out = mustRun(t, append([]string{"backup", backup}, conf...)...)
	contains(t, out, "(1 game, ", "through the running judge")
	contains(t, mustRun(t, append([]string{"check-db"}, conf...)...), ": every page reads (1 game, ")
	if ids := backupGames(t, backup); len(ids) != 1 || ids[0] != "tutorial-1" {
		t.Errorf("the backup holds %v", ids)
	}
	mustFail(t, 1, "is the database itself", "backup", "--database", j.db, j.db)

	// A relative backup path is the command's, not the judge's.
	dir := t.TempDir()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := fieldpost(t, "backup", "--database", j.db, "relative.db")
	os.Chdir(wd)
	if _, err := os.Stat(filepath.Join(dir, "relative.db")); code != 0 || err != nil {
		t.Errorf("relative backup: exit %d %s, %v", code, errOut, err)
	}
}

// A socket left by a judge that was killed: the commands work on the
// database, and the judge replaces it when it starts.
func TestGameCommandsStaleSocket(t *testing.T) {
	j := newJudge(t)
	j.start()
	j.stop()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: pbem.ControlSocket(j.db), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Stat(pbem.ControlSocket(j.db)); err != nil {
		t.Fatal("no stale socket")
	}
	contains(t, mustRun(t, "game", "new", "--config", j.conf, "--scenario", "tutorial", "--id", "t1", "--player", "us="+alice, "--player", "german="+bob),
		"The judge is not running")
	j.start()
	wantMails(t, j.mails(3), "welcome "+alice, "welcome "+bob, "gm "+gm)
	contains(t, mustRun(t, "game", "pause", "t1", "--database", j.db), "The judge is running")
}

// A database held by another program gives a clear error at once.
func TestGameCommandsDatabaseLocked(t *testing.T) {
	j := newJudge(t)
	j.start()
	j.stop()
	db, err := store.Open(j.db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	mustFail(t, 1, "is in use by another program, and no judge answers on "+pbem.ControlSocket(j.db), "game", "list", "--database", j.db)
	mustFail(t, 1, "is in use by another program", "backup", "--config", j.conf, filepath.Join(t.TempDir(), "b.db"))
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the error took %v", d)
	}
}

func TestGameCommandLineMistakes(t *testing.T) {
	mustFail(t, 2, "usage: fieldpost game SUBCOMMAND", "game")
	mustFail(t, 1, `unknown subcommand "frobnicate"`, "game", "frobnicate")
	mustFail(t, 2, "usage: fieldpost game extend GAMEID DURATION", "game", "extend", "t1")
	mustFail(t, 2, "usage: fieldpost game show GAMEID", "game", "show")
	mustFail(t, 2, "usage: fieldpost game list", "game", "list", "extra")
	mustFail(t, 2, "usage: fieldpost game deadline", "game", "deadline", "t1")
	mustFail(t, 1, "--scenario, --id and a --player", "game", "new", "--id", "x")
	mustFail(t, 1, `--player "id=x": want SIDE=ADDRESS`, "game", "new", "--scenario", "tutorial", "--id", "x", "--player", "id=x")
	mustFail(t, 2, "usage: fieldpost backup", "backup")
	mustFail(t, 1, "configuration", "game", "list", "--config", filepath.Join(t.TempDir(), "missing.conf"))
	for _, c := range gameCommands {
		mustFail(t, 0, "usage: fieldpost game "+c.name+" "+c.usage, "game", c.name, "--help")
		// The flag package takes back-quoted text in a usage as the
		// argument's name: "-database fieldpost serve".
		mustFail(t, 0, "  -database string\n", "game", c.name, "--help")
	}
	mustFail(t, 0, "  -database string\n", "backup", "--help")
	mustFail(t, 0, "advance", "game", "--help")
}

// A bare fieldpost is a mistake: the usage, on stderr, exit 2; asked for,
// the usage goes to stdout with exit 0.
func TestBareFieldpost(t *testing.T) {
	if code, out, errOut := fieldpost(t); code != 2 || out != "" || !strings.Contains(errOut, "Usage: fieldpost COMMAND") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, out, _ := fieldpost(t, "--help"); code != 0 || !strings.Contains(out, "Usage: fieldpost COMMAND") {
		t.Errorf("--help: exit %d, stdout %q", code, out)
	}
}

// `game new` seats a team (docs/team-play.md): a player a seat, each
// mailed its welcome; `game show` names the seats.
func TestGameNewSeatsATeam(t *testing.T) {
	j := newJudge(t)
	j.start()
	j.stop()
	out := mustRun(t, "game", "new", "--config", j.conf, "--scenario", "arras", "--id", "corps", "--player", "allies="+alice,
		"--player", "allies.2=carol@example.org", "--player", "allies.3=empty", "--player", "german="+bob)
	contains(t, out, "Game corps is created", "allies.2 (Subordinate 1)", "welcome    to carol@example.org")
	contains(t, mustRun(t, "game", "show", "corps", "--database", j.db), "allies.2  carol@example.org")
}
