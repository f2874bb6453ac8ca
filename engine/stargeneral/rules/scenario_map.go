package rules

import "strings"

func (p *scenarioParser) mapHeader(n int, args []string) {
	if p.st.Map != nil {
		p.errorf(n, "a second MAP")
		return
	}
	if len(args) < 2 || len(args) > 3 {
		p.errorf(n, "MAP takes columns and rows, then the rows of terrain letters (or the word open: all open ground)")
		return
	}
	cols, err1 := atoi(args[0])
	rows, err2 := atoi(args[1])
	if err1 != nil || err2 != nil || cols < 1 || rows < 1 || cols > 99 || rows > 99 {
		p.errorf(n, "MAP %s %s: columns and rows must be from 1 to 99", args[0], args[1])
		return
	}
	p.st.Map = &Map{Cols: cols, Rows: rows}
	if len(args) == 3 {
		if !strings.EqualFold(args[2], "open") {
			// The map is still made, all open, so that the hexes of the
			// lines after are checked (and a TERRAIN line finds rows).
			p.errorf(n, "MAP: the third word can only be open")
		}
		row := strings.Repeat(p.rs.TerrainByID("open").Letter, cols)
		for range rows {
			p.st.Map.Grid = append(p.st.Map.Grid, row)
		}
		return
	}
	p.mapLine = n
	p.gridLeft = rows
}

func (p *scenarioParser) gridRow(n int, row string) {
	m := p.st.Map
	want := m.Cols
	r := len(m.Grid) + 1
	p.gridLeft--
	if len(row) != want {
		p.errorf(n, "map row %d has %d letters, want %d", r, len(row), want)
		row = (row + strings.Repeat(".", want))[:want]
	}
	for c := 0; c < len(row); c++ {
		if p.rs.TerrainByLetter(row[c]) == nil {
			p.errorf(n, "map row %d column %d: unknown terrain letter %q (%s)", r, c+1, row[c], p.letters())
			row = row[:c] + p.rs.TerrainByID("open").Letter + row[c+1:]
		}
	}
	m.Grid = append(m.Grid, row)
}

func (p *scenarioParser) letters() string {
	var parts []string
	for _, t := range p.rs.Terrain {
		parts = append(parts, t.Letter+" "+t.ID)
	}
	return strings.Join(parts, ", ")
}

func (p *scenarioParser) hexArg(n int, s string) (Hex, bool) {
	h, err := ParseHex(s)
	if err != nil {
		p.errorf(n, "%v", err)
		return h, false
	}
	if p.st.Map == nil {
		p.errorf(n, "hex %s before the MAP line", s)
		return h, false
	}
	if !p.st.Map.OnMap(h) {
		p.errorf(n, "hex %s is off the %dx%d map", s, p.st.Map.Cols, p.st.Map.Rows)
		return h, false
	}
	return h, true
}

// terrain sets single hexes: TERRAIN id hex hex ...
func (p *scenarioParser) terrain(n int, args []string) {
	if len(args) < 2 {
		p.errorf(n, "TERRAIN takes a terrain name and one or more hexes")
		return
	}
	t := p.rs.TerrainByID(strings.ToLower(args[0]))
	if t == nil {
		p.errorf(n, "unknown terrain %q (%s)", args[0], p.letters())
		return
	}
	for _, a := range args[1:] {
		if h, ok := p.hexArg(n, a); ok {
			row := []byte(p.st.Map.Grid[h.Row-1])
			row[h.Col-1] = t.Letter[0]
			p.st.Map.Grid[h.Row-1] = string(row)
		}
	}
}

func (p *scenarioParser) road(n int, args []string) {
	if len(args) < 2 {
		p.errorf(n, "ROAD takes two or more hexes, each adjacent to the one before")
		return
	}
	var road []Hex
	for _, a := range args {
		h, ok := p.hexArg(n, a)
		if !ok {
			return
		}
		if len(road) > 0 && !Adjacent(road[len(road)-1], h) {
			p.errorf(n, "ROAD: %s is not adjacent to %s", h, road[len(road)-1])
			return
		}
		road = append(road, h)
	}
	p.st.Map.Roads = append(p.st.Map.Roads, road)
}

func (p *scenarioParser) placeName(n int, args []string) {
	if len(args) < 2 {
		p.errorf(n, "NAME takes a hex and a place name")
		return
	}
	h, ok := p.hexArg(n, args[0])
	if !ok {
		return
	}
	if p.st.Map.Names == nil {
		p.st.Map.Names = map[string]string{}
	}
	p.st.Map.Names[h.String()] = strings.Join(args[1:], " ")
}

// objective: OBJECTIVE hex [value=N] [owner=side] name...
func (p *scenarioParser) objective(n int, args []string) {
	if len(args) < 1 {
		p.errorf(n, "OBJECTIVE takes a hex, then optionally value=N, owner=SIDE and a name")
		return
	}
	h, ok := p.hexArg(n, args[0])
	if !ok {
		return
	}
	if p.objSeen[h] {
		p.errorf(n, "objective %s listed twice", h)
		return
	}
	p.objSeen[h] = true
	o := &Objective{Hex: h, Value: 1}
	var name []string
	for _, a := range args[1:] {
		k, v, isOpt := strings.Cut(a, "=")
		switch {
		case isOpt && strings.EqualFold(k, "value"):
			val, err := atoi(v)
			if err != nil || val < 1 {
				p.errorf(n, "objective value %q: want a positive whole number", v)
			}
			o.Value = val
		case isOpt && strings.EqualFold(k, "owner"):
			o.Owner = v
		default:
			name = append(name, a)
		}
	}
	o.Name = strings.Join(name, " ")
	if o.Name == "" {
		o.Name = h.String()
	}
	p.st.Objectives = append(p.st.Objectives, o)
}

// victory: VICTORY objectives | VICTORY hold SIDE N
func (p *scenarioParser) victory(n int, args []string) {
	switch {
	case len(args) == 1 && strings.EqualFold(args[0], VictoryObjectives):
		p.st.Victory = Victory{Kind: VictoryObjectives}
	case len(args) == 3 && strings.EqualFold(args[0], VictoryHold):
		need, err := atoi(args[2])
		if err != nil || need < 1 {
			p.errorf(n, "VICTORY hold: %q is not a positive number of objective points", args[2])
			return
		}
		p.st.Victory = Victory{Kind: VictoryHold, Side: args[1], Need: need}
	default:
		p.errorf(n, "VICTORY takes \"objectives\" (most objective points wins) or \"hold SIDE N\" (SIDE wins holding N points at the end)")
	}
}
