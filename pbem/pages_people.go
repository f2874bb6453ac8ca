package pbem

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/emersion/go-ical"
)

// seatHolder is a seat as the public pages show it: who plays it (the
// local part of the address, never the whole), since when, how reliably,
// and who played it before; an open seat has the mail that JOINs it.
type seatHolder struct {
	Name        string
	Player      string // "" for an open seat
	Since       int
	Reliability string
	Past        []string // "bob: rounds 1-3, replaced"
	Abandoned   bool
	// Join is a mailto: link writing the JOIN mail, for an open seat of a
	// game going on, when the pages know the judge's address.
	Join string
}

// playerName is how the pages name a player: its address's local part.
func playerName(addr string) string {
	local, _, _ := strings.Cut(addr, "@")
	return local
}

// readSeats reads a game's seats for its page; judge is the judge's
// address, "" when unknown.
func readSeats(g *Game, judge string) []seatHolder {
	var out []seatHolder
	for _, p := range g.Players {
		s := seatHolder{Name: p.seatName(), Player: playerName(p.Address), Since: max(p.Since, 1),
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

// ladderPage is the club ladder as its page shows it.
type ladderPage struct {
	Rows []ladderRowPage
}

type ladderRowPage struct {
	Place               int // 0 for an unrated player
	Name                string
	Rating, Deviation   string
	Wins, Draws, Losses int
	Reliability         string
	Games               []string
}

func (w *webPages) ladder(rw http.ResponseWriter, r *http.Request) {
	var p ladderPage
	err := w.view(func(t storeTx) error {
		rows, err := t.ladder()
		for _, row := range rows {
			lp := ladderRowPage{Name: row.Name(), Wins: row.Wins, Draws: row.Draws, Losses: row.Losses,
				Reliability: row.Reliability.String(), Games: row.Games}
			if len(row.Games) > 0 {
				lp.Place = len(p.Rows) + 1
				lp.Rating, lp.Deviation = fmt.Sprintf("%.0f", row.Rating), fmt.Sprintf("%.0f", row.Deviation)
			}
			p.Rows = append(p.Rows, lp)
		}
		return err
	})
	w.render(rw, r, "ladder", err, &p)
}

// deadlineFeed is a player's iCalendar feed: the open deadline of every
// seat its address holds in the club's games.
func (w *webPages) deadlineFeed(rw http.ResponseWriter, r *http.Request) {
	if w.desk == nil {
		w.notFound(rw)
		return
	}
	now := w.desk.clock.Now()
	var events []*ical.Event
	err := w.view(func(t storeTx) error {
		g, side, err := w.player(t, r)
		if err != nil {
			return err
		}
		addr := g.Player(side).Address
		games, err := t.games()
		if err != nil {
			return err
		}
		for _, other := range games {
			for _, p := range other.Players {
				if strings.EqualFold(p.Address, addr) && !other.Deadline.IsZero() && !other.Paused && !other.Ended {
					events = append(events, w.desk.deadlineEvent(other, p.Side, now))
				}
			}
		}
		return nil
	})
	if err != nil {
		w.fail(rw, r, err)
		return
	}
	data, err := w.desk.writeCalendar("", events)
	if err != nil {
		w.fail(rw, r, err)
		return
	}
	rw.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	rw.Write(data)
}
