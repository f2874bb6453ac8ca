// Package report writes Brigadier General Commands for a side's mail: the
// situation, the turn's report with every die and what it was checked
// against, and the text map, each showing only what the side may see
// (the pictures are mapview's).
package report

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"fieldpost/engine/brigadier/rules"
	"fieldpost/engine/hex"
)

// Situation is a side's picture of the game between turns; view is
// rules.View for that side.
func Situation(rs *rules.Ruleset, view *rules.State, side string) string {
	var b strings.Builder
	writeClock(&b, rs, view)
	for _, bn := range view.Battalions {
		if side == "" || bn.Side == side {
			fmt.Fprintf(&b, "Radio %s (%s): %s\n", bn.Name, bn.Side, inOut(bn.Radio))
		}
	}
	b.WriteString("\n")
	b.WriteString(Roster(rs, view, side))
	writeObjectivesAndMap(&b, rs, view, side)
	return b.String()
}

func writeClock(b *strings.Builder, rs *rules.Ruleset, view *rules.State) {
	fmt.Fprintf(b, "%s: turn %d, clock %s (the game ends at %s)\n", view.Title, view.Turn+1, rules.ClockText(view.Clock), rules.ClockText(view.End))
	fmt.Fprintf(b, "Initiative: %s (11.1)\n", view.Initiative)
	if night, twilight := view.Night(rs); night || twilight {
		fmt.Fprintf(b, "Light: %s (FP-13)\n", map[bool]string{true: "night", false: "twilight"}[night])
	}
}

func writeObjectivesAndMap(b *strings.Builder, rs *rules.Ruleset, view *rules.State, side string) {
	b.WriteString("\nOBJECTIVES\n")
	for _, o := range Objectives(view) {
		fmt.Fprintf(b, "  %s\n", o)
	}
	b.WriteString("\nMAP\n")
	b.WriteString(ASCII(rs, view, side))
}

func inOut(in bool) string {
	if in {
		return "in"
	}
	return "out"
}

// Roster lists the side's platoons whole and the enemy it sees.
func Roster(rs *rules.Ruleset, view *rules.State, side string) string {
	var b strings.Builder
	for _, sd := range view.Sides {
		own := side == "" || sd.Name == side
		if own {
			fmt.Fprintf(&b, "%s (%s): your platoons\n", strings.ToUpper(sd.Name), sd.Title)
		} else {
			fmt.Fprintf(&b, "%s: enemy platoons seen\n", strings.ToUpper(sd.Name))
		}
		n := 0
		for _, p := range view.Platoons {
			if p.Side != sd.Name || p.Removed {
				continue
			}
			n++
			if own {
				fmt.Fprintf(&b, "  %-6s %s %-8s %-22s Count %d (%d dead, %d wounded) %s%s\n", p.Name, p.Hex, rs.OrderName(p.Order), typeText(p), p.Count(rs), p.Dead, p.Wounded, p.Exp, marks(p))
			} else {
				fmt.Fprintf(&b, "  %-6s %s %-8s %-22s %d dead%s\n", p.Name, p.Hex, rs.OrderName(p.Order), typeText(p), p.Dead, dug(p))
			}
		}
		if n == 0 {
			b.WriteString("  (none)\n")
		}
		if own {
			for _, p := range view.Platoons {
				if p.Side == sd.Name && p.Removed {
					fmt.Fprintf(&b, "  %-6s gone: %s\n", p.Name, p.Fate)
				}
			}
			for _, bt := range view.Batteries {
				if bt.Side == sd.Name {
					m := "unlimited missions"
					if bt.Missions >= 0 {
						m = fmt.Sprintf("%d missions left", bt.Missions)
					}
					fmt.Fprintf(&b, "  artillery %s (%s, %s), radio %s\n", bt.Name, bt.Type, m, inOut(bt.Radio))
				}
			}
			for _, fl := range view.Flights {
				if fl.Side == sd.Name {
					fmt.Fprintf(&b, "  air %s (%s mission, %d sorties left)\n", fl.Name, fl.Mission, fl.Sorties)
				}
			}
		}
	}
	return b.String()
}

func typeText(p *rules.Platoon) string {
	s := p.Type
	for _, w := range p.Weapons {
		s += "+" + w
	}
	return s
}

func dug(p *rules.Platoon) string {
	if p.DugIn {
		return ", dug in"
	}
	return ""
}

func marks(p *rules.Platoon) string {
	var m []string
	if p.DugIn {
		m = append(m, "dug in")
	}
	if p.Hidden {
		m = append(m, "hidden")
	}
	if p.FiredTurn > 0 {
		m = append(m, fmt.Sprintf("fired turn %d", p.FiredTurn))
	}
	if p.Reserve != nil {
		m = append(m, "holds fire in RESERVE")
	}
	if p.Bugout > 0 {
		m = append(m, fmt.Sprintf("BUGOUT %d", p.Bugout))
	}
	if len(m) == 0 {
		return ""
	}
	return ", " + strings.Join(m, ", ")
}

// Objectives lists the objectives with their holders.
func Objectives(st *rules.State) []string {
	var out []string
	for _, o := range st.Objectives {
		out = append(out, fmt.Sprintf("%s %s (value %d): held by %s", o.Hex, o.Name, o.Value, o.Holder))
	}
	return out
}

// Round is one turn played, for a report.
type Round struct {
	Ruleset   *rules.Ruleset
	Before    *rules.State // the whole positions
	After     *rules.State
	Events    []rules.Event
	Game      string
	Seed      uint64
	Defaulted []string
}

// Text is the turn's report for side ("" the umpire's): every event the
// side may read, each roll with what it was checked against, then the
// position after as the side sees it.
func Text(r Round, side string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, game %s: TURN %d REPORT for %s\n", r.After.Title, r.Game, r.After.Turn, sideName(side))
	fmt.Fprintf(&b, "Clock %s -> %s. Dice seed for this turn: %d\n", rules.ClockText(r.Before.Clock), rules.ClockText(r.After.Clock), r.Seed)
	for _, d := range r.Defaulted {
		fmt.Fprintf(&b, "%s sent no orders: Move and Double became Aim, and Aim and Defend fire at the nearest enemy (brief §3).\n", d)
	}
	phase := ""
	sight := NewSight(r.Ruleset, r.Before, r.After, side)
	for _, e := range r.Events {
		e, ok := sight.Observe(e)
		if !ok {
			continue
		}
		text := e.Text
		if e.Phase != phase {
			phase = e.Phase
			fmt.Fprintf(&b, "\n%d %s\n", slices.Index(rules.Phases, phase)+1, strings.ToUpper(phase))
		}
		for _, line := range strings.Split(text, "\n") {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	}
	view := rules.View(r.Ruleset, r.After, side)
	b.WriteString("\n")
	if r.After.Ended {
		fmt.Fprintf(&b, "GAME OVER: %s. Winner: %s.\n\n", r.After.Result, r.After.Winner)
	}
	b.WriteString(Situation(r.Ruleset, view, side))
	return b.String()
}

// PublicText is the turn's report for the public while the game is
// played [14]: that the turn was played, its clock and dice seed, who sent
// no orders, and the public situation (view is the public's, without
// platoons). What happened is told once the game is over.
func PublicText(r Round, view *rules.State) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, game %s: TURN %d played\n", r.After.Title, r.Game, r.After.Turn)
	fmt.Fprintf(&b, "Clock %s -> %s. Dice seed for this turn: %d\n", rules.ClockText(r.Before.Clock), rules.ClockText(r.After.Clock), r.Seed)
	for _, d := range r.Defaulted {
		fmt.Fprintf(&b, "%s sent no orders.\n", d)
	}
	b.WriteString("\nHidden movement [14]: what each side did and saw is told to that side only, and to everybody once the game is over.\n\n")
	b.WriteString(PublicSituation(r.Ruleset, view))
	return b.String()
}

// PublicSituation is the game between turns as the public may know it:
// the clock, the initiative, the objectives and the map without platoons.
func PublicSituation(rs *rules.Ruleset, view *rules.State) string {
	var b strings.Builder
	writeClock(&b, rs, view)
	writeObjectivesAndMap(&b, rs, view, "")
	return b.String()
}

// Sight is what a side saw of the platoons during a turn [14]: the rules
// tell each event to the sides that see it, in words for each (Text,
// Other); an event may still name an enemy platoon the side never saw,
// one that fired from out of its sight. Such a fire is told as observed
// ("an unseen unit (4 dice) at 2Zug 0905 ..., fired from the east"),
// anything else it would tell of the platoon is left out.
type Sight struct {
	side   string
	unseen []string // names of the enemy platoons the side did not see
}

// NewSight is side's sight of the turn played from before to after: it
// saw the enemy platoons its view showed before the turn or after it.
// Side "" sees everything.
func NewSight(rs *rules.Ruleset, before, after *rules.State, side string) Sight {
	s := Sight{side: side}
	if side == "" {
		return s
	}
	seen := map[string]bool{}
	for _, st := range []*rules.State{before, after} {
		for _, p := range rules.View(rs, st, side).Platoons {
			seen[p.Name] = true
		}
	}
	for _, p := range after.Platoons {
		if p.Side != side && !seen[p.Name] {
			s.unseen = append(s.unseen, p.Name)
		}
	}
	return s
}

// Observe is an event as the side reads it (Text the words it reads,
// Other empty, From empty where it may not see where it started), and
// whether it reads it at all.
func (s Sight) Observe(e rules.Event) (rules.Event, bool) {
	text, ok := Visible(e, s.side)
	if !ok || s.side == "" {
		return e, ok
	}
	if e.Side != "" && e.Side != s.side && e.Other != "" {
		e.From = rules.Hex{} // the short version: no path, no firer
	}
	e.Text, e.Other = text, ""
	var named []string
	for _, n := range s.unseen {
		if platoonName(n).MatchString(e.Text) {
			named = append(named, n)
		}
	}
	if len(named) == 0 {
		return e, true
	}
	if len(e.Dice) == 0 || e.To.IsZero() {
		return e, false // it tells where an unseen platoon is or goes
	}
	for _, n := range named {
		e.Text = platoonName(n).ReplaceAllString(e.Text, "${1}an unseen unit$2")
	}
	if !e.From.IsZero() && e.From != e.To {
		first, rest, _ := strings.Cut(e.Text, "\n")
		e.Text = fmt.Sprintf("%s, fired from the %s\n%s", first, hex.Direction(e.To, e.From), rest)
	}
	dice := make([]rules.Die, len(e.Dice))
	for i, d := range e.Dice {
		for _, n := range named {
			if d.By == n {
				d.By = "an unseen unit"
			}
		}
		dice[i] = d
	}
	e.Dice, e.From = dice, rules.Hex{}
	return e, true
}

// platoonName matches a platoon's name as a word, with the order and type
// that follow it in a fire ("60mm (Aim, mortar60)"), which would name it
// too.
func platoonName(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^A-Za-z0-9/.-])` + regexp.QuoteMeta(name) + `(?: \([A-Z][a-z]+, [a-z0-9_+]+\))?($|[^A-Za-z0-9/.-])`)
}

// Visible is an event's text as side may read it, and whether it may.
func Visible(e rules.Event, side string) (string, bool) {
	if side == "" {
		return e.Text, true
	}
	if !slices.Contains(e.Seen, side) {
		return "", false
	}
	if e.Side != "" && e.Side != side && e.Other != "" {
		return e.Other, true
	}
	return e.Text, true
}

func sideName(side string) string {
	if side == "" {
		return "the umpire"
	}
	return side
}

// ASCII is the map as side sees it: a terrain letter per hex, platoons by
// marker with a legend (own side upper case, the enemy lower case).
func ASCII(rs *rules.Ruleset, view *rules.State, side string) string {
	m := view.Map
	marker := map[rules.Hex]byte{}
	var legend []string
	own, enemy := byte('A'), byte('a')
	for _, p := range view.Platoons {
		if p.Removed {
			continue
		}
		var c byte
		if side == "" && p.Side == view.Sides[0].Name || side != "" && p.Side == side {
			c = own
			own++
		} else {
			c = enemy
			enemy++
		}
		marker[p.Hex] = c
		legend = append(legend, fmt.Sprintf("%c=%s %s (%s) %s", c, p.Side, p.Name, rs.OrderName(p.Order), p.Hex))
	}
	var b strings.Builder
	b.WriteString("    ")
	for c := 1; c <= m.Cols; c++ {
		fmt.Fprintf(&b, "%d", c/10)
	}
	b.WriteString("\n    ")
	for c := 1; c <= m.Cols; c++ {
		fmt.Fprintf(&b, "%d", c%10)
	}
	b.WriteString("\n")
	for r := 1; r <= m.Rows; r++ {
		fmt.Fprintf(&b, "%02d  ", r)
		for c := 1; c <= m.Cols; c++ {
			h := rules.Hex{Col: c, Row: r}
			if k, ok := marker[h]; ok {
				b.WriteByte(k)
			} else {
				b.WriteByte(m.Letter(h))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString(". open  W woods  T town  H hedge  s stream  = bridge  L lake  F fort  ^ hilltop  / slope\n")
	for _, l := range legend {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	return b.String()
}
