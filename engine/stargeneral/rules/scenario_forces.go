package rules

import "strings"

// sideLine: SIDE name [air=N] [nightsp=N] [nightsupport=N] title...
func (p *scenarioParser) sideLine(n int, args []string) {
	if len(args) < 1 {
		p.errorf(n, "SIDE takes a name, then optionally air=N and a title")
		return
	}
	name := args[0]
	if p.sideNamed(name) != nil {
		p.errorf(n, "side %q listed twice", name)
		return
	}
	if why := sideNameProblem(name); why != "" {
		p.errorf(n, "side %q: %s", name, why)
		return
	}
	if len(p.st.Sides) == 2 {
		p.errorf(n, "a third side: a game has two sides")
		return
	}
	sd := Side{Name: name}
	var title []string
	for _, a := range args[1:] {
		k, v, isOpt := strings.Cut(a, "=")
		if !isOpt {
			title = append(title, a)
			continue
		}
		val, err := atoi(v)
		if err != nil || val < 0 {
			p.errorf(n, "%s=%q: want a whole number", k, v)
			continue
		}
		switch strings.ToLower(k) {
		case "air":
			sd.Air = val
		case "nightsp":
			sd.NightSP = val
		case "nightsupport":
			sd.NightSupport = val
		default:
			p.errorf(n, "unknown side option %q (air, nightsp, nightsupport)", k)
		}
	}
	sd.AirLeft = sd.Air
	sd.Title = strings.Join(title, " ")
	if sd.Title == "" {
		sd.Title = name
	}
	p.st.Sides = append(p.st.Sides, sd)
	p.side = name
	p.unit = nil
}

// unitLine: UNIT id STATUS [hqlost=TURN] title...
func (p *scenarioParser) unitLine(n int, args []string) {
	p.unit = nil
	if p.side == "" {
		p.errorf(n, "a unit before any SIDE line")
		return
	}
	if len(args) < 2 {
		p.errorf(n, "UNIT takes an id and a status (M, H, D or R), then optionally a title")
		return
	}
	if p.unitNamed(args[0]) != nil {
		p.errorf(n, "unit %q listed twice", args[0])
		return
	}
	if !p.checkName(n, "unit", args[0]) {
		return
	}
	status, err := ParseStatus(args[1])
	if err != nil {
		p.errorf(n, "unit %s: %v", args[0], err)
		return
	}
	u := &Unit{ID: args[0], Side: p.side, Status: status, HQLostTurn: -1, Initial: true}
	var title []string
	for _, a := range args[2:] {
		k, v, isOpt := strings.Cut(a, "=")
		switch {
		case isOpt && strings.EqualFold(k, "hqlost"):
			t, err := atoi(v)
			if err != nil || t < 0 {
				p.errorf(n, "hqlost=%q: want the turn number the HQ was lost in", v)
			}
			u.HQLostTurn = t
		case strings.EqualFold(a, "reinforcement"):
			u.Initial = false
		default:
			title = append(title, a)
		}
	}
	u.Title = strings.Join(title, " ")
	p.st.Units = append(p.st.Units, u)
	p.unitLines[u] = n
	p.unit = u
}

// standLine: NAME TYPE HEX [sp=N] [maxsp=N] [fs=N] [elite] [superior] [armoured] [move=CLASS] [lost] [+TYPE[:NAME]]...
func (p *scenarioParser) standLine(n int, toks []string) {
	if len(toks) < 3 {
		p.errorf(n, "a stand line takes a name, a stand type and a hex (unknown keyword %q?)", toks[0])
		return
	}
	u := p.unit
	name, typ := toks[0], strings.ToLower(toks[1])
	if standNamed(u.Stands, name) != nil || standNamed(u.Lost, name) != nil {
		p.errorf(n, "unit %s has two stands named %s", u.ID, name)
		return
	}
	if !p.checkName(n, "stand", name) {
		return
	}
	st, ok := p.rs.StandTypes[typ]
	if !ok || st.Class != ClassCore {
		p.errorf(n, "stand %s: %q is not a core stand type of %s (%s)", name, toks[1], p.rs.Name, strings.Join(p.typesOf(ClassCore), ", "))
		return
	}
	h, ok := p.hexArg(n, toks[2])
	if !ok {
		return
	}
	s := &Stand{Name: name, Type: typ, Hex: h, SP: st.SP, MaxSP: st.SP, FS: st.FS, Armoured: st.Armoured}
	spSet := false
	lost := false
	for _, a := range toks[3:] {
		if strings.HasPrefix(a, "+") {
			p.attach(n, s, a[1:])
			continue
		}
		k, v, isOpt := strings.Cut(strings.ToLower(a), "=")
		num := func() int {
			val, err := atoi(v)
			if err != nil || val < 0 {
				p.errorf(n, "stand %s: %s=%q: want a whole number", name, k, v)
			}
			return val
		}
		switch {
		case isOpt && k == "sp":
			s.SP = num()
			spSet = true
		case isOpt && k == "maxsp":
			s.MaxSP = num()
			if !spSet {
				s.SP = s.MaxSP
			}
		case isOpt && k == "fs":
			s.FS = num()
		case isOpt && k == "move":
			if _, ok := p.rs.Movement[v]; !ok {
				p.errorf(n, "stand %s: unknown movement class %q", name, v)
			}
			s.MoveClass = v
		case !isOpt && k == "elite":
			s.Elite = true
		case !isOpt && (k == "superior" || k == "superior_gun"):
			s.SuperiorGun = true
		case !isOpt && k == "armoured":
			s.Armoured = true
		case !isOpt && k == "lost":
			lost = true
		default:
			p.errorf(n, "stand %s: unknown option %q (sp=, maxsp=, fs=, move=, elite, superior, armoured, lost, +PLATOON)", name, a)
		}
	}
	if s.SP > s.MaxSP {
		p.errorf(n, "stand %s: sp=%d is more than its maximum %d", name, s.SP, s.MaxSP)
	}
	if lost {
		s.SP = 0
		u.Lost = append(u.Lost, s)
		return
	}
	if s.SP == 0 {
		p.errorf(n, "stand %s has no strength points left: mark it lost instead", name)
		return
	}
	u.Stands = append(u.Stands, s)
	p.placed = append(p.placed, placement{line: n, who: u.ID + " " + name, hex: h})
}

// attach adds a platoon written TYPE or TYPE:NAME to a stand.
func (p *scenarioParser) attach(n int, s *Stand, spec string) {
	typ, name, named := strings.Cut(spec, ":")
	typ = strings.ToLower(typ)
	if !named {
		name = typ
	}
	pt, ok := p.rs.StandTypes[typ]
	if !ok || pt.Class == ClassCore {
		p.errorf(n, "stand %s: %q is not a support platoon or transport of %s (%s)", s.Name, typ, p.rs.Name,
			strings.Join(append(p.typesOf(ClassSupport), p.typesOf(ClassTransport)...), ", "))
		return
	}
	if p.unitHasPlatoon(p.unit, name) {
		p.errorf(n, "unit %s has two platoons named %s: name them TYPE:NAME", p.unit.ID, name)
		return
	}
	if !p.checkName(n, "platoon", name) {
		return
	}
	pl := &Platoon{Name: name, Type: typ, Home: p.unit.ID}
	switch pt.Class {
	case ClassTransport:
		if !p.rs.Trucks {
			p.errorf(n, "stand %s: %s has no transport stands (built-in transport)", s.Name, p.rs.Name)
			return
		}
		if s.Transport != nil {
			p.errorf(n, "stand %s: a second transport (1.3: one truck a hex)", s.Name)
			return
		}
		s.Transport = pl
	default:
		if s.Support != nil {
			p.errorf(n, "stand %s: a second support platoon (1.3: one a hex)", s.Name)
			return
		}
		s.Support = pl
	}
	if s.Transport != nil && s.Support != nil && p.rs.StandTypes[s.Support.Type].Exclusive {
		p.errorf(n, "stand %s: nothing else may share a hex with %s (%s)", s.Name, s.Support.Type, p.rs.Section(SecTransport))
	}
}

// lostPlatoon: LOSTPLATOON TYPE NAME — a platoon destroyed before this position.
func (p *scenarioParser) lostPlatoon(n int, args []string) {
	if p.unit == nil || len(args) != 2 {
		p.errorf(n, "LOSTPLATOON takes a platoon type and name, inside a unit")
		return
	}
	typ := strings.ToLower(args[0])
	if pt, ok := p.rs.StandTypes[typ]; !ok || pt.Class == ClassCore {
		p.errorf(n, "%q is not a support platoon type", args[0])
		return
	}
	if p.unitHasPlatoon(p.unit, args[1]) {
		p.errorf(n, "unit %s has two platoons named %s", p.unit.ID, args[1])
		return
	}
	if !p.checkName(n, "platoon", args[1]) {
		return
	}
	p.unit.LostPlatoons = append(p.unit.LostPlatoons, &Platoon{Name: args[1], Type: typ, Home: p.unit.ID})
}

// battery: BATTERY id TYPE HEX [shots=N] [per=N] [range=N] [sp=N] [armoured] title...
func (p *scenarioParser) battery(n int, args []string) {
	p.unit = nil
	if p.side == "" {
		p.errorf(n, "a battery before any SIDE line")
		return
	}
	if len(args) < 3 {
		p.errorf(n, "BATTERY takes an id, an artillery stand type and a hex")
		return
	}
	if p.batteryNamed(args[0]) != nil {
		p.errorf(n, "battery %q listed twice", args[0])
		return
	}
	if !p.checkName(n, "battery", args[0]) {
		return
	}
	typ := strings.ToLower(args[1])
	st, ok := p.rs.StandTypes[typ]
	if !ok || st.Role != RoleArtillery {
		p.errorf(n, "battery %s: %q is not an artillery type of %s", args[0], args[1], p.rs.Name)
		return
	}
	h, ok := p.hexArg(n, args[2])
	if !ok {
		return
	}
	b := &Battery{ID: args[0], Side: p.side, Type: typ, Hex: h, SP: st.SP, MaxSP: st.SP, FS: st.FS,
		Range: st.Range, ShotsPerRound: p.rs.ShotsPerRound, Armoured: st.Armoured}
	if b.Range == 0 {
		b.Range = p.rs.FieldArtilleryRange
	}
	shotsSet := false
	var title []string
	for _, a := range args[3:] {
		k, v, isOpt := strings.Cut(strings.ToLower(a), "=")
		if !isOpt {
			if k == "armoured" {
				b.Armoured = true
			} else {
				title = append(title, a)
			}
			continue
		}
		val, err := atoi(v)
		if err != nil || val < 0 {
			p.errorf(n, "battery %s: %s=%q: want a whole number", b.ID, k, v)
			continue
		}
		switch k {
		case "shots":
			b.Shots = val
			shotsSet = true
		case "per":
			b.ShotsPerRound = val
		case "range":
			b.Range = val
		case "sp":
			b.SP = val
		case "maxsp":
			b.MaxSP = val
		default:
			p.errorf(n, "battery %s: unknown option %q (shots=, per=, range=, sp=, maxsp=, armoured)", b.ID, k)
		}
	}
	if !shotsSet {
		b.Shots = b.ShotsPerRound
	}
	b.Title = strings.Join(title, " ")
	p.st.Batteries = append(p.st.Batteries, b)
	p.placed = append(p.placed, placement{line: n, who: "battery " + b.ID, hex: h})
}

func (p *scenarioParser) typesOf(class string) []string {
	var out []string
	for _, k := range sortedKeys(p.rs.StandTypes) {
		if p.rs.StandTypes[k].Class == class {
			out = append(out, k)
		}
	}
	return out
}
