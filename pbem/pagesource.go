package pbem

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"slices"
	"strings"

	"fieldpost/pbem/store"
	"github.com/emersion/go-ical"

	"fieldpost/engine"
	"fieldpost/pbem/web"
)

// pageSource is what the web pages (package web) show of the judge's
// games, read from its store, and the desk that takes orders from a
// player's page. Public pages get the public's view (publicView): for a
// system that hides things, only what is nobody's secret while the game
// is played, everything once it is over; a player's pages get its own
// side's.
type pageSource struct{ s *Service }

var _ web.Source = pageSource{}

// newWebPages are the judge's web pages, logging to log.
func newWebPages(s *Service, log *slog.Logger) (*web.Pages, error) {
	return web.New(pageSource{s}, web.Config{Templates: s.opts.Templates, Log: log, BaseURL: s.opts.BaseURL,
		FormKey: s.opts.ServerKey, MaxOrders: maxPageOrders})
}

func (p pageSource) view(fn func(t storeTx) error) error {
	return p.s.store.db.View(func(tx *store.Tx) error { return fn(storeTx{tx}) })
}

// game reads a game by the id in its pages' address.
func (p pageSource) game(t storeTx, id string) (*Game, error) {
	if !validGameID(id) {
		return nil, web.ErrNotFound
	}
	g, err := t.game(id)
	if err == nil && g == nil {
		err = web.ErrNotFound
	}
	return g, err
}

// player reads the game and side of a player's secret.
func (p pageSource) player(t storeTx, secret string) (*Game, string, error) {
	g, side, err := gameBySecret(t, secret)
	if err == nil && g == nil {
		err = web.ErrNotFound
	}
	return g, side, err
}

// readPublic reads, in one transaction, what read makes of the game whose
// page is at id: a page anybody may see.
func readPublic[T any](p pageSource, id string, read func(t storeTx, g *Game) (T, error)) (T, error) {
	var out T
	err := p.view(func(t storeTx) error {
		g, err := p.game(t, id)
		if err == nil {
			out, err = read(t, g)
		}
		return err
	})
	return out, err
}

// readPrivate reads, in one transaction, what read makes of the game and
// side of a player's secret: a page for that player only.
func readPrivate[T any](p pageSource, secret string, read func(t storeTx, g *Game, side string) (T, error)) (T, error) {
	var out T
	err := p.view(func(t storeTx) error {
		g, side, err := p.player(t, secret)
		if err == nil {
			out, err = read(t, g, side)
		}
		return err
	})
	return out, err
}

// publicView is the side whose view the public and the observers get:
// engine.Public while the game is played, engine.Umpire (everything) once
// it is over. A system that hides nothing shows everything either way.
func publicView(g *Game) string {
	if g.Ended {
		return engine.Umpire
	}
	return engine.Public
}

// downloadable is whether the whole game, every position and order, may
// be downloaded: always for a system that hides nothing, else once the
// game is over.
func downloadable(g *Game, pos engine.Position) bool {
	return g.Ended || !pos.HidesInformation()
}

func (p pageSource) Games() ([]*web.Game, error) {
	var out []*web.Game
	err := p.view(func(t storeTx) error {
		games, err := t.games()
		if err != nil {
			return err
		}
		for _, g := range games {
			gp, err := readGamePage(p.s.opts.Systems, t, g)
			if err != nil {
				return err
			}
			out = append(out, gp)
		}
		return nil
	})
	return out, err
}

func (p pageSource) Game(id string) (*web.Game, error) {
	return readPublic(p, id, func(t storeTx, g *Game) (*web.Game, error) {
		gp, err := readGamePage(p.s.opts.Systems, t, g)
		if err != nil {
			return nil, err
		}
		gp.Holders = readSeats(g, p.s.opts.Address)
		if !g.Ended {
			return gp, nil
		}
		// Table talk and TEAM messages are private until the game ends.
		talk, err := t.talk(g.ID)
		for _, m := range talk {
			gp.Talk = append(gp.Talk, web.Message{Round: m.Round, From: m.From, To: m.To, At: m.At, Text: m.Text})
		}
		for _, m := range g.Team {
			gp.Team = append(gp.Team, web.Message{Round: m.Round, From: m.From, At: m.At, Text: m.Text})
		}
		return gp, err
	})
}

func (p pageSource) Round(id string, n int) (*web.Round, error) {
	return readPublic(p, id, func(t storeTx, g *Game) (*web.Round, error) {
		return readRoundPage(p.s.opts.Systems, t, g, n, publicView(g))
	})
}

func (p pageSource) PlayerRound(secret string, n int) (*web.Round, error) {
	return readPrivate(p, secret, func(t storeTx, g *Game, side string) (*web.Round, error) {
		v, err := readRoundPage(p.s.opts.Systems, t, g, n, side)
		if err == nil {
			v.Side = side
		}
		return v, err
	})
}

// readRoundPage reads round n of a game with its report as side reads it.
func readRoundPage(systems engine.Systems, t storeTx, g *Game, n int, side string) (*web.Round, error) {
	turn, err := roundTurn(g, n)
	if err != nil {
		return nil, err
	}
	gp, err := readGamePage(systems, t, g)
	if err != nil {
		return nil, err
	}
	played, err := readPlayed(systems, t, g, turn)
	if err != nil {
		return nil, err
	}
	report, err := played.report(side)
	if err != nil {
		return nil, err
	}
	return &web.Round{Game: gp, Round: gp.Rounds[turn], Report: report}, nil
}

func (p pageSource) Map(id string, round int) (*web.Picture, error) {
	return readPublic(p, id, func(t storeTx, g *Game) (*web.Picture, error) {
		return readPicture(p.s.opts.Systems, t, g, round, publicView(g), false)
	})
}

func (p pageSource) PlayerMap(secret string, round int) (*web.Picture, error) {
	return readPrivate(p, secret, func(t storeTx, g *Game, side string) (*web.Picture, error) {
		return readPicture(p.s.opts.Systems, t, g, round, side, true)
	})
}

// readPicture reads the map of a game as side sees it: the position now
// for round 0, else the position after round n with what happened in it.
// A player's map (player) of a system that hides nothing is drawn as
// everybody's, one picture for all the sides.
func readPicture(systems engine.Systems, t storeTx, g *Game, round int, side string, player bool) (*web.Picture, error) {
	if round == 0 {
		pos, err := loadPosition(systems, t, g, g.Turn)
		if err != nil {
			return nil, err
		}
		if player && !pos.HidesInformation() {
			side = ""
		}
		return &web.Picture{Key: mapKey(g, g.Turn, side, "now"),
			Draw: func(w io.Writer, f engine.MapFormat) error { return pos.Map(w, side, f) }}, nil
	}
	turn, err := roundTurn(g, round)
	if err != nil {
		return nil, err
	}
	played, err := readPlayed(systems, t, g, turn)
	if err != nil {
		return nil, err
	}
	if player && !played.after.HidesInformation() {
		side = ""
	}
	return &web.Picture{Key: mapKey(g, turn, side, "round"),
		Draw: func(w io.Writer, f engine.MapFormat) error { return played.round.Map(w, side, f) }}, nil
}

// mapKey names a picture: the game's seed tells a position replayed after
// a rollback from the one undone.
func mapKey(g *Game, turn int, side, what string) string {
	return fmt.Sprintf("%s/%d/%d/%s/%s", g.ID, g.Seed, turn, side, what)
}

func (p pageSource) Download(id string) ([]byte, error) {
	return readPublic(p, id, func(t storeTx, g *Game) ([]byte, error) {
		pos, err := loadPosition(p.s.opts.Systems, t, g, g.Turn)
		if err != nil {
			return nil, err
		}
		if !downloadable(g, pos) {
			return nil, web.ErrNotFound
		}
		var b bytes.Buffer
		err = writeGameDownload(&b, p.s.opts.Systems, t, g)
		return b.Bytes(), err
	})
}

func (p pageSource) Ladder() (*web.Ladder, error) {
	var l web.Ladder
	err := p.view(func(t storeTx) error {
		rows, err := t.ladder()
		for _, row := range rows {
			lr := web.LadderRow{Name: row.Name(), Wins: row.Wins, Draws: row.Draws, Losses: row.Losses,
				Reliability: row.Reliability.String(), Games: row.Games}
			if len(row.Games) > 0 {
				lr.Place = len(l.Rows) + 1
				lr.Rating, lr.Deviation = fmt.Sprintf("%.0f", row.Rating), fmt.Sprintf("%.0f", row.Deviation)
			}
			l.Rows = append(l.Rows, lr)
		}
		return err
	})
	return &l, err
}

func (p pageSource) Player(secret string) (*web.Player, error) {
	return readPrivate(p, secret, func(t storeTx, g *Game, side string) (*web.Player, error) {
		return readPlayerPage(p.s.opts.Systems, t, g, side)
	})
}

func (p pageSource) DeadlineFeed(secret string) ([]byte, error) {
	now := p.s.clock.Now()
	events, err := readPrivate(p, secret, func(t storeTx, g *Game, side string) ([]*ical.Event, error) {
		return p.s.deadlineEvents(t, g.Player(side).Address, now)
	})
	if err != nil {
		return nil, err
	}
	return p.s.writeCalendar("", events)
}

func (p pageSource) Orders(secret, nonce, text string, check bool) (*web.Answer, error) {
	return p.s.pageOrders(secret, nonce, text, check)
}

func readGamePage(systems engine.Systems, t storeTx, g *Game) (*web.Game, error) {
	sys, err := systemOf(systems, g)
	if err != nil {
		return nil, err
	}
	pos, err := loadPosition(systems, t, g, g.Turn)
	if err != nil {
		return nil, err
	}
	step := pos.Step()
	p := &web.Game{ID: g.ID, Title: g.Title, Scenario: g.Scenario, System: sys.Title(), Round: g.Round(),
		Paused: g.Paused, Ended: g.Ended, Result: g.Result, Download: downloadable(g, pos)}
	if !g.Ended {
		p.RoundName, p.Deadline = step.Name, g.Deadline
		p.Commitment = engine.SeedCommitment(engine.RoundSeed(g.Seed, g.Turn))
	}
	for _, sd := range pos.Sides() {
		s := web.Side{Name: sd.Name, Title: sd.Title, Waited: !g.Ended && slices.Contains(step.Waiting, sd.Name)}
		if s.Waited {
			sub, err := t.submission(g.ID, g.Turn, sd.Name)
			if err != nil {
				return nil, err
			}
			s.Sent = sub != nil
		}
		if team, ok := teamSide(pos, sd.Name); ok {
			waited := seatsWaitedFor(g, pos, sd.Name)
			s.Sent = s.Waited
			for _, seat := range team.Seats(sd.Name) {
				sp := web.Seat{ID: seat.ID, Name: seat.Name, Empty: g.Player(seat.ID) == nil,
					Waited: s.Waited && slices.Contains(waited, seat.ID)}
				if sp.Waited {
					sub, err := t.submission(g.ID, g.Turn, seat.ID)
					if err != nil {
						return nil, err
					}
					sp.Sent = sub != nil
					s.Sent = s.Sent && sp.Sent
				}
				s.Seats = append(s.Seats, sp)
			}
		}
		p.Sides = append(p.Sides, s)
	}
	for _, pl := range g.Players {
		if pl.isOpen() && !g.Ended {
			p.OpenSeats = append(p.OpenSeats, pl.seatName())
		}
	}
	for turn := range g.Turn {
		r, err := readRoundPlayed(systems, t, g, turn)
		if err != nil {
			return nil, err
		}
		p.Rounds = append(p.Rounds, *r)
	}
	return p, nil
}

func readRoundPlayed(systems engine.Systems, t storeTx, g *Game, turn int) (*web.RoundPlayed, error) {
	rec, err := t.round(g.ID, turn)
	if err != nil {
		return nil, err
	}
	before, err := loadPosition(systems, t, g, turn)
	if err != nil {
		return nil, err
	}
	return &web.RoundPlayed{N: turn + 1, Name: before.Step().Name, Played: rec.Played,
		Commitment: engine.SeedCommitment(rec.Seed), Seed: rec.Seed, Defaulted: rec.Defaulted}, nil
}

// readPlayed reads the round played from a turn, outside the judge's
// transactions.
func readPlayed(systems engine.Systems, t storeTx, g *Game, turn int) (*played, error) {
	rec, err := t.round(g.ID, turn)
	if err != nil {
		return nil, err
	}
	before, err := loadPosition(systems, t, g, turn)
	if err != nil {
		return nil, err
	}
	after, err := loadPosition(systems, t, g, turn+1)
	if err != nil {
		return nil, err
	}
	return newPlayed(g, rec, before, after)
}

func readPlayerPage(systems engine.Systems, t storeTx, g *Game, side string) (*web.Player, error) {
	gp, err := readGamePage(systems, t, g)
	if err != nil {
		return nil, err
	}
	pos, err := loadPosition(systems, t, g, g.Turn)
	if err != nil {
		return nil, err
	}
	p := &web.Player{Game: gp, Side: side, Title: sideTitle(pos, seatSide(side))}
	if side != seatSide(side) {
		p.Title += ", seat " + seatLine(pos, side)
	}
	if g.Ended {
		return p, nil
	}
	if !slices.Contains(pos.Step().Waiting, seatSide(side)) {
		// A side that does not play next may still change the orders it
		// stands by during the other's turn (Frontline General's REACT).
		if _, ok := pos.(engine.Standing); ok {
			p.Standing = formOf(pos, side, g.ID)
		}
		return p, nil
	}
	p.Form = formOf(pos, side, g.ID)
	sub, err := t.submission(g.ID, g.Turn, side)
	if err != nil || sub == nil {
		return p, err
	}
	p.Received = sub.Received
	p.Orders = cmp.Or(sub.Echo, "Orders received (sent before the judge kept their echo).")
	return p, nil
}

// playerName is how the pages name a player: its address's local part.
func playerName(addr string) string {
	local, _, _ := strings.Cut(addr, "@")
	return local
}

// readSeats reads a game's seats for its page; judge is the judge's
// address, for the JOIN links of open seats.
func readSeats(g *Game, judge string) []web.Holder {
	var out []web.Holder
	for _, p := range g.Players {
		s := web.Holder{Name: p.seatName(), Player: playerName(p.Address), Since: max(p.Since, 1),
			Reliability: p.reliability().String(), Abandoned: p.Abandoned}
		for _, past := range p.Past {
			s.Past = append(s.Past, fmt.Sprintf("%s: %s, %s (%s)", playerName(past.Address), past.rounds(), past.Left,
				Reliability{OnTime: past.OnTime, Missed: past.Missed}))
		}
		if p.isOpen() && !g.Ended && judge != "" {
			// RFC 6068 writes a space %20, never "+".
			query := url.Values{"subject": {"JOIN " + g.ID + " " + p.seatName()}, "body": {"JOIN " + g.ID + " " + p.seatName() + "\n"}}.Encode()
			s.Join = "mailto:" + judge + "?" + strings.ReplaceAll(query, "+", "%20")
		}
		out = append(out, s)
	}
	return out
}

// gameBySecret finds the game and side of a player's secret; nil when
// the secret is nobody's.
func gameBySecret(t storeTx, secret string) (*Game, string, error) {
	secret = strings.ToLower(strings.TrimSpace(secret))
	if len(secret) != secretLength {
		return nil, "", nil
	}
	id, side, ok := t.tokenOwner(hashSecret(secret))
	if !ok {
		return nil, "", nil
	}
	g, err := t.game(id)
	if err != nil || g == nil {
		return nil, "", err
	}
	return g, side, nil
}

// roundTurn is the turn round n of a game was played from, for its
// pages: 1 ≤ n ≤ rounds played.
func roundTurn(g *Game, n int) (int, error) {
	if n < 1 || n > g.Turn {
		return 0, web.ErrNotFound
	}
	return n - 1, nil
}
