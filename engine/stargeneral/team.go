package stargeneral

import (
	"fmt"
	"slices"
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

// team is what Star General's rules say of its teams: a commander and four
// subordinates, as many as a corps has divisions or a division regiments
// in the bundled scenarios.
var team = &engine.TeamRules{
	MaxSeats: 5, Chief: "Commander", Subordinate: "Subordinate",
	ChiefRole: "# You command the side: PRIORITY, ARTILLERY, AIR, LOSSES/PURSUE/HOLD-AT-COST/DEFENSIVE-SUPPORT,\n" +
		"# the night's RECOVER, PLATOON and REBUILD, and the units you keep. ASSIGN unit... TO seat\n" +
		"# gives units to a seat from the next round.\n",
	SubordinateRole: "# You command your units: status, paths, attacks and their fire support, night RESHUFFLE.\n" +
		"# ASSIGN unit... TO seat passes your units to another seat from the next round.\n",
	ChiefWords: sideWide, ChiefTitle: "side's commander", SubordinateTitle: "subordinate",
	Units: "units", Effect: "the next round",
}

// MaxSeats implements engine.Seated.
func (p *Position) MaxSeats() int { return team.MaxSeats }

// Seats implements engine.Seated.
func (p *Position) Seats(side string) []engine.Seat {
	var units []string
	for _, u := range p.st.ActiveUnits(side) {
		units = append(units, u.ID)
	}
	return p.teams[side].List(side, team.SeatName(1), units)
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
	teams, err := engine.NewTeams(seats, team.MaxSeats, deal, func(side, u string) bool { return p.known(side, u) }, team.SeatName)
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
	t := p.teams[side]
	if t == nil {
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
					team.WriteSeats(&b, p.Seats(side), seat)
					continue
				}
				b.WriteString(line)
			}
		case kind == "unit" && !t.Commands(side, seat, unit):
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

// SeatRead implements engine.Seated.
func (p *Position) SeatRead(seat, text string, maxErrors int) engine.Reading {
	side, _ := engine.SplitSeat(seat)
	return engine.ReadSeat(seat, text, maxErrors, engine.SeatReader[*rules.Orders]{
		Rules: team, Team: p.teams[side],
		Known: func(u string) bool { return p.known(side, u) },
		Read: func(text string) engine.Parsed[*rules.Orders] {
			read := p.parse(side, text)
			read.Found = read.Found || engine.HasHeader(text)
			read.Problems = append(read.Problems, p.seatProblems(seat, read.Orders, text)...)
			return read
		},
		Echo: p.echo,
	})
}

// known reports whether unit is a unit of side in play.
func (p *Position) known(side, unit string) bool {
	u := p.st.Unit(unit)
	return u != nil && u.Side == side && !u.Removed
}

// seatProblems are the orders a seat gives that are not its own.
func (p *Position) seatProblems(seat string, o *rules.Orders, text string) []engine.Problem {
	side, _ := engine.SplitSeat(seat)
	c := team.Check(p.teams[side], seat)
	c.ChiefLines(text)
	for _, uo := range o.Units {
		c.Unit(unitLine(text, uo.Unit), uo.Unit)
	}
	if o.Night != nil {
		for _, m := range o.Night.Reshuffle {
			c.Unit(unitLine(text, m.Unit), m.Unit)
		}
	}
	return c.Problems
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
	m := &rules.Orders{Side: side}
	assigns, err := engine.MergeSeats(family, seats, func(chief bool, so *rules.Orders) {
		if chief {
			m.Priority, m.Batteries, m.AirStrikes, m.Choices = so.Priority, so.Batteries, so.AirStrikes, so.Choices
			if so.Night != nil {
				m.Night = &rules.NightOrders{Strength: so.Night.Strength, Platoons: so.Night.Platoons, Rebuild: so.Night.Rebuild,
					Reshuffle: append(slices.Clone(so.Night.Reshuffle), reshuffles(m.Night)...)}
			}
		} else if so.Night != nil {
			if m.Night == nil {
				m.Night = &rules.NightOrders{}
			}
			m.Night.Reshuffle = append(m.Night.Reshuffle, so.Night.Reshuffle...)
		}
		m.Units = append(m.Units, so.Units...)
	})
	if err != nil {
		return nil, err
	}
	if p.st.Night && m.Night == nil {
		m.Night = &rules.NightOrders{}
	}
	if probs := rules.Validate(p.rs, p.st, m); len(probs) > 0 {
		return nil, fmt.Errorf("the seats' orders together break the rules: %v", probs.Error())
	}
	return &Orders{Orders: m, Assign: assigns}, nil
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
