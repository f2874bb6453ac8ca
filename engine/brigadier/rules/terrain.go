package rules

import "fmt"

// Map is the table in hexes: one row of terrain letters per map row
// (FP-14): . open, W woods, T town, H hedge, s stream (its bed and banks),
// = bridge, L lake, F fortification, ^ hilltop, / slope. Levels, when
// given, are one row of digits per map row: the hill level a hex stands
// on, a slope hex rising to it; without them a hilltop and a slope are
// level 1 and the rest is level 0.
type Map struct {
	Cols    int      `json:"cols"`
	Rows    int      `json:"rows"`
	Terrain []string `json:"terrain"`
	Levels  []string `json:"levels,omitempty"`
	Roads   []Road   `json:"roads,omitempty"`
}

// Road is a road's hexes in order.
type Road struct {
	Paved bool  `json:"paved,omitempty"`
	Hexes []Hex `json:"hexes"`
}

// Terrain names by map letter.
var terrainNames = map[byte]string{'.': "open", 'W': "woods", 'T': "town", 'H': "hedge", 's': "stream",
	'=': "bridge", 'L': "lake", '^': "hill", '/': "slope", 'F': "fortification"}

// On reports whether h is on the map.
func (m *Map) On(h Hex) bool { return h.Col >= 1 && h.Col <= m.Cols && h.Row >= 1 && h.Row <= m.Rows }

// Letter is the terrain letter of a hex; off the map, where a line of
// sight along an edge may pass, it is open ground.
func (m *Map) Letter(h Hex) byte {
	if !m.On(h) {
		return '.'
	}
	return m.Terrain[h.Row-1][h.Col-1]
}

// Kind is the terrain's name: open, woods, town...
func (m *Map) Kind(h Hex) string { return terrainNames[m.Letter(h)] }

// Level is the hill level a hex stands on, or a slope rises to.
func (m *Map) Level(h Hex) int {
	if len(m.Levels) > 0 && m.On(h) {
		return int(m.Levels[h.Row-1][h.Col-1] - '0')
	}
	switch m.Letter(h) {
	case '^', '/':
		return 1
	}
	return 0
}

// Level2 is the hex's height in half levels: a hex at level n is 2n, a
// slope rising to level n is 2n-1 (FP-14, 9.2).
func (m *Map) Level2(h Hex) int {
	l := 2 * m.Level(h)
	if m.Letter(h) == '/' && l > 0 {
		l--
	}
	return l
}

// isSlope: a height in half levels that is a hill slope's.
func isSlope(level2 int) bool { return level2%2 == 1 }

// Hides is whether a platoon in the hex hides, unseen from outside until
// it fires: woods, town, hedge, a river bed [9.1] and a fortification,
// which is a dug-in position built beforehand (R1).
func (m *Map) Hides(h Hex) bool {
	switch m.Letter(h) {
	case 'W', 'T', 'H', 's', 'F':
		return true
	}
	return false
}

// Blocks is whether a hex's edges block line of sight: woods, hedges,
// towns [9.2]; a river bed and a fortification do not.
func (m *Map) Blocks(h Hex) bool {
	switch m.Letter(h) {
	case 'W', 'T', 'H':
		return true
	}
	return false
}

// Inside reports whether h is woods or town with only the same around it:
// "fully inside", blind and unseen beyond the rules' short ranges [10].
func (m *Map) Inside(h Hex) bool {
	l := m.Letter(h)
	if l != 'W' && l != 'T' {
		return false
	}
	for _, n := range h.Neighbours() {
		if m.On(n) && m.Letter(n) != l {
			return false
		}
	}
	return true
}

// Road reports whether h is on a road, and on a paved one.
func (m *Map) Road(h Hex) (road, paved bool) {
	for _, r := range m.Roads {
		for _, x := range r.Hexes {
			if x == h {
				road = true
				paved = paved || r.Paved
			}
		}
	}
	return road, paved
}

// RoadLink reports whether a and b are consecutive hexes of one road.
func (m *Map) RoadLink(a, b Hex) (linked, paved bool) {
	for _, r := range m.Roads {
		for i := 1; i < len(r.Hexes); i++ {
			if (r.Hexes[i-1] == a && r.Hexes[i] == b) || (r.Hexes[i-1] == b && r.Hexes[i] == a) {
				return true, r.Paved
			}
		}
	}
	return false, false
}

func (m *Map) check() error {
	if len(m.Terrain) != m.Rows {
		return fmt.Errorf("MAP %d %d: %d rows of terrain", m.Cols, m.Rows, len(m.Terrain))
	}
	for i, row := range m.Terrain {
		if len(row) != m.Cols {
			return fmt.Errorf("map row %d: %d hexes, want %d", i+1, len(row), m.Cols)
		}
		for j := range len(row) {
			if _, ok := terrainNames[row[j]]; !ok {
				return fmt.Errorf("map row %d, column %d: unknown terrain %q", i+1, j+1, row[j])
			}
		}
	}
	if len(m.Levels) > 0 && len(m.Levels) != m.Rows {
		return fmt.Errorf("LEVELS: %d rows, want %d", len(m.Levels), m.Rows)
	}
	for i, row := range m.Levels {
		if len(row) != m.Cols {
			return fmt.Errorf("levels row %d: %d hexes, want %d", i+1, len(row), m.Cols)
		}
		for j := range len(row) {
			if row[j] < '0' || row[j] > '9' {
				return fmt.Errorf("levels row %d, column %d: %q is not a level 0 to 9", i+1, j+1, row[j])
			}
			if m.Terrain[i][j] == '/' && row[j] == '0' {
				return fmt.Errorf("levels row %d, column %d: a slope rises to a level from 1", i+1, j+1)
			}
		}
	}
	return nil
}
