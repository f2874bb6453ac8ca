package ordertext

// Attack lines and their support: artillery, platoons and batteries.

import (
	"slices"
	"strings"

	kernel "fieldpost/engine/ordertext"
	"fieldpost/engine/stargeneral/rules"
)

// attack reads
//
//	ATTACK 0707 WITH 1A 1B [CLOSE|FIRE] [SUPPORT mortar ART 2/26 AIR [n]]
//	ATTACK 0707 WITH 1A CLOSE 1B FIRE ...
//	ASSAULT 0707 WITH 1A      (close combat)
//	FIRE 0909 WITH 2C         (distant fire)
//
// A stand with no mode fights in close combat when its end hex is adjacent to
// the target and by distant fire otherwise.
func (p *parser) attack(l kernel.Line, verb string, args []string) {
	if len(args) > 0 && strings.EqualFold(args[0], "AT") {
		args = args[1:]
	}
	if len(args) == 0 {
		p.errorf(l, rules.SecInitiating, "e.g. ATTACK 0707 WITH 1A 1B", "%s needs a target hex", verb)
		return
	}
	target, ok := p.hexes(l, args[:1])
	if !ok {
		return
	}
	a := &rules.Attack{Target: target[0]}
	args = args[1:]
	if len(args) > 0 && strings.EqualFold(args[0], "WITH") {
		args = args[1:]
	}
	defaultMode := ""
	switch verb {
	case "ASSAULT":
		defaultMode = "close"
	case "FIRE":
		defaultMode = "fire"
	}
	var modes []string
	i := 0
	for ; i < len(args); i++ {
		w := strings.ToUpper(args[i])
		if w == "SUPPORT" || w == "SUPPORTED" || w == "WITH" {
			break
		}
		if m := modeWord(w); m != "" {
			if len(a.Stands) == 0 {
				p.errorf(l, rules.SecInitiating, "", "%s before any stand: name the attacking stands first", args[i])
				return
			}
			// A mode applies to the stands named since the last mode word.
			for j := len(modes) - 1; j >= 0 && modes[j] == ""; j-- {
				modes[j] = m
			}
			continue
		}
		s := findStand(p.unit, args[i])
		if s == nil {
			p.errorf(l, rules.SecInitiating, p.standHint(args[i]), "%s has no stand %q", p.unit.ID, args[i])
			return
		}
		a.Stands = append(a.Stands, rules.AttackStand{Stand: s.Name})
		modes = append(modes, "")
	}
	if len(a.Stands) == 0 {
		p.errorf(l, rules.SecInitiating, "e.g. ATTACK 0707 WITH 1A 1B", "name the stands that attack")
		return
	}
	for j := range a.Stands {
		m := modes[j]
		if m == "" {
			m = defaultMode
		}
		if m == "" {
			m = "fire"
			if rules.Adjacent(p.endHex(a.Stands[j].Stand), a.Target) {
				m = "close"
			}
		}
		a.Stands[j].Close = m == "close"
	}
	if i < len(args) {
		if !p.support(l, a, args[i+1:]) {
			return
		}
	}
	if p.uo.Attack != nil {
		p.errorf(l, rules.SecInitiating, "", "%s already attacks at line %d: a unit makes one attack a round", p.unit.ID, p.attackLine[p.unit.ID])
		return
	}
	p.uo.Attack = a
	p.attackLine[p.unit.ID] = l.N
}

func modeWord(w string) string {
	switch w {
	case "CLOSE", "CC", "ASSAULT", "CLOSE-COMBAT":
		return "close"
	case "FIRE", "DF", "DISTANT", "RANGED", "DISTANT-FIRE":
		return "fire"
	}
	return ""
}

// endHex is where a stand's plotted path ends (so far in the block).
func (p *parser) endHex(stand string) rules.Hex {
	for _, m := range p.uo.Moves {
		if m.Stand == stand {
			return m.Path[len(m.Path)-1]
		}
	}
	return p.unit.Stand(stand).Hex
}

// support reads "mortar ART 2/26 ART 3/26 AIR [n]": the unit's light
// artillery by platoon name, batteries by id (ART optional), air points.
func (p *parser) support(l kernel.Line, a *rules.Attack, args []string) bool {
	for i := 0; i < len(args); i++ {
		w := strings.ToUpper(args[i])
		switch {
		case w == "AIR":
			n := 1
			if i+1 < len(args) {
				v, isNumber, err := kernel.Number(args[i+1])
				if err != nil {
					p.errorf(l, rules.SecAir, "", "AIR %v", err)
					return false
				}
				if isNumber {
					n = v
					i++
				}
			}
			a.Air += n
		case w == "ART" || w == "ARTY" || w == "ARTILLERY" || w == "BATTERY" || w == "BTY":
			if i+1 >= len(args) {
				p.errorf(l, rules.SecSupport, "", "%s needs a battery id", args[i])
				return false
			}
			i++
			bt := p.findBattery(args[i])
			if bt == nil {
				p.errorf(l, rules.SecSupport, p.batteryHint(args[i]), "%q is not a battery of %s", args[i], p.side)
				return false
			}
			a.Batteries = append(a.Batteries, bt.ID)
		default:
			if bt := p.findBattery(args[i]); bt != nil {
				a.Batteries = append(a.Batteries, bt.ID)
				continue
			}
			if _, pl := p.unit.Platoon(args[i]); pl != nil {
				a.LightArtillery = append(a.LightArtillery, pl.Name)
				continue
			}
			if pl := p.platoonNamed(args[i]); pl != nil {
				a.LightArtillery = append(a.LightArtillery, pl.Name)
				continue
			}
			p.errorf(l, rules.SecSupport, p.platoonHint(args[i]), "%q is neither a platoon of %s nor a battery of %s", args[i], p.unit.ID, p.side)
			return false
		}
	}
	return true
}

func (p *parser) platoonNamed(name string) *rules.Platoon {
	for _, s := range p.unit.Stands {
		for _, pl := range []*rules.Platoon{s.Support, s.Transport} {
			if pl != nil && strings.EqualFold(pl.Name, name) {
				return pl
			}
		}
	}
	return nil
}

func (p *parser) findBattery(id string) *rules.Battery {
	for _, bt := range p.st.Batteries {
		if strings.EqualFold(bt.ID, id) && bt.Side == p.side && !bt.Removed {
			return bt
		}
	}
	return nil
}

func (p *parser) batteryHint(word string) string {
	var ids []string
	for _, bt := range p.st.Batteries {
		if bt.Side == p.side && !bt.Removed {
			ids = append(ids, bt.ID)
		}
	}
	if best := kernel.Closest(word, ids); best != "" {
		return "did you mean " + best + "?"
	}
	if len(ids) == 0 {
		return p.side + " has no batteries"
	}
	return "your batteries are " + strings.Join(slices.Sorted(slices.Values(ids)), ", ")
}
