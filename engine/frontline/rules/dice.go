package rules

import "fieldpost/engine"

// Dice is the rules' only source of chance: d6, d10 and d20 all come from
// one stream (engine.SeededDice), one call per die, in an order fixed by the
// sequence of play, so that the same seed replays a turn exactly.
type Dice = engine.Dice

// ScriptedDice returns the given faces in order: the book's worked examples
// and the adjudication cases inject their dice this way. A face larger than
// the die asked for, or running out, is recorded for the test to report;
// the roll then counts 1, 2, 3... so that roll-offs cannot tie for ever.
type ScriptedDice struct {
	Faces []int
	Used  int
	Short int
	// Wrong lists the positions (0-based) where a scripted face did not fit
	// the die that was rolled.
	Wrong []int
}

// Roll returns the next scripted face.
func (d *ScriptedDice) Roll(faces int) int {
	if d.Used >= len(d.Faces) {
		d.Short++
		return (d.Short-1)%faces + 1
	}
	f := d.Faces[d.Used]
	if f < 1 || f > faces {
		d.Wrong = append(d.Wrong, d.Used)
		f = (f-1+faces)%faces + 1
	}
	d.Used++
	return f
}
