package web

import (
	"errors"
	"io"
	"time"

	"fieldpost/engine"
)

// A Source is what the pages show, read from the judge's store, and the
// judge's desk for orders sent from a player's page. The pages ask it
// for everything they show, so each of its methods decides what may be
// shown to whom:
//
//   - The public (the list of games, a game's page, its rounds and maps,
//     the download, the ladder) gets the public's view: for a game system
//     that hides things, no hidden unit and no side's orders while the
//     game is played; everything once it is over. A player is named by
//     the local part of its address, never the address.
//   - A player, known by the secret its mails carry, gets its own side's
//     view (its seat's, in a team game): nothing of another side that its
//     side did not see.
//
// Game ids and secrets come from the page's address, lowercased and
// otherwise unchecked; round numbers count from 1. A game, a round or a secret that is not
// there is [ErrNotFound], whichever it was, so that a wrong secret looks
// like any page that is not there.
type Source interface {
	// Games are the club's games for their list, each as the public sees
	// it, without its seats and table talk.
	Games() ([]*Game, error)
	// Game is a game's public page: whether each side's orders are in,
	// never what they are; who holds each seat; the table talk and TEAM
	// messages once the game is over.
	Game(id string) (*Game, error)
	// Round is round n of a game as the public saw it: its report and its
	// revealed dice seed.
	Round(id string, n int) (*Round, error)
	// Map is the public's map of a game: the position now for round 0,
	// else the position after round n with what happened in it.
	Map(id string, round int) (*Picture, error)
	// Download is the whole game to replay offline, every position and
	// every order played (JSON); only when Game says Download, else
	// ErrNotFound.
	Download(id string) ([]byte, error)
	// Ladder is the club's ladder.
	Ladder() (*Ladder, error)

	// Player is the private page of the secret's player: the game as the
	// public sees it, and the side's own orders, order form and standing
	// orders.
	Player(secret string) (*Player, error)
	// PlayerRound is round n as the player's side saw it: its report.
	PlayerRound(secret string, n int) (*Round, error)
	// PlayerMap is the map as the player's side sees it, now for round 0,
	// else after round n.
	PlayerMap(secret string, round int) (*Picture, error)
	// DeadlineFeed is an iCalendar file of the open deadlines of every
	// seat that the player's address holds in the club's games.
	DeadlineFeed(secret string) ([]byte, error)
	// Orders does with orders sent from the player's page what a mail of
	// them would do: with check, only says what the judge makes of them,
	// storing and mailing nothing; else stores them and mails the answer.
	// nonce names the showing of the form: the same form posted twice is
	// done once. Text that is not orders is refused unread: ErrNotRead,
	// wrapped with why.
	Orders(secret, nonce, text string, check bool) (*Answer, error)
}

// ErrNotFound is a page that is not there.
var ErrNotFound = errors.New("not found")

// ErrNotRead refuses what a page posted without reading it as orders: a
// command (the commands go by mail), an empty or overlong form. Its
// wrapper says why, after "not read: ".
var ErrNotRead = errors.New("not read")

// Game is a game as its public page shows it.
type Game struct {
	ID, Title, Scenario, System string
	Round                       int    // the round the next orders are for
	RoundName                   string // its name, "" once over
	Paused, Ended               bool
	Result                      string
	Deadline                    time.Time // zero for none
	// Commitment is the SHA-256 of the open round's dice seed.
	Commitment string
	Sides      []Side
	Rounds     []RoundPlayed // the first first
	// Download is whether the whole game may be downloaded: always for a
	// system that hides nothing, else once the game is over.
	Download bool
	// Holders are who plays each seat and played it before; Talk is the
	// game's table talk and Team its TEAM messages, once it is over. The
	// game's own page only.
	Holders []Holder
	Talk    []Message
	Team    []Message
	// OpenSeats name the seats anyone may JOIN, for the list of games.
	OpenSeats []string
}

// Side is a side as the public sees it: whether its orders are in, never
// what they are.
type Side struct {
	Name, Title  string
	Waited, Sent bool
	// Seats are the side's seats in a team game (none for one player).
	Seats []Seat
}

// Seat is a team seat as the public sees it: whether it is held and,
// while the side is waited for, whether its orders are in.
type Seat struct {
	ID, Name     string
	Empty        bool
	Waited, Sent bool
}

// RoundPlayed is a round played, with its dice seed revealed.
type RoundPlayed struct {
	N          int
	Name       string
	Played     time.Time
	Commitment string
	Seed       uint64
	Defaulted  []string
}

// Holder is a seat as the public pages show it: who plays it (the local
// part of the address, never the whole), since when, how reliably, and
// who played it before; an open seat has the mail that JOINs it.
type Holder struct {
	Name        string
	Player      string // "" for an open seat
	Since       int
	Reliability string
	Past        []string // "bob: rounds 1-3, replaced"
	Abandoned   bool
	// Join is a mailto: link writing the JOIN mail, for an open seat of a
	// game going on.
	Join string
}

// Message is a table talk or TEAM message; To is "" for a TEAM message.
type Message struct {
	Round    int
	From, To string
	At       time.Time
	Text     string
}

// Round is a round's page: the round, its report, and the way to the
// rounds before and after. The public's is at /g/GAME/round/N; a
// player's, with its side's report and map, under its private page.
type Round struct {
	Game   *Game
	Round  RoundPlayed
	Report string
	// Side is the player's side, "" on the public's page.
	Side string

	// Filled by the pages: Base is where the round pages are, "/g/GAME"
	// or "/p/SECRET"; Prev and Next the rounds before and after, 0 for
	// none.
	Base         string
	Prev, Next   int
	RoundsPlayed int
}

// Player is what a player's private page shows.
type Player struct {
	Game  *Game
	Side  string
	Title string // the side's, and the seat's in a team game
	// Orders are the side's orders for the open round as the judge holds
	// them, in words; Received when they came. Empty when none.
	Orders   string
	Received time.Time
	Form     string // the order form, "" when the side has nothing to order
	// Standing is the form of the orders a side that does not play next
	// stands by during the other side's turn, for systems that have them.
	Standing string

	// Filled by the pages: Secret is the player's, for the page's links
	// to itself; Edit the form to check and send orders from the page,
	// nil when the side has none to give; Post what became of orders just
	// posted.
	Secret string
	Edit   *Form
	Post   *Post
}

// Ladder is the club ladder as its page shows it.
type Ladder struct {
	Rows []LadderRow
}

// LadderRow is a player on the ladder, by the local part of its address.
type LadderRow struct {
	Place               int // 0 for an unrated player
	Name                string
	Rating, Deviation   string
	Wins, Draws, Losses int
	Reliability         string
	Games               []string
}

// Answer is what the judge made of orders from a page.
type Answer struct {
	Subject, Text string
	// Accepted: the orders are stored (a submit); Valid: they would be (a
	// check).
	Accepted, Valid bool
	// Again: this very form was sent before; nothing was done this time.
	Again bool
}

// Picture is a map to show. Key names it: a position never changes once
// stored, so the same key is the same picture, drawn once (a key must
// tell a position replayed after a rollback from the one undone). Draw
// draws it; engine.ErrMapFormat for a format the game system does not
// draw.
type Picture struct {
	Key  string
	Draw func(w io.Writer, f engine.MapFormat) error
}
