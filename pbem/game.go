package pbem

import (
	"encoding/json"
	"fmt"
	"time"

	"fieldpost/engine"
	"fieldpost/pbem/store"
)

// Game is one game run by mail, as the store keeps it.
type Game struct {
	ID string `json:"id"`
	// System is the game system the game is played in (engine.System's
	// Name); "" for games stored before the judge hosted several, which
	// are all Star General.
	System   string `json:"system,omitempty"`
	Scenario string `json:"scenario"`
	Ruleset  string `json:"ruleset"`
	Title    string `json:"title"`
	// Seed is the secret every round's dice come from (engine.RoundSeed).
	// It is never mailed or logged; ROLLBACK draws a new one, because the
	// undone round's seed has been revealed.
	Seed uint64 `json:"seed"`
	// Nonce goes into the players' secrets, so that a game created with an
	// id used before (in a database started afresh with the same server key)
	// gets new ones.
	Nonce string `json:"nonce"`
	// Turn is the current position's engine.Position.Turn: the next orders
	// are for round Turn+1.
	Turn      int      `json:"turn"`
	Players   []Player `json:"players"`
	Observers []string `json:"observers,omitempty"`
	// Period is how long each round is open; zero for no deadline.
	Period   time.Duration `json:"period"`
	Deadline time.Time     `json:"deadline,omitzero"`
	// RemindedUntil: the reminders due up to this time have been sent, or
	// were already due when the deadline was set and are skipped.
	RemindedUntil time.Time `json:"reminded_until,omitzero"`
	// Reminded is, by reminder (its time before the deadline), the
	// deadline it was last sent for: one reminder per deadline and kind.
	Reminded map[string]time.Time `json:"reminded,omitempty"`
	Paused   bool                 `json:"paused,omitempty"`
	// TimeZone is the IANA zone the game's mails show times in, for players
	// who chose none; "" for UTC.
	TimeZone string `json:"time_zone,omitempty"`
	// Remaining is what was left before the deadline when the game paused.
	Remaining time.Duration `json:"remaining,omitempty"`
	Ended     bool          `json:"ended,omitempty"`
	// Result says how the game ended.
	Result string `json:"result,omitempty"`
	// Thread is the root Message-ID every mail of the game refers to.
	Thread  string    `json:"thread"`
	Created time.Time `json:"created"`
	// Policy is what the GM chose for the people side of the game:
	// caretaker, absences, joining, rating (people.go).
	Policy
	// Team are the TEAM messages between a side's seats, shown publicly
	// once the game is over.
	Team []TeamMessage `json:"team,omitempty"`
}

// TeamMessage is a TEAM message: from a seat to the other seats of its
// side, through the judge.
type TeamMessage struct {
	From  string    `json:"from"` // the seat
	Round int       `json:"round"`
	At    time.Time `json:"at"`
	Text  string    `json:"text"`
}

// Player is a side's player: where its mail goes. Its secret is in the
// store's tokens, hashed.
type Player struct {
	Side    string `json:"side"`
	Address string `json:"address"`
	// TimeZone is the IANA zone the player's mails show times in; "" for
	// the game's.
	TimeZone string `json:"time_zone,omitempty"`
	// Unreachable is set when a mail to the player bounced.
	Unreachable *Unreachable `json:"unreachable,omitempty"`
	// SeatState is who holds the seat and how it has been kept (seats.go).
	SeatState
}

// Unreachable says that mail to a player's address bounced: when, and why
// as the mail server said.
type Unreachable struct {
	Since  time.Time `json:"since"`
	Reason string    `json:"reason"`
}

// Round is the round number the next orders are for, as the order form's
// ROUND line and the X-Fieldpost-Round field carry it.
func (g *Game) Round() int { return g.Turn + 1 }

// Player returns the player of a side, nil if there is none.
func (g *Game) Player(side string) *Player {
	for i := range g.Players {
		if g.Players[i].Side == side {
			return &g.Players[i]
		}
	}
	return nil
}

// due is when the game's round is played without the missing orders: the
// deadline plus the grace period. Zero when nothing is due (no deadline,
// paused or over).
func (g *Game) due(grace time.Duration) time.Time {
	if g.Deadline.IsZero() || g.Paused || g.Ended {
		return time.Time{}
	}
	return g.Deadline.Add(grace)
}

// roundRecord is how the round played from a turn went, for HISTORY and
// RESEND: the dice seed (revealed in the report), the orders each side
// played, which sides were given the default orders, and the events. The
// orders and events are kept as the game system wrote them.
type roundRecord struct {
	Seed uint64 `json:"seed"`
	// Orders are the orders played by the sides the round waited for
	// (engine.Step's Waiting), in that order.
	Orders    []json.RawMessage `json:"orders"`
	Defaulted []string          `json:"defaulted,omitempty"`
	// Caretaker says, by side, how the caretaker gave the orders of a side
	// that sent none (not defaulted then).
	Caretaker map[string]string `json:"caretaker,omitempty"`
	// OnTime and Missed name the seats whose reliability the round counted
	// (kept their deadline, missed it), for a ROLLBACK to take back.
	OnTime []string `json:"on_time,omitempty"`
	Missed []string `json:"missed,omitempty"`
	// DefaultedSeats are the seats of a team that sent nothing while
	// others of their side did: their units did the default orders.
	DefaultedSeats []string        `json:"defaulted_seats,omitempty"`
	Events         json.RawMessage `json:"events"`
	Played         time.Time       `json:"played"`
}

// submission is a side's latest valid orders for the current round.
type submission struct {
	Orders json.RawMessage `json:"orders"`
	// Echo is the orders in words as the judge understood them, for the
	// player's page.
	Echo      string    `json:"echo,omitempty"`
	MessageID string    `json:"message_id"`
	Received  time.Time `json:"received"`
}

// storeTx is pbem's typed layer over a store transaction: it reads and
// writes pbem's records (games, positions, rounds, orders, tokens,
// processed mail) as the store keeps them.
type storeTx struct {
	tx *store.Tx
}

func (t storeTx) game(id string) (*Game, error) {
	var g Game
	found, err := t.tx.Game(id, &g)
	if err != nil || !found {
		return nil, err
	}
	return &g, nil
}

func (t storeTx) putGame(g *Game) error {
	return t.tx.PutGame(g.ID, g)
}

// games returns every game, in id order.
func (t storeTx) games() ([]*Game, error) {
	var out []*Game
	for id, v := range t.tx.Games() {
		var g Game
		if err := v.Decode(&g); err != nil {
			return nil, fmt.Errorf("decoding game %s: %w", id, err)
		}
		out = append(out, &g)
	}
	return out, nil
}

// state returns the stored position at the start of a turn, as its game
// system wrote it.
func (t storeTx) state(game string, turn int) ([]byte, error) {
	raw, err := t.tx.State(game, turn)
	if err == nil && raw == nil {
		err = fmt.Errorf("no state of %s at turn %d", game, turn)
	}
	return raw, err
}

func (t storeTx) putState(game string, turn int, raw []byte) error {
	return t.tx.PutState(game, turn, raw)
}

func (t storeTx) deleteState(game string, turn int) error {
	return t.tx.DeleteState(game, turn)
}

// round returns the record of the round played from a turn.
func (t storeTx) round(game string, turn int) (*roundRecord, error) {
	var r roundRecord
	found, err := t.tx.Round(game, turn, &r)
	if err != nil {
		return nil, fmt.Errorf("round of %s from turn %d: %w", game, turn, err)
	}
	if !found {
		return nil, fmt.Errorf("no round of %s from turn %d", game, turn)
	}
	return &r, nil
}

func (t storeTx) putRound(game string, turn int, r *roundRecord) error {
	return t.tx.PutRound(game, turn, r)
}

func (t storeTx) deleteRound(game string, turn int) error {
	return t.tx.DeleteRound(game, turn)
}

// submission returns a side's orders for a turn, nil if it sent none.
func (t storeTx) submission(game string, turn int, side string) (*submission, error) {
	var s submission
	found, err := t.tx.Submission(game, turn, side, &s)
	if err != nil || !found {
		return nil, err
	}
	return &s, nil
}

func (t storeTx) putSubmission(game string, turn int, side string, s *submission) error {
	return t.tx.PutSubmission(game, turn, side, s)
}

// deleteSubmissions forgets every side's orders for a turn.
func (t storeTx) deleteSubmissions(game string, turn int) error {
	return t.tx.DeleteSubmissions(game, turn)
}

// sidesWithoutOrders lists the seats of the sides of waiting without
// orders for the current round.
func (t storeTx) sidesWithoutOrders(g *Game, pos engine.Position, waiting []string) ([]string, error) {
	var missing []string
	for _, side := range waiting {
		for _, seat := range seatsWaitedFor(g, pos, side) {
			sub, err := t.submission(g.ID, g.Turn, seat)
			if err != nil {
				return nil, err
			}
			if sub == nil {
				missing = append(missing, seat)
			}
		}
	}
	return missing, nil
}

// tokenOwner returns the game and side a secret's hash belongs to.
func (t storeTx) tokenOwner(hash string) (game, side string, found bool) {
	return t.tx.TokenOwner(hash)
}

func (t storeTx) putToken(hash, game, side string) error {
	return t.tx.PutToken(hash, game, side)
}

// processed reports whether the inbound mail with this dedupe key has been
// handled.
func (t storeTx) processed(key string) bool {
	return t.tx.Processed(key)
}

func (t storeTx) markProcessed(key string, at time.Time) error {
	return t.tx.MarkProcessed(key, at)
}

// pruneProcessed forgets the mails handled before a time: a mail server
// redelivers within hours or days, never months later.
func (t storeTx) pruneProcessed(before time.Time) (int, error) {
	return t.tx.PruneProcessed(before)
}

// deleteToken forgets a secret's hash: the secret no longer works.
func (t storeTx) deleteToken(hash string) error {
	return t.tx.DeleteToken(hash)
}
