package ordertext

import (
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

// Case is an adjudication case file read: a position, each side's orders,
// the dice, and what must follow. One reader serves every family; what the
// parts mean is the family's.
//
//	CASE title                   SECTION or CITE sections (at least one)
//	PRESTATE                     the position's lines follow (scenario format)
//	ORDERS [side]                the side's orders follow, to END or the next heading
//	STANDING side                the side's standing orders follow
//	DICE d d | d ...             the dice in the order rolled ("|" only reads well)
//	DICE phase d d ...           the dice of a phase
//	RUN what ...                 what to play
//	POSTSTATE, EVENTS, ERRORS    what must follow, a line each
//
// A family's own one-line directives (CaseFormat.Directives) are kept in
// Directives, their words split with "quoted phrases" as one word; the
// lines of its own blocks (CaseFormat.Blocks) in Blocks.
type Case struct {
	Title    string
	Sections []string
	// Position is the position's lines as written, blank and comment
	// lines too; PositionLine is the line of its PRESTATE heading (0 for
	// a loose position).
	Position     []Line
	PositionLine int
	// Orders and Standing are each side's lines as written, blank and
	// comment lines too; Orders[""] are those of an ORDERS naming no side.
	// OrderSides are the sides (or seats) of the ORDERS headings, in the
	// order written.
	Orders, Standing map[string][]Line
	OrderSides       []string
	Dice             []int
	PhaseDice        map[string][]int
	Run              []string
	// Post, Events and Errors are the lines of those blocks that hold
	// words.
	Post, Events, Errors []Line
	Directives           []Line
	// Blocks are the lines with words of the family's own blocks
	// (CaseFormat.Blocks), by their heading line ("ERRORS US.2").
	Blocks map[string][]Line
}

// CaseFormat is what a family's case files add to the common format.
type CaseFormat struct {
	// MaxFace is the largest face a DICE line may give; 0: any from 1.
	MaxFace int
	// Loose: the lines outside any block are the position, with no
	// PRESTATE heading.
	Loose bool
	// Directives are the family's one-line directives ("EXPECT", "TABLE").
	Directives []string
	// Blocks are the headings of the family's own blocks ("SEATS",
	// "MERGED"); one may take the place of a common one ("ERRORS" with a
	// seat).
	Blocks []string
}

// ReadCase reads a case file; an error names the line it is on.
func ReadCase(text string, f CaseFormat) (*Case, error) {
	c := &Case{Orders: map[string][]Line{}, Standing: map[string][]Line{}, Blocks: map[string][]Line{}}
	// into is the block the lines below a heading go to, nil outside any;
	// asWritten: it keeps blank and comment lines too.
	var into func(Line)
	asWritten, inOrders := false, false
	open := func(add func(Line), written bool) { into, asWritten, inOrders = add, written, false }
	for i, raw := range splitLines(text) {
		l := newLine(i+1, raw, strings.Fields)
		fail := func(format string, args ...any) error {
			return fmt.Errorf("line %d: %s", l.N, fmt.Sprintf(format, args...))
		}
		if len(l.Words) == 0 {
			if into != nil && asWritten {
				into(l)
			} else if into == nil && f.Loose {
				c.Position = append(c.Position, l)
			}
			continue
		}
		heading, args := l.Words[0], l.Words[1:] // in capitals: "Run" may be a name
		switch {
		case slices.Contains(f.Blocks, heading):
			key := l.Text
			c.Blocks[key] = c.Blocks[key] // a block with no line is there all the same
			open(func(l Line) { c.Blocks[key] = append(c.Blocks[key], l) }, false)
		case heading == "CASE":
			c.Title = strings.TrimSpace(l.Text[len("CASE"):])
		case heading == "SECTION" || heading == "CITE":
			c.Sections = append(c.Sections, args...)
		case heading == "PRESTATE" && !f.Loose:
			open(func(l Line) { c.Position = append(c.Position, l) }, true)
			c.PositionLine = l.N
		case heading == "ORDERS":
			if len(args) > 1 {
				return nil, fail("ORDERS takes a side at most")
			}
			side := strings.Join(args, "")
			if _, again := c.Orders[side]; !again {
				c.OrderSides = append(c.OrderSides, side)
			}
			c.Orders[side] = c.Orders[side] // a side's ORDERS with no line is orders of none
			open(func(l Line) { c.Orders[side] = append(c.Orders[side], l) }, true)
			inOrders = true
		case heading == "STANDING":
			if len(args) != 1 {
				return nil, fail("STANDING takes a side")
			}
			open(func(l Line) { c.Standing[args[0]] = append(c.Standing[args[0]], l) }, true)
		case heading == "DICE":
			open(nil, false)
			if err := c.readDice(args, f.MaxFace); err != nil {
				return nil, fail("%v", err)
			}
		case heading == "RUN":
			open(nil, false)
			c.Run = args
		case heading == "POSTSTATE":
			open(func(l Line) { c.Post = append(c.Post, l) }, false)
		case heading == "EVENTS":
			open(func(l Line) { c.Events = append(c.Events, l) }, false)
		case heading == "ERRORS":
			open(func(l Line) { c.Errors = append(c.Errors, l) }, false)
		case inOrders && IsEnd(l.Words):
			open(nil, false)
		case into == nil && slices.Contains(f.Directives, heading):
			words, err := QuotedWords(l.Text)
			if err != nil {
				return nil, fail("%v", err)
			}
			l.Words = words
			c.Directives = append(c.Directives, l)
		case into != nil:
			into(l)
		case f.Loose:
			c.Position = append(c.Position, l)
		default:
			return nil, fail("%q outside any block", l.Text)
		}
	}
	if len(c.Sections) == 0 {
		return nil, fmt.Errorf("no SECTION: every case cites the rule it checks")
	}
	return c, nil
}

// readDice reads a DICE line's words: faces, or a phase and its faces.
func (c *Case) readDice(words []string, maxFace int) error {
	phase := ""
	if len(words) > 0 && words[0] != "|" {
		if _, err := strconv.Atoi(words[0]); err != nil {
			phase, words = words[0], words[1:]
		}
	}
	var faces []int
	for _, w := range words {
		if w == "|" {
			continue
		}
		v, err := strconv.Atoi(w)
		if err != nil || v < 1 || maxFace > 0 && v > maxFace {
			if maxFace > 0 {
				return fmt.Errorf("die %q is not 1 to %d", w, maxFace)
			}
			return fmt.Errorf("die %q is no number from 1", w)
		}
		faces = append(faces, v)
	}
	if phase == "" {
		c.Dice = append(c.Dice, faces...)
		return nil
	}
	if c.PhaseDice == nil {
		c.PhaseDice = map[string][]int{}
	}
	// A phase named with no dice is scripted all the same: it rolls none.
	c.PhaseDice[phase] = append(c.PhaseDice[phase], faces...)
	return nil
}

// EachCase reads every case file of fsys that matches pattern ("*.case",
// "*/*.case") and hands it to run with its name (the path without
// ".case"), or with the error that makes it unreadable; it is an error
// that no file matches.
func EachCase(fsys fs.FS, pattern string, f CaseFormat, run func(name string, c *Case, err error)) error {
	names, err := fs.Glob(fsys, pattern)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("no case file matches %s", pattern)
	}
	for _, name := range names {
		var c *Case
		text, err := fs.ReadFile(fsys, name)
		if err == nil {
			c, err = ReadCase(string(text), f)
		}
		if err != nil {
			err = fmt.Errorf("%s: %w", name, err)
		}
		run(strings.TrimSuffix(name, ".case"), c, err)
	}
	return nil
}
