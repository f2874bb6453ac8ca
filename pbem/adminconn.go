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
	"time"

	"fieldpost/engine"
	"fieldpost/pbem/config"
	"fieldpost/pbem/store"
)

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
