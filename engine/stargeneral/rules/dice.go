package rules

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
)

// Dice is the engine's only source of chance: every roll is one call, in an
// order fixed by the rules' sequence, so that the same seed replays a round.
type Dice interface {
	// D6 returns a number from 1 to 6.
	D6() int
}

// SeededDice is a deterministic fair die driven by SplitMix64. Its algorithm is
// fixed here, not borrowed from a library that may change, so that a round
// published with its seed can be replayed by anyone with this program, now or
// years later.
type SeededDice struct{ state uint64 }

// NewSeededDice returns dice for a round's seed.
func NewSeededDice(seed uint64) *SeededDice { return &SeededDice{state: seed} }

func (d *SeededDice) next() uint64 {
	d.state += 0x9e3779b97f4a7c15
	z := d.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// D6 draws without modulo bias by rejecting the top sliver of the range.
func (d *SeededDice) D6() int {
	const limit = ^uint64(0) - (^uint64(0) % 6)
	for {
		v := d.next()
		if v < limit {
			return int(v%6) + 1
		}
	}
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

// RoundSeed derives the dice seed of one round from a game's secret seed.
// It is one-way (SHA-256), so that publishing a round's seed with its report
// tells nothing about the seeds of the rounds still to come.
func RoundSeed(gameSeed uint64, turn int) uint64 {
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[:8], gameSeed)
	binary.BigEndian.PutUint64(buf[8:], uint64(turn))
	sum := sha256.Sum256(buf[:])
	return binary.BigEndian.Uint64(sum[:8])
}

// SeedCommitment is the published promise of a round's seed: the hex SHA-256
// of its decimal form. Mailed when the round opens and checked against the
// seed the report reveals, it shows the dice were fixed before the orders.
func SeedCommitment(seed uint64) string {
	sum := sha256.Sum256([]byte(strconv.FormatUint(seed, 10)))
	return hex.EncodeToString(sum[:])
}
