package rules

// Dice is the rules' only source of chance: every roll is one call, in an
// order fixed by the rules' sequence, so that the same seed replays a round.
// engine.SeededDice is one; the cases script theirs.
type Dice interface {
	// D6 returns a number from 1 to 6.
	D6() int
}

// ScriptedDice returns the given faces in order: the book's worked examples and
// the adjudication cases inject their dice this way. Running out is recorded,
// not fatal, so a test can report it.
type ScriptedDice struct {
	Faces []int
	Used  int
	// Short counts rolls asked for after the script ran out. They count
	// 1, 2, ... 6 round, never all alike, so that a roll-off that ran out of
	// dice cannot tie for ever and the test ends and reports it.
	Short int
}

// D6 returns the next scripted face.
func (d *ScriptedDice) D6() int {
	if d.Used >= len(d.Faces) {
		d.Short++
		return (d.Short-1)%6 + 1
	}
	f := d.Faces[d.Used]
	d.Used++
	return f
}

func rollDice(d Dice, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = d.D6()
	}
	return out
}
