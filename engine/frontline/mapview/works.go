package mapview

import (
	"image"
	"image/color"
	"sort"
	"strings"

	"fieldpost/engine/frontline/rules"
)

var (
	engineered = color.RGBA{0x8b, 0x5a, 0x2b, 0xff} // an engineered bridge
	wrecked    = color.RGBA{0xc0, 0x20, 0x20, 0xff} // a port hit
)

// drawWorks draws the engineered bridges across their river (dashed when
// damaged) and a cross on each port hit by heavy weapons: one stroke
// damaged, two destroyed (§VII.3-4).
func drawWorks(img *image.RGBA, v *rules.State) {
	for _, u := range engineeredBridges(v) {
		ax, ay := centre(u.Hex)
		bx, by := centre(u.Across)
		mx, my := (ax+bx)/2, (ay+by)/2
		dx, dy := (bx-ax)/5, (by-ay)/5
		width := 6.0
		if u.Damaged {
			width = 3
		}
		line(img, engineered, width, [2]float64{mx - dx, my - dy}, [2]float64{mx + dx, my + dy})
	}
	for h, st := range v.Ports {
		x, y := centre(h)
		line(img, wrecked, 3, [2]float64{x - 10, y - 14}, [2]float64{x + 10, y + 6})
		if st == "destroyed" {
			line(img, wrecked, 3, [2]float64{x + 10, y - 14}, [2]float64{x - 10, y + 6})
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
