package engine

import (
	"encoding/json"
	"fmt"
	"strings"
)

// What every family means by the seam's small parts, written once: orders
// and rounds stored as the JSON of the rules' own types, and side names.

// JSONOrders are a family's orders for a play, stored as the JSON of its
// rules' orders type O (a JSON object), with a team's ASSIGN lines beside
// them (team play, seats.go) under "assign".
type JSONOrders[O any] struct {
	Orders O
	Assign []Assignment
}

// Marshal implements Orders.
func (o *JSONOrders[O]) Marshal() ([]byte, error) {
	raw, err := json.Marshal(o.Orders)
	if err != nil || len(o.Assign) == 0 {
		return raw, err
	}
	assign, err := json.Marshal(o.Assign)
	if err != nil {
		return nil, err
	}
	if len(raw) < 2 || raw[len(raw)-1] != '}' {
		return nil, fmt.Errorf("orders with ASSIGN lines: the orders are not a JSON object: %.40s", raw)
	}
	sep := ","
	if string(raw) == "{}" {
		sep = ""
	}
	return append(append(raw[:len(raw)-1], sep+`"assign":`...), append(assign, '}')...), nil
}

// assignments are the orders' ASSIGN lines, for AfterPlay.
func (o *JSONOrders[O]) assignments() []Assignment { return o.Assign }

// LoadJSONOrders reads back side's orders stored by JSONOrders.Marshal.
func LoadJSONOrders[O any](side string, stored []byte) (*JSONOrders[O], error) {
	var o O
	if err := json.Unmarshal(stored, &o); err != nil {
		return nil, fmt.Errorf("reading %s's stored orders: %w", side, err)
	}
	var team struct {
		Assign []Assignment `json:"assign"`
	}
	if err := json.Unmarshal(stored, &team); err != nil {
		return nil, fmt.Errorf("reading %s's stored ASSIGN lines: %w", side, err)
	}
	return &JSONOrders[O]{Orders: o, Assign: team.Assign}, nil
}

// OrdersOf returns the rules' orders that side's o holds; an error when o
// is not of the family's orders type O (orders of another game).
func OrdersOf[O any](family, side string, o Orders) (O, error) {
	jo, ok := o.(*JSONOrders[O])
	if !ok {
		var none O
		return none, fmt.Errorf("orders of %s are not %s orders: %T", side, family, o)
	}
	return jo.Orders, nil
}

// Parsed is what a family's reader found in a side's (or a seat's) order
// text, before the judge's answer is written.
type Parsed[O any] struct {
	Orders O
	// Found reports whether the text holds orders.
	Found bool
	// Problems are every problem of the text, in line order.
	Problems []Problem
	Round    int // the round the header names, 0 if none
	Ignored  []IgnoredLine
}

// Reading is the reading of text (the mail as the player wrote it) that
// the judge answers: refused with every problem (at most maxErrors of them
// listed, 0: all), or its orders accepted and said back by echo.
func (p Parsed[O]) Reading(text string, maxErrors int, echo func(O) string) Reading {
	r := Reading{Found: p.Found, Errors: len(p.Problems), Round: p.Round, Ignored: p.Ignored}
	switch {
	case len(p.Problems) > 0:
		r.Problems = p.Problems
		r.Answer = Refusal(text, p.Problems, maxErrors)
	case p.Found:
		r.Orders = &JSONOrders[O]{Orders: p.Orders}
		r.Answer = echo(p.Orders)
	}
	return r
}

// Played is one play as a family keeps it: the positions before and after
// (of the family's position type P) and the rules' event log, of event type
// E, which is what the judge stores. A family's Round embeds it and adds
// Report and Map.
type Played[P Position, E any] struct {
	Before, After P
	Events        []E
}

// Marshal implements Round: the event log.
func (r *Played[P, E]) Marshal() ([]byte, error) { return json.Marshal(r.Events) }

// LoadPlayed reads back the play from before to after, stored by
// Played.Marshal; an error when after is not of the family's position type.
func LoadPlayed[P Position, E any](family string, before P, after Position, stored []byte) (Played[P, E], error) {
	a, ok := after.(P)
	if !ok {
		return Played[P, E]{}, fmt.Errorf("not a %s position: %T", family, after)
	}
	var events []E
	if err := json.Unmarshal(stored, &events); err != nil {
		return Played[P, E]{}, fmt.Errorf("reading a stored %s round: %w", family, err)
	}
	return Played[P, E]{Before: before, After: a, Events: events}, nil
}

// SameSide reports whether two spellings name the same side. Side names
// are one word matched without regard to case wherever a player writes one
// (mail headers, order headers) and wherever the judge hands one to a
// position: "us" is "US". Each game keeps its own spelling (Position.Sides)
// for what it writes.
func SameSide(a, b string) bool { return strings.EqualFold(a, b) }

// SideNamed returns the game's own spelling of the side name names, "" when
// no side of sides is named so.
func SideNamed(sides []Side, name string) string {
	for _, sd := range sides {
		if SameSide(sd.Name, name) {
			return sd.Name
		}
	}
	return ""
}

// SideNames lists the names of sides, in their order: the sides a
// simultaneous round waits for.
func SideNames(sides []Side) []string {
	names := make([]string, len(sides))
	for i, sd := range sides {
		names[i] = sd.Name
	}
	return names
}
