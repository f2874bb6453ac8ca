package pbem

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"fieldpost/engine"
	"fieldpost/pbem/rating"
	"fieldpost/pbem/store"
)

// ladderEntry is a player's place on the club ladder, from the rated games
// that finished; the store keeps it under the address in lower case.
type ladderEntry struct {
	rating.Rating
	Wins   int `json:"wins,omitempty"`
	Draws  int `json:"draws,omitempty"`
	Losses int `json:"losses,omitempty"`
	// Games are the rated games it played, the first first.
	Games []string `json:"games,omitempty"`
}

// rateGame updates the ladder with a rated game that finished: each
// player's game against each player of another side is its rating period
// (Glicko-2, its parameters rating/glicko2.json), all computed from the
// ratings before the game.
func (t roundPlay) rateGame(g *Game, step engine.Step) error {
	if !g.Rated {
		return nil
	}
	params := rating.DefaultParams()
	before := map[string]ladderEntry{}
	var seated []Player
	for _, p := range g.Players {
		if p.isOpen() {
			continue
		}
		key := strings.ToLower(p.Address)
		e := ladderEntry{Rating: params.New()}
		if _, err := t.tx.Rating(key, &e); err != nil {
			return err
		}
		before[key] = e
		seated = append(seated, p)
	}
	for _, p := range seated {
		key := strings.ToLower(p.Address)
		e := before[key]
		score := 0.5
		switch step.Winner {
		case "":
			e.Draws++
		case seatSide(p.Side):
			score = 1
			e.Wins++
		default:
			score = 0
			e.Losses++
		}
		var results []rating.Result
		for _, o := range seated {
			if seatSide(o.Side) != seatSide(p.Side) {
				results = append(results, rating.Result{Opponent: before[strings.ToLower(o.Address)].Rating, Score: score})
			}
		}
		if len(results) == 0 {
			continue
		}
		e.Rating = params.Update(e.Rating, results)
		e.Games = append(e.Games, g.ID)
		if err := t.tx.PutRating(key, &e); err != nil {
			return err
		}
	}
	t.log.Info("rated game counted on the ladder", "players", len(seated), "winner", step.Winner)
	return nil
}

// LadderRow is a player on the club ladder: its rating and record in the
// rated games, and its reliability over all the club's games.
type LadderRow struct {
	Address     string      `json:"address"`
	Rating      float64     `json:"rating"`
	Deviation   float64     `json:"deviation"`
	Volatility  float64     `json:"volatility"`
	Wins        int         `json:"wins"`
	Draws       int         `json:"draws"`
	Losses      int         `json:"losses"`
	Games       []string    `json:"games"`
	Reliability Reliability `json:"reliability"`
}

// Name is how the public pages name a player: its address's local part,
// never the whole address.
func (r LadderRow) Name() string {
	local, _, _ := strings.Cut(r.Address, "@")
	return local
}

// Ladder returns the club ladder: every rated player, best first, then
// every other player with its reliability only.
func (s *Store) Ladder() ([]LadderRow, error) {
	var rows []LadderRow
	err := s.db.View(func(tx *store.Tx) error {
		var err error
		rows, err = storeTx{tx}.ladder()
		return err
	})
	return rows, err
}

func (t storeTx) ladder() ([]LadderRow, error) {
	rel, err := t.clubReliabilities()
	if err != nil {
		return nil, err
	}
	var rows []LadderRow
	rated := map[string]bool{}
	for addr, v := range t.tx.Ratings() {
		var e ladderEntry
		if err := v.Decode(&e); err != nil {
			return nil, fmt.Errorf("decoding %s: %w", addr, err)
		}
		rated[addr] = true
		rows = append(rows, LadderRow{Address: addr, Rating: e.Rating.Rating, Deviation: e.Deviation, Volatility: e.Volatility,
			Wins: e.Wins, Draws: e.Draws, Losses: e.Losses, Games: e.Games, Reliability: rel[addr]})
	}
	for addr, r := range rel {
		if !rated[addr] {
			rows = append(rows, LadderRow{Address: addr, Reliability: r})
		}
	}
	// Rated players first, the best first; then the others, the most
	// reliable first.
	slices.SortFunc(rows, func(a, b LadderRow) int {
		aRated, bRated := len(a.Games) > 0, len(b.Games) > 0
		switch {
		case aRated != bRated && aRated:
			return -1
		case aRated != bRated:
			return 1
		}
		return cmp.Or(-cmp.Compare(a.Rating, b.Rating), -cmp.Compare(a.Reliability.Percent(), b.Reliability.Percent()),
			cmp.Compare(a.Address, b.Address))
	})
	return rows, nil
}

// WriteLadder writes the ladder as fieldpost club ladder prints it.
func WriteLadder(w io.Writer, rows []LadderRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tPLAYER\tRATING\tRD\tW-D-L\tRELIABILITY\tGAMES")
	n := 0
	for _, r := range rows {
		place, rated, record := "-", "unrated", "-"
		if len(r.Games) > 0 {
			n++
			place, rated = fmt.Sprint(n), fmt.Sprintf("%.0f", r.Rating)
			record = fmt.Sprintf("%d-%d-%d", r.Wins, r.Draws, r.Losses)
		}
		rd := ""
		if len(r.Games) > 0 {
			rd = fmt.Sprintf("%.0f", r.Deviation)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", place, r.Address, rated, rd, record, r.Reliability, strings.Join(r.Games, " "))
	}
	return tw.Flush()
}
