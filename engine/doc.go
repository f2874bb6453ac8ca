// Package engine is what every game system of Fieldpost shares, and the seam
// through which the mail judge reaches them: a System is a family of rules
// with its scenarios (Star General in engine/stargeneral, ...), a Position is
// one game between turns, a Round is what one Play did. The judge stores
// positions, orders and rounds as the bytes a system gives it and knows
// nothing else of a game. Everything here is pure: no I/O but the writers a
// caller hands in, no clock, chance only from Dice.
package engine
