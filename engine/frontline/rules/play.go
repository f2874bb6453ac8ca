package rules

import (
	"fmt"
	"sort"
	"strings"
)

// resolver carries one player turn's work: the state being changed, the
// dice, the events so far and what the turn remembers between phases.
type resolver struct {
	s           *State
	d           Dice
	r           *Rules
	side, enemy string
	own         int // the active side's own turn number
	phase       string
	events      []Event
	rolls       []Roll
	moved       map[string]bool // unit keys that moved or acted in the Movement Phase
	prevHex     map[string]Hex  // the hex before each unit's last step (Suspend Attack)
	recon       map[Hex]bool    // hexes the active side reconnoitred this turn
	noFight     map[string]bool // recon units may not fight this turn (§VI.6)
	engaged     map[string]bool // unit keys in an engagement this Combat Phase
	inspired    map[string]bool // sides that played Inspire this phase
	landing     map[string]Hex  // aircraft landing after combat
	pending     []*Unit         // units destroyed by the hit being resolved
	encircled   map[Hex]Hex     // hexes encircled this turn -> the open hex
	hitAndRun   map[string]bool // units that declared Hit & Run
	repairsAt   map[string]bool // CP/FHQ keys that repaired a unit this turn
	coverFirst  bool            // the engagement being opened is a Cover mission
	foughtIdle  map[string]bool // building or repairing units that fought this phase
	earned      []earning       // experience rolls earned in the engagement being fought
	cityScored  map[string]int  // "SIDE hex" -> points for taking a city this turn
}

// earning is one experience roll earned, and why (Inset VIII.2).
type earning struct {
	u   *Unit
	why string
}

func newResolver(s *State, d Dice) *resolver {
	return &resolver{s: s, d: d, r: s.lib.Rules, side: s.Active, enemy: s.Enemy(s.Active), own: s.Player(s.Active).OwnTurn,
		moved: map[string]bool{}, prevHex: map[string]Hex{}, recon: map[Hex]bool{}, noFight: map[string]bool{},
		engaged: map[string]bool{}, inspired: map[string]bool{}, landing: map[string]Hex{},
		encircled: map[Hex]Hex{}, hitAndRun: map[string]bool{}, repairsAt: map[string]bool{}, foughtIdle: map[string]bool{}, cityScored: map[string]int{}}
}

// roll throws one die and remembers it for the next event.
func (r *resolver) roll(faces int, what, need string) int {
	v := r.d.Roll(faces)
	r.rolls = append(r.rolls, Roll{Die: faces, Face: v, For: what, Need: need})
	return v
}

// emit records an event with the dice rolled since the last one.
func (r *resolver) emit(kind, section string, h Hex, private string, format string, a ...any) {
	e := Event{Phase: r.phase, Kind: kind, Side: r.side, Private: private, Hex: h, Section: section, Text: fmt.Sprintf(format, a...), Rolls: r.rolls}
	r.rolls = nil
	r.events = append(r.events, e)
}

// rollOff is an unmodified initiative check (§IV.3): both d10, high wins,
// ties re-rolled. It reports whether first wins.
func (r *resolver) rollOff(first, second, what string) (bool, string) {
	var text []string
	for {
		a := r.roll(10, first+" "+what, "")
		b := r.roll(10, second+" "+what, "")
		text = append(text, fmt.Sprintf("%s d10=%d, %s d10=%d", first, a, second, b))
		if a != b {
			return a > b, strings.Join(text, "; tie, again: ")
		}
	}
}

// Play resolves the active side's player turn with its orders and the
// dice, then opens the opponent's turn (its Income/Event phase). It returns
// the next state and what happened in the turn (its opening included); the
// opponent's opening is in the next state's Opening, mailed with its form.
// The state it is called on is unchanged.
// Orders with problems are refused whole, with every problem.
func (s *State) Play(o Orders, d Dice) (*State, []Event, error) {
	if s.Over {
		return nil, nil, fmt.Errorf("the game is over: %s", s.Result)
	}
	if o.Side == "" {
		o.Side = s.Active
	}
	if probs := s.Validate(o); len(probs) > 0 {
		msgs := make([]string, len(probs))
		for i, p := range probs {
			msgs[i] = p.String()
		}
		return nil, nil, fmt.Errorf("orders for %s refused: %s", o.Side, strings.Join(msgs, "; "))
	}
	n := s.Clone()
	n.Opening = nil
	n.Plays++
	r := newResolver(n, d)
	r.events = append(r.events, s.Opening...)
	r.production(o)
	if o.Convert != "" {
		r.convert(o.Convert)
	}
	r.takeDown(o)
	r.supply(o)
	r.movement(o)
	r.settleExperience(nil)
	r.breakMomentum()
	r.combat(o)
	r.settleExperience(nil)
	r.deployment(o)
	r.setUpMoved()
	r.shipArrivals()
	r.endTurn(o)
	if !n.Over {
		n.Active = r.enemy
		if n.Active == n.Sides[0] {
			n.Turn++
		}
		n.openTurn(newResolver(n, d))
	}
	return n, r.events, nil
}

// openTurn plays the automatic start of the active side's turn (§V.1):
// income, the event roll and the command card draw, none of them in the
// side's own first turn (reading 1). Its events are kept in s.Opening for
// the order form and the report.
func (s *State) openTurn(r *resolver) {
	p := s.Player(s.Active)
	p.OwnTurn++
	r.own = p.OwnTurn
	r.phase = "income"
	s.returnAway(r)
	r.finishRepairs()
	if p.OwnTurn > 1 {
		income := 0
		for _, u := range s.Units {
			c := s.Card(u)
			if u.Side == s.Active && u.OnMap() && c.Income > 0 && s.working(u) {
				if u.Damaged {
					income += c.IncomeDamaged
				} else {
					income += c.Income
				}
			}
		}
		p.Treasury += income
		r.emit("income", "V.1", Hex{}, "", "%s income %d (FHQ and command posts) -> treasury %d", s.Active, income, p.Treasury)
		if s.Options.Events && len(s.EventDeck) > 0 {
			need := r.r.EventRollMax
			v := r.roll(10, "event", fmt.Sprintf("1-%d", need))
			if v <= need {
				n := s.EventDeck[0]
				s.EventDeck = s.EventDeck[1:]
				s.EventDiscard = append(s.EventDiscard, n)
				r.emit("event", "V.1", Hex{}, "", "event roll d10=%d (1-%d draws): %s drawn", v, need, s.lib.Events[n-1].Name)
				r.applyEvent(s.lib.Events[n-1])
			} else {
				r.emit("event", "V.1", Hex{}, "", "event roll d10=%d (1-%d draws): no event", v, need)
			}
		}
		if s.Options.Cards {
			r.drawCard()
		}
	}
	s.Opening = r.events
	r.events = nil
}

// drawCard draws one command card for the active side: only with its FHQ
// (§IV.1.9); a card beyond the hand limit is discarded at once (§III.7).
func (r *resolver) drawCard() {
	s := r.s
	p := s.Player(r.side)
	if !s.hasFHQ(r.side) {
		r.emit("card", "IV.1.9", Hex{}, "", "%s has no Forward HQ: no command card drawn", r.side)
		return
	}
	if len(s.CommandDeck) == 0 {
		r.emit("card", "III.7", Hex{}, "", "the command deck is empty")
		return
	}
	c := s.CommandDeck[0]
	s.CommandDeck = s.CommandDeck[1:]
	if len(p.Hand) >= r.r.HandLimit {
		s.CommandDiscard = append(s.CommandDiscard, c)
		r.emit("card", "III.7", Hex{}, "", "%s draws a command card over the hand limit of %d: %s discarded", r.side, r.r.HandLimit, c)
		return
	}
	p.Hand = append(p.Hand, c)
	r.emit("card", "V.1", Hex{}, r.side, "%s draws %s; hand: %s", r.side, c, strings.Join(p.Hand, ", "))
	r.emit("card", "V.1", Hex{}, "", "%s draws a command card (hand %d)", r.side, len(p.Hand))
	r.events[len(r.events)-1].Private = r.enemy
}

func (s *State) hasFHQ(side string) bool {
	for _, u := range s.Units {
		if u.Side == side && u.Code == "FHQ" && u.OnMap() && s.working(u) {
			return true
		}
	}
	return false
}

// production plays the Production Phase of own turns 1, 6, 11... (§V.2):
// purchases are staged; crewed units take a crew bought with them.
func (r *resolver) production(o Orders) {
	r.phase = "production"
	if !r.s.ProductionTurn(r.side) {
		return
	}
	p := r.s.Player(r.side)
	var needCrew []*Unit
	var crews []*Unit
	for _, b := range o.Buys {
		c := r.s.lib.Cards[b.Code]
		for range b.Count {
			cost := c.Cost + b.XP*r.r.ExperienceRollCost
			p.Treasury -= cost
			u := &Unit{ID: r.s.nextID(r.side, b.Code), Side: r.side, Code: b.Code, Staged: r.own}
			r.s.Units = append(r.s.Units, u)
			r.s.sortUnits()
			var xp []string
			for range b.XP {
				xp = append(xp, r.experience(u))
			}
			extra := ""
			if len(xp) > 0 {
				extra = "; experience " + strings.Join(xp, ", ")
			}
			r.emit("buy", "V.2", Hex{}, r.side, "%s buys %s (%s) for %d, staged; treasury %d%s", r.side, u.ID, c.Name, cost, p.Treasury, extra)
			if c.Requires != "" {
				needCrew = append(needCrew, u)
			}
			if c.Crew != "" {
				crews = append(crews, u)
			}
		}
	}
	for _, b := range o.Builds {
		c := r.s.lib.Cards[b.Code]
		eng := r.s.Unit(r.side, b.By)
		cost, half := c.Cost, false
		if isPost(c) {
			cost, half = r.s.PostCost(r.side, b.Code, b.Hex)
		}
		p.Treasury -= cost
		u := &Unit{ID: r.s.nextID(r.side, b.Code), Side: r.side, Code: b.Code, Staged: r.own, Hex: b.Hex, Across: b.Across}
		r.s.Units = append(r.s.Units, u)
		r.s.sortUnits()
		if c.Radius > 0 {
			price := ""
			if half {
				price = " (half price in a Key City it holds)"
				if r.s.emplacementOf(r.side, b.Hex) != nil {
					price = " (half price within its emplacement)"
				}
			}
			r.emit("build", "IV.1.3", b.Hex, r.side, "%s stages %s (%s) for %s for %d%s, treasury %d; it is set up at the next Deployment Phase", r.side, u.ID, c.Name, b.Hex, cost, price, p.Treasury)
			continue
		}
		eng.Building, eng.DugIn = u.ID, false
		r.emit("build", "VI.5.3", b.Hex, r.side, "%s begins building %s (%s) at %s for %d, treasury %d; it stays idle there until the next Deployment Phase", eng.ID, u.ID, c.Name, b.Hex, c.Cost, p.Treasury)
	}
	for _, v := range needCrew {
		for i, c := range crews {
			if r.s.Card(c).Crew == r.s.Card(v).Requires {
				c.In, c.Role = v.ID, "crew"
				crews = append(crews[:i], crews[i+1:]...)
				r.emit("buy", "III.2.2", Hex{}, r.side, "%s crews %s", c.ID, v.ID)
				break
			}
		}
	}
}

// convert makes a command post the side's new FHQ (§IV.1.9, Inset IV.4):
// the old FHQ, if any, is abandoned; the new one costs half an FHQ and
// works after three turns.
func (r *resolver) convert(id string) {
	s := r.s
	cp := s.Unit(r.side, id)
	p := s.Player(r.side)
	cost := (s.lib.Cards["FHQ"].Cost*r.r.ConvertCostPercent + 99) / 100
	p.Treasury -= cost
	for _, u := range append([]*Unit(nil), s.Units...) {
		if u.Side == r.side && u.Code == "FHQ" {
			h := u.Hex
			r.remove(u)
			r.emit("command", "IV.1.9", h, r.side, "%s abandons %s at %s", r.side, u.ID, h)
		}
	}
	old := cp.ID
	cp.Code, cp.ID = "FHQ", s.nextID(r.side, "FHQ")
	cp.Works = r.own + r.r.ConvertTurns
	s.sortUnits()
	r.emit("command", "IV.1.9", cp.Hex, r.side, "%s converts %s into %s for %d (treasury %d); it works from %s's turn %d", r.side, old, cp.ID, cost, p.Treasury, r.side, cp.Works)
}

// ProductionTurn reports own turns 1, 6, 11...
func (s *State) ProductionTurn(side string) bool {
	t := s.Player(side).OwnTurn
	return (t-1)%s.lib.Rules.ProductionEvery == 0
}

// DeploymentTurn reports own turns 5, 10, 15...
func (s *State) DeploymentTurn(side string) bool {
	return s.Player(side).OwnTurn%s.lib.Rules.ProductionEvery == 0
}

func (s *State) nextID(side, code string) string {
	n := 0
	for _, u := range s.Units {
		if u.Side == side && u.Code == code {
			_, k := splitID(u.ID)
			n = max(n, k)
		}
	}
	return fmt.Sprintf("%s-%d", code, n+1)
}

// experience rolls Table VIII.1 for a unit (or the crew that keeps it).
func (r *resolver) experience(u *Unit) string {
	v := r.roll(10, "experience "+u.ID, "5+")
	star, ok := starsByFace[v]
	if !ok {
		return fmt.Sprintf("d10=%d none", v)
	}
	if len(u.Stars) >= r.r.MaxStars || r.s.Card(u).Kind == "obstacle" {
		return fmt.Sprintf("d10=%d %s (no room)", v, star)
	}
	u.Stars = append(u.Stars, star)
	return fmt.Sprintf("d10=%d %s", v, star)
}

// SupplyDue is the side's supply bill (Inset V.4): 10% of the cost of its
// deployed supplied units, halves up, less 5 per controlled port.
func (s *State) SupplyDue(side string) (due, gross, ports int) {
	cost := 0
	for _, u := range s.Units {
		if u.Side == side && u.OnMap() && s.supplied(u) {
			cost += s.Card(u).Cost
		}
	}
	gross = roundHalfUp(float64(cost) * float64(s.lib.Rules.SupplyPercent) / 100)
	cut, ports := s.portCut(side)
	return max(gross-cut, 0), gross, ports
}

// supplied: units that pay supply (Inset V.4).
func (s *State) supplied(u *Unit) bool {
	c := s.Card(u)
	return c.Cost > 0 && !c.NoSupply && c.Kind != "obstacle" && c.Kind != "structure" && s.inUse(u)
}

// idleEligible: units a deficit may idle (§V.3.2): supplied, deployed, not
// idle in the last turn, not aloft.
func (r *resolver) idleEligible(u *Unit) bool {
	return u.Side == r.side && u.OnMap() && r.s.supplied(u) && !r.s.inFlight(u) && (u.IdleTurn == 0 || u.IdleTurn != r.own-1) && !r.s.atWork(u)
}

// inFlight: an aircraft aloft, or the crew aboard one (Inset V.5).
func (s *State) inFlight(u *Unit) bool {
	if u.Aloft {
		return true
	}
	v := s.Unit(u.Side, u.In)
	return u.Role == "crew" && v != nil && v.Aloft
}

// atWork: a unit spending idle turns on a function, building or being
// repaired or merged, with the crew aboard such a unit. Supply deficits
// may not be applied to it (Inset V.5).
func (s *State) atWork(u *Unit) bool {
	if u.Building != "" || u.Repairing != 0 {
		return true
	}
	if u.Role == "crew" {
		if v := s.Unit(u.Side, u.In); v != nil {
			return s.atWork(v)
		}
	}
	return false
}

// supply plays the Supply Phase (§V.3): pay what the treasury allows; a
// deficit idles units worth ten times the unpaid amount.
func (r *resolver) supply(o Orders) {
	r.phase = "supply"
	s := r.s
	p := s.Player(r.side)
	for _, u := range s.Units {
		if u.Side == r.side && u.Idle {
			u.Idle = false
		}
	}
	due, gross, ports := s.SupplyDue(r.side)
	paid := min(due, p.Treasury)
	p.Treasury -= paid
	r.emit("supply", "V.3", Hex{}, r.side, "%s supply: %d due (%d less %d for %d port(s)); paid %d, treasury %d", r.side, due, gross, gross-due, ports, paid, p.Treasury)
	// Guns that fired for effect have their munitions again (Inset VI.6);
	// those a deficit idles stay silent anyway.
	for _, u := range s.Units {
		if u.Side == r.side && s.munitionsSpent(u) {
			u.Spent = false
		}
	}
	deficit := due - paid
	if deficit == 0 {
		return
	}
	need := deficit * r.r.DeficitIdleFactor
	var chosen []*Unit
	total := 0
	// A unit and its crew idle together (Inset V.5): both costs count.
	pick := func(u *Unit) {
		for _, c := range chosen {
			if c == u {
				return
			}
		}
		chosen = append(chosen, u)
		total += s.Card(u).Cost
		for _, v := range s.Units {
			if v.Side == u.Side && v != u && ((u.Role == "crew" && v.ID == u.In) || (v.In == u.ID && v.Role == "crew")) {
				chosen = append(chosen, v)
				total += s.Card(v).Cost
			}
		}
	}
	for _, id := range o.Idle {
		if u := s.Unit(r.side, id); u != nil && r.idleEligible(u) {
			pick(u)
		}
	}
	if total < need {
		var rest []*Unit
		for _, u := range s.Units {
			if r.idleEligible(u) {
				rest = append(rest, u)
			}
		}
		sort.SliceStable(rest, func(i, j int) bool { return s.Card(rest[i]).Cost < s.Card(rest[j]).Cost })
		for _, u := range rest {
			if total >= need {
				break
			}
			pick(u)
		}
	}
	var names []string
	for _, u := range chosen {
		u.Idle, u.IdleTurn = true, r.own
		names = append(names, u.ID)
	}
	r.emit("supply", "V.3.2", Hex{}, r.side, "%s deficit %d: units worth %d must stay idle; idle: %s (cost %d)", r.side, deficit, need, strings.Join(names, " "), total)
}

// deployment plays the Deployment Phase of own turns 5, 10, 15... (§V.6)
// and Rush Deployment (§IV.3.6).
func (r *resolver) deployment(o Orders) {
	r.phase = "deployment"
	s := r.s
	p := s.Player(r.side)
	if len(o.Rush) > 0 {
		s.spend(p, "Rush")
		r.emit("card", "IV.3.6", Hex{}, "", "%s plays Rush Deployment", r.side)
	}
	scheduled := (s.DeploymentTurn(r.side) || s.modifier("priority-shipping", r.side)) && !s.modifier("convoy-delayed", r.side)
	if s.DeploymentTurn(r.side) && s.modifier("convoy-delayed", r.side) {
		r.emit("deploy", "design 2.2", Hex{}, "", "Convoy Delayed: %s deploys nothing this phase", r.side)
		s.dropModifier("convoy-delayed", r.side)
	}
	// Constructions complete at the Deployment Phase, or later when their
	// engineers fought meanwhile (Inset VI.2).
	for _, eng := range append([]*Unit(nil), s.Units...) {
		if eng.Side != r.side || eng.Building == "" || !r.constructionDue(eng, scheduled) {
			continue
		}
		item := s.Unit(r.side, eng.Building)
		if item != nil && item.Staged >= r.own {
			continue // begun this turn (Priority Shipping deploys now): not yet
		}
		eng.Building, eng.Ready = "", 0
		if item == nil || item.Staged == 0 {
			continue
		}
		item.Staged = 0
		if s.Card(item).Structure == "airfield" {
			s.Control[item.Hex] = r.side
		}
		r.emit("build", "VI.5.3", item.Hex, "", "%s completes %s at %s", eng.ID, item.ID, item.Hex)
	}
	if scheduled {
		// Command posts are set up where a friendly land unit holds the
		// hex free of enemy land units (§IV.1.3-1.5); otherwise they wait.
		for _, cp := range s.Units {
			if cp.Side != r.side || cp.Staged <= 0 || cp.Staged >= r.own || cp.Hex.IsZero() || s.Card(cp).Radius == 0 {
				continue
			}
			if !s.Holds(r.side, cp.Hex) && !(s.landUnit(r.side, cp.Hex) && !s.enemyLand(r.side, cp.Hex)) {
				r.emit("build", "IV.1.3", cp.Hex, r.side, "%s waits: no friendly land unit holds %s", cp.ID, cp.Hex)
				continue
			}
			cp.Staged = 0
			cp.Hidden = s.Card(cp).Hidden
			cp.Works = r.own + 1
			r.emit("build", "IV.1.3", cp.Hex, r.side, "%s is set up at %s; it works from %s's next turn", cp.ID, cp.Hex, r.side)
		}
	}
	for _, dp := range o.Deploys {
		u := s.Unit(r.side, dp.Unit)
		if u == nil || u.Staged == 0 {
			continue
		}
		rushed := false
		for _, id := range o.Rush {
			rushed = rushed || id == dp.Unit
		}
		if !scheduled && !rushed {
			continue
		}
		if r.deployNaval(u, dp) {
			continue
		}
		if !s.CanDeployAt(u, dp.Hex) {
			r.emit("deploy", "V.6", dp.Hex, r.side, "%s cannot deploy at %s any more: not a controlled port or airfield", u.ID, dp.Hex)
			continue
		}
		u.Staged, u.Hex = 0, dp.Hex
		u.Hidden = s.Card(u).Hidden
		for _, c := range s.Units {
			if c.Side == u.Side && c.In == u.ID {
				c.Staged, c.Hex = 0, dp.Hex
			}
		}
		r.emit("deploy", "V.6", dp.Hex, r.side, "%s deploys at %s", u.ID, dp.Hex)
	}
}

// landUnit reports a side's land unit (not carried) in h.
func (s *State) landUnit(side string, h Hex) bool {
	for _, u := range s.UnitsAt(h) {
		if u.Side == side && u.In == "" && s.Card(u).Land() {
			return true
		}
	}
	return false
}

func (s *State) dropModifier(name, side string) {
	out := s.Modifiers[:0]
	for _, m := range s.Modifiers {
		if !(m.Name == name && m.Side == side) {
			out = append(out, m)
		}
	}
	s.Modifiers = out
}

// CanDeployAt checks Table V.1: land units at a controlled port, aircraft
// at a controlled airfield. Works and command posts are never deployed:
// they are set up where they were staged (§IV.1.3, §VI.5.3).
func (s *State) CanDeployAt(u *Unit, h Hex) bool {
	c := s.Card(u)
	if builtInPlace(c) {
		return false
	}
	if c.Kind == "ship" {
		return s.shipDeployable(u, h)
	}
	if s.Control[h] != u.Side {
		return false
	}
	if c.Kind == "aircraft" {
		return s.airfieldAt(h) != nil
	}
	return s.Map.Port(h) && s.Ports[h] != portDestroyed && !s.modifier("high-seas", u.Side)
}

// builtInPlace reports a card staged at the hex where it will stand:
// command posts, obstacles and engineers' works.
func builtInPlace(c *Card) bool {
	return c.Kind == "structure" || c.Kind == "obstacle"
}

func (s *State) airfieldAt(h Hex) *Unit {
	for _, u := range s.Units {
		if u.OnMap() && u.Hex == h && s.Card(u).Structure == "airfield" {
			return u
		}
	}
	return nil
}

// endTurn updates control, checks victory and the turn limit, and lets
// events in force run down (§VII, §II.2).
func (r *resolver) endTurn(o Orders) {
	r.phase = "end"
	s := r.s
	if o.Standing != nil {
		s.Player(r.side).Standing = o.Standing.clone()
	}
	r.surrender()
	s.updateControl(r)
	r.objectives()
	for _, v := range s.Victory {
		if v.Side != r.side {
			continue
		}
		ok := true
		for _, h := range v.Hold {
			ok = ok && s.Holds(v.Side, h)
		}
		if ok {
			s.Over, s.Winner = true, v.Side
			s.Result = fmt.Sprintf("%s wins: holds %s at the end of its turn %d", v.Side, hexList(v.Hold), r.own)
			r.emit("victory", "II.2", Hex{}, "", "%s", s.Result)
			return
		}
	}
	var kept []Modifier
	for _, m := range s.Modifiers {
		if m.Owner == r.side {
			m.Left--
		}
		if m.Left > 0 || m.Left < 0 {
			kept = append(kept, m)
		} else {
			r.emit("event", "III.6.5", Hex{}, "", "%s ends", m.Name)
		}
	}
	s.Modifiers = kept
	if r.side == s.Sides[1] && s.Turns > 0 && s.Turn >= s.Turns {
		s.Over = true
		switch s.Limit {
		case "SCORE", "DRAW":
			a, b := s.Players[0], s.Players[1]
			switch {
			case s.Limit == "DRAW" || a.Score == b.Score:
				s.Result = fmt.Sprintf("draw: turn limit %d reached (score %s %d, %s %d)", s.Turns, a.Side, a.Score, b.Side, b.Score)
			case a.Score > b.Score:
				s.Winner = a.Side
			default:
				s.Winner = b.Side
			}
			if s.Winner != "" {
				s.Result = fmt.Sprintf("%s wins on score at the turn limit %d (%s %d, %s %d)", s.Winner, s.Turns, a.Side, a.Score, b.Side, b.Score)
			}
		default:
			s.Winner = s.Limit
			s.Result = fmt.Sprintf("%s wins: turn limit %d reached", s.Limit, s.Turns)
		}
		r.emit("victory", "II.2", Hex{}, "", "%s", s.Result)
	}
}

func hexList(hs []Hex) string {
	var out []string
	for _, h := range hs {
		out = append(out, h.String())
	}
	return strings.Join(out, " ")
}

// Holds: a city, port or airfield under the side's control, or any other
// hex with its land units and no enemy land units (reading 22). "Hidden
// Units may not hold objectives or cities" (Glossary Hidden), as in
// updateControl.
func (s *State) Holds(side string, h Hex) bool {
	if _, ok := s.Control[h]; ok || s.Map.City(h) {
		return s.Control[h] == side
	}
	own, enemy := false, false
	for _, u := range s.UnitsAt(h) {
		if !s.Card(u).Land() || u.In != "" || u.Hidden {
			continue
		}
		if u.Side == side {
			own = true
		} else {
			enemy = true
		}
	}
	return own && !enemy
}

// updateControl applies §VII.1-3 and reading 22: a Key City needs two land
// units with one infantry, a ruined city or port one infantry, an airfield
// any land unit; with none of the enemy's there. Otherwise the old
// controller keeps it.
func (s *State) updateControl(r *resolver) {
	var places []Hex
	for h := range s.Control {
		places = append(places, h)
	}
	for row := 1; row <= s.Map.Height; row++ {
		for col := 1; col <= s.Map.Width; col++ {
			h := Hex{Col: col, Row: row}
			if _, ok := s.Control[h]; !ok && (s.Map.City(h) || s.airfieldAt(h) != nil) {
				places = append(places, h)
			}
		}
	}
	sort.Slice(places, func(i, j int) bool {
		if places[i].Col != places[j].Col {
			return places[i].Col < places[j].Col
		}
		return places[i].Row < places[j].Row
	})
	for _, h := range places {
		for _, side := range s.Sides {
			land, inf, enemy := 0, 0, false
			for _, u := range s.UnitsAt(h) {
				c := s.Card(u)
				if !c.Land() || u.In != "" || u.Hidden {
					continue
				}
				if u.Side != side {
					enemy = true
					continue
				}
				land++
				if c.Kind == "infantry" {
					inf++
				}
			}
			need := land >= 1
			switch s.Map.Terrain(h) {
			case KeyCity:
				need = land >= s.lib.Rules.KeyCityUnits && inf >= 1
			case RuinedCity, PortCity:
				need = inf >= 1
			}
			if need && !enemy && s.Control[h] != side {
				old := s.Control[h]
				s.Control[h] = side
				points := 0
				switch s.Map.Terrain(h) {
				case KeyCity:
					points = s.lib.Rules.ScoreKeyCity
				case RuinedCity, PortCity:
					points = s.lib.Rules.ScoreRuinedCity
				}
				s.Player(side).Score += points
				if r != nil {
					r.cityScored[side+" "+h.String()] = points
					name := s.Map.Names[h]
					if name == "" {
						name = h.String()
					}
					r.emit("control", "VII.1", h, "", "%s takes %s from %s", side, name, orNone(old))
					r.cityMomentum(side, h)
				}
			}
		}
	}
}

// objectives scores each side's objectives it holds for the first time
// (Table II.1: primary 100, secondary 75). "Points are not cumulative. I.e.
// if a Key City is also an Objective, the highest score value prevails":
// a city taken this turn as an objective scores the objective's points
// instead of the city's.
func (r *resolver) objectives() {
	s := r.s
	for i := range s.Objectives {
		o := &s.Objectives[i]
		if o.Achieved || !s.Holds(o.Side, o.Hex) {
			continue
		}
		o.Achieved = true
		kind, points := "secondary", r.r.ScoreSecondaryObjective
		if o.Primary {
			kind, points = "primary", r.r.ScorePrimaryObjective
		}
		city := r.cityScored[o.Side+" "+o.Hex.String()]
		s.Player(o.Side).Score += max(points, city) - city
		r.emit("objective", "Table II.1", o.Hex, "", "%s achieves its %s objective %s: %d points", o.Side, kind, o.Hex, max(points, city))
	}
}

func orNone(s string) string {
	if s == "" {
		return "nobody"
	}
	return s
}
