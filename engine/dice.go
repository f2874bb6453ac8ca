package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
)

// Dice is a game's only source of chance. Every roll is one call, in an
// order the rules fix, so that the same seed replays a round.
type Dice interface {
	// Roll returns a number from 1 to faces: 6 for a d6, 10, 20.
	Roll(faces int) int
}

// SeededDice is a deterministic fair die driven by SplitMix64. Its algorithm
// is fixed here, not borrowed from a library that may change, so that a
// round published with its seed can be replayed by anyone with this
// program, now or years later. d6, d10 and d20 come from the same stream.
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

// Roll draws without modulo bias by rejecting the top sliver of the range.
func (d *SeededDice) Roll(faces int) int {
	if faces < 1 {
		panic("engine: a die needs at least one face")
	}
	n := uint64(faces)
	limit := ^uint64(0) - (^uint64(0) % n)
	for {
		if v := d.next(); v < limit {
			return int(v%n) + 1
		}
	}
}

// D6 is Roll(6), for rules written in six-sided dice.
func (d *SeededDice) D6() int { return d.Roll(6) }

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

// SetupSeed derives the seed of a game's secret setup (its shuffled decks)
// from the game's secret seed, one-way like RoundSeed and apart from every
// round's: revealing a round's seed tells nothing of the decks.
func SetupSeed(gameSeed uint64) uint64 {
	var buf [13]byte
	copy(buf[:5], "setup")
	binary.BigEndian.PutUint64(buf[5:], gameSeed)
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
