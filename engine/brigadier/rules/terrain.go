package rules

import "fmt"

// Map is the table in hexes: one row of terrain letters per map row
// (FP-14): . open, W woods, T town, H hedge, s stream, = bridge, L lake,
// ^ hilltop (level 1), / slope.
type Map struct {
	Cols    int      `json:"cols"`
	Rows    int      `json:"rows"`
	Terrain []string `json:"terrain"`
	Roads   []Road   `json:"roads,omitempty"`
}

// Road is a road's hexes in order.
type Road struct {
	Paved bool  `json:"paved,omitempty"`
	Hexes []Hex `json:"hexes"`
}

// Terrain names by map letter.
var terrainNames = map[byte]string{'.': "open", 'W': "woods", 'T': "town", 'H': "hedge", 's': "stream",
	'=': "bridge", 'L': "lake", '^': "hill", '/': "slope"}

// On reports whether h is on the map.
func (m *Map) On(h Hex) bool { return h.Col >= 1 && h.Col <= m.Cols && h.Row >= 1 && h.Row <= m.Rows }

// Letter is the terrain letter of an on-map hex.
func (m *Map) Letter(h Hex) byte { return m.Terrain[h.Row-1][h.Col-1] }

// Kind is the terrain's name: open, woods, town...
func (m *Map) Kind(h Hex) string { return terrainNames[m.Letter(h)] }

// Level2 is the hex's height in half levels: ground 0, slope 1, top 2 (FP-14).
func (m *Map) Level2(h Hex) int {
	switch m.Letter(h) {
	case '^':
		return 2
	case '/':
		return 1
	}
	return 0
}

// Cover is whether a hex gives cover that hides: woods, town, hedge [9.1].
func (m *Map) Cover(h Hex) bool {
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
	return nil
}
