package rules

import "strings"

func (v *validator) buys() {
	s, o := v.s, v.o
	if len(o.Buys) == 0 {
		return
	}
	p := s.Player(o.Side)
	if !s.ProductionTurn(o.Side) {
		v.add(o.Buys[0].Line, "V.2", "purchases only in the Production Phase of your turns 1, 6, 11... (this is your turn %d)", p.OwnTurn)
		return
	}
	total := 0
	crews := map[string]int{}
	need := map[string]int{}
	for _, b := range o.Buys {
		c := s.lib.Cards[b.Code]
		if c == nil {
			v.add(b.Line, "III.1", "no unit card %q (cards: %s)", b.Code, strings.Join(s.lib.Codes, " "))
			continue
		}
		if c.Country != o.Side && c.Country != "both" && c.Country != "neutral" {
			v.add(b.Line, "III.1.2", "%s is a %s unit: %s may not buy it", b.Code, c.Country, o.Side)
		}
		if isPost(c) {
			v.add(b.Line, "IV.1.3", "%s is staged where a land unit of yours stands: BUILD %s AT hex BY unit", b.Code, b.Code)
		} else if c.Kind == "structure" || c.Kind == "obstacle" {
			v.add(b.Line, "VI.5", "%s is built by engineers, not bought: BUILD %s AT hex BY engineer", b.Code, b.Code)
		}
		if b.Count < 1 {
			v.add(b.Line, "V.2", "BUY %s: count must be at least 1", b.Code)
		}
		if b.XP > 0 && (!s.Options.Experience || c.Kind != "infantry") {
			v.add(b.Line, "VIII.2", "experience rolls are bought for crews and squads, with the experience option on")
		}
		if b.XP > s.lib.Rules.ExperienceRollsMax {
			v.add(b.Line, "VIII.2", "at most %d experience rolls per unit", s.lib.Rules.ExperienceRollsMax)
		}
		total += b.Count * (c.Cost + b.XP*s.lib.Rules.ExperienceRollCost)
		if c.Crew != "" {
			crews[c.Crew] += b.Count
		}
		if c.Requires != "" {
			need[c.Requires] += b.Count
		}
	}
	for ability, n := range need {
		if crews[ability] < n {
			v.add(o.Buys[0].Line, "III.2.2", "%d unit(s) need a %s crew but only %d such crew(s) are bought with them", n, ability, crews[ability])
		}
	}
	if total > p.Treasury {
		v.add(o.Buys[0].Line, "V.2", "purchases cost %d, treasury is %d", total, p.Treasury)
	}
}

// builds checks constructions (§VI.5.3, Inset VI.2): in a Production
// Phase, obstacles or an airfield (plains only), one per engineer squad
// standing in the hex, paid from the treasury with the purchases.
func (v *validator) builds() {
	s, o := v.s, v.o
	if len(o.Builds) == 0 {
		return
	}
	p := s.Player(o.Side)
	if !s.ProductionTurn(o.Side) {
		v.add(o.Builds[0].Line, "VI.5.3", "construction begins only in the Production Phase of your turns 1, 6, 11... (this is your turn %d)", p.OwnTurn)
		return
	}
	total := 0
	for _, b := range o.Buys {
		if c := s.lib.Cards[b.Code]; c != nil {
			total += b.Count * (c.Cost + b.XP*s.lib.Rules.ExperienceRollCost)
		}
	}
	busy := map[string]bool{}
	for _, b := range o.Builds {
		c := s.lib.Cards[b.Code]
		switch {
		case c != nil && isPost(c):
			cost, _ := s.PostCost(o.Side, b.Code, b.Hex)
			total += cost
			v.commandPost(b)
			continue
		case c == nil || (c.Kind != "obstacle" && c.Structure != "airfield" && c.Structure != "bridge" && c.Structure != "emplacement"):
			v.add(b.Line, "VI.5.3", "BUILD %s: engineers build obstacles (MINES WIRE), airfields (AF), engineered bridges (EBR) and emplacements (PILLBOX); any land unit stages a command post (CP) or a new Forward HQ (FHQ)", b.Code)
			continue
		case c.Structure == "airfield" && s.Map.Terrain(b.Hex) != Plains:
			v.add(b.Line, "III.3.1", "BUILD AF at %s: airfields only on plains", b.Hex)
		}
		v.worksSite(b, c)
		total += c.Cost
		e := v.own(b.Line, b.By, "BUILD")
		if e == nil {
			continue
		}
		switch {
		case !s.Card(e).Engineer:
			v.add(b.Line, "VI.5.3", "%s is not a combat engineer squad", e.ID)
		case !e.OnMap() || e.In != "" || e.Hex != b.Hex:
			v.add(b.Line, "VI.5.3", "%s must stand in %s to build there", e.ID, b.Hex)
		case e.Building != "" || busy[e.ID]:
			v.add(b.Line, "VI.5.3", "%s is already building", e.ID)
		case e.Idle:
			v.add(b.Line, "V.3.2", "%s is idle for lack of supply", e.ID)
		}
		busy[e.ID] = true
	}
	if total > p.Treasury {
		v.add(o.Builds[0].Line, "VI.5.3", "purchases and constructions cost %d, treasury is %d", total, p.Treasury)
	}
	for _, m := range o.Moves {
		if busy[m.Unit] {
			v.add(m.Line, "Inset VI.2", "%s stays idle in its hex while it builds", m.Unit)
		}
	}
	for _, e := range o.Engagements {
		for _, id := range e.Units {
			if busy[id] {
				v.add(e.Line, "Inset VI.2", "%s stays idle in its hex while it builds", id)
			}
		}
	}
}

// commandPost checks BUILD CP|FHQ AT hex BY unit (§IV.1.3-1.5): a
// friendly land unit in the hex, at least 10 hexes from every other
// command post or FHQ of the side (staged ones included), at most the
// card's limit. A new Forward HQ follows "the rules for establishing a new
// Command Post" (Inset IV.4), one per side: none while the side has one,
// staged, converting or standing (§IV.1.4).
func (v *validator) commandPost(b Build) {
	s, o := v.s, v.o
	c := s.lib.Cards[b.Code]
	u := v.own(b.Line, b.By, "BUILD "+b.Code)
	if u != nil && (!u.OnMap() || u.In != "" || u.Hex != b.Hex || !s.Card(u).Land()) {
		v.add(b.Line, "IV.1.3", "%s must be a land unit standing in %s", u.ID, b.Hex)
	}
	if why := s.postSite(b.Hex); why != "" {
		v.add(b.Line, "IV.1.3", "BUILD %s AT %s: a command post cannot stand in %s (any passable, non-water, non-marsh space)", b.Code, b.Hex, why)
	}
	same := 0
	for _, x := range s.Units {
		xc := s.Card(x)
		if x.Side != o.Side || xc.Radius == 0 || xc.Kind == "ship" || x.Hex.IsZero() {
			continue
		}
		if x.Code == b.Code {
			same++
		}
		if d := Distance(x.Hex, b.Hex); d < 10 {
			v.add(b.Line, "IV.1.4", "BUILD %s at %s: %s is %d hexes away; command posts stand at least 10 from every other post and the FHQ", b.Code, b.Hex, x.ID, d)
		}
	}
	for _, other := range o.Builds {
		if other.Code == b.Code {
			same++
		}
	}
	if b.Code == "FHQ" && o.Convert != "" {
		same++
	}
	switch {
	case b.Code == "FHQ" && same > 1:
		v.add(b.Line, "IV.1.4", "BUILD FHQ: there may be only one Forward HQ per country (yours stands, is staged or converting)")
	case c.Limit > 0 && same > c.Limit:
		v.add(b.Line, "IV.1.3", "at most %d command posts", c.Limit)
	}
}

// isPost: a command post or Forward HQ card, staged by any land unit.
func isPost(c *Card) bool { return c != nil && c.Kind == "structure" && c.Radius > 0 }

func (v *validator) deploys() {
	s, o := v.s, v.o
	p := s.Player(o.Side)
	rush := map[string]bool{}
	if len(o.Rush) > 0 {
		if !s.Options.Cards || !p.holds("Rush") {
			v.add(0, "IV.3.6", "RUSH: no Rush card in your hand")
		} else if !s.hasFHQ(o.Side) || s.modifier("signals-breakdown", o.Side) {
			v.add(0, "IV.3", "RUSH: command cards need your Forward HQ (and no Signals Breakdown)")
		}
		for _, id := range o.Rush {
			u := v.own(0, id, "RUSH")
			if u == nil {
				continue
			}
			if u.Staged <= 0 || u.Staged >= p.OwnTurn {
				v.add(0, "IV.3.6", "RUSH %s: only units staged in an earlier turn", id)
			}
			rush[id] = true
		}
	}
	scheduled := s.DeploymentTurn(o.Side) || s.modifier("priority-shipping", o.Side)
	seen := map[string]bool{}
	for _, d := range o.Deploys {
		u := v.own(d.Line, d.Unit, "DEPLOY")
		if u == nil {
			continue
		}
		if seen[u.ID] {
			v.add(d.Line, "V.6", "%s deployed twice", u.ID)
		}
		seen[u.ID] = true
		switch {
		case u.Staged <= 0:
			v.add(d.Line, "V.6", "%s is not staged", u.ID)
		case u.In != "":
			v.add(d.Line, "V.6", "%s deploys inside %s", u.ID, u.In)
		case builtInPlace(s.Card(u)):
			v.add(d.Line, "IV.1.3", "%s is not deployed: it is set up where it was staged, at %s, at a Deployment Phase (§IV.1.3, §VI.5.3)", u.ID, u.Hex)
		case !scheduled && !rush[u.ID]:
			v.add(d.Line, "V.6", "deployment at the end of your turns 5, 10, 15... (this is your turn %d); or play RUSH", p.OwnTurn)
		case u.Staged >= p.OwnTurn:
			v.add(d.Line, "V.2", "%s was bought this turn: it deploys at a later Deployment Phase", u.ID)
		case d.On != "" || s.Card(u).Kind == "ship":
			v.navalDeploy(d, u)
		case !s.CanDeployAt(u, d.Hex):
			v.add(d.Line, "V.6", "%s: %s is not a port (airfield for aircraft) you control", u.ID, d.Hex)
		}
	}
	for id := range rush {
		if !seen[id] {
			v.add(0, "IV.3.6", "RUSH %s: say where with DEPLOY %s AT hex", id, id)
		}
	}
}

// convert checks CONVERT cp (§IV.1.9): an own command post on the map,
// half an FHQ's price in the treasury with the purchases.
func (v *validator) convert() {
	s, o := v.s, v.o
	if o.Convert == "" {
		return
	}
	u := v.own(0, o.Convert, "CONVERT")
	if u == nil {
		return
	}
	if u.Code != "CP" || !u.OnMap() {
		v.add(0, "IV.1.9", "CONVERT %s: only a command post on the map becomes the new FHQ", u.ID)
	}
	cost := (s.lib.Cards["FHQ"].Cost*s.lib.Rules.ConvertCostPercent + 99) / 100
	spent := 0
	for _, b := range o.Buys {
		if c := s.lib.Cards[b.Code]; c != nil {
			spent += b.Count * (c.Cost + b.XP*s.lib.Rules.ExperienceRollCost)
		}
	}
	for _, b := range o.Builds {
		if c := s.lib.Cards[b.Code]; c != nil {
			cost := c.Cost
			if c.Code == "CP" {
				cost, _ = s.CommandPostCost(o.Side, b.Hex)
			}
			spent += cost
		}
	}
	if p := s.Player(o.Side); spent+cost > p.Treasury {
		v.add(0, "IV.1.9", "CONVERT costs %d with %d of purchases; treasury is %d", cost, spent, p.Treasury)
	}
}
