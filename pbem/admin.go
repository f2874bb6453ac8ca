package pbem

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"fieldpost/engine"
	"fieldpost/pbem/config"
	"fieldpost/pbem/store"
)

// AdminAnswer is what a GM command given by the administration did.
type AdminAnswer struct {
	// Subject and Text are the GM's answer, as a GM command by mail gets
	// it: "Game paused", and what was done.
	Subject string `json:"subject"`
	Text    string `json:"text"`
	// Refused: the command was not carried out, Text says why. Nothing
	// changed and nobody was mailed.
	Refused bool `json:"refused,omitempty"`
	// Mails are the mails the command put in the outbox.
	Mails []QueuedMail `json:"mails,omitempty"`
}

// QueuedMail is a mail put in the outbox: its kind (X-Fieldpost-Kind) and
// recipient.
type QueuedMail struct {
	Kind string `json:"kind"`
	To   string `json:"to"`
}

// errRefused rolls back the transaction of a refused administration
// command.
var errRefused = errors.New("refused")

// Admin runs a GM command (NEWGAME, DEADLINE, EXTEND, PAUSE, RESUME,
// FORCE, ROLLBACK, END; docs/commands.md) given by the administration,
// whose authority is access to the machine: no secret is asked for. It
// runs through the same code as a GM command by mail, args being the
// words after the command word, and the mails it causes are queued in the
// same transaction; the GM is mailed the answer too, when the judge has a
// GM address. A refused command changes nothing and mails nobody.
func (s *Service) Admin(ctx context.Context, command string, args ...string) (*AdminAnswer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmd, ok := commandWords[strings.ToUpper(command)]
	if !ok || !gmCommands[cmd] {
		return nil, fmt.Errorf("%q is not a GM command", command)
	}
	req := &request{Command: cmd, Args: args, Line: -1}
	log := s.log.With("admin", true)
	var answer *AdminAnswer
	err := s.update(nil, log, func(t *txn) error {
		answer = &AdminAnswer{}
		t.answer = answer
		t.log.Info("GM command from the administration", "command", cmd, "args", args)
		if err := t.runGM(req); err != nil {
			return err
		}
		if answer.Refused {
			return errRefused
		}
		return nil
	})
	switch {
	case errors.Is(err, errRefused):
		answer.Mails = nil
		return answer, nil
	case err != nil:
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return answer, nil
}

// GameInfo is a game as the administration shows it. It holds no secret
// and no dice seed.
type GameInfo struct {
	ID       string `json:"id"`
	System   string `json:"system"`
	Scenario string `json:"scenario"`
	Ruleset  string `json:"ruleset"`
	Title    string `json:"title"`
	// Round is the round the next orders are for, RoundName its place in
	// the scenario ("day 1 of 2, round 3 of 5").
	Round     int       `json:"round"`
	RoundName string    `json:"round_name"`
	Created   time.Time `json:"created"`
	// PeriodSeconds is how long each round is open, 0 for no deadline.
	PeriodSeconds int64 `json:"period_seconds"`
	// Deadline is the open round's, zero for none (and while paused or
	// over).
	Deadline time.Time `json:"deadline,omitzero"`
	Paused   bool      `json:"paused"`
	// RemainingSeconds is, while paused, the time the round had left.
	RemainingSeconds int64      `json:"remaining_seconds,omitempty"`
	Ended            bool       `json:"ended"`
	Result           string     `json:"result,omitempty"`
	Sides            []SideInfo `json:"sides"`
	// Waiting lists the sides without orders for the open round.
	Waiting    []string `json:"waiting,omitempty"`
	Observers  []string `json:"observers,omitempty"`
	Objectives []string `json:"objectives,omitempty"`
	// RoundsPlayed counts the rounds played, LastPlayed when the latest was.
	RoundsPlayed int       `json:"rounds_played"`
	LastPlayed   time.Time `json:"last_played,omitzero"`
	// MailWaiting counts the mails about the game in the outbox, not sent
	// yet; MailFailed those given up on.
	MailWaiting int `json:"mail_waiting"`
	MailFailed  int `json:"mail_failed"`
	// Policy is the game's people policy (POLICY).
	Policy Policy `json:"policy"`
}

// SideInfo is a side of a game: its player and its forces.
type SideInfo struct {
	Side    string `json:"side"`
	Title   string `json:"title"`
	Address string `json:"address"`
	// OrdersReceived is when the side's orders for the open round arrived,
	// zero when it has sent none.
	OrdersReceived time.Time `json:"orders_received,omitzero"`
	// Units counts the units still in play; Stands their core stands on
	// the map and the batteries; SP the strength points of those.
	Units  int `json:"units"`
	Stands int `json:"stands"`
	SP     int `json:"sp"`
	// Unreachable is set when the judge's mail to the player bounced.
	Unreachable *Unreachable `json:"unreachable,omitempty"`
	// The seat: Address "" when open (Abandoned when after missed
	// deadlines, Joining who asks for it); the player's first round, its
	// reliability in the seat and over the club, its deadlines missed in
	// a row, and who held the seat before.
	Since           int         `json:"since"`
	Reliability     Reliability `json:"reliability"`
	ClubReliability Reliability `json:"club_reliability"`
	MissedInARow    int         `json:"missed_in_a_row,omitempty"`
	Abandoned       bool        `json:"abandoned,omitempty"`
	Joining         string      `json:"joining,omitempty"`
	Past            []Tenure    `json:"past,omitempty"`
}

// Games returns every game, in id order, read with the game systems hosted.
func (s *Store) Games(systems engine.Systems) ([]GameInfo, error) {
	var out []GameInfo
	err := s.db.View(func(tx *store.Tx) error {
		st := storeTx{tx}
		mails, err := st.outboxByGame()
		if err != nil {
			return err
		}
		games, err := st.games()
		if err != nil {
			return err
		}
		for _, g := range games {
			info, err := gameInfo(systems, st, g, mails[g.ID])
			if err != nil {
				return err
			}
			out = append(out, *info)
		}
		return nil
	})
	return out, err
}

// Game returns a game, read with the game systems hosted; an error when
// there is none.
func (s *Store) Game(systems engine.Systems, id string) (*GameInfo, error) {
	var info *GameInfo
	err := s.db.View(func(tx *store.Tx) error {
		st := storeTx{tx}
		g, err := st.game(strings.ToLower(id))
		if err != nil {
			return err
		}
		if g == nil {
			return fmt.Errorf("there is no game %q", id)
		}
		mails, err := st.outboxByGame()
		if err != nil {
			return err
		}
		info, err = gameInfo(systems, st, g, mails[g.ID])
		return err
	})
	return info, err
}

// mailCount counts a game's mails in the outbox.
type mailCount struct{ waiting, failed int }

func (t storeTx) outboxByGame() (map[string]mailCount, error) {
	counts := map[string]mailCount{}
	for seq, v := range t.tx.Queued() {
		var o outgoing
		if err := v.Decode(&o); err != nil {
			return nil, fmt.Errorf("decoding queued mail %d: %w", seq, err)
		}
		c := counts[o.Game]
		if o.Failed {
			c.failed++
		} else {
			c.waiting++
		}
		counts[o.Game] = c
	}
	return counts, nil
}

// gameInfo describes a game for the administration.
func gameInfo(systems engine.Systems, t storeTx, g *Game, mails mailCount) (*GameInfo, error) {
	pos, err := loadPosition(systems, t, g, g.Turn)
	if err != nil {
		return nil, err
	}
	info := &GameInfo{
		ID: g.ID, System: cmp.Or(g.System, LegacySystem), Scenario: g.Scenario, Ruleset: g.Ruleset, Title: g.Title,
		Round: g.Round(), RoundName: pos.Step().Name, Created: g.Created,
		PeriodSeconds: int64(g.Period / time.Second), Paused: g.Paused, Ended: g.Ended, Result: g.Result,
		Observers: g.Observers, RoundsPlayed: g.Turn, MailWaiting: mails.waiting, MailFailed: mails.failed,
		Objectives: pos.Objectives(),
	}
	if !g.Paused {
		info.Deadline = g.Deadline
	} else if !g.Deadline.IsZero() {
		info.RemainingSeconds = int64(g.Remaining / time.Second)
	}
	if g.Ended {
		info.RoundName = ""
	}
	club, err := t.clubReliabilities()
	if err != nil {
		return nil, err
	}
	info.Policy = g.Policy
	waiting := pos.Step().Waiting
	for _, p := range g.Players {
		f := pos.Forces(seatSide(p.Side))
		side := SideInfo{Side: p.Side, Title: sideTitle(pos, seatSide(p.Side)), Address: p.Address, Unreachable: p.Unreachable,
			Units: f.Units, Stands: f.Pieces, SP: f.Strength,
			Since: max(p.Since, 1), Reliability: p.reliability(), ClubReliability: club[strings.ToLower(p.Address)],
			MissedInARow: p.InARow, Abandoned: p.Abandoned, Joining: p.Joining, Past: p.Past}
		if p.Side != seatSide(p.Side) {
			side.Title += ", seat " + seatLine(pos, p.Side)
		}
		if !g.Ended && slices.Contains(waiting, seatSide(p.Side)) {
			sub, err := t.submission(g.ID, g.Turn, p.Side)
			if err != nil {
				return nil, err
			}
			if sub != nil {
				side.OrdersReceived = sub.Received
			} else {
				info.Waiting = append(info.Waiting, p.Side)
			}
		}
		info.Sides = append(info.Sides, side)
	}
	if g.Turn > 0 {
		rec, err := t.round(g.ID, g.Turn-1)
		if err != nil {
			return nil, err
		}
		info.LastPlayed = rec.Played
	}
	return info, nil
}

// Status says in a few words where the game stands.
func (g *GameInfo) Status() string {
	switch {
	case g.Ended:
		return "over"
	case g.Paused:
		return "paused"
	case len(g.Waiting) == 0:
		return "all orders in"
	}
	return "waiting for " + strings.Join(g.Waiting, ", ")
}

// deadlineText writes a game's deadline for the administration, with the
// time left at now.
func (g *GameInfo) deadlineText(now time.Time) string {
	switch {
	case g.Ended:
		return "-"
	case g.Paused && g.RemainingSeconds > 0:
		return "paused, " + formatDuration(time.Duration(g.RemainingSeconds)*time.Second) + " left"
	case g.Deadline.IsZero():
		return "none"
	case !g.Deadline.After(now):
		return formatTime(g.Deadline) + " (passed)"
	}
	return formatTime(g.Deadline) + " (in " + formatDuration(g.Deadline.Sub(now)) + ")"
}

// WriteGameList writes a table of games for a person, deadlines counted
// from now.
func WriteGameList(w io.Writer, games []GameInfo, now time.Time) error {
	if len(games) == 0 {
		_, err := fmt.Fprintln(w, "No games.")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tSCENARIO\tROUND\tSTATUS\tDEADLINE")
	for _, g := range games {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", g.ID, g.Scenario, g.Round, g.Status(), g.deadlineText(now))
	}
	return tw.Flush()
}

// WriteGame writes what there is to know about a game for a person,
// deadlines counted from now.
func WriteGame(w io.Writer, g *GameInfo, now time.Time) error {
	line := func(label, format string, args ...any) {
		fmt.Fprintf(w, "%-13s"+format+"\n", append([]any{label}, args...)...)
	}
	line("Game:", "%s", g.ID)
	line("Scenario:", "%s: %s (rules %s)", g.Scenario, g.Title, g.Ruleset)
	switch {
	case g.Ended:
		line("Status:", "over after %s: %s", plural(g.RoundsPlayed, "round"), g.Result)
	default:
		line("Status:", "%s; round %d (%s)", g.Status(), g.Round, g.RoundName)
		line("Deadline:", "%s", g.deadlineText(now))
	}
	period := "none: a round waits for every side's orders"
	if g.PeriodSeconds > 0 {
		period = formatDuration(time.Duration(g.PeriodSeconds)*time.Second) + " a round"
	}
	line("Period:", "%s", period)
	line("Created:", "%s", formatTime(g.Created))
	if !g.LastPlayed.IsZero() {
		line("Last round:", "played %s (%s in all)", formatTime(g.LastPlayed), plural(g.RoundsPlayed, "round"))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SIDE\tPLAYER\tFORCES\tORDERS")
	for _, s := range g.Sides {
		orders := "none yet"
		switch {
		case g.Ended:
			orders = "-"
		case !s.OrdersReceived.IsZero():
			orders = "received " + formatTime(s.OrdersReceived)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s, %s, %d SP\t%s\n", s.Side, s.Address, plural(s.Units, "unit"), plural(s.Stands, "stand"), s.SP, orders)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range g.Sides {
		if u := s.Unreachable; u != nil {
			fmt.Fprintf(w, "\nUNREACHABLE: %s (%s): the judge's mail failed for good %s: %s\n", s.Side, s.Address, formatTime(u.Since), u.Reason)
			if !g.Ended {
				fmt.Fprintln(w, wayOut(g.ID, s.Side))
			}
		}
	}
	fmt.Fprintf(w, "\nPolicy: %s\n", g.Policy.describe())
	fmt.Fprintln(w, "Seats (reliability: rounds with orders in time, in this game; over the club):")
	for _, s := range g.Sides {
		who := s.Address
		switch {
		case s.Address == "" && s.Joining != "":
			who = "open, " + s.Joining + " asks to JOIN (APPROVE " + g.ID + " " + s.Side + ")"
		case s.Address == "" && s.Abandoned:
			who = "open (abandoned): the caretaker plays it"
		case s.Address == "":
			who = "open: the caretaker plays it"
		}
		fmt.Fprintf(w, "  %s: %s", s.Side, who)
		if s.Address != "" {
			fmt.Fprintf(w, " from round %d; %s; club %s", max(s.Since, 1), s.Reliability, s.ClubReliability)
			if s.MissedInARow > 0 {
				fmt.Fprintf(w, "; %s in a row", plural(s.MissedInARow, "missed deadline"))
			}
		}
		fmt.Fprintln(w)
		for _, past := range s.Past {
			fmt.Fprintf(w, "    before: %s, %s, %s; %s\n", past.Address, past.rounds(), past.Left,
				Reliability{OnTime: past.OnTime, Missed: past.Missed})
		}
	}
	if len(g.Objectives) > 0 {
		fmt.Fprintf(w, "\nObjectives:\n  %s\n", strings.Join(g.Objectives, "\n  "))
	}
	if len(g.Observers) > 0 {
		fmt.Fprintf(w, "\nObservers: %s\n", strings.Join(g.Observers, ", "))
	}
	if g.MailWaiting > 0 || g.MailFailed > 0 {
		fmt.Fprintf(w, "\nOutbox: %s about this game waiting to be sent", plural(g.MailWaiting, "mail"))
		if g.MailFailed > 0 {
			fmt.Fprintf(w, ", %d given up on (see the judge's log)", g.MailFailed)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// CreateFirstGame creates a game with the GM's NEWGAME and args in the
// database of cfg, unless the database holds a game already; it reports
// whether it did. It is for a program that prepares a judge before
// starting it (Serve), which must not run yet: when it returns the game is
// committed, and its welcomes wait in the outbox for the judge. The
// database and the server key file are created when missing; hooks are
// Serve's, for the NEWGAME (a bot seat's account).
func CreateFirstGame(cfg *config.Config, hooks Hooks, games Games, logger *slog.Logger, args ...string) (created bool, err error) {
	opts, err := serviceOptions(cfg, hooks, games, logger, SystemClock(), true)
	if err != nil {
		return false, err
	}
	store, err := OpenStore(cfg.Database)
	if err != nil {
		return false, err
	}
	defer func() { err = errors.Join(err, store.Close()) }()
	existing, err := store.Games(opts.Systems)
	if err != nil || len(existing) > 0 {
		return false, err
	}
	// Without a sender: the judge sends the outbox when it starts.
	svc, err := NewService(store, nil, opts)
	if err != nil {
		return false, err
	}
	answer, err := svc.Admin(context.Background(), "NEWGAME", args...)
	if err != nil {
		return false, err
	}
	if answer.Refused {
		return false, fmt.Errorf("NEWGAME %s: %s", strings.Join(args, " "), answer.Text)
	}
	return true, nil
}
