package rules

// Orders are one side's plot for one round (email-play.md): what each unit
// does when its turn comes, and standing answers to every question the rules
// would ask the player mid-round. The zero value of every choice is the
// default a player gets by not saying anything.
type Orders struct {
	Side string `json:"side"`
	// Units holds at most one entry per unit; a unit without one keeps its
	// status (M and R become H) and stays where it is.
	Units []UnitOrders `json:"units,omitempty"`
	// Priority is the order in which the side's units act when it wins the
	// initiative (1.7); units it leaves out follow in scenario order.
	Priority []string `json:"priority,omitempty"`
	// Batteries: artillery-phase orders and defensive reserve (5, 5.1).
	Batteries []BatteryOrders `json:"batteries,omitempty"`
	// AirStrikes are artillery-phase air attacks, one point each (7).
	AirStrikes []Hex        `json:"air_strikes,omitempty"`
	Choices    Choices      `json:"choices"`
	Night      *NightOrders `json:"night,omitempty"`
}

// UnitOrders is one unit's plot.
type UnitOrders struct {
	Unit   string      `json:"unit"`
	Status Status      `json:"status"`
	Moves  []StandMove `json:"moves,omitempty"`
	// Swaps move support platoons between the unit's stands (2SG 2.3, 3SG 2.4).
	Swaps  []Swap  `json:"swaps,omitempty"`
	Attack *Attack `json:"attack,omitempty"`
	// HQPlacement is where a returning HQ should appear (6); when empty or not
	// allowed, the engine picks the first legal hex.
	HQPlacement Hex `json:"hq_placement,omitempty"`
}

// StandMove is a core stand's path, one adjacent hex after another, not
// counting the hex it starts in.
type StandMove struct {
	Stand string `json:"stand"`
	Path  []Hex  `json:"path"`
}

// Swap moves a support platoon (or truck) to another core stand of its unit.
type Swap struct {
	Platoon string `json:"platoon"`
	To      string `json:"to"`
}

// Attack is a unit's one attack of the round (3.4).
type Attack struct {
	Target Hex           `json:"target"`
	Stands []AttackStand `json:"stands"`
	// LightArtillery names the unit's light artillery platoons called in (3.5.1).
	LightArtillery []string `json:"light_artillery,omitempty"`
	// Batteries names supporting batteries (3.5.1, at most MaxBatteries).
	Batteries []string `json:"batteries,omitempty"`
	// Air is the number of air points called (7).
	Air int `json:"air,omitempty"`
}

// AttackStand is one attacking core stand and how it fights.
type AttackStand struct {
	Stand string `json:"stand"`
	Close bool   `json:"close"` // close combat (adjacent) rather than distant fire
}

// Mode names how the stand fights, in the rules' words.
func (a AttackStand) Mode() string {
	if a.Close {
		return "close combat"
	}
	return "distant fire"
}

// BatteryOrders is one battery's standing orders for the round.
type BatteryOrders struct {
	Battery string `json:"battery"`
	// Keep is the number of shots kept back from attack support for defence
	// and the artillery phase (5).
	Keep int `json:"keep,omitempty"`
	// Fire targets a barrage in the artillery phase with all shots left (5.1).
	Fire Hex `json:"fire,omitempty"`
	// Move moves the battery in the artillery phase instead of firing (5.1).
	Move []Hex `json:"move,omitempty"`
}

// Choices are a side's answers to the rules' mid-round questions.
type Choices struct {
	// Losses: how a stand takes losses (4). "" or LossesKeepStrength: spend
	// strength points that do not cost dice first, then platoons; LossesPlatoonsFirst:
	// give up support platoons before strength points.
	Losses string `json:"losses,omitempty"`
	// NoHoldAtCost: a beaten D stand falls back rather than paying 1 SP to hold (4.1).
	NoHoldAtCost bool `json:"no_hold_at_cost,omitempty"`
	// NoPursuit: a winning attacker does not advance into the vacated hex (4.2).
	NoPursuit bool `json:"no_pursuit,omitempty"`
	// NoDefensiveSupport: stands under attack do not call batteries or air (3.5.2).
	NoDefensiveSupport bool `json:"no_defensive_support,omitempty"`
}

// Loss policies.
const (
	LossesKeepStrength  = "keep-strength"
	LossesPlatoonsFirst = "platoons-first"
)

// NightOrders allocate the night's recovery and reshuffle (9).
type NightOrders struct {
	// Strength gives recovered strength points to stands, point for point (9.1).
	Strength []Recovery `json:"strength,omitempty"`
	// Platoons brings back lost support platoons onto stands of their own
	// unit, or of any unit where the ruleset allows (9.1; 3SG 8).
	Platoons []PlatoonRecovery `json:"platoons,omitempty"`
	// Rebuild brings back lost core stands next to their unit (9.1).
	Rebuild []Rebuild `json:"rebuild,omitempty"`
	// Reshuffle moves stands among the hexes their unit holds at nightfall (9.2).
	Reshuffle []NightMove `json:"reshuffle,omitempty"`
}

// NightMove places a stand in another hex its unit holds (9.2): distance and
// terrain do not matter.
type NightMove struct {
	Unit  string `json:"unit"`
	Stand string `json:"stand"`
	To    Hex    `json:"to"`
}

// Recovery adds SP to one stand.
type Recovery struct {
	Unit  string `json:"unit"`
	Stand string `json:"stand"`
	SP    int    `json:"sp"`
}

// PlatoonRecovery returns a lost platoon to a stand of its home unit.
type PlatoonRecovery struct {
	Unit    string `json:"unit"`
	Platoon string `json:"platoon"`
	To      string `json:"to"`
	// From is the unit that lost the platoon when it is another than Unit:
	// where the ruleset lets support points go to any unit (3SG 8).
	From string `json:"from,omitempty"`
}

// Rebuild returns a lost core stand with SP strength at Hex.
type Rebuild struct {
	Unit  string `json:"unit"`
	Stand string `json:"stand"`
	Hex   Hex    `json:"hex"`
	SP    int    `json:"sp"`
}

// For returns the orders for a unit, or nil.
func (o *Orders) For(unit string) *UnitOrders {
	if o == nil {
		return nil
	}
	for i := range o.Units {
		if o.Units[i].Unit == unit {
			return &o.Units[i]
		}
	}
	return nil
}

// BatteryOrder returns the orders for a battery, or nil.
func (o *Orders) BatteryOrder(id string) *BatteryOrders {
	if o == nil {
		return nil
	}
	for i := range o.Batteries {
		if o.Batteries[i].Battery == id {
			return &o.Batteries[i]
		}
	}
	return nil
}
