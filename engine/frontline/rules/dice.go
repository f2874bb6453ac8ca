package rules

import "fieldpost/engine"

// Dice is the rules' only source of chance: d6, d10 and d20 all come from
// one stream (engine.SeededDice), one call per die, in an order fixed by the
// sequence of play, so that the same seed replays a turn exactly.
type Dice = engine.Dice
