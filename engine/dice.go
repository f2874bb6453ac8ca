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

// ScriptedDice rolls the faces it is given, in order: the books' worked
// examples and every family's adjudication cases inject their dice this
// way. A case may script its dice by phase (Phases, with SetPhase): a phase
// with no script then rolls Unscripted, so that a case scripts only what it
// checks. A face larger than the die asked for, or running out, is recorded
// for the test to report; the roll then counts 1, 2, 3... so that roll-offs
// cannot tie for ever and the test ends.
type ScriptedDice struct {
	Faces []int
	// Phases are the faces of each phase, rolled in order once SetPhase
	// names the phase; nil: Faces serve every phase.
	Phases     map[string][]int
	Unscripted Dice
	Used       int // faces rolled from a script
	Short      int // rolls asked for after a script ran out
	// Wrong lists the positions (0-based, among the faces rolled) where a
	// scripted face did not fit the die that was rolled.
	Wrong []int
	phase string
}

// SetPhase names the phase whose script the next rolls come from.
func (d *ScriptedDice) SetPhase(phase string) { d.phase = phase }

// Roll returns the next scripted face.
func (d *ScriptedDice) Roll(faces int) int {
	f, ok, scripted := d.next()
	switch {
	case !scripted:
		return d.Unscripted.Roll(faces)
	case !ok:
		d.Short++
		return (d.Short-1)%faces + 1
	case f < 1 || f > faces:
		d.Wrong = append(d.Wrong, d.Used-1)
		return (f-1+faces)%faces + 1
	}
	return f
}

// next takes the next face of the script; ok is false when the script has
// run out, scripted false in a phase that has none.
func (d *ScriptedDice) next() (face int, ok, scripted bool) {
	script := d.Faces[min(d.Used, len(d.Faces)):]
	if d.Phases != nil {
		if script, scripted = d.Phases[d.phase]; !scripted {
			return 0, false, false
		}
	}
	if len(script) == 0 {
		return 0, false, true
	}
	if d.Phases != nil {
		d.Phases[d.phase] = script[1:]
	}
	d.Used++
	return script[0], true, true
}

// D6 is Roll(6), for rules written in six-sided dice.
func (d *ScriptedDice) D6() int { return d.Roll(6) }
