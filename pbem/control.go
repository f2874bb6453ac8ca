package pbem

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fieldpost/engine"
	"fieldpost/pbem/config"
	"fieldpost/pbem/store"
)

// The control socket lets the command-line administration (fieldpost game,
// fieldpost backup) reach a running judge, which holds its database's
// lock. The protocol, one request a connection: the client sends a
// controlRequest as one JSON line, the judge answers with a
// controlResponse as one JSON line; for a backup, the database follows
// it, Size bytes. Only the judge's own user (and root) may connect: the
// socket is mode 0600.

// ControlSocket is the path of the control socket of the judge whose
// database is at database.
func ControlSocket(database string) string {
	return database + ".sock"
}

// The requests' operations.
const (
	opGames   = "games"   // every game: Games
	opGame    = "game"    // one game: Game
	opLadder  = "ladder"  // the club ladder: Ladder
	opAccount = "account" // a club mail account: ClubAccount
	opCommand = "command" // a GM command: Command and Args
	opBackup  = "backup"  // the database, after the response line
	// A mail handed over by the mail server (fieldpost deliver): Length
	// bytes of it follow the request line, Size is its whole size.
	opDeliver = "deliver"
	// The delivered mails set aside: SetAside; with Game set to one's id,
	// that mail, Size bytes after the response line.
	opSetAside = "set-aside"
)

type controlRequest struct {
	Op      string   `json:"op"`
	Game    string   `json:"game,omitempty"`
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	Size    int64    `json:"size,omitempty"`
	Length  int64    `json:"length,omitempty"`
}

type controlResponse struct {
	Error  string       `json:"error,omitempty"`
	Games  []GameInfo   `json:"games,omitempty"`
	Game   *GameInfo    `json:"game,omitempty"`
	Answer *AdminAnswer `json:"answer,omitempty"`
	Ladder []LadderRow  `json:"ladder,omitempty"`
	// Settings are a club account\'s, created or not.
	Settings string `json:"settings,omitempty"`
	// SetAside are the delivered mails set aside.
	SetAside []SetAsideMail `json:"set_aside,omitempty"`
	// Size is the length of the backup that follows the response line.
	Size int64 `json:"size,omitempty"`
}

const (
	// controlReadTimeout bounds the wait for a request once connected.
	controlReadTimeout = 10 * time.Second
	// controlWriteTimeout bounds each write of an answer: a client that
	// stops reading a backup must not hold its read transaction, which
	// would keep the database from growing, for long.
	controlWriteTimeout = 30 * time.Second
	// maxControlRequest bounds a request's size.
	maxControlRequest = 1 << 20
)

// control serves the control socket of a daemon.
type control struct {
	d    *daemon
	path string
	ln   *net.UnixListener
	wg   sync.WaitGroup
}

// startControl listens on the daemon's control socket. A judge that cannot
// still judges: the trouble is logged, and the administration cannot reach
// it.
func (d *daemon) startControl() *control {
	path := ControlSocket(d.cfg.Database)
	ln, err := listenControl(path)
	if err != nil {
		d.log.Error("no control socket: fieldpost game and backup cannot reach this judge", "socket", path, "err", err)
		return &control{}
	}
	c := &control{d: d, path: path, ln: ln}
	c.wg.Go(c.serve)
	d.log.Info("control socket open", "socket", path)
	return c
}

// listenControl listens on a unix socket at path, replacing a socket left
// there by a judge that did not shut down, after making sure that nothing
// answers on it.
func listenControl(path string) (*net.UnixListener, error) {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("%s exists and is not a socket", path)
		}
		if conn, err := net.DialTimeout("unix", path, time.Second); err == nil {
			conn.Close()
			return nil, fmt.Errorf("another program answers on %s", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("removing the stale socket: %w", err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	// Connecting needs write permission on the socket, which the usual
	// umask already keeps from others; this makes it so under any umask.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// stop stops listening, waits for the requests in hand and removes the
// socket.
func (c *control) stop() {
	if c.ln == nil {
		return
	}
	c.ln.Close() // removes the socket file too
	c.wg.Wait()
}

func (c *control) serve() {
	for {
		conn, err := c.ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			c.d.log.Error("control socket", "err", err)
			time.Sleep(100 * time.Millisecond) // e.g. out of file descriptors: do not spin
			continue
		}
		c.wg.Go(func() { c.handle(conn) })
	}
}

// handle answers one request.
func (c *control) handle(conn net.Conn) {
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(controlReadTimeout))
	var req controlRequest
	dec := json.NewDecoder(io.LimitReader(conn, maxControlRequest))
	err := dec.Decode(&req)
	if errors.Is(err, io.EOF) {
		return // OpenAdmin seeing whether the judge runs
	}
	if err != nil {
		c.d.log.Warn("control socket: unreadable request", "err", err)
		return
	}
	log := c.d.log.With("op", req.Op)
	log.Debug("control request", "game", req.Game, "command", req.Command)
	w := deadlineWriter{conn}
	var resp controlResponse
	switch req.Op {
	case opGames:
		resp.Games, err = c.d.store.Games(c.d.svc.opts.Systems)
	case opGame:
		resp.Game, err = c.d.store.Game(c.d.svc.opts.Systems, req.Game)
	case opLadder:
		resp.Ladder, err = c.d.store.Ladder()
	case opAccount:
		resp.Settings, err = c.d.svc.clubAccount(req.Game)
	case opCommand:
		resp.Answer, err = c.d.svc.Admin(context.Background(), req.Command, req.Args...)
	case opDeliver:
		// The request line was read through a buffer that may hold the
		// mail's first bytes, after the line's end.
		rest := bufio.NewReader(io.MultiReader(dec.Buffered(), conn))
		if b, err := rest.Peek(1); err == nil && b[0] == '\n' {
			rest.Discard(1)
		}
		var raw []byte
		if raw, err = io.ReadAll(io.LimitReader(rest, req.Length)); err == nil && int64(len(raw)) != req.Length {
			err = fmt.Errorf("the mail ended after %d of %d bytes", len(raw), req.Length)
		}
		if err == nil {
			err = c.d.svc.Deliver(context.Background(), raw, req.Size)
		}
	case opSetAside:
		if req.Game == "" {
			resp.SetAside, err = c.d.store.SetAside()
			break
		}
		var raw []byte
		if raw, err = c.d.store.SetAsideRaw(req.Game); err == nil {
			if err = writeJSONLine(w, &controlResponse{Size: int64(len(raw))}); err == nil {
				_, err = w.Write(raw)
			}
			if err != nil {
				log.Warn("control socket: answering", "err", err)
			}
			return
		}
	case opBackup:
		// The read transaction sees the database as it is at its start,
		// whatever the judge writes meanwhile.
		err = c.d.store.db.View(func(tx *store.Tx) error {
			if err := writeJSONLine(w, &controlResponse{Size: tx.Size()}); err != nil {
				return err
			}
			_, err := tx.WriteTo(w)
			return err
		})
		if err != nil {
			log.Error("control socket: backup", "err", err)
		} else {
			log.Info("backup sent")
		}
		return
	default:
		err = fmt.Errorf("unknown request %q", req.Op)
	}
	if err != nil {
		resp = controlResponse{Error: err.Error()}
	}
	if err := writeJSONLine(w, &resp); err != nil {
		log.Warn("control socket: answering", "err", err)
	}
}

func writeJSONLine(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v) // one line, ended by a newline
}

// deadlineWriter gives each write to a connection controlWriteTimeout.
type deadlineWriter struct{ conn net.Conn }

func (w deadlineWriter) Write(p []byte) (int, error) {
	w.conn.SetWriteDeadline(time.Now().Add(controlWriteTimeout))
	return w.conn.Write(p)
}

// AdminOptions say which judge to administer.
type AdminOptions struct {
	// Database is the judge's database; Config's when empty.
	Database string
	// Config is the judge's configuration: needed to change games when no
	// judge runs, for its address, server key, templates and defaults.
	Config *config.Config
	// Write opens the database for changes (Command) when no judge runs;
	// otherwise it is opened read-only.
	Write bool
	// Games are the game systems the judge hosts, to read its games when
	// no judge runs. Required.
	Games Games
}

// ErrNeedConfig: the judge is not running, and changing a game without it
// needs its configuration.
var ErrNeedConfig = errors.New("the judge is not running, and changing a game without it needs the judge's configuration")

// adminOpenTimeout is how long the administration waits for the database
// lock when no judge answers: whatever holds the lock then is not about
// to let it go.
const adminOpenTimeout = time.Second

// AdminConn administers a judge's database: through the control socket
// when the judge runs, directly on the database when it does not. Its
// methods behave the same either way, except that mail queued while the
// judge is not running waits in the outbox until it starts (see Live).
type AdminConn struct {
	database string
	socket   string
	live     bool
	store    *Store   // without a judge
	svc      *Service // without a judge, opened for Write
	systems  engine.Systems
}

// OpenAdmin connects to the judge of a database, or when none answers on
// its control socket opens the database itself.
func OpenAdmin(opts AdminOptions) (*AdminConn, error) {
	cfg := opts.Config
	database := opts.Database
	switch {
	case cfg != nil && database != "":
		copied := *cfg
		copied.Database, cfg = database, &copied
	case cfg != nil:
		database = cfg.Database
	case database == "":
		return nil, errors.New("no database given")
	}
	systems, err := hostedSystems(opts.Games, templatesOf(cfg))
	if err != nil {
		return nil, err
	}
	a := &AdminConn{database: database, socket: ControlSocket(database), systems: systems}
	conn, err := net.DialTimeout("unix", a.socket, 2*time.Second)
	if err == nil {
		conn.Close()
		a.live = true
		return a, nil
	}
	if errors.Is(err, fs.ErrPermission) {
		return nil, fmt.Errorf("reaching the judge on %s: %w (run this as the judge's user)", a.socket, err)
	}
	// No judge answers (no socket, or one a killed judge left): the
	// database is free, unless some other program holds it.
	if _, err := os.Stat(database); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("there is no database %s (the judge creates it when it first starts)", database)
	}
	if opts.Write && cfg == nil {
		return nil, ErrNeedConfig
	}
	db, err := openStore(database, !opts.Write, adminOpenTimeout)
	if errors.Is(err, store.ErrLocked) {
		return nil, fmt.Errorf("the database %s is in use by another program, and no judge answers on %s "+
			"(a judge without its control socket? see its log)", database, a.socket)
	}
	if err != nil {
		return nil, err
	}
	a.store = db
	if opts.Write {
		options, err := serviceOptions(cfg, Hooks{}, opts.Games, slog.New(slog.DiscardHandler), SystemClock(), false)
		if err == nil {
			// Without a sender: the judge sends the outbox when it starts.
			a.svc, err = NewService(db, nil, options)
		}
		if err != nil {
			db.Close()
			return nil, err
		}
	}
	return a, nil
}

// Live reports whether a judge is running: mail queued is sent at once.
// Otherwise it waits in the outbox until the judge starts.
func (a *AdminConn) Live() bool { return a.live }

// Database is the path of the database administered.
func (a *AdminConn) Database() string { return a.database }

// Close closes the database when it was opened directly.
func (a *AdminConn) Close() error {
	if a.store == nil {
		return nil
	}
	return a.store.Close()
}

// Games returns every game, in id order.
func (a *AdminConn) Games(ctx context.Context) ([]GameInfo, error) {
	if !a.live {
		return a.store.Games(a.systems)
	}
	resp, err := a.call(ctx, &controlRequest{Op: opGames}, nil)
	if err != nil {
		return nil, err
	}
	return resp.Games, nil
}

// Game returns a game.
func (a *AdminConn) Game(ctx context.Context, id string) (*GameInfo, error) {
	if !a.live {
		return a.store.Game(a.systems, id)
	}
	resp, err := a.call(ctx, &controlRequest{Op: opGame, Game: id}, nil)
	if err != nil {
		return nil, err
	}
	return resp.Game, nil
}

// Ladder returns the club ladder (Store.Ladder).
func (a *AdminConn) Ladder(ctx context.Context) ([]LadderRow, error) {
	if !a.live {
		return a.store.Ladder()
	}
	resp, err := a.call(ctx, &controlRequest{Op: opLadder}, nil)
	if err != nil {
		return nil, err
	}
	return resp.Ladder, nil
}

// ClubAccount creates an account on the running embedded judge's club
// mail server, and returns what a mail program needs to use it.
func (a *AdminConn) ClubAccount(ctx context.Context, name string) (string, error) {
	if !a.live {
		return "", errors.New("the judge is not running: club accounts are made by the running embedded judge (fieldpost serve without --config)")
	}
	resp, err := a.call(ctx, &controlRequest{Op: opAccount, Game: name}, nil)
	if err != nil {
		return "", err
	}
	return resp.Settings, nil
}

// Command runs a GM command (see Service.Admin).
func (a *AdminConn) Command(ctx context.Context, command string, args ...string) (*AdminAnswer, error) {
	if !a.live {
		if a.svc == nil {
			return nil, errors.New("the database is open read-only")
		}
		return a.svc.Admin(ctx, command, args...)
	}
	resp, err := a.call(ctx, &controlRequest{Op: opCommand, Command: command, Args: args}, nil)
	if err != nil {
		return nil, err
	}
	return resp.Answer, nil
}

// Deliver hands the judge one mail from the mail server (raw as
// mail.ReadMessage kept it, size its whole size): nil once its effects are
// committed (or it is set aside); an error when the judge could not take
// it, and the mail server should keep it.
func (a *AdminConn) Deliver(ctx context.Context, raw []byte, size int64) error {
	if !a.live {
		if a.svc == nil {
			return errors.New("the database is open read-only")
		}
		return a.svc.Deliver(ctx, raw, size)
	}
	_, err := a.callWithBody(ctx, &controlRequest{Op: opDeliver, Size: size, Length: int64(len(raw))}, raw, nil)
	return err
}

// SetAside lists the delivered mails the judge could not read.
func (a *AdminConn) SetAside(ctx context.Context) ([]SetAsideMail, error) {
	if !a.live {
		return a.store.SetAside()
	}
	resp, err := a.call(ctx, &controlRequest{Op: opSetAside}, nil)
	if err != nil {
		return nil, err
	}
	return resp.SetAside, nil
}

// SetAsideRaw returns a delivered mail set aside, as it came.
func (a *AdminConn) SetAsideRaw(ctx context.Context, id string) ([]byte, error) {
	if !a.live {
		return a.store.SetAsideRaw(id)
	}
	var raw []byte
	_, err := a.call(ctx, &controlRequest{Op: opSetAside, Game: id}, func(r io.Reader, size int64) (err error) {
		raw, err = io.ReadAll(r)
		if err == nil && int64(len(raw)) != size {
			err = fmt.Errorf("the judge sent %d of %d bytes", len(raw), size)
		}
		return err
	})
	return raw, err
}

// BackupInfo describes a backup made.
type BackupInfo struct {
	Path  string // absolute
	Size  int64
	Games int
}

// Backup copies the database, consistent as it is at one moment even
// while the judge writes to it, to a file at path, mode 0600: first to a
// temporary file beside it, checked to open as a judge's database, then
// renamed. The copy holds no server key: the key file must be kept too.
func (a *AdminConn) Backup(ctx context.Context, path string) (*BackupInfo, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if sameFile(abs, a.database) {
		return nil, fmt.Errorf("%s is the database itself", path)
	}
	f, err := os.CreateTemp(filepath.Dir(abs), filepath.Base(abs)+".*.tmp")
	if err != nil {
		return nil, err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after the rename, there is nothing left to remove
	err = f.Chmod(0o600)
	if err == nil {
		err = a.backupTo(ctx, f)
	}
	if err := errors.Join(err, f.Sync(), f.Close()); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	info := &BackupInfo{Path: abs}
	copied, err := openStore(tmp, true, adminOpenTimeout)
	if err != nil {
		return nil, fmt.Errorf("the backup does not open: %w", err)
	}
	var games []GameInfo
	err = copied.db.CatchDamage(func() (err error) {
		games, err = copied.Games(a.systems)
		return err
	})
	if err := errors.Join(err, copied.Close()); err != nil {
		return nil, fmt.Errorf("the backup does not read: %w", err)
	}
	info.Games = len(games)
	fi, err := os.Stat(tmp)
	if err != nil {
		return nil, err
	}
	info.Size = fi.Size()
	if err := os.Rename(tmp, abs); err != nil {
		return nil, err
	}
	return info, nil
}

func (a *AdminConn) backupTo(ctx context.Context, w io.Writer) error {
	if !a.live {
		return a.store.db.View(func(tx *store.Tx) error {
			_, err := tx.WriteTo(w)
			return err
		})
	}
	_, err := a.call(ctx, &controlRequest{Op: opBackup}, func(r io.Reader, size int64) error {
		n, err := io.Copy(w, r)
		if err == nil && n != size {
			err = fmt.Errorf("the judge sent %d of %d bytes", n, size)
		}
		return err
	})
	return err
}

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// call sends a request on the control socket and reads the answer; body,
// when given, reads what follows it.
func (a *AdminConn) call(ctx context.Context, req *controlRequest, body func(r io.Reader, size int64) error) (*controlResponse, error) {
	return a.callWithBody(ctx, req, nil, body)
}

// callWithBody is call with bytes sent after the request line.
func (a *AdminConn) callWithBody(ctx context.Context, req *controlRequest, sent []byte, body func(r io.Reader, size int64) error) (*controlResponse, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", a.socket)
	if err != nil {
		return nil, fmt.Errorf("reaching the judge on %s: %w", a.socket, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	resp, err := exchange(conn, req, sent, body)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return resp, err
}

func exchange(conn net.Conn, req *controlRequest, sent []byte, body func(r io.Reader, size int64) error) (*controlResponse, error) {
	if err := writeJSONLine(conn, req); err != nil {
		return nil, fmt.Errorf("asking the judge: %w", err)
	}
	if len(sent) > 0 {
		if _, err := conn.Write(sent); err != nil {
			return nil, fmt.Errorf("asking the judge: %w", err)
		}
	}
	r := bufio.NewReader(conn)
	line, err := r.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("the judge did not answer: %w", err)
	}
	var resp controlResponse
	if err := json.Unmarshal(line, &resp); err != nil {
		return nil, fmt.Errorf("the judge's answer: %w", err)
	}
	if resp.Error != "" {
		return nil, errors.New(resp.Error)
	}
	if body != nil {
		if err := body(io.LimitReader(r, resp.Size), resp.Size); err != nil {
			return nil, err
		}
	}
	return &resp, nil
}

// clubAccount creates a club mail account (Options.ClubAccount), refusing
// one that exists.
func (s *Service) clubAccount(name string) (string, error) {
	if s.opts.ClubAccount == nil {
		return "", errors.New("this judge has no club mail server of its own: only the embedded judge (fieldpost serve without --config) makes accounts")
	}
	settings, err := s.opts.ClubAccount(name)
	if err == nil && settings == "" {
		err = fmt.Errorf("the club has an account %q already", strings.ToLower(name))
	}
	return settings, err
}
