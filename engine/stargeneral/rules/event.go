package rules

// Event is one thing that happened in a round, in the order it happened. The
// engine records facts; reports and maps are written from them elsewhere.
type Event struct {
	Kind EventKind `json:"kind"`
	Side string    `json:"side,omitempty"`
	Unit string    `json:"unit,omitempty"` // unit or battery id
	// Stand is the core stand (or platoon) concerned, within Unit.
	Stand string `json:"stand,omitempty"`
	From  Hex    `json:"from,omitempty"`
	To    Hex    `json:"to,omitempty"`
	Path  []Hex  `json:"path,omitempty"`
	// Dice rolled for this event (initiative, AA fire, ...), in rolling order.
	Dice []int `json:"dice,omitempty"`
	// SP is a strength change (negative for losses) or a count, by kind.
	SP int `json:"sp,omitempty"`
	// Section is the rule the event applies, e.g. "2.4".
	Section string `json:"section,omitempty"`
	// Text says in plain words what happened and why.
	Text   string  `json:"text"`
	Combat *Combat `json:"combat,omitempty"`
}

// EventKind names what an event is about.
type EventKind string

// Event kinds.
const (
	EvRoundStart    EventKind = "round"      // a round begins: statuses revealed, shots issued
	EvStatus        EventKind = "status"     // a unit's status for the round, or a forced change
	EvInitiative    EventKind = "initiative" // a 2D6 roll-off and who acts
	EvActivate      EventKind = "activate"   // a unit's turn begins
	EvPhase         EventKind = "phase"      // the artillery phase or the night begins
	EvMove          EventKind = "move"       // a stand moved (Path), possibly stopping short
	EvHalt          EventKind = "halt"       // why a move stopped where it did
	EvSwap          EventKind = "swap"       // a support platoon changed stands
	EvAttackCancel  EventKind = "cancel"     // a plotted attack could not be made
	EvCombat        EventKind = "combat"     // a combat, with its full sums in Combat
	EvLoss          EventKind = "loss"       // SP or a platoon lost
	EvEliminated    EventKind = "eliminated" // a stand removed
	EvFallBack      EventKind = "fallback"   // a beaten stand fell back (Path)
	EvHoldAtCost    EventKind = "hold"       // a beaten D stand paid to hold
	EvPursuit       EventKind = "pursuit"    // a winner advanced
	EvHQLost        EventKind = "hq-lost"
	EvHQReturn      EventKind = "hq-return"
	EvUnitRemoved   EventKind = "unit-removed"
	EvArtilleryMove EventKind = "artillery-move"
	EvBarrage       EventKind = "barrage" // artillery-phase fire, with Combat
	EvAir           EventKind = "air"     // an air point's fate (AA, strike)
	EvRecovery      EventKind = "recovery"
	EvRebuild       EventKind = "rebuild"
	EvReshuffle     EventKind = "reshuffle"
	EvObjective     EventKind = "objective" // an objective changed hands
	EvGameEnd       EventKind = "game-end"
	EvNote          EventKind = "note" // anything else worth telling
)

// Combat is the full, checkable record of one combat or barrage (3, 4, 5.1).
type Combat struct {
	Number   int    `json:"number"`
	Close    bool   `json:"close"` // any stand fought in close combat
	Target   Hex    `json:"target"`
	Attacker Force  `json:"attacker"`
	Defender Force  `json:"defender"`
	Winner   string `json:"winner,omitempty"` // side that won a close combat, "" for none
	Barrage  bool   `json:"barrage,omitempty"`
	NoReturn string `json:"no_return,omitempty"` // why the defender did not fire back
}

// Force is one side of a combat: its dice sources, roll and result.
type Force struct {
	Side    string       `json:"side"`
	Unit    string       `json:"unit"`
	Status  Status       `json:"status"` // the status its hits are worked out for
	Sources []DiceSource `json:"sources"`
	Dice    int          `json:"dice"`
	Rule    HitRule      `json:"rule"`
	Rolled  []int        `json:"rolled"`
	Hits    int          `json:"hits"`
	// MinDice is the fewest dice the force throws whatever the AA does to
	// its air points (3.4: a defender in close combat throws at least 1).
	MinDice int `json:"min_dice,omitempty"`
	// Capped hits count at most once per shot (5.1); Hits is after the cap.
	Losses int `json:"losses"` // SP and platoons lost by this force
}

// DiceSource is one contributor to a dice pool with every factor applied.
type DiceSource struct {
	Who     string   `json:"who"`  // e.g. "I/77 1A" or "battery 2/26"
	Kind    string   `json:"kind"` // stand type or support role
	Base    int      `json:"base"`
	Factors []Factor `json:"factors,omitempty"`
	Dice    int      `json:"dice"` // Base plus factors, never below zero
	Shots   int      `json:"shots,omitempty"`
	// AAShots is how many enemy AA platoons fired at this air point before
	// it joined (all missed), or in a forecast would fire: its dice count in
	// the odds with the chance it gets through (9; 2SG 7).
	AAShots int `json:"aa_shots,omitempty"`
}

// Factor is one addition or subtraction with the rule that gives it.
type Factor struct {
	Dice    int    `json:"dice"`
	Why     string `json:"why"`
	Section string `json:"section"`
}
