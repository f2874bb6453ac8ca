// Package fog decides what a side of Frontline General observed of a
// player turn (§VIII.1, Glossary Hidden): the events it may read, each as
// it saw it. The rules mark an event private to a side (its purchases,
// its hand, under fog of war its moves); a public event may still name a
// unit the reading side never saw, a hidden unit moving without fog of
// war, a unit deep in a stack firing from afar. Such an event is told as
// observed ("an unseen unit fires at GE:RS-1", "US plays a command card")
// or left out. What the enemy has in its treasury is never told.
package fog

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"fieldpost/engine/frontline/rules"
)

// Sight is what one side could see of the units during a turn.
type Sight struct {
	// Side is the side reading (upper case); "" with All.
	Side string
	// All is the umpire's sight: every event, private or not, as it is.
	All bool
	// unseen are the keys (SIDE:ID) of the enemy units the side saw neither
	// before the turn, nor after it, nor in an engagement.
	unseen map[string]bool
	// sides lists, by unit id, the sides having a unit of that id (both
	// sides number their units alike: US RS-1 and GE RS-1).
	sides map[string][]string
	// bothSides are the game's sides.
	bothSides []string
}

// Umpire is the sight of the whole truth.
var Umpire = Sight{All: true}

// New is side's sight of the turn played from before to after with
// events: an enemy unit is seen when the side's view after the turn shows
// it, when an engagement revealed it (§VIII.1), or when the view before
// the turn showed it and it has left the map since (destroyed, captured).
func New(side string, before, after *rules.State, events []rules.Event) Sight {
	side = strings.ToUpper(side)
	s := Sight{Side: side, unseen: map[string]bool{}, sides: map[string][]string{}, bothSides: before.Sides}
	inBefore, inAfter := keys(before.View(side)), keys(after.View(side))
	revealed := map[string]bool{}
	for _, e := range events {
		for _, k := range engaged(e, before.Sides) {
			revealed[k] = true
		}
	}
	onMapAfter := map[string]bool{}
	for _, u := range after.Units {
		if u.OnMap() {
			onMapAfter[u.Key()] = true
		}
	}
	for _, st := range []*rules.State{before, after} {
		for _, u := range st.Units {
			if !slices.Contains(s.sides[u.ID], u.Side) {
				s.sides[u.ID] = append(s.sides[u.ID], u.Side)
			}
			k := u.Key()
			if u.Side != side && !(inAfter[k] || revealed[k] || inBefore[k] && !onMapAfter[k]) {
				s.unseen[k] = true
			}
		}
	}
	return s
}

func keys(v *rules.State) map[string]bool {
	out := map[string]bool{}
	for _, u := range v.Units {
		out[u.Key()] = true
	}
	return out
}

// engagement reads an engagement's event: who attacks, and the stack and
// the retaliating units of the other side.
var engagement = regexp.MustCompile(`by (\S+): attackers ([^;]*); the stack there: ([^;]*); retaliating: (.*)$`)

// engaged lists the keys of the units an engagement revealed to both
// sides: every unit of both stacks (§VIII.1, III.2.4).
func engaged(e rules.Event, sides []string) []string {
	if e.Kind != "engage" {
		return nil
	}
	m := engagement.FindStringSubmatch(e.Text)
	if m == nil {
		return nil
	}
	att := m[1]
	var out []string
	for i, list := range m[2:] {
		for _, id := range strings.Fields(list) {
			if id == "-" {
				continue
			}
			side := att
			if i > 0 {
				side = other(sides, att)
			}
			out = append(out, side+":"+id)
		}
	}
	return out
}

// other is the side that is not side.
func other(sides []string, side string) string {
	for _, sd := range sides {
		if sd != side {
			return sd
		}
	}
	return ""
}

// unitName is a unit's id in an event's text, with its side where the
// text gives it: "RS-1", "GE:RS-1".
var unitName = regexp.MustCompile(`\b(?:([A-Z]{2,}):)?([A-Z][A-Z0-9]*-[0-9]+)\b`)

// Observe is the event as the side observed it, and whether it observed
// it at all.
func (s Sight) Observe(e rules.Event) (rules.Event, bool) {
	if s.All {
		return e, true
	}
	if e.Private != "" {
		return e, e.Private == s.Side
	}
	if e.Side != "" && e.Side != s.Side {
		e = hideTreasury(e)
	}
	if e.Kind == "engage" || !s.names(e.Text, e) && !s.rollsName(e) {
		return e, true
	}
	switch e.Kind {
	case "card":
		// The card played is seen, not what it was played for.
		return rules.Event{Phase: e.Phase, Kind: e.Kind, Side: e.Side, Section: e.Section,
			Text: fmt.Sprintf("%s plays a command card", e.Side)}, true
	case "fire", "obstacle", "support", "interdict", "smoke":
		// The shot and what it did are seen, not who fired.
		e.Text = s.unnamed(e.Text, e)
		rolls := make([]rules.Roll, len(e.Rolls))
		for i, r := range e.Rolls {
			r.For = s.unnamed(r.For, e)
			rolls[i] = r
		}
		e.Rolls = rolls
		return e, true
	}
	return e, false
}

func (s Sight) rollsName(e rules.Event) bool {
	for _, r := range e.Rolls {
		if s.names(r.For, e) {
			return true
		}
	}
	return false
}

// names reports whether a text of e names a unit unseen.
func (s Sight) names(text string, e rules.Event) bool {
	for _, n := range s.refs(text, e) {
		if n.unseen {
			return true
		}
	}
	return false
}

// ref is a unit named in a text: where, and whether the side saw it.
type ref struct {
	start, end int
	shot       bool // the firer of a shot
	unseen     bool
}

// acting are the kinds of event whose units are the acting side's: what
// it does in its own turn.
var acting = map[string]bool{"move": true, "check": true, "dig": true, "recon": true, "engineer": true, "air": true,
	"build": true, "deploy": true, "buy": true, "supply": true, "obstacle": true}

// shot is how a shot begins: "SHER-1 75mm M3 at GE:RS-1" (the firer, its
// weapon, at the target); the firer is the target's enemy.
var shot = regexp.MustCompile(`^([A-Z][A-Z0-9]*-[0-9]+) .+? at ([A-Z]{2,}):`)

// refs finds the units a text of e names. Both sides number their units
// alike, so a bare id is resolved: the firer of a shot is the target's
// enemy; in what the acting side does, its own unit where it has one of
// that id; elsewhere the side's own or one it saw, where one has that id
// (a unit shown by an engagement is named bare).
func (s Sight) refs(text string, e rules.Event) []ref {
	firerSide := ""
	if m := shot.FindStringSubmatch(text); m != nil {
		firerSide = other(s.bothSides, m[2])
	}
	var out []ref
	for _, m := range unitName.FindAllStringSubmatchIndex(text, -1) {
		r := ref{start: m[0], end: m[1]}
		id := text[m[4]:m[5]]
		switch {
		case m[2] >= 0:
			r.unseen = s.unseen[text[m[2]:m[3]]+":"+id]
		case m[0] == 0 && firerSide != "":
			r.shot = true
			r.unseen = s.unseen[firerSide+":"+id]
		case acting[e.Kind] && slices.Contains(s.sides[id], e.Side):
			r.unseen = s.unseen[e.Side+":"+id]
		default:
			r.unseen = s.unseenOnly(id)
		}
		out = append(out, r)
	}
	return out
}

// unseenOnly reports whether every unit of an id but the side's own is
// one it did not see.
func (s Sight) unseenOnly(id string) bool {
	any := false
	for _, sd := range s.sides[id] {
		if sd == s.Side || !s.unseen[sd+":"+id] {
			return false
		}
		any = true
	}
	return any
}

// unnamed is a text with every unseen unit it names replaced by "an
// unseen unit"; a shot by an unseen unit becomes "an unseen unit fires at
// ..." (its weapon would name its type).
func (s Sight) unnamed(text string, e rules.Event) string {
	refs := s.refs(text, e)
	for i := len(refs) - 1; i >= 0; i-- {
		r := refs[i]
		switch {
		case r.shot && r.unseen:
			at := strings.Index(text, " at ")
			text = "an unseen unit fires" + text[at:]
		case r.unseen:
			text = text[:r.start] + "an unseen unit" + text[r.end:]
		}
	}
	return text
}

// treasury is a side's treasury in an event's text.
var treasury = regexp.MustCompile(`(?:-> )?treasury -?[0-9]+`)

// hideTreasury leaves the enemy's treasury out of an event: the size of
// its income and windfalls, which sum to it, too.
func hideTreasury(e rules.Event) rules.Event {
	switch {
	case e.Kind == "income":
		e.Text = fmt.Sprintf("%s collects its income", e.Side)
	case treasury.MatchString(e.Text):
		e.Text = strings.TrimSuffix(strings.TrimSpace(treasury.ReplaceAllString(e.Text, "")), ",")
	}
	return e
}

// View is st as side may know it: the rules' view (rules.State.View) with
// the turn's opening as the side observed it, and without the enemy units
// inside a unit the view does not hold (a crew seen in an engagement would
// name the gun it serves).
func View(st *rules.State, side string) *rules.State {
	side = strings.ToUpper(side)
	v := st.View(side)
	sight := New(side, st, st, st.Opening)
	var opening []rules.Event
	for _, e := range v.Opening {
		if e, ok := sight.Observe(e); ok {
			opening = append(opening, e)
		}
	}
	v.Opening = opening
	for {
		held := map[string]bool{}
		for _, u := range v.Units {
			held[u.Key()] = true
		}
		n := len(v.Units)
		v.Units = slices.DeleteFunc(v.Units, func(u *rules.Unit) bool {
			return u.Side != side && u.In != "" && !held[u.Side+":"+u.In]
		})
		if len(v.Units) == n {
			return v
		}
	}
}
