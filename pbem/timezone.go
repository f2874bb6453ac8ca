package pbem

import (
	"fmt"
	"strings"
	"time"
)

// Deadlines are kept in UTC. A player may ask for its mails to show them
// in a zone of its own (TIMEZONE Europe/Berlin), and the game master may
// give a game a zone for every player who has not (TIMEZONE GAMEID
// Europe/Paris); a deadline is then written in that zone with UTC beside
// it, so that nobody misreads the hour.

// loadZone reads an IANA zone name, or UTC.
func loadZone(name string) (*time.Location, error) {
	if strings.EqualFold(name, "UTC") || strings.EqualFold(name, "GMT") {
		return time.UTC, nil
	}
	if name == "" || strings.ContainsAny(name, " .") {
		return nil, fmt.Errorf("%q is not a time zone", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("%q is not a time zone of the IANA list (such as Europe/Berlin, America/New_York or UTC)", name)
	}
	return loc, nil
}

// zoneOf is the zone a side's mails show times in: the player's, else the
// game's, else UTC. side "" is an observer's.
func zoneOf(g *Game, side string) *time.Location {
	name := g.TimeZone
	if p := g.Player(side); p != nil && p.TimeZone != "" {
		name = p.TimeZone
	}
	if name == "" {
		return time.UTC
	}
	loc, err := loadZone(name)
	if err != nil {
		return time.UTC // stored names were checked; a zone gone from the list falls back
	}
	return loc
}

// formatTimeIn writes a time in a zone, with UTC beside it unless the zone
// is UTC.
func formatTimeIn(t time.Time, loc *time.Location) string {
	if loc == time.UTC {
		return formatTime(t)
	}
	local := t.In(loc)
	return fmt.Sprintf("%s (%s)", local.Format("Mon 2 Jan 2006 15:04 MST"), t.UTC().Format("15:04 MST"))
}

// playerTimeZone handles a player's TIMEZONE ZONE: its mails of the game
// show times in that zone from now on.
func (t *txn) playerTimeZone(id *identity, req *request) error {
	g := id.game
	var zone string
	if len(req.Args) > 0 {
		zone = req.Args[len(req.Args)-1]
	}
	loc, err := loadZone(zone)
	if err != nil {
		return t.letters().mailPlayer(g, id.side, kindError, "Time zone not changed",
			fmt.Sprintf("TIMEZONE: %v. Nothing was changed.", err), false)
	}
	p := g.Player(id.side)
	p.TimeZone = loc.String()
	if err := t.putGame(g); err != nil {
		return err
	}
	t.log.Info("player's time zone set", "zone", p.TimeZone)
	body := fmt.Sprintf("Your mails of game %s now show times in %s.", g.ID, p.TimeZone)
	if !g.Deadline.IsZero() {
		body += "\nThe deadline of round " + fmt.Sprint(g.Round()) + " is " + formatTimeIn(g.Deadline, loc) + "."
	}
	return t.letters().mailPlayer(g, id.side, kindStatus, "Time zone "+p.TimeZone, body, false)
}

// gameTimeZone handles the GM's TIMEZONE GAMEID ZONE: the game's mails show
// times in that zone, for every player who chose none.
func (t *txn) gameTimeZone(g *Game, args []string) error {
	if len(args) != 1 {
		return t.refuseGM(g, cmdTimezone, "TIMEZONE GAMEID ZONE, such as TIMEZONE "+g.ID+" Europe/Paris (or UTC).")
	}
	loc, err := loadZone(args[0])
	if err != nil {
		return t.refuseGM(g, cmdTimezone, fmt.Sprintf("TIMEZONE: %v.", err))
	}
	g.TimeZone = loc.String()
	if loc == time.UTC {
		g.TimeZone = ""
	}
	if err := t.putGame(g); err != nil {
		return err
	}
	t.log.Info("game's time zone set", "zone", loc.String())
	return t.letters().answerGM(kindGM, g, "Time zone "+loc.String(),
		fmt.Sprintf("The mails of game %s now show times in %s, for every player who has not chosen a zone.", g.ID, loc.String()))
}
