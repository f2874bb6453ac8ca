package engine

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// System is a game system the judge can host: a family of rules, its order
// language, its reports and maps, and its bundled scenarios.
type System interface {
	// Name is the system's stored name, such as "stargeneral".
	Name() string
	// Title is the system's name for people: "Two Star General / Three Star General".
	Title() string
	Scenarios() []ScenarioInfo
	// NewGame sets up a bundled scenario for its first turn. seed decides
	// what the setup draws by chance and keeps secret (a shuffled deck);
	// the judge passes SetupSeed of the game's secret seed.
	NewGame(scenario string, seed uint64) (Position, error)
	// Load reads back a position stored from Position.Marshal.
	Load(stored []byte) (Position, error)
}

// ScenarioInfo describes a bundled scenario.
type ScenarioInfo struct {
	Name        string
	Title       string
	Ruleset     string // the ruleset within the system, such as "2sg"
	Description string
	Sides       []Side
	Map         string // the map's size: "13x10"
	Length      string // how long a game lasts: "1 day of 5 rounds"
}

// Side is one side of a game.
type Side struct {
	Name  string // as orders and addresses write it: "us", "german"
	Title string // for people: "US 2nd Infantry Division"
}

// Step is where a game stands between two plays.
type Step struct {
	// Name names the orders now due for people: "day 1, round 2 of 5",
	// "turn 4, German player".
	Name string
	// Waiting lists the sides whose orders the next Play needs: every side
	// for simultaneous rounds, the side to act for alternating turns.
	Waiting []string
	Over    bool
	Winner  string // "" for a draw or while playing
	Result  string // why the game ended as it did
}

// The views that are not a side's. Every method that takes a side also
// takes these two.
const (
	// Public is the view of the public and the observers: for a system
	// that hides information, no unit of either side and no report of what
	// happened, only the map, the objectives and where the game stands.
	Public = ""
	// Umpire is the whole truth: the game master's view, and everybody's
	// once the game is over (the judge then publishes everything).
	Umpire = "*"
)

// Position is a game between two plays, with everything the rules need for
// the next one. Methods that take a side show only what that side may know;
// side Public ("") is the public's view, Umpire the whole truth.
type Position interface {
	// Marshal is the position as the judge stores it.
	Marshal() ([]byte, error)
	Scenario() string
	Title() string
	Sides() []Side
	// Turn counts the plays so far, from 0: the judge keeps positions under it.
	Turn() int
	Step() Step
	// HidesInformation reports whether sides may see different things
	// (hidden hands, fog of war); when false the judge writes one report
	// and one map for everybody.
	HidesInformation() bool

	// Form is the side's order form for the next play: valid sent back
	// unchanged.
	Form(side, game string) string
	// Read reads a side's mail text: its orders checked against the map and
	// the rules, every problem at once. The answer lists at most maxErrors
	// problems and counts the rest (0: every one).
	Read(side, text string, maxErrors int) Reading
	// Default is what a side that sent nothing plays.
	Default(side string) Orders
	// LoadOrders reads back orders stored from Orders.Marshal.
	LoadOrders(side string, stored []byte) (Orders, error)
	// WriteOrders writes a side's orders in the order language, as Read
	// reads them back: for reports and downloads that replay a round.
	WriteOrders(side string, o Orders, game string) (string, error)
	// Play plays the next turn with the orders of every waiting side. It is
	// deterministic: the same position, orders and dice give the same bytes.
	Play(orders map[string]Orders, dice Dice) (Position, Round, error)
	// LoadRound reads back a round played from this position to after,
	// stored from Round.Marshal.
	LoadRound(after Position, stored []byte) (Round, error)

	// Situation is the position in text for a side's mail: its forces, the
	// objectives, a text map.
	Situation(side string) (string, error)
	// View is the position as a side may see it, as a file to attach
	// (JSON): the whole of it only where nothing is hidden.
	View(side string) ([]byte, error)
	// Map draws the position for a side.
	Map(w io.Writer, side string, f MapFormat) error
	// Briefing is what the side's player needs before the first orders
	// (Briefing.Text), for the welcome: the situation, how each side wins
	// and how the score is counted, the turn, where the order language is.
	Briefing(side string) Briefing
	// Forces counts what a side has left, for the game master's overview.
	Forces(side string) Forces
	// Objectives lists the objectives in words, with who holds them.
	Objectives() []string
}

// Forces counts a side's forces still in play.
type Forces struct {
	Units    int // formations: battalions, regiments, divisions
	Pieces   int // stands, platoons, counters or batteries on the map
	Strength int // strength points or steps of those
}

// Orders are one side's orders for a play, read and checked.
type Orders interface {
	Marshal() ([]byte, error)
}

// Reading is what the judge made of a side's mail.
type Reading struct {
	// Orders are the side's orders when the mail holds valid ones; nil when
	// it holds none or has errors.
	Orders Orders
	// Found reports whether the mail holds any order line at all.
	Found bool
	// Errors counts the problems found; Answer lists them by line.
	Errors int
	// Problems are the problems found, each with its line of the text
	// read, for the judge to write them under the player's own lines.
	Problems []Problem
	// Answer is the reply in words: the orders echoed with their odds and
	// warnings, or every error with its line.
	Answer string
	// Round is the round the orders say they are for (a ROUND line), 0
	// when they do not say.
	Round int
	// Ignored are lines of the order block read as no order: a sign-off
	// after the last order, the tail of a comment a mail program wrapped.
	Ignored []IgnoredLine
}

// IgnoredLine is a line of a mail the reading passed over, and why.
type IgnoredLine struct {
	Line int // from 1, in the text read
	Text string
	Why  string
}

// Round is what one play did, kept by the judge for reports, HISTORY and
// pages.
type Round interface {
	// Marshal is the round's event log as the judge stores it.
	Marshal() ([]byte, error)
	// Report is the round's report as a side may read it: what the side
	// could observe, the rest left out or told as the side saw it ("an
	// unseen unit fired on 1310"). For Public, a system that hides
	// information reports nothing that happened, only that a round was
	// played.
	Report(side string, meta RoundMeta) (string, error)
	// Map draws the position after the round, with what happened in it,
	// for a side.
	Map(w io.Writer, side string, f MapFormat) error
}

// RoundMeta is what the judge knows of a round beyond its events.
type RoundMeta struct {
	Game      string
	Seed      uint64            // revealed in the report
	Orders    map[string]Orders // as played, by side
	Defaulted []string          // sides that sent nothing
	// DefaultedSeats are seats of a team that sent nothing while others of
	// their side did: their units did the default orders.
	DefaultedSeats []string
}

// MapFormat is a kind of map picture.
type MapFormat string

// The map formats. PNG and ASCII are drawn by every system; SVG by those
// that can (the pages fall back to PNG on ErrMapFormat).
const (
	PNG   MapFormat = "png"
	SVG   MapFormat = "svg"
	ASCII MapFormat = "ascii"
)

// ErrMapFormat is wrapped by Map when a system does not draw a format.
var ErrMapFormat = errors.New("map format not drawn by this game system")

// NoMap is the error of a family's Map asked for a format it does not
// draw: it wraps ErrMapFormat.
func NoMap(family string, f MapFormat) error {
	return fmt.Errorf("no %q map in %s: %w", f, family, ErrMapFormat)
}

// Standing is a position whose sides that do not play next may still
// change, between two plays, the orders they stand by: Frontline General's
// REACT orders, which answer for a side during its opponent's turn.
type Standing interface {
	// Stand reads a waiting side's mail text for its standing orders, and
	// returns the position with them; nil with the problems when it cannot.
	Stand(side, text string, maxErrors int) (Position, Reading)
}

// Planner is a system that can play a side by itself, as a player would:
// the bot of solo play and the demo.
type Planner interface {
	// Plan reads a side's view of a game (Position.View, as the judge
	// attaches it to its mails) and writes the side's orders for the next
	// play in the order language, for game. seed varies the plans between
	// bots; the same view and seed give the same orders.
	Plan(view []byte, side, game string, seed uint64) (Plan, error)
}

// Plan is a planner's answer.
type Plan struct {
	Turn int  // the turn of the view planned for
	Over bool // the game is over: nothing to plan
	// Orders are the orders as a player would mail them; "" when the side
	// is not to give orders now.
	Orders string
	// Summary says in a few words what the orders do, for a log.
	Summary string
}

// Systems is the set of game systems a judge hosts, by name.
type Systems []System

// Lookup returns the system with the given name.
func (ss Systems) Lookup(name string) (System, error) {
	for _, s := range ss {
		if s.Name() == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("no game system %q (hosted: %s)", name, strings.Join(ss.names(), ", "))
}

// Scenario finds a bundled scenario by name among every system's.
func (ss Systems) Scenario(name string) (System, ScenarioInfo, error) {
	for _, s := range ss {
		for _, sc := range s.Scenarios() {
			if sc.Name == name {
				return s, sc, nil
			}
		}
	}
	return nil, ScenarioInfo{}, fmt.Errorf("unknown scenario %q; the scenarios are: %s", name, strings.Join(ss.ScenarioNames(), ", "))
}

// ScenarioNames lists every system's scenarios, in name order.
func (ss Systems) ScenarioNames() []string {
	var names []string
	for _, s := range ss {
		for _, sc := range s.Scenarios() {
			names = append(names, sc.Name)
		}
	}
	slices.Sort(names)
	return names
}

func (ss Systems) names() []string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = s.Name()
	}
	return names
}
