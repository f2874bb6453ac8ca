// Package report writes what happened in a round for the players, from the
// engine's event log: the narrative with every die shown, the situation
// after it, the seed that replays it and the next order form. The words
// around the facts come from text templates (the templates folder), so a
// club can restyle its reports without touching the rules.
package report

import (
	"bytes"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"fieldpost/engine"
	"fieldpost/engine/stargeneral/mapview"
	"fieldpost/engine/stargeneral/ordertext"
	"fieldpost/engine/stargeneral/rules"
)

// Round is what a round report is written from.
type Round struct {
	Ruleset *rules.Ruleset
	Before  *rules.State // the position the round was played from
	After   *rules.State
	Events  []rules.Event
	Seed    uint64 // the dice seed, revealed so that anyone can replay the round
	Game    string // the game's id, for the order form
	// Side is whose copy this is: it gets that side's next order form; ""
	// (an observer) gets none.
	Side string
	// Defaulted names sides that sent no orders and played the defaults.
	Defaulted []string
	// Orders are the orders played; a side without any played the default
	// orders. The report publishes them, so that anyone can replay the round.
	Orders []*rules.Orders
}

// Data is what the report templates see.
type Data struct {
	Title      string
	Game       string
	Side       string
	RoundName  string // the round played
	Defaulted  []string
	Blocks     []Block
	Roster     []RosterSide
	Objectives []string
	Map        string
	Seed       uint64
	// Played is each side's orders for the round, in the order language.
	Played    []PlayedOrders
	Ended     bool
	Result    string
	NextRound string
	Form      string
}

// PlayedOrders is a side's orders as played, written in the order language.
type PlayedOrders struct {
	Side string
	Text string
}

// Block is a stretch of the narrative under a heading.
type Block struct {
	Heading string
	Lines   []string
}

// RosterSide is one side's forces after the round.
type RosterSide struct {
	Side      string
	Title     string
	Air       int
	Lines     []string // a fixed-width table
	Batteries []string
}

// Text renders the plain-text report with the template named "report.txt".
func Text(templates fs.FS, in Round) (string, error) {
	return render(templates, "report.txt", in)
}

// Build gathers the data a report template sees; exported so that other
// templates (the HTML part of a mail) can use it.
func Build(in Round) Data {
	d := Data{
		Title:     in.After.Title,
		Game:      in.Game,
		Side:      in.Side,
		RoundName: ordertext.RoundName(in.Ruleset, in.Before),
		Defaulted: in.Defaulted,
		Blocks:    narrative(in.Ruleset, in.Events),
		Roster:    roster(in.Ruleset, in.After),
		Map:       mapview.ASCII(in.Ruleset, in.After),
		Seed:      in.Seed,
		Ended:     in.After.Ended,
		Result:    in.After.Result,
	}
	for _, sd := range in.Before.Sides {
		o := rules.DefaultOrders(in.Ruleset, in.Before, sd.Name)
		for _, given := range in.Orders {
			if given != nil && given.Side == sd.Name {
				o = given
			}
		}
		d.Played = append(d.Played, PlayedOrders{Side: sd.Name, Text: ordertext.Format(in.Ruleset, in.Before, o, in.Game)})
	}
	d.Objectives = Objectives(in.After)
	if !in.After.Ended {
		d.NextRound = ordertext.RoundName(in.Ruleset, in.After)
		if in.Side != "" {
			d.Form = ordertext.Form(in.Ruleset, in.After, in.Side, in.Game)
		}
	}
	return d
}

// Objectives lists a position's objectives in words, with who holds them.
func Objectives(st *rules.State) []string {
	var out []string
	for _, o := range st.SortedObjectives() {
		owner := o.Owner
		if owner == "" {
			owner = "nobody"
		}
		out = append(out, fmt.Sprintf("%s %s (worth %d): held by %s", o.Hex, o.Name, o.Value, owner))
	}
	return out
}

// Situation renders the position alone with the template "situation.txt":
// every side's forces, the objectives, the text map.
func Situation(templates fs.FS, rs *rules.Ruleset, st *rules.State) (string, error) {
	return render(templates, "situation.txt", Round{Ruleset: rs, Before: st, After: st})
}

// CheckTemplates parses the report templates of a folder.
func CheckTemplates(templates fs.FS) error {
	for _, name := range []string{"report.txt", "situation.txt"} {
		if _, err := template.New(name).Funcs(Funcs).ParseFS(templates, name+".tmpl"); err != nil {
			return fmt.Errorf("report template %s: %w", name, err)
		}
	}
	return nil
}

func render(templates fs.FS, name string, in Round) (string, error) {
	t, err := template.New(name).Funcs(Funcs).ParseFS(templates, name+".tmpl")
	if err != nil {
		return "", fmt.Errorf("report template %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, name+".tmpl", Build(in)); err != nil {
		return "", fmt.Errorf("report template %s: %w", name, err)
	}
	return b.String(), nil
}

// Funcs are the helpers report templates may use.
var Funcs = template.FuncMap{
	"join":  strings.Join,
	"upper": strings.ToUpper,
	"rule":  func(n int) string { return strings.Repeat("-", n) },
}

// narrative turns the event log into blocks: the round's start, each
// activation (with the initiative roll that gave it), the artillery phase,
// the night, the end.
func narrative(rs *rules.Ruleset, events []rules.Event) []Block {
	var blocks []Block
	cur := &Block{Heading: "Orders revealed"}
	var rolls []string // initiative rolls waiting for the activation they decide
	start := func(heading string) {
		if len(cur.Lines) > 0 || strings.HasPrefix(cur.Heading, "Activation") {
			if len(cur.Lines) == 0 {
				cur.Lines = []string{"no move and no attack"}
			}
			blocks = append(blocks, *cur)
		}
		cur = &Block{Heading: heading}
	}
	activation := 0
	for _, e := range events {
		switch e.Kind {
		case rules.EvRoundStart:
			cur.Heading = e.Text
			continue
		case rules.EvInitiative:
			rolls = append(rolls, eventLines(rs, e)...)
			continue
		case rules.EvActivate:
			activation++
			start(fmt.Sprintf("Activation %d: %s", activation, e.Text))
			cur.Lines = append(cur.Lines, rolls...)
			rolls = nil
			continue
		case rules.EvPhase:
			start(e.Text)
			continue
		case rules.EvGameEnd:
			start("End of the battle")
		}
		if len(rolls) > 0 {
			cur.Lines, rolls = append(cur.Lines, rolls...), nil
		}
		cur.Lines = append(cur.Lines, eventLines(rs, e)...)
	}
	cur.Lines = append(cur.Lines, rolls...)
	start("")
	return blocks
}

// bareSection matches a section written in parentheses in an event's
// text: "(2)", "(5.1)".
var bareSection = regexp.MustCompile(`\((\d+(?:\.\d+)*)\)`)

// asReferences writes the book's sections cited in parentheses in text as
// references, "[§2]": a bare "(2)" after a path reads like a count of
// hexes (issue 25).
func asReferences(rs *rules.Ruleset, text string) string {
	return bareSection.ReplaceAllStringFunc(text, func(m string) string {
		if sec := m[1 : len(m)-1]; rs.InBook(sec) {
			return engine.Reference(sec)
		}
		return m
	})
}

func eventLines(rs *rules.Ruleset, e rules.Event) []string {
	text := asReferences(rs, e.Text)
	if len(e.Dice) > 0 && e.Kind != rules.EvInitiative && !strings.Contains(text, "roll") {
		text += " [dice " + dice(e.Dice) + "]"
	}
	if e.Kind == rules.EvInitiative && len(e.Dice) == 4 {
		text += fmt.Sprintf(" [%d+%d v %d+%d]", e.Dice[0], e.Dice[1], e.Dice[2], e.Dice[3])
	}
	if e.Section != "" && e.Kind != rules.EvCombat && e.Kind != rules.EvBarrage && !strings.Contains(text, engine.Reference(e.Section)) {
		text += " " + engine.Reference(e.Section)
	}
	if e.Combat == nil {
		return []string{text}
	}
	// The event's text carries the whole sum on one line; the report sets it
	// out as a table below its first sentence.
	if i := strings.Index(e.Text, ". "); i >= 0 {
		text = e.Text[:i]
	}
	if _, rest, ok := strings.Cut(text, ": "); ok && strings.HasPrefix(text, "Combat") || strings.HasPrefix(text, "Barrage") {
		text = rest
	}
	return combatLines(rs, e.Combat, text)
}

// combatLines writes a combat as a sum a player can check against the play
// sheet: every source of dice with its factors and sections, the roll, the
// hit rule and the hits.
func combatLines(rs *rules.Ruleset, c *rules.Combat, heading string) []string {
	kind := "Combat"
	if c.Barrage {
		kind = "Barrage"
	}
	out := []string{fmt.Sprintf("%s %d - %s", kind, c.Number, heading)}
	force := func(label string, f rules.Force) {
		if len(f.Sources) == 0 {
			return
		}
		for i, s := range f.Sources {
			lead := strings.Repeat(" ", len(label)+4)
			if i == 0 {
				lead = "  " + label + ": "
			}
			out = append(out, lead+sourceSum(rs, s))
		}
		out = append(out, fmt.Sprintf("  %s  total %d dice, hit on %s", strings.Repeat(" ", len(label)), f.Dice, f.Rule))
		out = append(out, fmt.Sprintf("  %-*s: %s -> %s", len(label), "Rolled", dice(f.Rolled), plural(f.Hits, "hit")))
	}
	force("Attack ", c.Attacker)
	if c.NoReturn != "" {
		out = append(out, "  Defence: none - "+c.NoReturn)
	} else {
		force("Defence", c.Defender)
	}
	switch {
	case c.Winner != "":
		out = append(out, fmt.Sprintf("  Result : %s scored more hits (%d to %d) and wins the close combat %s", c.Winner, max(c.Attacker.Hits, c.Defender.Hits), min(c.Attacker.Hits, c.Defender.Hits), engine.Reference(rs.Section(rules.SecFallBack))))
	case c.Close:
		out = append(out, fmt.Sprintf("  Result : equal hits (%d each): nobody falls back %s", c.Attacker.Hits, engine.Reference(rs.Section(rules.SecFallBack))))
	}
	return out
}

func sourceSum(rs *rules.Ruleset, s rules.DiceSource) string {
	var b strings.Builder
	b.WriteString(s.Who)
	if t, ok := rs.StandTypes[s.Kind]; ok && !strings.Contains(s.Who, "(") {
		fmt.Fprintf(&b, " (%s)", t.Title)
	}
	fmt.Fprintf(&b, " %d", s.Base)
	for _, f := range s.Factors {
		fmt.Fprintf(&b, " %+d %s %s", f.Dice, f.Why, engine.Reference(f.Section))
	}
	if s.Shots > 1 {
		fmt.Fprintf(&b, ", %d shots", s.Shots)
	}
	fmt.Fprintf(&b, " = %d", s.Dice)
	return b.String()
}

func dice(ds []int) string {
	if len(ds) == 0 {
		return "-"
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, " ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// roster lists every stand of each side after the round.
func roster(rs *rules.Ruleset, st *rules.State) []RosterSide {
	var out []RosterSide
	for _, sd := range st.Sides {
		r := RosterSide{Side: sd.Name, Title: sd.Title, Air: sd.Air}
		r.Lines = append(r.Lines, fmt.Sprintf("%-10s %-2s %-6s %-18s %-5s %-6s %s", "unit", "st", "stand", "type", "hex", "SP", "attached"))
		for _, u := range st.Units {
			if u.Side != sd.Name {
				continue
			}
			if u.Removed {
				r.Lines = append(r.Lines, fmt.Sprintf("%-10s -- out of the battle", u.ID))
				continue
			}
			hq := u.HQ(rs)
			stands := append([]*rules.Stand(nil), u.Stands...)
			sort.SliceStable(stands, func(i, j int) bool { return stands[i] == hq && stands[j] != hq })
			for i, s := range stands {
				unit, status := "", ""
				if i == 0 {
					unit, status = u.ID, string(u.Status)
				}
				var att []string
				for _, p := range []*rules.Platoon{s.Support, s.Transport} {
					if p != nil {
						att = append(att, p.Name)
					}
				}
				note := strings.Join(att, ",")
				if hq != nil && s != hq && rules.Distance(hq.Hex, s.Hex) > rs.CommandRange {
					note += " (out of command)"
				}
				r.Lines = append(r.Lines, fmt.Sprintf("%-10s %-2s %-6s %-18s %-5s %-6s %s", unit, status, s.Name, rs.StandTypes[s.Type].Title, s.Hex, fmt.Sprintf("%d/%d", s.SP, s.MaxSP), note))
			}
			if hq == nil {
				r.Lines = append(r.Lines, fmt.Sprintf("%-10s    HQ lost: returns in the unit's next turn %s", "", engine.Reference(rs.Section(rules.SecHQ))))
			}
		}
		for _, bt := range st.Batteries {
			if bt.Side != sd.Name {
				continue
			}
			if bt.Removed {
				r.Batteries = append(r.Batteries, fmt.Sprintf("battery %s destroyed", bt.ID))
				continue
			}
			r.Batteries = append(r.Batteries, fmt.Sprintf("battery %s at %s, %d/%d SP, %d shots a round, range %d", bt.ID, bt.Hex, bt.SP, bt.MaxSP, bt.ShotsPerRound, bt.Range))
		}
		out = append(out, r)
	}
	return out
}
