package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"fieldpost/engine"
	"fieldpost/engine/systems"
	"fieldpost/internal/clubjudge"
	"fieldpost/pbem"
	"fieldpost/pbem/config"
	"golang.org/x/sys/unix"
)

// build writes the judge's configuration and the database: the played
// games created by NEWGAME through the administration, the rest copies of
// the first.
func (run *loadRun) build(ctx context.Context, sc engine.ScenarioInfo) error {
	db := filepath.Join(run.opt.dir, "judge.db")
	run.conf = filepath.Join(run.opt.dir, "judge.conf")
	text := clubjudge.Config(run.srv, db, "deadline = 48h", "send_retry_min = 1s")
	if err := os.WriteFile(run.conf, []byte(text), 0o600); err != nil {
		return err
	}
	cfg, err := config.Load(run.conf, run.getenv)
	if err != nil {
		return err
	}
	run.cfg = cfg
	store, err := pbem.OpenStore(db)
	if err != nil {
		return err
	}
	if err := store.Close(); err != nil {
		return err
	}
	if _, err := pbem.LoadServerKey(db + ".key"); err != nil {
		return err
	}
	a, err := pbem.OpenAdmin(pbem.AdminOptions{Config: cfg, Write: true, Games: systems.New})
	if err != nil {
		return err
	}
	defer a.Close()
	for i := 1; i <= run.opt.played; i++ {
		args := []string{"scenario=" + run.opt.scenario, fmt.Sprintf("id=g%d", i)}
		for _, sd := range sc.Sides {
			args = append(args, sd.Name+"="+run.srv.Address(playerAccount(sd.Name, i)))
		}
		answer, err := a.Command(ctx, "NEWGAME", args...)
		if err != nil {
			return err
		}
		if answer.Refused {
			return fmt.Errorf("NEWGAME %s refused: %s", strings.Join(args, " "), answer.Text)
		}
	}
	return a.CopyGame("g1", run.opt.games-run.opt.played)
}

// getenv gives the judge's secrets to its configuration, as the
// environment gives them to the judge's process.
func (run *loadRun) getenv(name string) string {
	switch name {
	case config.EnvIMAPPassword, config.EnvSMTPPassword:
		return run.club.password(judgeAccount)
	case config.EnvGMSecret:
		return run.club.gmSecret
	}
	return ""
}

// judgeProcess is the judge under measure: the real binary, serving.
type judgeProcess struct {
	cmd     *exec.Cmd
	started time.Time
	done    chan error
	// logStart is the size of the log when this judge started.
	logStart int64
}

func (run *loadRun) startJudge() (*judgeProcess, error) {
	logFile, err := os.OpenFile(filepath.Join(run.opt.dir, "judge.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(run.opt.judge, "serve", "--config", run.conf)
	cmd.Env = os.Environ()
	for _, name := range []string{config.EnvIMAPPassword, config.EnvSMTPPassword, config.EnvGMSecret} {
		cmd.Env = append(cmd.Env, name+"="+run.getenv(name))
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	j := &judgeProcess{cmd: cmd, done: make(chan error, 1)}
	if fi, err := logFile.Stat(); err == nil {
		j.logStart = fi.Size()
	}
	j.started = time.Now()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("starting the judge %s: %w", run.opt.judge, err)
	}
	go func() {
		j.done <- cmd.Wait()
		logFile.Close()
	}()
	return j, nil
}

// waitLog waits until the judge's log, since this judge started, has a
// line with msg="what".
func (run *loadRun) waitLog(ctx context.Context, j *judgeProcess, what string, timeout time.Duration) error {
	limit := time.Now().Add(timeout)
	for {
		raw, err := os.ReadFile(filepath.Join(run.opt.dir, "judge.log"))
		if err != nil {
			return err
		}
		if bytes.Contains(raw[min(j.logStart, int64(len(raw))):], []byte(`msg="`+what+`"`)) {
			return nil
		}
		if time.Now().After(limit) {
			return fmt.Errorf("the judge's log did not say %q within %v", what, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-j.done:
			j.done <- err
			return fmt.Errorf("the judge ended (%v): see its log", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// waitSocket waits for the judge's control socket to answer and returns
// how long after the process started it did.
func (j *judgeProcess) waitSocket(ctx context.Context, database string) (time.Duration, error) {
	for ctx.Err() == nil {
		if conn, err := net.Dial("unix", pbem.ControlSocket(database)); err == nil {
			conn.Close()
			return time.Since(j.started), nil
		}
		select {
		case err := <-j.done:
			j.done <- err
			return 0, fmt.Errorf("the judge ended at its start (%v): see its log", err)
		case <-time.After(time.Millisecond):
		}
	}
	return 0, ctx.Err()
}

// memory reads the judge's resident memory from /proc.
func (j *judgeProcess) memory() procMemory {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", j.cmd.Process.Pid))
	if err != nil {
		return procMemory{}
	}
	var m procMemory
	for line := range strings.Lines(string(raw)) {
		key, val, _ := strings.Cut(line, ":")
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(val), " kB"))
		switch key {
		case "VmRSS":
			m.rss = n
		case "VmHWM":
			m.peak = n
		case "RssAnon":
			m.anon = n
		case "RssFile":
			m.file = n
		}
	}
	return m
}

// stop ends the judge gracefully and waits for it.
func (j *judgeProcess) stop() error {
	if err := j.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case err := <-j.done:
		j.done <- err
		if err != nil {
			return fmt.Errorf("the judge's stop: %w", err)
		}
		return nil
	case <-time.After(time.Minute):
		j.kill()
		return errors.New("the judge did not stop within a minute")
	}
}

// kill ends the judge at once, when it still runs.
func (j *judgeProcess) kill() {
	select {
	case err := <-j.done:
		j.done <- err
	default:
		j.cmd.Process.Kill()
		j.done <- <-j.done
	}
}

// dropFromCache takes the database file out of the page cache, so that
// the start reads it from the disk, and says how: posix_fadvise, which the
// file's owner may ask without root and which leaves the other programs'
// caches alone.
func dropFromCache(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "warm: " + err.Error()
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return "warm: " + err.Error()
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return "warm: fadvise: " + err.Error()
	}
	return "database file not in the page cache (fadvise DONTNEED)"
}
