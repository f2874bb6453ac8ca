package rules

// Dice is the rules' only source of chance: every roll is one call, in an
// order fixed by the rules' sequence, so that the same seed replays a round.
// engine.SeededDice is one; the cases script theirs.
type Dice interface {
	// D6 returns a number from 1 to 6.
	D6() int
}

func rollDice(d Dice, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = d.D6()
	}
	return out
}
