// Package mapview draws a Frontline General position for one side, as
// text (ASCII, for the body of a mail) and as a picture (PNG or SVG, one
// drawing: see Draw). Give it the side's View so that it shows only what
// that side may see.
package mapview

import (
	"fmt"
	"sort"
	"strings"

	"fieldpost/engine/frontline/rules"
)

// ASCII draws the map as text: each hex a cell of its terrain letter and a
// stack marker (the side's initial and how many units, * when both sides
// share the hex); odd columns on a row's first line, even columns (half a
// hex lower) on its second. A key lists the stacks and places.
func ASCII(v *rules.State) string {
	m := v.Map
	stacks := map[rules.Hex][]*rules.Unit{}
	for _, u := range v.Units {
		if u.OnMap() && u.In == "" {
			stacks[u.Hex] = append(stacks[u.Hex], u)
		}
	}
	cell := func(h rules.Hex) string {
		t := m.Terrain(h)
		us := stacks[h]
		if len(us) == 0 {
			return fmt.Sprintf("%c   ", t)
		}
		sides := map[string]bool{}
		for _, u := range us {
			sides[u.Side] = true
		}
		if len(sides) > 1 {
			return fmt.Sprintf("%c** ", t)
		}
		n := len(us)
		if n > 9 {
			n = 9
		}
		return fmt.Sprintf("%c%c%d ", t, us[0].Side[0], n)
	}
	var b strings.Builder
	b.WriteString("    ")
	for c := 1; c <= m.Width; c++ {
		if c%2 == 1 {
			fmt.Fprintf(&b, "%02d      ", c)
		}
	}
	b.WriteString("\n        ")
	for c := 1; c <= m.Width; c++ {
		if c%2 == 0 {
			fmt.Fprintf(&b, "%02d      ", c)
		}
	}
	b.WriteString("\n")
	for r := 1; r <= m.Height; r++ {
		fmt.Fprintf(&b, "%02d  ", r)
		for c := 1; c <= m.Width; c += 2 {
			b.WriteString(cell(rules.Hex{Col: c, Row: r}))
			b.WriteString("    ")
		}
		b.WriteString("\n        ")
		for c := 2; c <= m.Width; c += 2 {
			b.WriteString(cell(rules.Hex{Col: c, Row: r}))
			b.WriteString("    ")
		}
		b.WriteString("\n")
	}
	b.WriteString("Terrain: . plains  c coastal  ~ sea  ^ mountain  X impassable  % swamp  K key city  R ruined city  P ruined city with port\n")
	b.WriteString("Units: after the terrain, the side's initial and how many of its units stand in the hex (U2: two US\n" +
		"units, G1: one GE unit), ** both sides; every hex with units is listed below.\n")
	var hexes []rules.Hex
	for h := range stacks {
		hexes = append(hexes, h)
	}
	sort.Slice(hexes, func(i, j int) bool { return hexes[i].String() < hexes[j].String() })
	for _, h := range hexes {
		var ids []string
		for _, u := range stacks[h] {
			id := u.Side + ":" + u.ID
			if u.Damaged {
				id += "(d)"
			}
			if u.Aloft {
				id += "(aloft)"
			}
			// The side's own only, as on the picture.
			if u.Side == v.ViewOf && u.Idle {
				id += "(idle)"
			}
			if u.Side == v.ViewOf && outOfCommand(v, []*rules.Unit{u}) {
				id += "(no command)"
			}
			ids = append(ids, id)
		}
		name := ""
		if n := m.Names[h]; n != "" {
			name = " " + n
		}
		fmt.Fprintf(&b, "%s%s: %s\n", h, name, strings.Join(ids, " "))
	}
	var places []string
	for h, n := range m.Names {
		owner := v.Control[h]
		if owner == "" {
			owner = "nobody"
		}
		places = append(places, fmt.Sprintf("%s %s (%s)", h, n, owner))
	}
	sort.Strings(places)
	fmt.Fprintf(&b, "Places: %s\n", strings.Join(places, ", "))
	var bridges []string
	for hs, st := range v.Bridges {
		bridges = append(bridges, hs.String()+" "+st)
	}
	sort.Strings(bridges)
	if len(bridges) > 0 {
		fmt.Fprintf(&b, "Bridges: %s\n", strings.Join(bridges, ", "))
	}
	b.WriteString(worksKey(v))
	return b.String()
}
