package mapview

import (
	"sort"
	"strings"

	"fieldpost/engine/frontline/rules"
	"fieldpost/engine/hexdraw"
)

// drawWorks draws the engineered bridges across their river in the road's
// brown (thinner when damaged, when only infantry may cross) and a red
// cross over the anchor of each port hit by heavy weapons: one stroke
// damaged, two destroyed (§VII.3-4).
func drawWorks(p *hexdraw.Picture, v *rules.State) {
	for _, u := range engineeredBridges(v) {
		a, b := layout.Centre(u.Hex), layout.Centre(u.Across)
		mid := hexdraw.Pt{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}
		width := 6.0
		if u.Damaged {
			width = 3
		}
		p.Line(road, width, hexdraw.Toward(mid, a, 9), hexdraw.Toward(mid, b, 9))
	}
	for _, h := range sortedHexes(v.Ports) {
		c := anchorAt(h)
		p.Line(red, 2.5, hexdraw.Pt{X: c.X - 6, Y: c.Y - 6}, hexdraw.Pt{X: c.X + 6, Y: c.Y + 6})
		if v.Ports[h] == "destroyed" {
			p.Line(red, 2.5, hexdraw.Pt{X: c.X + 6, Y: c.Y - 6}, hexdraw.Pt{X: c.X - 6, Y: c.Y + 6})
		}
	}
}

// engineeredBridges lists the deployed engineered bridges the view shows.
func engineeredBridges(v *rules.State) []*rules.Unit {
	var out []*rules.Unit
	for _, u := range v.Units {
		if u.OnMap() && !u.Across.IsZero() && v.Card(u).Structure == "bridge" {
			out = append(out, u)
		}
	}
	return out
}

// worksKey lists engineered bridges and ports hit for the text map.
func worksKey(v *rules.State) string {
	var b strings.Builder
	var bridges []string
	for _, u := range engineeredBridges(v) {
		st := "intact"
		if u.Damaged {
			st = "damaged, infantry only"
		}
		bridges = append(bridges, u.Hex.String()+"-"+u.Across.String()+" "+u.Side+":"+u.ID+" "+st)
	}
	sort.Strings(bridges)
	if len(bridges) > 0 {
		b.WriteString("Engineered bridges: " + strings.Join(bridges, ", ") + "\n")
	}
	var ports []string
	for h, st := range v.Ports {
		ports = append(ports, h.String()+" "+st)
	}
	sort.Strings(ports)
	if len(ports) > 0 {
		b.WriteString("Ports hit (never rebuilt): " + strings.Join(ports, ", ") + "\n")
	}
	return b.String()
}
