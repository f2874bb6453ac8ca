package frontline

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
)

// Dice is the engine's only source of chance: d6, d10 and d20 all come from
// one stream, one call per die, in an order fixed by the sequence of play, so
// that the same seed replays a turn exactly.
type Dice interface {
	// Roll returns a number from 1 to faces.
	Roll(faces int) int
}

// SeededDice is a deterministic fair die driven by SplitMix64. The algorithm
// is written out here (the same as Star General's) so that a published seed
// replays a turn with any later build of Fieldpost.
type SeededDice struct{ state uint64 }

// NewSeededDice returns dice for a turn's seed.
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
		panic("frontline: a die needs at least one face")
	}
	f := uint64(faces)
	limit := ^uint64(0) - (^uint64(0) % f)
	for {
		v := d.next()
		if v < limit {
			return int(v%f) + 1
		}
	}
}

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

// TurnSeed derives the dice seed of one player turn from a game's secret
// seed, one way (SHA-256), so that publishing a turn's seed with its report
// tells nothing of the turns to come nor of the shuffled decks.
func TurnSeed(gameSeed uint64, turn int, side string) uint64 {
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[:8], gameSeed)
	binary.BigEndian.PutUint64(buf[8:], uint64(turn))
	sum := sha256.Sum256(append(buf[:], side...))
	return binary.BigEndian.Uint64(sum[:8])
}

// DeckSeed derives the seed that shuffles the decks from the game seed, apart
// from every turn seed.
func DeckSeed(gameSeed uint64) uint64 { return TurnSeed(gameSeed, 0, "decks") }

// SeedCommitment is the published promise of a seed: the hex SHA-256 of its
// decimal form, mailed before the orders and checked against the seed the
// report reveals.
func SeedCommitment(seed uint64) string {
	sum := sha256.Sum256([]byte(strconv.FormatUint(seed, 10)))
	return hex.EncodeToString(sum[:])
}
