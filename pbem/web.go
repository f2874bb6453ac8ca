package pbem

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"fieldpost/engine"
	"fieldpost/pbem/store"
)

// webPages serves a club's games on the web: the list of games, each
// game's public page with its rounds, a download of the whole game, and
// each player's private page, reached by the secret its mails carry.
// Every page works without JavaScript; no page loads anything from
// another site, and none sends a Referer, so a secret in a link stays put.
type webPages struct {
	store   *Store
	systems engine.Systems
	pages   *htmltemplate.Template
	static  fs.FS
	log     *slog.Logger
	// desk takes orders from the players' pages; nil when the pages only
	// show (the form is then to be mailed).
	desk *Service

	// maps caches the pictures drawn: a position never changes once
	// stored, so a picture is drawn once (a rollback draws new turns under
	// new keys, the game's seed being in them).
	mu   sync.Mutex
	maps map[string][]byte
}

// maxCachedMaps bounds the map cache; past it the cache starts afresh.
const maxCachedMaps = 256

func newWebPages(store *Store, systems engine.Systems, templates fs.FS, log *slog.Logger) (*webPages, error) {
	funcs := htmltemplate.FuncMap{
		"utc":  func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
		"iso":  func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"join": strings.Join,
	}
	pages, err := htmltemplate.New("web").Funcs(funcs).ParseFS(templates, "web/*.html.tmpl")
	if err != nil {
		return nil, fmt.Errorf("web templates: %w", err)
	}
	static, err := fs.Sub(templates, "web/static")
	if err != nil {
		return nil, fmt.Errorf("web templates: %w", err)
	}
	return &webPages{store: store, systems: systems, pages: pages, static: static, log: log, maps: map[string][]byte{}}, nil
}

// handler routes the pages.
func (w *webPages) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", w.gameList)
	mux.HandleFunc("GET /g/{game}", w.gamePage)
	mux.HandleFunc("GET /g/{game}/round/{n}", w.roundPage)
	mux.HandleFunc("GET /g/{game}/game.json", w.download)
	mux.HandleFunc("GET /p/{secret}", w.playerPage)
	mux.HandleFunc("POST /p/{secret}/orders", w.postOrders)
	mux.HandleFunc("GET /p/{secret}/deadlines.ics", w.deadlineFeed)
	mux.HandleFunc("GET /ladder", w.ladder)
	mux.HandleFunc("GET /p/{secret}/round/{n}", w.playerRoundPage)
	for _, f := range []engine.MapFormat{engine.SVG, engine.PNG} {
		mux.HandleFunc("GET /g/{game}/map."+string(f), func(rw http.ResponseWriter, r *http.Request) { w.gameMap(rw, r, f) })
		mux.HandleFunc("GET /g/{game}/round/{n}/map."+string(f), func(rw http.ResponseWriter, r *http.Request) { w.roundMap(rw, r, f) })
		mux.HandleFunc("GET /p/{secret}/map."+string(f), func(rw http.ResponseWriter, r *http.Request) { w.playerMap(rw, r, f) })
		mux.HandleFunc("GET /p/{secret}/round/{n}/map."+string(f), func(rw http.ResponseWriter, r *http.Request) { w.playerRoundMap(rw, r, f) })
	}
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(w.static)))
	mux.HandleFunc("/", func(rw http.ResponseWriter, r *http.Request) { w.notFound(rw) })
	return securityHeaders(mux)
}

// securityHeaders keeps secrets in links from leaking (no Referer), lets
// nothing be loaded from elsewhere, and keeps the pages out of frames.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		h := rw.Header()
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'")
		if strings.HasPrefix(r.URL.Path, "/p/") {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(rw, r)
	})
}

// errNotFound is a page that does not exist: a game, a round or a secret
// that is nobody's look the same.
var errNotFound = errors.New("not found")

func (w *webPages) view(fn func(t storeTx) error) error {
	return w.store.db.View(func(tx *store.Tx) error { return fn(storeTx{tx}) })
}

// game reads the game of a request's {game}.
func (w *webPages) game(t storeTx, r *http.Request) (*Game, error) {
	id := strings.ToLower(r.PathValue("game"))
	if !validGameID(id) {
		return nil, errNotFound
	}
	g, err := t.game(id)
	if err == nil && g == nil {
		err = errNotFound
	}
	return g, err
}

// player reads the game and side of a request's {secret}.
func (w *webPages) player(t storeTx, r *http.Request) (*Game, string, error) {
	g, side, err := gameBySecret(t, r.PathValue("secret"))
	if err == nil && g == nil {
		err = errNotFound
	}
	return g, side, err
}

func (w *webPages) gameList(rw http.ResponseWriter, r *http.Request) {
	var running, ended []*gamePage
	err := w.view(func(t storeTx) error {
		games, err := t.games()
		if err != nil {
			return err
		}
		for _, g := range games {
			p, err := readGamePage(w.systems, t, g)
			if err != nil {
				return err
			}
			if g.Ended {
				ended = append(ended, p)
			} else {
				running = append(running, p)
			}
		}
		return nil
	})
	w.render(rw, r, "games", err, map[string]any{"Running": running, "Ended": ended})
}

func (w *webPages) gamePage(rw http.ResponseWriter, r *http.Request) {
	var p *gamePage
	err := w.view(func(t storeTx) error {
		g, err := w.game(t, r)
		if err != nil {
			return err
		}
		if p, err = readGamePage(w.systems, t, g); err != nil {
			return err
		}
		judge := ""
		if w.desk != nil {
			judge = w.desk.opts.Address
		}
		p.Holders = readSeats(g, judge)
		if g.Ended {
			// Table talk is private until the game ends.
			p.Talk, err = t.talk(g.ID)
		}
		return err
	})
	w.render(rw, r, "game", err, p)
}

// roundView is a round's page: the round, its report, and the way to the
// rounds before and after. The public's is at /g/GAME/round/N; a player's,
// with its side's report and map, under its private page.
type roundView struct {
	Game         *gamePage
	Round        roundSummary
	Report       string
	Prev, Next   int // 0 for none
	LastRound    bool
	RoundsPlayed int
	// Base is where the round pages are: "/g/GAME", or "/p/SECRET" for a
	// player's; Side the player's side, "" on the public's.
	Base, Side string
}

func (w *webPages) roundPage(rw http.ResponseWriter, r *http.Request) {
	var v roundView
	err := w.view(func(t storeTx) error {
		g, err := w.game(t, r)
		if err != nil {
			return err
		}
		v.Base = "/g/" + g.ID
		return readRoundView(w.systems, t, g, r, publicView(g), &v)
	})
	w.render(rw, r, "round", err, &v)
}

// playerRoundPage is a round as a player's side saw it: its report and
// map, while the game is played as after.
func (w *webPages) playerRoundPage(rw http.ResponseWriter, r *http.Request) {
	var v roundView
	err := w.view(func(t storeTx) error {
		g, side, err := w.player(t, r)
		if err != nil {
			return err
		}
		v.Base, v.Side = "/p/"+strings.ToLower(r.PathValue("secret")), side
		return readRoundView(w.systems, t, g, r, side, &v)
	})
	w.render(rw, r, "round", err, &v)
}

// readRoundView reads the round of a request's {n} with its report as
// side reads it.
func readRoundView(systems engine.Systems, t storeTx, g *Game, r *http.Request, side string, v *roundView) error {
	turn, err := roundOf(g, r)
	if err != nil {
		return err
	}
	if v.Game, err = readGamePage(systems, t, g); err != nil {
		return err
	}
	v.Round = v.Game.Rounds[turn]
	p, err := readPlayed(systems, t, g, turn)
	if err != nil {
		return err
	}
	if v.Report, err = p.report(side); err != nil {
		return err
	}
	v.Prev, v.RoundsPlayed = turn, g.Turn
	if turn+2 <= g.Turn {
		v.Next = turn + 2
	}
	v.LastRound = v.Next == 0
	return nil
}

// roundOf reads a request's {n}: a round played.
func roundOf(g *Game, r *http.Request) (int, error) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil {
		return 0, errNotFound
	}
	turn, err := roundMapTurn(g, n)
	if err != nil {
		return 0, errNotFound
	}
	return turn, nil
}

func (w *webPages) playerPage(rw http.ResponseWriter, r *http.Request) {
	p, err := w.readPlayer(r)
	if err == nil {
		w.fillForm(p, "")
	}
	w.render(rw, r, "player", err, p)
}

func (w *webPages) download(rw http.ResponseWriter, r *http.Request) {
	var b bytes.Buffer
	var id string
	err := w.view(func(t storeTx) error {
		g, err := w.game(t, r)
		if err != nil {
			return err
		}
		p, err := readGamePage(w.systems, t, g)
		if err != nil {
			return err
		}
		if !p.Download {
			return errNotFound
		}
		id = g.ID
		return writeGameDownload(&b, w.systems, t, g)
	})
	if err != nil {
		w.fail(rw, r, err)
		return
	}
	rw.Header().Set("Content-Type", "application/json")
	rw.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", id+".json"))
	rw.Write(b.Bytes())
}

// The pages show the SVG map, which stays sharp at every zoom; a game
// system that does not draw SVG sends the browser on to the PNG.

// mapDrawer draws a map for a side in a format: Position.Map or Round.Map.
type mapDrawer func(w io.Writer, side string, f engine.MapFormat) error

// gameMap is the current position as the public sees it.
func (w *webPages) gameMap(rw http.ResponseWriter, r *http.Request, f engine.MapFormat) {
	w.picture(rw, r, f, func(t storeTx) (string, mapDrawer, string, error) {
		g, err := w.game(t, r)
		if err != nil {
			return "", nil, "", err
		}
		pos, err := loadPosition(w.systems, t, g, g.Turn)
		if err != nil {
			return "", nil, "", err
		}
		return mapKey(g, g.Turn, publicView(g), "now"), pos.Map, publicView(g), nil
	})
}

// roundMap is the position after a round, with what happened in it.
func (w *webPages) roundMap(rw http.ResponseWriter, r *http.Request, f engine.MapFormat) {
	w.picture(rw, r, f, func(t storeTx) (string, mapDrawer, string, error) {
		g, err := w.game(t, r)
		if err != nil {
			return "", nil, "", err
		}
		turn, err := roundOf(g, r)
		if err != nil {
			return "", nil, "", err
		}
		p, err := readPlayed(w.systems, t, g, turn)
		if err != nil {
			return "", nil, "", err
		}
		return mapKey(g, turn, publicView(g), "round"), p.round.Map, publicView(g), nil
	})
}

// playerMap is the current position as a player sees it.
func (w *webPages) playerMap(rw http.ResponseWriter, r *http.Request, f engine.MapFormat) {
	w.picture(rw, r, f, func(t storeTx) (string, mapDrawer, string, error) {
		g, side, err := w.player(t, r)
		if err != nil {
			return "", nil, "", err
		}
		pos, err := loadPosition(w.systems, t, g, g.Turn)
		if err != nil {
			return "", nil, "", err
		}
		if !pos.HidesInformation() {
			side = ""
		}
		return mapKey(g, g.Turn, side, "now"), pos.Map, side, nil
	})
}

// playerRoundMap is the position after a round as a player's side saw it.
func (w *webPages) playerRoundMap(rw http.ResponseWriter, r *http.Request, f engine.MapFormat) {
	w.picture(rw, r, f, func(t storeTx) (string, mapDrawer, string, error) {
		g, side, err := w.player(t, r)
		if err != nil {
			return "", nil, "", err
		}
		turn, err := roundOf(g, r)
		if err != nil {
			return "", nil, "", err
		}
		p, err := readPlayed(w.systems, t, g, turn)
		if err != nil {
			return "", nil, "", err
		}
		if !p.after.HidesInformation() {
			side = ""
		}
		return mapKey(g, turn, side, "round"), p.round.Map, side, nil
	})
}

// mapKey names a picture: the game's seed tells a position replayed after
// a rollback from the one undone.
func mapKey(g *Game, turn int, side, what string) string {
	return fmt.Sprintf("%s/%d/%d/%s/%s", g.ID, g.Seed, turn, side, what)
}

// mapTypes are the content types of the map formats the pages serve.
var mapTypes = map[engine.MapFormat]string{engine.PNG: "image/png", engine.SVG: "image/svg+xml"}

// picture serves a map in format f, drawn once: find names it, and gives
// its drawer and the side it is drawn for. A system that does not draw an
// SVG sends the browser to the PNG at the same place.
func (w *webPages) picture(rw http.ResponseWriter, r *http.Request, f engine.MapFormat, find func(t storeTx) (string, mapDrawer, string, error)) {
	var key, side string
	var draw mapDrawer
	err := w.view(func(t storeTx) error {
		var err error
		key, draw, side, err = find(t)
		return err
	})
	if err != nil {
		w.fail(rw, r, err)
		return
	}
	key += "/" + string(f)
	w.mu.Lock()
	pic, ok := w.maps[key]
	w.mu.Unlock()
	if !ok {
		var b bytes.Buffer
		err := draw(&b, side, f)
		switch {
		case errors.Is(err, engine.ErrMapFormat) && f != engine.PNG:
			// Remembered as drawn in no bytes.
		case err != nil:
			w.fail(rw, r, err)
			return
		}
		pic = b.Bytes()
		if err != nil {
			pic = []byte{}
		}
		w.mu.Lock()
		if len(w.maps) >= maxCachedMaps {
			w.maps = map[string][]byte{}
		}
		w.maps[key] = pic
		w.mu.Unlock()
	}
	if len(pic) == 0 && f != engine.PNG {
		http.Redirect(rw, r, strings.TrimSuffix(r.URL.Path, "."+string(f))+".png", http.StatusFound)
		return
	}
	rw.Header().Set("Content-Type", mapTypes[f])
	if f == engine.SVG {
		// An SVG is text: compressed it is a fifth of its size.
		rw.Header().Set("Vary", "Accept-Encoding")
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			rw.Header().Set("Content-Encoding", "gzip")
			pic = w.gzipped(key, pic)
		}
	}
	rw.Write(pic)
}

// gzipped is a picture compressed, kept beside it.
func (w *webPages) gzipped(key string, pic []byte) []byte {
	key += "/gzip"
	w.mu.Lock()
	gz, ok := w.maps[key]
	w.mu.Unlock()
	if ok {
		return gz
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(pic) // writing to memory cannot fail
	zw.Close()
	w.mu.Lock()
	w.maps[key] = b.Bytes()
	w.mu.Unlock()
	return b.Bytes()
}

func (w *webPages) render(rw http.ResponseWriter, r *http.Request, name string, err error, data any) {
	if err != nil {
		w.fail(rw, r, err)
		return
	}
	var b bytes.Buffer
	if err := w.pages.ExecuteTemplate(&b, name+".html.tmpl", data); err != nil {
		w.fail(rw, r, err)
		return
	}
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.Write(b.Bytes())
}

// fail answers an error: a page not found looks the same whatever was
// not found; anything else is logged by its route, never its path, which
// may hold a secret.
func (w *webPages) fail(rw http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, errNotFound) {
		w.notFound(rw)
		return
	}
	w.log.Error("web page", "route", r.Pattern, "err", err)
	http.Error(rw, "The judge could not show this page; the error is in its log.", http.StatusInternalServerError)
}

func (w *webPages) notFound(rw http.ResponseWriter) {
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.WriteHeader(http.StatusNotFound)
	if err := w.pages.ExecuteTemplate(rw, "notfound.html.tmpl", nil); err != nil {
		w.log.Error("web page", "route", "not found", "err", err)
	}
}
