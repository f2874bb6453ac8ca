package pbem

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/emersion/go-ical"

	"fieldpost/mail"
)

// calendarLead is how long the deadline's event lasts, ending at the
// deadline: calendars show an event of no length poorly.
const calendarLead = 30 * time.Minute

// deadlineEvent is a side's open deadline in a game as an iCalendar
// event (RFC 5545): the deadline, the game's URL (its page, or its mail
// thread as a mid: URL), and an alarm for each of the club's reminders.
// Its UID names the game, side and round, so that a later mail's event
// (SEQUENCE grows with the time it is written) moves the same event.
func (s *Service) deadlineEvent(g *Game, side string, now time.Time) *ical.Event {
	ev := ical.NewEvent()
	ev.Props.SetText(ical.PropUID, fmt.Sprintf("deadline-%s-%s-round-%d@%s", g.ID, strings.ToLower(side), g.Round(), s.domain))
	ev.Props.SetDateTime(ical.PropDateTimeStamp, now.UTC())
	ev.Props.SetDateTime(ical.PropDateTimeStart, g.Deadline.Add(-calendarLead).UTC())
	ev.Props.SetDateTime(ical.PropDateTimeEnd, g.Deadline.UTC())
	seq := ical.NewProp(ical.PropSequence)
	seq.Value = fmt.Sprint(max(int64(now.Sub(g.Created)/time.Second), 0))
	ev.Props.Set(seq)
	ev.Props.SetText(ical.PropSummary, fmt.Sprintf("Orders due: %s, round %d (%s)", g.ID, g.Round(), side))
	link := s.gameLink(g)
	ev.Props.SetText(ical.PropDescription, fmt.Sprintf("Your orders for round %d of game %s (%s) are due by %s.\n"+
		"Reply to the judge's latest mail with them. The game: %s", g.Round(), g.ID, g.Title, formatTimeIn(g.Deadline, zoneOf(g, side)), link))
	if u, err := url.Parse(link); err == nil {
		ev.Props.SetURI(ical.PropURL, u)
	}
	for _, r := range s.opts.Reminders {
		alarm := ical.NewComponent(ical.CompAlarm)
		alarm.Props.SetText(ical.PropAction, "DISPLAY")
		alarm.Props.SetText(ical.PropDescription, fmt.Sprintf("Orders for %s round %d due by %s", g.ID, g.Round(), formatTimeIn(g.Deadline, zoneOf(g, side))))
		trigger := ical.NewProp(ical.PropTrigger)
		trigger.SetDuration(-r)
		trigger.Params.Set(ical.ParamRelated, "END")
		alarm.Props.Set(trigger)
		ev.Children = append(ev.Children, alarm)
	}
	return ev
}

// deadlineEvents are the open deadlines of every seat that addr holds in
// the club's games, for its calendar feed.
func (s *Service) deadlineEvents(t storeTx, addr string, now time.Time) ([]*ical.Event, error) {
	games, err := t.games()
	if err != nil {
		return nil, err
	}
	var events []*ical.Event
	for _, g := range games {
		for _, p := range g.Players {
			if strings.EqualFold(p.Address, addr) && !g.Deadline.IsZero() && !g.Paused && !g.Ended {
				events = append(events, s.deadlineEvent(g, p.Side, now))
			}
		}
	}
	return events, nil
}

// gameLink is the game's page, or without pages its mail thread.
func (s *Service) gameLink(g *Game) string {
	if s.opts.BaseURL != "" {
		return s.opts.BaseURL + "/g/" + g.ID
	}
	return "mid:" + url.PathEscape(strings.Trim(g.Thread, "<>"))
}

// writeCalendar writes events as an iCalendar file.
func (s *Service) writeCalendar(method string, events []*ical.Event) ([]byte, error) {
	cal := ical.NewCalendar()
	cal.Props.SetText(ical.PropProductID, "-//Fieldpost//"+s.opts.Name+"//EN")
	cal.Props.SetText(ical.PropVersion, "2.0")
	if method != "" {
		cal.Props.SetText(ical.PropMethod, method)
	}
	for _, ev := range events {
		cal.Children = append(cal.Children, ev.Component)
	}
	var b bytes.Buffer
	if err := ical.NewEncoder(&b).Encode(cal); err != nil {
		return nil, fmt.Errorf("writing the deadlines' calendar: %w", err)
	}
	return b.Bytes(), nil
}

// deadlinePart is a side's open deadline as a text/calendar part for a
// mail, so that mail programs offer to put it in the calendar; false
// when the game has no deadline running.
func (s *Service) deadlinePart(g *Game, side string, now time.Time) (mail.Part, bool, error) {
	if g.Deadline.IsZero() || g.Paused || g.Ended || side == "" {
		return mail.Part{}, false, nil
	}
	data, err := s.writeCalendar("PUBLISH", []*ical.Event{s.deadlineEvent(g, side, now)})
	if err != nil {
		return mail.Part{}, false, err
	}
	return mail.Part{ContentType: "text/calendar; method=PUBLISH; charset=utf-8", Filename: "deadline.ics", Data: data}, true, nil
}
