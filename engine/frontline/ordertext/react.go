package ordertext

// The REACT section: a side's standing orders for the enemy's turn,
// and the conditions they and engagements are given.

import (
	"strconv"
	"strings"

	"fieldpost/engine/frontline/rules"
)

func (p *parser) standing() *rules.Standing {
	if p.o.Standing == nil {
		p.o.Standing = &rules.Standing{}
	}
	return p.o.Standing
}

// standingWords open the lines of the REACT section (design 3.4).
var standingWords = []string{"RETALIATE", "TARGETS", "AP", "DEFENSIVE-COMBAT", "WITHDRAW", "INSPIRE", "INTERDICT",
	"SUPPORT", "COVER", "CEASEFIRE", "SURRENDER", "ACCEPT-CEASEFIRE", "ACCEPT-SURRENDER", "SCRAMBLE", "SMOKE",
	"ENGINEERS-FIGHT", "IDLE-FIGHT", "CAPTURED"}

// condition reads LOST n, ODDS<r, ODDS>r, ROUND>=n, ENEMY-HAS x,
// ENEMY-COST>n, ALWAYS; it returns how many words it used.
func (p *parser) condition(f []string) (*rules.Condition, int) {
	if len(f) == 0 {
		p.bad("IV.3", "a condition is missing (LOST n, ODDS<r, ODDS>r, ROUND>=n, ENEMY-HAS x, ENEMY-COST>n, ALWAYS)")
		return nil, 0
	}
	w := f[0]
	for _, pre := range []string{"ODDS<", "ODDS>", "ROUND>=", "ENEMY-COST>"} {
		if strings.HasPrefix(w, pre) {
			c := &rules.Condition{Kind: pre}
			v, err := strconv.ParseFloat(w[len(pre):], 64)
			if err != nil {
				p.bad("IV.3", "condition %q: want a number after %s", w, pre)
				return nil, 0
			}
			c.R, c.N = v, int(v)
			return c, 1
		}
	}
	switch w {
	case "ALWAYS":
		return &rules.Condition{Kind: "ALWAYS"}, 1
	case "LOST":
		if len(f) < 2 {
			p.bad("IV.3", "LOST n")
			return nil, 0
		}
		n, ok := p.num(f[1])
		if !ok {
			return nil, 0
		}
		return &rules.Condition{Kind: "LOST", N: n}, 2
	case "ENEMY-HAS":
		if len(f) < 2 || (f[1] != "TANK" && f[1] != "GUN" && f[1] != "AIRCRAFT") {
			p.bad("IV.3", "ENEMY-HAS tank|gun|aircraft")
			return nil, 0
		}
		return &rules.Condition{Kind: "ENEMY-HAS", What: strings.ToLower(f[1])}, 2
	}
	p.bad("IV.3", "condition %q unknown (LOST n, ODDS<r, ODDS>r, ROUND>=n, ENEMY-HAS x, ENEMY-COST>n, ALWAYS)", w)
	return nil, 0
}

func (p *parser) react(f []string) {
	st := p.standing()
	switch f[0] {
	case "RETALIATE":
		switch {
		case len(f) == 2 && (f[1] == "ALL" || f[1] == "NONE"):
			st.Retaliate = strings.ToLower(f[1])
		case len(f) >= 2:
			st.Retaliate, st.RetaliateUnits = "list", f[1:]
		default:
			p.bad("V.5.5", "RETALIATE all|none|units")
		}
	case "TARGETS":
		if len(f) != 2 || !strings.Contains("BEST-ODDS ARMOUR-FIRST INFANTRY-FIRST DAMAGED-FIRST", f[1]) {
			p.bad("V.5.3", "TARGETS best-odds|armour-first|infantry-first|damaged-first")
			return
		}
		st.Targets = strings.ToLower(f[1])
	case "AP":
		if len(f) != 2 || (f[1] != "AUTO" && f[1] != "NEVER") {
			p.bad("VI.7.3", "AP auto|never")
			return
		}
		st.AP = strings.ToLower(f[1])
	case "DEFENSIVE-COMBAT":
		if len(f) != 2 || (f[1] != "YES" && f[1] != "NO") {
			p.bad("VI.2.1", "DEFENSIVE-COMBAT yes|no")
			return
		}
		st.DefensiveCombat = f[1] == "YES"
	case "ACCEPT-CEASEFIRE":
		if len(f) != 2 || (f[1] != "NEVER" && f[1] != "IF-LOSING" && f[1] != "ALWAYS") {
			p.bad("IV.3.1", "ACCEPT-CEASEFIRE never|if-losing|always")
			return
		}
		st.AcceptCeasefire = strings.ToLower(f[1])
	case "ACCEPT-SURRENDER":
		if len(f) != 2 || (f[1] != "YES" && f[1] != "NO") {
			p.bad("IV.3.2", "ACCEPT-SURRENDER yes|no")
			return
		}
		st.AcceptSurrender = strings.ToLower(f[1])
	case "CAPTURED":
		p.captured(st, f)
	case "SCRAMBLE":
		if len(f) < 2 {
			p.bad("VI.7.1", "SCRAMBLE aircraft...")
			return
		}
		st.Scramble = append(st.Scramble, f[1:]...)
	case "SUPPORT":
		// SUPPORT hex|any WITH fo guns [DESTROY|PIN] [THEN FFE]
		if len(f) < 5 || f[2] != "WITH" {
			p.bad("VI.7.6", "SUPPORT hex|any WITH fo guns [DESTROY|PIN] [THEN FFE]")
			return
		}
		o := rules.HexOrder{Line: p.n, FO: f[3], Mission: "DESTROY"}
		if f[1] != "ANY" {
			h, ok := p.hex(f[1])
			if !ok {
				return
			}
			o.Hex = h
		}
		for k := 4; k < len(f); k++ {
			switch {
			case f[k] == "DESTROY" || f[k] == "PIN":
				o.Mission = f[k]
			case f[k] == "THEN" && k+1 < len(f) && f[k+1] == "FFE":
				o.FFE = true
				k++
			default:
				o.Guns = append(o.Guns, f[k])
			}
		}
		st.Support = append(st.Support, o)
	case "COVER":
		if len(f) < 5 || f[2] != "WITH" {
			p.bad("VI.7.6.2", "COVER hex WITH fo guns")
			return
		}
		if h, ok := p.hex(f[1]); ok {
			st.Cover = append(st.Cover, rules.HexOrder{Line: p.n, Hex: h, FO: f[3], Guns: f[4:]})
		}
	case "WITHDRAW", "INSPIRE", "INTERDICT", "CEASEFIRE", "SURRENDER":
		if len(f) < 2 {
			p.bad("IV.3", "%s hex|any ...", f[0])
			return
		}
		o := rules.HexOrder{Line: p.n}
		if f[1] != "ANY" {
			h, ok := p.hex(f[1])
			if !ok {
				return
			}
			o.Hex = h
		}
		rest := f[2:]
		switch f[0] {
		case "CEASEFIRE", "SURRENDER":
			if len(rest) < 2 || rest[0] != "IF" {
				p.bad("IV.3", "%s hex|any IF condition", f[0])
				return
			}
			c, used := p.condition(rest[1:])
			if c == nil {
				return
			}
			if len(rest) > 1+used {
				p.bad("IV.3", "%s hex|any IF condition", f[0])
				return
			}
			o.If = c
			if f[0] == "CEASEFIRE" {
				st.CeaseFire = append(st.CeaseFire, o)
			} else {
				st.Surrender = append(st.Surrender, o)
			}
		case "WITHDRAW":
			if len(rest) < 2 || rest[0] != "IF" {
				p.bad("IV.3.8", "WITHDRAW hex|any IF condition [TO hex]")
				return
			}
			c, used := p.condition(rest[1:])
			if c == nil {
				return
			}
			o.If = c
			rest = rest[1+used:]
			if len(rest) == 2 && rest[0] == "TO" {
				if h, ok := p.hex(rest[1]); ok {
					o.To = h
				}
			} else if len(rest) > 0 {
				p.bad("IV.3.8", "WITHDRAW hex|any IF condition [TO hex]")
				return
			}
			st.Withdraw = append(st.Withdraw, o)
		case "INSPIRE":
			st.Inspire = append(st.Inspire, o)
		case "INTERDICT":
			if len(rest) < 3 || rest[0] != "WITH" {
				p.bad("VI.7.6.2", "INTERDICT hex|any WITH fo guns")
				return
			}
			o.FO, o.Guns = rest[1], rest[2:]
			st.Interdict = append(st.Interdict, o)
		}
	case "ENGINEERS-FIGHT", "IDLE-FIGHT":
		if len(f) != 2 || (f[1] != "YES" && f[1] != "NO") {
			p.bad("Inset VI.2", "%s yes|no", f[0])
			return
		}
		if f[0] == "ENGINEERS-FIGHT" {
			st.EngineersFight = f[1] == "YES"
		} else {
			st.IdleFight = f[1] == "YES"
		}
	case "SMOKE":
		// SMOKE hex|any IF condition (Glossary Smoke)
		if len(f) < 4 || f[2] != "IF" {
			p.bad("Glossary Smoke", "SMOKE hex|any IF condition")
			return
		}
		o := rules.HexOrder{Line: p.n}
		if f[1] != "ANY" {
			h, ok := p.hex(f[1])
			if !ok {
				return
			}
			o.Hex = h
		}
		c, used := p.condition(f[3:])
		if c == nil {
			return
		}
		if len(f) > 3+used {
			p.bad("Glossary Smoke", "SMOKE hex|any IF condition")
			return
		}
		o.If = c
		st.Smoke = append(st.Smoke, o)
	default:
		p.bad("design 3.4", "%q is not a standing order (%s)", f[0], strings.Join(standingWords, " "))
	}
}
