package stargeneral

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral/ordertext"
	"fieldpost/engine/stargeneral/rules"
)

// Team play in Star General ("written primarily for play with two or more
// players"): the division's or corps' commander (seat 1) and up to four
// subordinates, each commanding battalions (2SG) or regiments (3SG). The
// commander gives the side-wide orders: PRIORITY, ARTILLERY, AIR, the
// standing choices (LOSSES, PURSUE, HOLD-AT-COST, DEFENSIVE-SUPPORT) and
// the night's recovery (RECOVER, PLATOON, REBUILD); each seat gives its own
// units' status, paths, attacks with their fire support, and their night
// RESHUFFLE. ASSIGN passes units between seats from the next round.

var _ engine.Seated = (*Position)(nil)

// maxSeats: a commander and four subordinates, as many as a corps has
// divisions or a division regiments in the bundled scenarios.
const maxSeats = 5

// MaxSeats implements engine.Seated.
func (p *Position) MaxSeats() int { return maxSeats }

// seatName is seat n's name for people.
func seatName(n int) string {
	if n <= 1 {
		return "Commander"
	}
	return "Subordinate " + strconv.Itoa(n-1)
}

// Seats implements engine.Seated.
func (p *Position) Seats(side string) []engine.Seat {
	var units []string
	for _, u := range p.st.ActiveUnits(side) {
		units = append(units, u.ID)
	}
	return p.teams[side].List(side, seatName(1), units)
}

// WithSeats implements engine.Seated: units are dealt in the scenario's
// order, which keeps a division's regiments or a regiment's battalions
// together.
func (p *Position) WithSeats(seats []engine.SeatSetup) (engine.Position, error) {
	deal := map[string][]string{}
	for _, sd := range p.st.Sides {
		deal[sd.Name] = nil
		for _, u := range p.st.ActiveUnits(sd.Name) {
			deal[sd.Name] = append(deal[sd.Name], u.ID)
		}
	}
	teams, err := engine.NewTeams(seats, maxSeats, deal, func(side, u string) bool { x := p.st.Unit(u); return x != nil && x.Side == side && !x.Removed }, seatName)
	if err != nil {
		return nil, err
	}
	return &Position{sys: p.sys, rs: p.rs, st: p.st, teams: teams}, nil
}

// sideWide are the keywords (ordertext's) of the commander's orders.
var sideWide = map[string]string{
	"PRIORITY": "PRIORITY", "ORDER": "PRIORITY",
	"LOSSES": "LOSSES", "PURSUE": "PURSUE", "PURSUIT": "PURSUE", "HOLD-AT-COST": "HOLD-AT-COST", "DEFENSIVE-SUPPORT": "DEFENSIVE-SUPPORT",
	"ARTILLERY": "ARTILLERY", "ART": "ARTILLERY", "ARTY": "ARTILLERY", "BATTERY": "ARTILLERY", "BTY": "ARTILLERY",
	"AIR": "AIR", "AIRSTRIKE": "AIR",
	"RECOVER": "RECOVER", "STRENGTH": "RECOVER", "PLATOON": "PLATOON", "RESTORE": "PLATOON", "REBUILD": "REBUILD",
}

// unitWords open a unit's block.
var unitWords = map[string]bool{"BN": true, "BATTALION": true, "UNIT": true, "REGIMENT": true, "REGT": true, "RGT": true}

// SeatForm implements engine.Seated: the side's form with the blocks of
// the seat's units only, and for a subordinate without the commander's
// lines.
func (p *Position) SeatForm(seat, game string) string {
	side, n := engine.SplitSeat(seat)
	form := ordertext.Form(p.rs, p.st, side, game)
	team := p.teams[side]
	if team == nil {
		return form
	}
	var b strings.Builder
	for _, para := range strings.SplitAfter(form, "\n\n") {
		switch kind, unit := paragraphKind(para); {
		case kind == "header":
			for line := range strings.Lines(para) {
				if f := strings.Fields(line); len(f) > 0 && strings.EqualFold(f[0], "GAME") {
					if n > 1 {
						line = strings.Replace(line, "ROUND", strings.TrimSpace(engine.SeatHeader(seat))+"  ROUND", 1)
					}
					b.WriteString(line)
					p.writeSeats(&b, side, seat)
					continue
				}
				b.WriteString(line)
			}
		case kind == "unit" && !team.Commands(side, seat, unit):
		case kind == "side" && n > 1:
			if strings.Contains(para, "\nEND") || strings.HasPrefix(para, "END") {
				b.WriteString("END\n")
			}
		default:
			b.WriteString(para)
		}
	}
	return b.String()
}

// paragraphKind says what a paragraph of the form holds: the header line,
// a unit's block (with the unit), the commander's lines, or comments.
func paragraphKind(para string) (kind, unit string) {
	kind = "comment"
	for line := range strings.Lines(para) {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
		case strings.EqualFold(f[0], "GAME"):
			return "header", ""
		case unitWords[strings.ToUpper(f[0])] && len(f) > 1:
			return "unit", f[1]
		case sideWide[strings.ToUpper(f[0])] != "" || strings.EqualFold(f[0], "END"):
			kind = "side"
		}
	}
	return kind, ""
}

// writeSeats writes the seats and what this one orders, as comments.
func (p *Position) writeSeats(b *strings.Builder, side, seat string) {
	engine.WriteSeats(b, p.Seats(side), seat)
	if seat == side {
		b.WriteString("# You command the side: PRIORITY, ARTILLERY, AIR, LOSSES/PURSUE/HOLD-AT-COST/DEFENSIVE-SUPPORT,\n" +
			"# the night's RECOVER, PLATOON and REBUILD, and the units you keep. ASSIGN unit... TO seat\n" +
			"# gives units to a seat from the next round.\n")
		return
	}
	b.WriteString("# You command your units: status, paths, attacks and their fire support, night RESHUFFLE.\n" +
		"# ASSIGN unit... TO seat passes your units to another seat from the next round.\n")
}

// SeatRead implements engine.Seated.
func (p *Position) SeatRead(seat, text string, maxErrors int) engine.Reading {
	side, n := engine.SplitSeat(seat)
	team := p.teams[side]
	if n != 1 && !team.Has(seat) {
		why := []engine.Problem{{Text: fmt.Sprintf("there is no seat %s in this game", seat)}}
		return engine.Reading{Errors: 1, Problems: why, Answer: engine.Refusal(text, why, maxErrors)}
	}
	mail := text
	text, said := engine.CutSeat(text)
	text, assigns, probs := engine.CutAssign(text, side)
	probs = append(probs, engine.SeatMismatch(said, n, seat)...)
	known := func(u string) bool { x := p.st.Unit(u); return x != nil && x.Side == side && !x.Removed }
	for _, a := range assigns {
		probs = append(probs, team.CheckAssign(side, seat, a, known)...)
	}
	sub, errs := ordertext.Parse(p.rs, p.st, side, text)
	r := engine.Reading{Found: sub.Lines > 0 || len(assigns) > 0 || engine.HasHeader(text), Round: sub.Round}
	for _, l := range sub.Ignored {
		r.Ignored = append(r.Ignored, engine.IgnoredLine{Line: l.Line, Text: l.Quote, Why: l.Msg})
	}
	probs = append(probs, ordertext.Problems(errs)...)
	probs = append(probs, p.seatProblems(seat, sub.Orders, text)...)
	slices.SortStableFunc(probs, func(a, b engine.Problem) int { return a.Line - b.Line })
	r.Errors = len(probs)
	switch {
	case len(probs) > 0:
		r.Problems = probs
		r.Answer = engine.Refusal(mail, probs, maxErrors)
	case r.Found:
		r.Orders = &Orders{Orders: sub.Orders, Assign: assigns}
		r.Answer = ordertext.Echo(p.rs, p.st, sub.Orders)
		for _, a := range assigns {
			r.Answer += fmt.Sprintf("  %s pass to seat %s from the next round\n", strings.Join(a.Units, " "), a.Seat)
		}
	}
	return r
}

// seatProblems are the orders a seat gives that are not its own.
func (p *Position) seatProblems(seat string, o *rules.Orders, text string) []engine.Problem {
	side, n := engine.SplitSeat(seat)
	team := p.teams[side]
	var probs []engine.Problem
	if n > 1 {
		for i, line := range strings.Split(text, "\n") {
			if f := strings.Fields(line); len(f) > 0 && sideWide[strings.ToUpper(f[0])] != "" {
				probs = append(probs, engine.Problem{Line: i + 1, Text: fmt.Sprintf("%s is the side's commander's to order (%s), not a subordinate's", sideWide[strings.ToUpper(f[0])], side)})
			}
		}
	}
	not := func(unit string) {
		probs = append(probs, engine.Problem{Line: unitLine(text, unit),
			Text: fmt.Sprintf("%s is commanded by seat %s, not by you (%s): each seat orders only its own units", unit, team.OwnerOf(side, unit), seat)})
	}
	for _, uo := range o.Units {
		if !team.Commands(side, seat, uo.Unit) {
			not(uo.Unit)
		}
	}
	if o.Night != nil {
		for _, m := range o.Night.Reshuffle {
			if !team.Commands(side, seat, m.Unit) {
				not(m.Unit)
			}
		}
	}
	return probs
}

// unitLine is the first line that names a unit after its first word.
func unitLine(text, unit string) int {
	for i, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) > 1 && (f[1] == unit || f[0] == unit) {
			return i + 1
		}
	}
	return 0
}

// Merge implements engine.Seated: the commander's side-wide orders and
// every seat's units; the units of a seat that sent nothing keep their
// status and stay where they are (rules.Orders).
func (p *Position) Merge(side string, seats map[string]engine.Orders) (engine.Orders, error) {
	merged := &Orders{Orders: &rules.Orders{Side: side}}
	var chiefAssign []engine.Assignment
	ids := make([]string, 0, len(seats))
	for id := range seats {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		_, x := engine.SplitSeat(a)
		_, y := engine.SplitSeat(b)
		return x - y
	})
	for _, id := range ids {
		o, ok := seats[id].(*Orders)
		if !ok {
			return nil, fmt.Errorf("orders of %s are not Star General orders: %T", id, seats[id])
		}
		m, so := merged.Orders, o.Orders
		if _, n := engine.SplitSeat(id); n == 1 {
			m.Priority, m.Batteries, m.AirStrikes, m.Choices = so.Priority, so.Batteries, so.AirStrikes, so.Choices
			if so.Night != nil {
				m.Night = &rules.NightOrders{Strength: so.Night.Strength, Platoons: so.Night.Platoons, Rebuild: so.Night.Rebuild,
					Reshuffle: append(slices.Clone(so.Night.Reshuffle), reshuffles(m.Night)...)}
			}
			chiefAssign = o.Assign
		} else {
			merged.Assign = append(merged.Assign, o.Assign...)
			if so.Night != nil {
				if m.Night == nil {
					m.Night = &rules.NightOrders{}
				}
				m.Night.Reshuffle = append(m.Night.Reshuffle, so.Night.Reshuffle...)
			}
		}
		m.Units = append(m.Units, so.Units...)
	}
	merged.Assign = append(merged.Assign, chiefAssign...)
	if p.st.Night && merged.Orders.Night == nil {
		merged.Orders.Night = &rules.NightOrders{}
	}
	if probs := rules.Validate(p.rs, p.st, merged.Orders); len(probs) > 0 {
		return nil, fmt.Errorf("the seats' orders together break the rules: %v", probs.Error())
	}
	return merged, nil
}

// reshuffles are night orders' reshuffles, none for none.
func reshuffles(n *rules.NightOrders) []rules.NightMove {
	if n == nil {
		return nil
	}
	return n.Reshuffle
}

// stored is a position as Marshal writes it: the rules' state with the
// sides' teams beside it (none in a game of one player a side).
type stored struct {
	*rules.State
	Teams map[string]*engine.Team `json:"teams,omitempty"`
}

// loadTeams reads the teams stored beside a state.
func loadTeams(raw []byte) (map[string]*engine.Team, error) {
	var s struct {
		Teams map[string]*engine.Team `json:"teams"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("star general position's teams: %w", err)
	}
	return s.Teams, nil
}

// afterRound is the teams after a round: every side's assignments done.
func (p *Position) afterRound(list []*Orders, next *rules.State) map[string]*engine.Team {
	if p.teams == nil {
		return nil
	}
	teams := map[string]*engine.Team{}
	for side, t := range p.teams {
		teams[side] = t.Clone()
	}
	for _, o := range list {
		if t := teams[o.Orders.Side]; t != nil {
			t.Apply(o.Orders.Side, o.Assign, func(u string) bool { x := next.Unit(u); return x != nil && !x.Removed })
		}
	}
	return teams
}

// seatShare is the part of a side's orders a seat gives.
func seatShare(team *engine.Team, seat string, o *rules.Orders) *rules.Orders {
	if team == nil {
		return o
	}
	side, n := engine.SplitSeat(seat)
	share := &rules.Orders{Side: o.Side}
	if n == 1 {
		c := *o
		share = &c
		share.Units = nil
	}
	for _, uo := range o.Units {
		if team.Commands(side, seat, uo.Unit) {
			share.Units = append(share.Units, uo)
		}
	}
	if o.Night != nil {
		night := &rules.NightOrders{}
		if n == 1 {
			night.Strength, night.Platoons, night.Rebuild = o.Night.Strength, o.Night.Platoons, o.Night.Rebuild
		}
		for _, m := range o.Night.Reshuffle {
			if team.Commands(side, seat, m.Unit) {
				night.Reshuffle = append(night.Reshuffle, m)
			}
		}
		share.Night = night
	}
	return share
}

// subordinateText is orders written for a side without the commander's
// lines, as a subordinate sends them.
func subordinateText(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if f := strings.Fields(line); len(f) > 0 && sideWide[strings.ToUpper(f[0])] != "" {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}
