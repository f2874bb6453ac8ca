package ordertext

// The side's own lines: PRIORITY, the standing choices, ARTILLERY, AIR
// and the night's orders.

import (
	"strings"

	kernel "fieldpost/engine/ordertext"
	"fieldpost/engine/stargeneral/rules"
)

func (p *parser) priority(l kernel.Line, args []string) {
	if len(p.sub.Orders.Priority) > 0 {
		p.errorf(l, rules.SecSequence, "", "a second PRIORITY line")
		return
	}
	seen := map[string]bool{}
	for _, a := range args {
		u := p.findUnit(a)
		if u == nil || u.Side != p.side {
			p.errorf(l, rules.SecSequence, p.unitHint(a), "%q is not a unit of %s", a, p.side)
			return
		}
		if seen[u.ID] {
			p.errorf(l, rules.SecSequence, "", "%s is listed twice", u.ID)
			return
		}
		seen[u.ID] = true
		p.sub.Orders.Priority = append(p.sub.Orders.Priority, u.ID)
	}
	p.otherLine["priority"] = l.N
}

// choices reads "LOSSES keep-strength PURSUE yes HOLD-AT-COST no DEFENSIVE-SUPPORT yes".
func (p *parser) choices(l kernel.Line) {
	c := &p.sub.Orders.Choices
	toks := l.Words
	for i := 0; i < len(toks); i += 2 {
		key := strings.ToUpper(toks[i])
		if i+1 >= len(toks) {
			p.errorf(l, rules.SecNone, "", "%s needs a value", toks[i])
			return
		}
		val := strings.ToLower(toks[i+1])
		if p.choiceSeen[key] {
			p.errorf(l, rules.SecNone, "", "%s is given twice", toks[i])
			return
		}
		p.choiceSeen[key] = true
		yes, isBool := map[string]bool{"yes": true, "y": true, "on": true, "true": true, "no": false, "n": false, "off": false, "false": false}[val]
		switch key {
		case "LOSSES":
			switch val {
			case "keep-strength", "strength", "keep":
				c.Losses = rules.LossesKeepStrength
			case "platoons-first", "platoons", "support-first":
				c.Losses = rules.LossesPlatoonsFirst
			default:
				p.errorf(l, rules.SecLosses, "", "LOSSES %q: choose keep-strength or platoons-first", toks[i+1])
				return
			}
		case "PURSUE", "PURSUIT", "HOLD-AT-COST", "DEFENSIVE-SUPPORT":
			if !isBool {
				p.errorf(l, rules.SecNone, "", "%s %q: answer yes or no", toks[i], toks[i+1])
				return
			}
			switch key {
			case "PURSUE", "PURSUIT":
				c.NoPursuit = !yes
			case "HOLD-AT-COST":
				c.NoHoldAtCost = !yes
			default:
				c.NoDefensiveSupport = !yes
			}
		default:
			p.errorf(l, rules.SecNone, "the standing choices are LOSSES, PURSUE, HOLD-AT-COST and DEFENSIVE-SUPPORT", "%q is not a standing choice", toks[i])
			return
		}
	}
}

// artillery reads "ARTILLERY 2/26 FIRE 0808 KEEP 1  3/26 MOVE 0304 0305".
func (p *parser) artillery(l kernel.Line, args []string) {
	var cur *rules.BatteryOrders
	for i := 0; i < len(args); i++ {
		w := strings.ToUpper(args[i])
		switch w {
		case "FIRE", "MOVE", "KEEP", "HOLD":
			if cur == nil {
				p.errorf(l, rules.SecArtillery, p.batteryHint(args[i]), "%s before a battery id", args[i])
				return
			}
		}
		switch w {
		case "FIRE":
			if i+1 >= len(args) {
				p.errorf(l, rules.SecArtilleryPhase, "", "FIRE needs a target hex")
				return
			}
			hs, ok := p.hexes(l, args[i+1:i+2])
			if !ok {
				return
			}
			cur.Fire = hs[0]
			i++
		case "MOVE":
			j := i + 1
			for j < len(args) && isHexWord(args[j]) {
				j++
			}
			hs, ok := p.hexes(l, args[i+1:j])
			if !ok {
				return
			}
			if len(hs) == 0 {
				p.errorf(l, rules.SecArtilleryPhase, "", "MOVE needs the hexes of the battery's path")
				return
			}
			bt := p.st.Battery(cur.Battery)
			if hs[0] == bt.Hex {
				hs = hs[1:]
			}
			if len(hs) == 0 {
				// Its own hex alone is no move: HOLD says that.
				p.errorf(l, rules.SecArtilleryPhase, "", "MOVE %s: battery %s is at %s already; write the hexes it moves into, or HOLD", bt.Hex, bt.ID, bt.Hex)
				return
			}
			cur.Move = hs
			i = j - 1
		case "KEEP":
			if i+1 >= len(args) {
				p.errorf(l, rules.SecArtillery, "", "KEEP needs a number of shots")
				return
			}
			n, isNumber, err := kernel.Number(args[i+1])
			if err != nil {
				p.errorf(l, rules.SecArtillery, "", "KEEP %v", err)
				return
			}
			if !isNumber || n < 0 {
				p.errorf(l, rules.SecArtillery, "", "KEEP %q: want a number of shots", args[i+1])
				return
			}
			cur.Keep = n
			i++
		case "HOLD":
		default:
			bt := p.findBattery(args[i])
			if bt == nil {
				p.errorf(l, rules.SecArtillery, p.batteryHint(args[i]), "%q is not a battery of %s", args[i], p.side)
				return
			}
			if p.battSeen[bt.ID] {
				p.errorf(l, rules.SecArtillery, "", "battery %s has orders already", bt.ID)
				return
			}
			p.battSeen[bt.ID] = true
			p.sub.Orders.Batteries = append(p.sub.Orders.Batteries, rules.BatteryOrders{Battery: bt.ID})
			cur = &p.sub.Orders.Batteries[len(p.sub.Orders.Batteries)-1]
			p.batLine[bt.ID] = l.N
		}
	}
	if cur == nil {
		p.errorf(l, rules.SecArtillery, p.batteryHint(""), "ARTILLERY needs a battery id and FIRE hex, MOVE hexes, KEEP n or HOLD")
	}
}

func isHexWord(s string) bool {
	_, err := rules.ParseHex(s)
	return err == nil
}

func (p *parser) airStrikes(l kernel.Line, args []string) {
	hs, ok := p.hexes(l, args)
	if !ok {
		return
	}
	if len(hs) == 0 {
		p.errorf(l, rules.SecAir, "", "AIR needs target hexes for the artillery phase (air support for an attack goes on its ATTACK line)")
		return
	}
	p.sub.Orders.AirStrikes = append(p.sub.Orders.AirStrikes, hs...)
	p.otherLine["air"] = l.N
}

// night reads the night round's orders:
//
//	RECOVER I/77 1A 2            strength points to a stand (9.1)
//	PLATOON I/77 mg TO 1A        a lost platoon back to a stand of its unit
//	PLATOON II/77 mg FROM I/77 TO 1A  one another unit lost (3SG 8)
//	REBUILD I/77 1C AT 0505 SP 2 a lost stand back, next to its unit
//	RESHUFFLE I/77 1A TO 0506    a stand to another hex its unit holds (9.2)
func (p *parser) night(l kernel.Line, kw string, args []string) {
	n := p.sub.Orders.Night
	if n == nil {
		n = &rules.NightOrders{}
		p.sub.Orders.Night = n
	}
	fillers := []string{"TO", "AT", "SP"}
	if kw == "PLATOON" {
		fillers = []string{"TO"} // a platoon may be named "at" (anti-tank)
	}
	args = dropWords(args, fillers...)
	if len(args) == 0 {
		p.errorf(l, rules.SecNight, "", "%s needs a unit", kw)
		return
	}
	u := p.findUnit(args[0])
	if u == nil || u.Side != p.side {
		p.errorf(l, rules.SecNight, p.unitHint(args[0]), "%q is not a unit of %s", args[0], p.side)
		return
	}
	bad := func(form string) { p.errorf(l, rules.SecNight, "", "write %s", form) }
	num := func(s string) (int, bool) {
		v, isNumber, err := kernel.Number(s)
		if err != nil {
			p.errorf(l, rules.SecNight, "", "%v", err)
		}
		return v, isNumber && err == nil && v > 0
	}
	p.otherLine["night "+u.ID] = l.N
	switch kw {
	case "RECOVER":
		if len(args) != 3 {
			bad("RECOVER UNIT STAND SP, e.g. RECOVER I/77 1A 2")
			return
		}
		sp, ok := num(args[2])
		s := findStand(u, args[1])
		if s == nil || !ok {
			bad("RECOVER UNIT STAND SP with a stand of the unit and a number of points")
			return
		}
		n.Strength = append(n.Strength, rules.Recovery{Unit: u.ID, Stand: s.Name, SP: sp})
	case "PLATOON":
		from := ""
		if len(args) == 5 && strings.EqualFold(args[2], "FROM") {
			lost := p.findUnit(args[3])
			if lost == nil || lost.Side != p.side {
				p.errorf(l, rules.SecNight, p.unitHint(args[3]), "%q is not a unit of %s", args[3], p.side)
				return
			}
			from, args = lost.ID, []string{args[0], args[1], args[4]}
		}
		if len(args) != 3 {
			bad("PLATOON UNIT PLATOON TO STAND, e.g. PLATOON I/77 mg TO 1A, or PLATOON UNIT PLATOON FROM UNIT TO STAND for a platoon another unit lost")
			return
		}
		s := findStand(u, args[2])
		if s == nil {
			p.errorf(l, rules.SecNight, "", "%s has no stand %q", u.ID, args[2])
			return
		}
		n.Platoons = append(n.Platoons, rules.PlatoonRecovery{Unit: u.ID, Platoon: args[1], To: s.Name, From: from})
	case "REBUILD":
		if len(args) != 4 {
			bad("REBUILD UNIT STAND AT HEX SP N, e.g. REBUILD I/77 1C AT 0505 SP 2")
			return
		}
		hs, ok := p.hexes(l, args[2:3])
		if !ok {
			return
		}
		sp, ok := num(args[3])
		if !ok {
			bad("REBUILD UNIT STAND AT HEX SP N with a number of points")
			return
		}
		n.Rebuild = append(n.Rebuild, rules.Rebuild{Unit: u.ID, Stand: args[1], Hex: hs[0], SP: sp})
	case "RESHUFFLE":
		if len(args) != 3 {
			bad("RESHUFFLE UNIT STAND TO HEX, e.g. RESHUFFLE I/77 1A TO 0506")
			return
		}
		s := findStand(u, args[1])
		hs, ok := p.hexes(l, args[2:3])
		if s == nil || !ok {
			bad("RESHUFFLE UNIT STAND TO HEX with a stand of the unit")
			return
		}
		n.Reshuffle = append(n.Reshuffle, rules.NightMove{Unit: u.ID, Stand: s.Name, To: hs[0]})
	}
}

func dropWords(args []string, words ...string) []string {
	var out []string
next:
	for _, a := range args {
		for _, w := range words {
			if strings.EqualFold(a, w) {
				continue next
			}
		}
		out = append(out, a)
	}
	return out
}
