// Package web serves a club's games on the web: the list of games, each
// game's public page with its rounds and maps, a download of the whole
// game, the club's ladder, and each player's private page, reached by the
// secret its mails carry, from which the player may also check and send
// orders.
//
// The package holds the HTTP side: the routes, the security headers, the
// pages' templates, the cache and compression of the map pictures, the
// checks on a posted form, the error pages. What a page shows it asks of
// a [Source], which package pbem implements over the judge's store; it
// imports nothing of the judge, and the Source's methods say what may be
// shown to whom.
//
// Every page works without JavaScript; no page loads anything from
// another site, and none sends a Referer, so a secret in a link stays put.
package web

import (
	"bytes"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"fieldpost/engine"
)

// Config is what the pages need besides their Source.
type Config struct {
	// Templates holds the pages' templates, web/*.html.tmpl, and their
	// static files, web/static/.
	Templates fs.FS
	Log       *slog.Logger
	// BaseURL is the pages' public address, "" for none: behind a proxy,
	// the origin of the pages' own posts.
	BaseURL string
	// FormKey signs the tokens of the players' order forms.
	FormKey []byte
	// MaxOrders bounds the text of orders posted from a page, in bytes.
	MaxOrders int
}

// Pages are a club's web pages.
type Pages struct {
	src    Source
	cfg    Config
	pages  *htmltemplate.Template
	static fs.FS
	maps   pictureCache
}

// New reads the pages' templates.
func New(src Source, cfg Config) (*Pages, error) {
	funcs := htmltemplate.FuncMap{
		"utc":  func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
		"iso":  func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"join": strings.Join,
	}
	pages, err := htmltemplate.New("web").Funcs(funcs).ParseFS(cfg.Templates, "web/*.html.tmpl")
	if err != nil {
		return nil, fmt.Errorf("web templates: %w", err)
	}
	static, err := fs.Sub(cfg.Templates, "web/static")
	if err != nil {
		return nil, fmt.Errorf("web templates: %w", err)
	}
	return &Pages{src: src, cfg: cfg, pages: pages, static: static, maps: pictureCache{pics: map[string][]byte{}}}, nil
}

// Handler routes the pages.
func (p *Pages) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", p.gameList)
	mux.HandleFunc("GET /g/{game}", p.gamePage)
	mux.HandleFunc("GET /g/{game}/round/{n}", p.roundPage)
	mux.HandleFunc("GET /g/{game}/game.json", p.download)
	mux.HandleFunc("GET /p/{secret}", p.playerPage)
	mux.HandleFunc("POST /p/{secret}/orders", p.postOrders)
	mux.HandleFunc("GET /p/{secret}/deadlines.ics", p.deadlineFeed)
	mux.HandleFunc("GET /ladder", p.ladder)
	mux.HandleFunc("GET /p/{secret}/round/{n}", p.playerRoundPage)
	for _, f := range []engine.MapFormat{engine.SVG, engine.PNG} {
		mux.HandleFunc("GET /g/{game}/map."+string(f), func(rw http.ResponseWriter, r *http.Request) {
			p.picture(rw, r, f, func() (*Picture, error) { return p.src.Map(gameOf(r), 0) })
		})
		mux.HandleFunc("GET /g/{game}/round/{n}/map."+string(f), func(rw http.ResponseWriter, r *http.Request) {
			p.picture(rw, r, f, func() (*Picture, error) {
				n, err := roundOf(r)
				if err != nil {
					return nil, err
				}
				return p.src.Map(gameOf(r), n)
			})
		})
		mux.HandleFunc("GET /p/{secret}/map."+string(f), func(rw http.ResponseWriter, r *http.Request) {
			p.picture(rw, r, f, func() (*Picture, error) { return p.src.PlayerMap(secretOf(r), 0) })
		})
		mux.HandleFunc("GET /p/{secret}/round/{n}/map."+string(f), func(rw http.ResponseWriter, r *http.Request) {
			p.picture(rw, r, f, func() (*Picture, error) {
				n, err := roundOf(r)
				if err != nil {
					return nil, err
				}
				return p.src.PlayerMap(secretOf(r), n)
			})
		})
	}
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(p.static)))
	mux.HandleFunc("/", func(rw http.ResponseWriter, r *http.Request) { p.notFound(rw) })
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

// gameOf is a request's {game}; secretOf its {secret}.
func gameOf(r *http.Request) string   { return strings.ToLower(r.PathValue("game")) }
func secretOf(r *http.Request) string { return strings.ToLower(r.PathValue("secret")) }

// roundOf reads a request's {n}, a round's number.
func roundOf(r *http.Request) (int, error) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		return 0, ErrNotFound
	}
	return n, nil
}

func (p *Pages) gameList(rw http.ResponseWriter, r *http.Request) {
	games, err := p.src.Games()
	var running, ended []*Game
	for _, g := range games {
		if g.Ended {
			ended = append(ended, g)
		} else {
			running = append(running, g)
		}
	}
	p.render(rw, r, "games", err, map[string]any{"Running": running, "Ended": ended})
}

func (p *Pages) gamePage(rw http.ResponseWriter, r *http.Request) {
	g, err := p.src.Game(gameOf(r))
	p.render(rw, r, "game", err, g)
}

func (p *Pages) roundPage(rw http.ResponseWriter, r *http.Request) {
	n, err := roundOf(r)
	var v *Round
	if err == nil {
		v, err = p.src.Round(gameOf(r), n)
	}
	if err == nil {
		v.Base = "/g/" + gameOf(r)
	}
	p.showRound(rw, r, v, err)
}

// playerRoundPage is a round as a player's side saw it: its report and
// map, while the game is played as after.
func (p *Pages) playerRoundPage(rw http.ResponseWriter, r *http.Request) {
	n, err := roundOf(r)
	var v *Round
	if err == nil {
		v, err = p.src.PlayerRound(secretOf(r), n)
	}
	if err == nil {
		v.Base = "/p/" + secretOf(r)
	}
	p.showRound(rw, r, v, err)
}

// showRound shows a round's page, with the way to the rounds before and
// after it.
func (p *Pages) showRound(rw http.ResponseWriter, r *http.Request, v *Round, err error) {
	if err == nil {
		v.RoundsPlayed = len(v.Game.Rounds)
		v.Prev = v.Round.N - 1
		if v.Round.N < v.RoundsPlayed {
			v.Next = v.Round.N + 1
		}
	}
	p.render(rw, r, "round", err, v)
}

func (p *Pages) playerPage(rw http.ResponseWriter, r *http.Request) {
	pl, err := p.readPlayer(secretOf(r))
	if err == nil {
		p.fillForm(pl, "")
	}
	p.render(rw, r, "player", err, pl)
}

// readPlayer reads the page of a secret's player.
func (p *Pages) readPlayer(secret string) (*Player, error) {
	pl, err := p.src.Player(secret)
	if err != nil {
		return nil, err
	}
	pl.Secret = secret
	return pl, nil
}

func (p *Pages) download(rw http.ResponseWriter, r *http.Request) {
	data, err := p.src.Download(gameOf(r))
	if err != nil {
		p.fail(rw, r, err)
		return
	}
	rw.Header().Set("Content-Type", "application/json")
	rw.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", gameOf(r)+".json"))
	rw.Write(data)
}

func (p *Pages) ladder(rw http.ResponseWriter, r *http.Request) {
	l, err := p.src.Ladder()
	p.render(rw, r, "ladder", err, l)
}

// deadlineFeed is a player's iCalendar feed of its deadlines.
func (p *Pages) deadlineFeed(rw http.ResponseWriter, r *http.Request) {
	data, err := p.src.DeadlineFeed(secretOf(r))
	if err != nil {
		p.fail(rw, r, err)
		return
	}
	rw.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	rw.Write(data)
}

func (p *Pages) render(rw http.ResponseWriter, r *http.Request, name string, err error, data any) {
	if err != nil {
		p.fail(rw, r, err)
		return
	}
	var b bytes.Buffer
	if err := p.pages.ExecuteTemplate(&b, name+".html.tmpl", data); err != nil {
		p.fail(rw, r, err)
		return
	}
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.Write(b.Bytes())
}

// fail answers an error: a page not found looks the same whatever was
// not found; anything else is logged by its route, never its path, which
// may hold a secret.
func (p *Pages) fail(rw http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, ErrNotFound) {
		p.notFound(rw)
		return
	}
	p.cfg.Log.Error("web page", "route", r.Pattern, "err", err)
	http.Error(rw, "The judge could not show this page; the error is in its log.", http.StatusInternalServerError)
}

func (p *Pages) notFound(rw http.ResponseWriter) {
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.WriteHeader(http.StatusNotFound)
	if err := p.pages.ExecuteTemplate(rw, "notfound.html.tmpl", nil); err != nil {
		p.cfg.Log.Error("web page", "route", "not found", "err", err)
	}
}
