package pbem

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"fieldpost/engine"
)

// The web pages read the store through these: what a game's public page,
// a round's page, a player's private page and a game's download show.
// Public pages show the public's view (publicView): for a system that
// hides things, only what is nobody's secret while the game is played,
// everything once it is over.

// publicView is the side whose view the public and the observers get:
// engine.Public while the game is played, engine.Umpire (everything) once
// it is over. A system that hides nothing shows everything either way.
func publicView(g *Game) string {
	if g.Ended {
		return engine.Umpire
	}
	return engine.Public
}

// gamePage is a game as its public page shows it.
type gamePage struct {
	ID, Title, Scenario, System string
	Round                       int    // the round the next orders are for
	RoundName                   string // its name, "" once over
	Paused, Ended               bool
	Result                      string
	Deadline                    time.Time // zero for none
	// Commitment is the SHA-256 of the open round's dice seed.
	Commitment string
	Sides      []sidePage
	Rounds     []roundSummary // the rounds played, the first first
	// Download is whether the whole game may be downloaded: always for a
	// system that hides nothing, else once the game is over.
	Download bool
	// Holders are who plays each seat and played it before; Talk is the
	// game's table talk, once it is over. The game's own page only.
	Holders []seatHolder
	Talk    []talkRecord
	// OpenSeats name the seats anyone may JOIN, for the list of games.
	OpenSeats []string
	// Team are the TEAM messages between seats, once the game is over.
	Team []TeamMessage
}

// sidePage is a side as the public sees it: whether its orders are in,
// never what they are.
type sidePage struct {
	Name, Title  string
	Waited, Sent bool
	// Seats are the side's seats in a team game (none for one player).
	Seats []seatPage
}

// seatPage is a team seat as the public sees it: whether it is held and,
// while the side is waited for, whether its orders are in.
type seatPage struct {
	ID, Name     string
	Empty        bool
	Waited, Sent bool
}

// roundSummary is a round played, with its dice seed revealed.
type roundSummary struct {
	N          int
	Name       string
	Played     time.Time
	Commitment string
	Seed       uint64
	Defaulted  []string
}

func readGamePage(systems engine.Systems, t storeTx, g *Game) (*gamePage, error) {
	sys, err := systemOf(systems, g)
	if err != nil {
		return nil, err
	}
	pos, err := loadPosition(systems, t, g, g.Turn)
	if err != nil {
		return nil, err
	}
	step := pos.Step()
	p := &gamePage{ID: g.ID, Title: g.Title, Scenario: g.Scenario, System: sys.Title(), Round: g.Round(),
		Paused: g.Paused, Ended: g.Ended, Result: g.Result, Download: g.Ended || !pos.HidesInformation()}
	if g.Ended {
		p.Team = g.Team
	}
	if !g.Ended {
		p.RoundName, p.Deadline = step.Name, g.Deadline
		p.Commitment = engine.SeedCommitment(engine.RoundSeed(g.Seed, g.Turn))
	}
	for _, sd := range pos.Sides() {
		s := sidePage{Name: sd.Name, Title: sd.Title, Waited: !g.Ended && slices.Contains(step.Waiting, sd.Name)}
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
				sp := seatPage{ID: seat.ID, Name: seat.Name, Empty: g.Player(seat.ID) == nil,
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
		r, err := readRoundSummary(systems, t, g, turn)
		if err != nil {
			return nil, err
		}
		p.Rounds = append(p.Rounds, *r)
	}
	return p, nil
}

func readRoundSummary(systems engine.Systems, t storeTx, g *Game, turn int) (*roundSummary, error) {
	rec, err := t.round(g.ID, turn)
	if err != nil {
		return nil, err
	}
	before, err := loadPosition(systems, t, g, turn)
	if err != nil {
		return nil, err
	}
	return &roundSummary{N: turn + 1, Name: before.Step().Name, Played: rec.Played,
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

// playerPage is what a player's private page shows.
type playerPage struct {
	Game *gamePage
	// Secret is the player's, for the page's links to itself.
	Secret string
	Side   string
	Title  string // the side's
	// Orders are the side's orders for the open round as the judge holds
	// them, in words; Received when they came. Empty when none.
	Orders   string
	Received time.Time
	Form     string // the order form, "" when the side has nothing to order
	// Standing is the form of the orders a side that does not play next
	// stands by during the other side's turn, for systems that have them.
	Standing string
	// Edit is the form to check and send orders from the page, nil when
	// the pages take none; Post what became of orders just posted.
	Edit *pageForm
	Post *pagePost
}

func readPlayerPage(systems engine.Systems, t storeTx, g *Game, side string) (*playerPage, error) {
	gp, err := readGamePage(systems, t, g)
	if err != nil {
		return nil, err
	}
	pos, err := loadPosition(systems, t, g, g.Turn)
	if err != nil {
		return nil, err
	}
	p := &playerPage{Game: gp, Side: side, Title: sideTitle(pos, seatSide(side))}
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

// gameDownload is a whole game for offline replay: every position played
// from, with the orders and the revealed seed of the round played from it.
// Each position reads as a situation file of `fieldpost resolve --state`.
type gameDownload struct {
	Game     string          `json:"game"`
	System   string          `json:"system"`
	Scenario string          `json:"scenario"`
	Title    string          `json:"title"`
	Ruleset  string          `json:"ruleset,omitempty"`
	Rounds   []roundDownload `json:"rounds"`
	// Current is the position now: after the last round played.
	Current json.RawMessage `json:"current"`
}

type roundDownload struct {
	Round int    `json:"round"`
	Name  string `json:"name"`
	Seed  uint64 `json:"seed"`
	// Situation is the position the round was played from, as a state
	// file: save it and replay with --seed and the orders.
	Situation json.RawMessage `json:"situation"`
	// Orders are the orders played by each side, in the order language.
	Orders    map[string]string `json:"orders"`
	Defaulted []string          `json:"defaulted,omitempty"`
}

func writeGameDownload(w io.Writer, systems engine.Systems, t storeTx, g *Game) error {
	system := cmp.Or(g.System, LegacySystem)
	d := gameDownload{Game: g.ID, System: system, Scenario: g.Scenario, Title: g.Title, Ruleset: g.Ruleset}
	stateFile := func(pos engine.Position) (json.RawMessage, error) {
		raw, err := pos.Marshal()
		if err != nil {
			return nil, err
		}
		return json.Marshal(struct {
			System  string          `json:"system"`
			Ruleset string          `json:"ruleset,omitempty"`
			State   json.RawMessage `json:"state"`
		}{system, g.Ruleset, raw})
	}
	for turn := range g.Turn {
		p, err := readPlayed(systems, t, g, turn)
		if err != nil {
			return err
		}
		r := roundDownload{Round: turn + 1, Name: p.before.Step().Name, Seed: p.meta.Seed,
			Orders: map[string]string{}, Defaulted: p.meta.Defaulted}
		if r.Situation, err = stateFile(p.before); err != nil {
			return err
		}
		for side, o := range p.meta.Orders {
			if r.Orders[side], err = p.before.WriteOrders(side, o, g.ID); err != nil {
				return err
			}
		}
		d.Rounds = append(d.Rounds, r)
	}
	pos, err := loadPosition(systems, t, g, g.Turn)
	if err != nil {
		return err
	}
	if d.Current, err = stateFile(pos); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(d)
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

// roundMapTurn checks a round number of a game for its pages: the round
// played from turn n-1, 1 ≤ n ≤ rounds played.
func roundMapTurn(g *Game, n int) (int, error) {
	if n < 1 || n > g.Turn {
		return 0, fmt.Errorf("no round %d", n)
	}
	return n - 1, nil
}
