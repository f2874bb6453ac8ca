package pbem

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"strings"
	"sync"
	"time"

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
