package rules

import (
	"fmt"
	"math"
	"slices"

	"fieldpost/engine"
)

// Orders are one side's mail for a turn, read (brief §3).
type Orders struct {
	Side          string         `json:"side"`
	Initiative    string         `json:"initiative,omitempty"` // "", keep, pass: only the holder's counts [11.1]
	Pursue        *bool          `json:"pursue,omitempty"`
	BugoutDefault *int           `json:"bugout_default,omitempty"`
	Platoons      []PlatoonOrder `json:"platoons,omitempty"`
	Calls         []Call         `json:"calls,omitempty"`
	Strikes       []Strike       `json:"strikes,omitempty"`
	Cancels       []Cancel       `json:"cancels,omitempty"`
}

// Cancel calls off a planned barrage on a hex [11.4.1, Planned Map Fire].
type Cancel struct {
	Line   int    `json:"line,omitempty"`
	Target Hex    `json:"target"`
	By     string `json:"by"`
}

// Strike sends a flight at an enemy platoon the side sees [11.4.3].
type Strike struct {
	Line   int    `json:"line,omitempty"`
	Flight string `json:"flight"`
	Target Hex    `json:"target"`
	By     string `json:"by,omitempty"` // an air liaison observer directing it [11.4.4]
}

// PlatoonOrder is one platoon's line.
type PlatoonOrder struct {
	Line        int      `json:"line,omitempty"`
	Platoon     string   `json:"platoon"`
	Order       int      `json:"order"`
	By          string   `json:"by,omitempty"`     // the commander raising it [11.2]
	Follow      string   `json:"follow,omitempty"` // the commander it follows in column (FP-3)
	Path        []Hex    `json:"path,omitempty"`
	Fire        Hex      `json:"fire,omitempty"`
	Assault     Hex      `json:"assault,omitempty"`
	Delay       bool     `json:"delay,omitempty"`
	ElseNearest bool     `json:"else_nearest,omitempty"`
	Reserve     *Reserve `json:"reserve,omitempty"`
	Bugout      int      `json:"bugout,omitempty"`
}

// Call is a call for indirect fire [11.4.1].
type Call struct {
	Line      int      `json:"line,omitempty"`
	Batteries []string `json:"batteries"`
	Target    Hex      `json:"target"`
	By        string   `json:"by"`
	Delay     bool     `json:"delay,omitempty"`
}

// Validate checks a side's orders against the position at the start of
// the turn and returns every problem.
func Validate(rs *Ruleset, st *State, o *Orders) []engine.Problem {
	var errs []engine.Problem
	bad := func(line int, rule, format string, args ...any) {
		errs = append(errs, engine.Problem{Line: line, Rule: rule, Text: fmt.Sprintf(format, args...)})
	}
	if o.Initiative != "" && o.Initiative != "keep" && o.Initiative != "pass" {
		bad(0, "", "INITIATIVE keep or pass")
	}
	if o.Initiative == "pass" && st.Initiative != o.Side {
		bad(0, "11.1", "INITIATIVE: %s does not hold the initiative; only the holder may pass it", o.Side)
	}
	listed := map[string]bool{}
	raisedBy := map[string]string{}
	led := map[string]bool{} // commanders leading a column (FP-3)
	newOrder := map[string]int{}
	for _, po := range o.Platoons {
		newOrder[po.Platoon] = po.Order
	}
	for _, po := range o.Platoons {
		p := st.Platoon(o.Side, po.Platoon)
		if p == nil {
			bad(po.Line, "", "%s: no platoon of yours by that name is on the map", po.Platoon)
			continue
		}
		if listed[p.Name] {
			bad(po.Line, "", "%s: given two orders", p.Name)
			continue
		}
		listed[p.Name] = true
		name := p.Name
		commander := po.By
		if po.Follow != "" {
			commander = po.Follow
		}
		if po.Order < 1 || po.Order > Rout {
			bad(po.Line, "", "%s: unknown order", name)
			continue
		}
		raise := po.Order < p.Order && po.Follow == ""
		if raise && commander == "" {
			bad(po.Line, "11.2", "%s: is on %s; raising it to %s needs BY a commander", name, rs.OrderName(p.Order), rs.OrderName(po.Order))
		}
		if commander != "" {
			c := st.Platoon(o.Side, commander)
			switch {
			case c == nil:
				bad(po.Line, "11.2", "%s: no commander %s on the map", name, commander)
			case !st.Commands(c, p):
				bad(po.Line, "11.2", "%s: %s is not in its line of command", name, commander)
			case raisedBy[commander] != "":
				bad(po.Line, "11.2", "%s: %s has already given its one order this turn, to %s", name, commander, raisedBy[commander])
			case po.Follow == "" && led[commander]:
				bad(po.Line, "11.2", "%s: %s has already given its one order this turn: Follow, to its column", name, commander)
			case po.Follow == "" && c != p && !Adjacent(c.Hex, p.Hex) && !st.Battalion(o.Side, c.Battalion).Radio:
				bad(po.Line, "11.2", "%s: %s is out of radio contact and not within 1 hex", name, commander)
			case po.Follow != "":
				led[commander] = true // one Follow order leads a whole column [11.2]
			default:
				raisedBy[commander] = name
			}
			if po.By != "" && !raise {
				bad(po.Line, "11.2", "%s: BY is for raising an order; %s is not above %s", name, rs.OrderName(po.Order), rs.OrderName(p.Order))
			}
			if po.Follow != "" && c != nil {
				if no := orderOf(newOrder, c); no != Move && no != Double {
					bad(po.Line, "FP-3", "%s: FOLLOW %s needs the commander on Move or Double", name, commander)
				}
				if p.Order != Defend && p.Order != Shaken && p.Order != Hold {
					bad(po.Line, "FP-3", "%s: only a platoon on Defend, Shaken or Hold follows", name)
				}
				if Distance(c.Hex, p.Hex) > 1 && !followerChain(st, o, c, p) {
					bad(po.Line, "FP-3", "%s: not within 1 hex of %s or another follower", name, commander)
				}
			}
		}
		rung := rs.Rung(po.Order)
		if len(po.Path) > 0 {
			if po.Order != Move && po.Order != Double {
				bad(po.Line, "11.2, FP-3", "%s: only Move and Double move by a path; %s does not", name, rs.OrderName(po.Order))
			} else if prob := CheckPath(rs, st, p, po.Order, po.Path); prob != nil {
				bad(po.Line, prob.Rule, "%s: %s", name, prob.Text)
			}
		}
		if !po.Fire.IsZero() {
			if prob := checkFire(rs, st, p, po.Order, po.Fire); prob != nil {
				bad(po.Line, prob.Rule, "FIRE %s: %s", po.Fire, prob.Text)
			}
		} else if po.Delay {
			bad(po.Line, "11.5.1", "%s: DELAY is for a FIRE", name)
		}
		if !po.Assault.IsZero() {
			end := p.Hex
			if len(po.Path) > 0 {
				end = po.Path[len(po.Path)-1]
			}
			t := st.At(po.Assault)
			switch {
			case po.Order != Move || !rs.Types[p.Type].Infantry:
				bad(po.Line, "11.2.2, FP-10", "ASSAULT %s: only foot infantry on Move starts a close assault", po.Assault)
			case t == nil || t.Side == o.Side || !SideSees(rs, st, o.Side, t):
				bad(po.Line, "FP-10", "ASSAULT %s: none of your platoons can see an enemy there", po.Assault)
			case !Adjacent(end, po.Assault):
				bad(po.Line, "FP-10", "ASSAULT %s: %s ends its move at %s, not next to it", po.Assault, name, end)
			}
		}
		if po.Reserve != nil && rung.Fire != "aimed" {
			bad(po.Line, "FP-7", "%s: RESERVE is for Aim or Defend", name)
		}
		if po.Reserve != nil && !po.Fire.IsZero() {
			bad(po.Line, "FP-7", "%s: a platoon holding its fire in RESERVE does not FIRE now", name)
		}
	}
	called := map[string]bool{}
	callers := map[string]bool{}
	for _, c := range o.Calls {
		p := st.Platoon(o.Side, c.By)
		if p == nil {
			bad(c.Line, "11.4.1", "CALL: no platoon of yours named %s", c.By)
			continue
		}
		if callers[p.Name] && rs.Types[p.Type].Observer != "artillery" {
			bad(c.Line, "11.4.1, 11.4.2", "CALL: %s has already called this turn; only an artillery observer calls on more targets", p.Name)
		}
		callers[p.Name] = true
		if r := rs.Rung(orderOf(newOrder, p)); !r.Calls {
			bad(c.Line, "11.4.1", "CALL: %s is on %s; only Aim or Defend may call", p.Name, r.Order)
		}
		if st.EnemyAdjacent(o.Side, p.Hex) {
			bad(c.Line, "11.4.1, FP-10", "CALL: %s is in contact with an enemy, involved in a close assault, and may not call", p.Name)
		}
		t := st.At(c.Target)
		if t == nil || t.Side == o.Side || !Sees(rs, st, p, t) {
			bad(c.Line, "11.4.1", "CALL ON %s: %s cannot see an enemy platoon there", c.Target, p.Name)
		}
		if len(c.Batteries) == 0 || len(c.Batteries) > rs.CallsPerTarget.I() {
			bad(c.Line, "FP-5", "CALL: one or %d artillery units on one target", rs.CallsPerTarget.I())
		}
		for _, bn := range c.Batteries {
			b := st.Battery(o.Side, bn)
			switch {
			case b == nil && st.Artillery(rs, o.Side, bn) != nil:
				if called[bn] {
					bad(c.Line, "FP-5", "CALL: %s answers one call a turn", bn)
				}
			case b == nil:
				bad(c.Line, "11.4", "CALL: no artillery unit of yours named %s, on the table or off it", bn)
			case called[bn]:
				bad(c.Line, "FP-5", "CALL: %s answers one call a turn", bn)
			case b.Missions == 0:
				bad(c.Line, "FP-5", "CALL: %s has no missions left", bn)
			}
			called[bn] = true
		}
	}
	flown := map[string]bool{}
	for _, sk := range o.Strikes {
		fl := st.Flight(o.Side, sk.Flight)
		t := st.At(sk.Target)
		night, _ := st.Night(rs)
		switch {
		case fl == nil:
			bad(sk.Line, "11.4.3", "AIR: no flight of yours named %s", sk.Flight)
		case flown[fl.Name]:
			bad(sk.Line, "FP-6", "AIR: %s flies one strike a turn", fl.Name)
		case fl.Sorties == 0:
			bad(sk.Line, "FP-6", "AIR: %s has no sorties left", fl.Name)
		case night:
			bad(sk.Line, "FP-13", "AIR: no air attacks at night")
		case t == nil || t.Side == o.Side || !SideSees(rs, st, o.Side, t):
			bad(sk.Line, "11.4.3", "AIR ON %s: none of your platoons can see an enemy there", sk.Target)
		}
		if sk.By != "" {
			p := st.Platoon(o.Side, sk.By)
			switch {
			case p == nil || rs.Types[p.Type].Observer != "air":
				bad(sk.Line, "11.4.4", "AIR BY %s: no air liaison observer of yours by that name", sk.By)
			case !rs.Rung(orderOf(newOrder, p)).Calls:
				bad(sk.Line, "11.4.4, 11.4.1", "AIR BY %s: it is on %s; an observer may not move in a turn it calls", sk.By, rs.OrderName(orderOf(newOrder, p)))
			case t != nil && !Sees(rs, st, p, t):
				bad(sk.Line, "11.4.4", "AIR BY %s: it cannot see the target at %s itself", sk.By, sk.Target)
			}
		}
		if fl != nil {
			flown[fl.Name] = true
		}
	}
	for _, c := range o.Cancels {
		p := st.Platoon(o.Side, c.By)
		switch {
		case p == nil:
			bad(c.Line, "11.4.1", "CANCEL: no platoon of yours named %s", c.By)
		case st.PlanOn(o.Side, c.Target) == nil:
			bad(c.Line, "11.4.1", "CANCEL %s: you have no planned barrage there still to fire", c.Target)
		case !SeesHex(rs, st, p, c.Target):
			bad(c.Line, "11.4.1", "CANCEL %s: %s cannot see it", c.Target, p.Name)
		}
	}
	slices.SortStableFunc(errs, func(a, b engine.Problem) int { return a.Line - b.Line })
	return errs
}

func orderOf(newOrder map[string]int, p *Platoon) int {
	if o, ok := newOrder[p.Name]; ok {
		return o
	}
	return p.Order
}

// followerChain: p is within 1 hex of another follower of c.
func followerChain(st *State, o *Orders, c, p *Platoon) bool {
	seen := map[string]bool{c.Name: true}
	frontier := []*Platoon{c}
	for len(frontier) > 0 {
		cur := frontier[0]
		frontier = frontier[1:]
		for _, po := range o.Platoons {
			q := st.Platoon(o.Side, po.Platoon)
			if po.Follow != c.Name || q == nil || seen[q.Name] || !Adjacent(q.Hex, cur.Hex) {
				continue
			}
			if q == p {
				return true
			}
			seen[q.Name] = true
			frontier = append(frontier, q)
		}
	}
	return false
}

// checkFire says why p on order may not fire at hex h, nil if it may.
func checkFire(rs *Ruleset, st *State, p *Platoon, order int, h Hex) *engine.Problem {
	r := rs.Rung(order)
	t := st.At(h)
	switch {
	case r.Fire == "none":
		return &engine.Problem{Rule: "FP-3", Text: fmt.Sprintf("%s is on %s, which does not fire", p.Name, r.Order)}
	case t == nil || t.Side == p.Side || !SideSees(rs, st, p.Side, t):
		return &engine.Problem{Rule: "9.1", Text: "none of your platoons can see an enemy there"}
	case st.Map.Letter(p.Hex) == 'T' && st.Map.Letter(h) == 'T':
		return &engine.Problem{Rule: "9.1", Text: "in towns the only combat is close assault"}
	}
	w, dice := BestWeapon(rs, p, t, Distance(p.Hex, h))
	switch {
	case w == "":
		return &engine.Problem{Rule: "FP-1", Text: fmt.Sprintf("%s has no weapon that reaches %s at %d hexes with any dice", p.Name, t.Name, Distance(p.Hex, h))}
	case dice == 0:
		return &engine.Problem{Rule: "11.5.2", Text: fmt.Sprintf("%s has no unwounded man left to fire", p.Name)}
	case rs.Weapons[w].Indirect && !r.Calls:
		return &engine.Problem{Rule: "11.4.1, FP-5", Text: fmt.Sprintf("%s fires indirect, only on Aim or Defend", p.Name)}
	case !rs.Weapons[w].Indirect && !Sees(rs, st, p, t):
		return &engine.Problem{Rule: "9.1", Text: fmt.Sprintf("%s cannot see it itself", p.Name)}
	case rs.Weapons[w].Indirect && !Sees(rs, st, p, t) && !st.Battalion(p.Side, p.Battalion).Radio:
		return &engine.Problem{Text: fmt.Sprintf("%s does not see it and its battalion is out of radio contact to be told (FP-5, [15])", p.Name)}
	case r.FireRange != nil && Distance(p.Hex, h) > r.FireRange.I():
		return &engine.Problem{Rule: "FP-3", Text: fmt.Sprintf("on %s %s fires only within %d hexes", r.Order, p.Name, r.FireRange.I())}
	}
	return nil
}

// BestWeapon is the weapon of p that gives most dice against t at range d,
// with those dice: ⌈Count × FD⌉, platoon weapons Count 1 (FP-1, A3).
func BestWeapon(rs *Ruleset, p, t *Platoon, d int) (string, int) {
	return bestWeapon(rs, p, rs.Types[t.Type].Class, d, false)
}

func bestWeapon(rs *Ruleset, p *Platoon, class string, d int, assault bool) (string, int) {
	best, bestDice := "", -1
	count := p.Count(rs)
	try := func(name string, men int) {
		w := rs.Weapons[name]
		fd := w.FD(class)
		if assault && w.Assault != nil && class == "soft" {
			fd = w.Assault.V
		}
		if fd == 0 || d > w.Range.I() || (assault && w.Indirect) {
			return
		}
		dice := int(math.Ceil(float64(men) * fd))
		if dice > bestDice {
			best, bestDice = name, dice
		}
	}
	for _, w := range rs.Types[p.Type].Weapons {
		try(w, count)
	}
	for _, w := range p.Weapons {
		try(w, min(count, 1))
	}
	return best, max(bestDice, 0)
}

// Allowance is the hexes' worth of movement p has on order [11.2.1, FP-8].
func Allowance(rs *Ruleset, p *Platoon, order int) int {
	mv := rs.Movement[rs.Types[p.Type].Move]
	base := mv.Move.I()
	if order == Double && (p.Wounded > 0 || !mv.Double) {
		return base // with wounded it moves 1× only [11.2.1]
	}
	return base * rs.Rung(order).Move.I()
}

// StepCost is what entering b from a costs p, 0 if it cannot [FP-8].
func StepCost(rs *Ruleset, st *State, p *Platoon, a, b Hex, order int) int {
	m := st.Map
	if !m.On(b) {
		return 0
	}
	mc := rs.Types[p.Type].Move
	class := "foot"
	switch mc {
	case "wheeled":
		class = "wheeled"
	case "tracked", "slow_tracked":
		class = "tracked"
	}
	if road, _ := m.RoadLink(a, b); road && (order == Double || class == "wheeled") && m.Letter(b) != 'L' {
		return rs.RoadCost.I() // Move gets no road bonus [11.2.2], but wheels need roads
	}
	cost := rs.Costs[m.Kind(b)][class].I()
	if cost == 0 {
		return 0
	}
	if m.Level2(b) > m.Level2(a) {
		cost += rs.Climb.I()
	}
	return cost
}

// CheckPath says why p may not follow path on order, nil if it may.
func CheckPath(rs *Ruleset, st *State, p *Platoon, order int, path []Hex) *engine.Problem {
	allowance := Allowance(rs, p, order)
	if order == Double && allPaved(st.Map, p.Hex, path) && p.Wounded == 0 {
		allowance = rs.Movement[rs.Types[p.Type].Move].Move.I() * rs.PavedDouble.I()
	}
	night, _ := st.Night(rs)
	spent := 0
	at := p.Hex
	for i, h := range path {
		if !Adjacent(at, h) {
			return &engine.Problem{Rule: "FP-8", Text: fmt.Sprintf("path hex %s does not touch %s", h, at)}
		}
		c := StepCost(rs, st, p, at, h, order)
		if c == 0 {
			return &engine.Problem{Rule: "FP-8", Text: fmt.Sprintf("%s cannot enter %s (%s)", p.Name, h, st.Map.Kind(h))}
		}
		if night && order == Double {
			if road, _ := st.Map.RoadLink(at, h); !road {
				return &engine.Problem{Rule: "FP-13", Text: fmt.Sprintf("at night Double keeps to roads; %s is off the road", h)}
			}
		}
		spent += c
		if spent > allowance {
			return &engine.Problem{Rule: "FP-8", Text: fmt.Sprintf("the path costs more than its %d on %s: %s is %d", allowance, rs.OrderName(order), h, spent)}
		}
		if q := st.At(h); q != nil && q.Side == p.Side && i == len(path)-1 {
			return &engine.Problem{Rule: "FP-0", Text: fmt.Sprintf("%s ends in %s, where %s stands: one platoon a hex", p.Name, h, q.Name)}
		}
		at = h
	}
	return nil
}

func allPaved(m *Map, from Hex, path []Hex) bool {
	at := from
	for _, h := range path {
		if road, paved := m.RoadLink(at, h); !road || !paved {
			return false
		}
		at = h
	}
	return true
}

// DefaultOrders: what a side that sent nothing does, per the solo-play
// advice (brief §3): Move and Double become Aim, nothing moves, Aim and
// Defend fire at the nearest enemy they see and reach.
func DefaultOrders(rs *Ruleset, st *State, side string) *Orders {
	o := &Orders{Side: side}
	for _, p := range st.Active(side) {
		po := PlatoonOrder{Platoon: p.Name, Order: p.Order, Bugout: p.Bugout, Reserve: p.Reserve}
		if p.Order == Move || p.Order == Double {
			po.Order = Aim
		}
		if po.Reserve == nil && rs.Rung(po.Order).Fire != "none" {
			if t := NearestTarget(rs, st, p, po.Order); t != nil {
				po.Fire = t.Hex
			}
		}
		o.Platoons = append(o.Platoons, po)
	}
	return o
}

// NearestTarget is the nearest enemy p may fire at on order, nil if none.
func NearestTarget(rs *Ruleset, st *State, p *Platoon, order int) *Platoon {
	var best *Platoon
	for _, t := range st.Active(st.Enemy(p.Side)) {
		if checkFire(rs, st, p, order, t.Hex) != nil {
			continue
		}
		if best == nil || Distance(p.Hex, t.Hex) < Distance(p.Hex, best.Hex) {
			best = t
		}
	}
	return best
}
