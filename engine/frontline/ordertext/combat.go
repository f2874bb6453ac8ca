package ordertext

// The COMBAT section: engagements, the shots of their units and the
// artillery missions.

import (
	"strings"

	"fieldpost/engine/frontline/rules"
)

func (p *parser) combat(f []string) {
	switch {
	case f[0] == "ENGAGE":
		if len(f) < 4 || f[2] != "WITH" {
			p.bad("V.5", "want: ENGAGE hex WITH units [SUSPEND IF cond] [WITHDRAW IF cond] [CEASEFIRE IF cond] [SURRENDER IF cond] [INSPIRE]")
			return
		}
		h, ok := p.hex(f[1])
		if !ok {
			return
		}
		e := rules.Engagement{Line: p.n, Hex: h, Targets: map[string]string{}}
		k := 3
		conditional := map[string]bool{"SUSPEND": true, "WITHDRAW": true, "CEASEFIRE": true, "SURRENDER": true}
		for ; k < len(f) && !conditional[f[k]] && f[k] != "INSPIRE" && f[k] != "EXIT"; k++ {
			e.Units = append(e.Units, f[k])
		}
		for k < len(f) {
			switch f[k] {
			case "INSPIRE":
				e.Inspire = true
				k++
			case "EXIT":
				if k+1 >= len(f) {
					p.bad("VI.2.3", "EXIT takes an even number of rounds")
					return
				}
				n, ok := p.num(f[k+1])
				if !ok {
					return
				}
				e.Exit = n
				k += 2
			case "SUSPEND", "WITHDRAW", "CEASEFIRE", "SURRENDER":
				word := f[k]
				if k+1 >= len(f) || f[k+1] != "IF" {
					p.bad("IV.3", "%s IF condition", word)
					return
				}
				c, used := p.condition(f[k+2:])
				if c == nil {
					return
				}
				switch word {
				case "SUSPEND":
					e.Suspend = c
				case "WITHDRAW":
					e.Withdraw = c
				case "CEASEFIRE":
					e.CeaseFire = c
				default:
					e.Surrender = c
				}
				k += 2 + used
			default:
				p.bad("V.5", "%q unexpected after the units", f[k])
				return
			}
		}
		p.o.Engagements = append(p.o.Engagements, e)
		p.eng = &p.o.Engagements[len(p.o.Engagements)-1]
	case p.eng == nil:
		p.bad("V.5", "%q: ENGAGE first", f[0])
	case f[0] == "MISSION":
		// MISSION fo [PIN] WITH guns [THEN FFE]
		m := &rules.Mission{}
		if len(f) > 2 && (f[2] == "PIN" || f[2] == "BLIND") {
			m.Pin, m.Blind = f[2] == "PIN", f[2] == "BLIND"
			f = append(f[:2], f[3:]...)
		}
		if len(f) < 4 || f[2] != "WITH" {
			p.bad("VI.7.6", "want: MISSION fo [PIN|BLIND] WITH guns [THEN FFE]")
			return
		}
		m.FO = f[1]
		for k := 3; k < len(f); k++ {
			if f[k] == "THEN" && k+1 < len(f) && f[k+1] == "FFE" {
				m.FFE = true
				break
			}
			m.Guns = append(m.Guns, f[k])
		}
		p.eng.Mission = m
	case len(f) >= 2 && f[1] == "UNLOAD":
		// carrier UNLOAD unit: disembark in combat (§VI.3.3-3.4)
		if len(f) != 3 {
			p.bad("VI.3.3", "want: carrier UNLOAD unit")
			return
		}
		p.eng.Dismount = append(p.eng.Dismount, rules.DismountOrder{Line: p.n, Carrier: f[0], Unit: f[2]})
	case len(f) >= 2 && f[1] == "SMOKE":
		// unit SMOKE [IF condition] (Glossary Smoke)
		so := rules.SmokeOrder{Line: p.n, Unit: f[0]}
		if len(f) > 2 {
			if f[2] != "IF" {
				p.bad("Glossary Smoke", "want: unit SMOKE [IF condition]")
				return
			}
			c, used := p.condition(f[3:])
			if c == nil {
				return
			}
			if len(f) > 3+used {
				p.bad("Glossary Smoke", "want: unit SMOKE [IF condition]")
				return
			}
			so.If = c
		}
		p.eng.Smoke = append(p.eng.Smoke, so)
	case len(f) >= 3 && f[1] == "AT":
		if !strings.Contains(f[2], ":") {
			p.bad("V.5.2", "target %q: enemy units carry their side, like GE:RS-1 (a bridge: BRIDGE:CCRR-CCRR)", f[2])
			return
		}
		p.eng.Targets[f[0]] = f[2]
		if p.eng.TargetLines == nil {
			p.eng.TargetLines = map[string]int{}
		}
		p.eng.TargetLines[f[0]] = p.n
		if len(f) == 4 && f[3] == "HE" {
			p.eng.HE = append(p.eng.HE, f[0])
		} else if len(f) == 4 && f[3] != "AP" || len(f) > 4 {
			p.bad("VI.7.3", "want: unit AT target [AP|HE]")
		}
	default:
		p.bad("V.5", "%q: want unit AT target, MISSION, or a new ENGAGE", strings.Join(f, " "))
	}
}
