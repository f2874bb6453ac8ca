package hexdraw

import "math"

// Dashes cuts a polyline into dashes of length on separated by gaps of off.
func Dashes(pts []Pt, on, off float64) [][]Pt {
	var out [][]Pt
	var cur []Pt
	drawing, left := true, on
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		seg := b.Sub(a).Len()
		pos := 0.0
		if drawing && len(cur) == 0 {
			cur = append(cur, a)
		}
		for seg-pos > left {
			pos += left
			p := Lerp(a, b, pos/seg)
			if drawing {
				out = append(out, append(cur, p))
				cur = nil
				left = off
			} else {
				cur = []Pt{p}
				left = on
			}
			drawing = !drawing
		}
		left -= seg - pos
		if drawing {
			cur = append(cur, b)
		}
	}
	if drawing && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

// Circle is a polygon close enough to a circle of radius r around c at
// map scales.
func Circle(c Pt, r float64) []Pt {
	n := max(16, int(r*1.2))
	out := make([]Pt, n)
	for i := range out {
		a := 2 * math.Pi * float64(i) / float64(n)
		out[i] = Pt{X: c.X + r*math.Cos(a), Y: c.Y + r*math.Sin(a)}
	}
	return out
}

// RectShape is the rectangle from x0, y0 to x1, y1 as a polygon.
func RectShape(x0, y0, x1, y1 float64) []Pt {
	return []Pt{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
}

// RoundRect is a rectangle with corners rounded by r.
func RoundRect(x0, y0, x1, y1, r float64) []Pt {
	var out []Pt
	corners := []struct {
		c     Pt
		start float64
	}{{Pt{X: x1 - r, Y: y0 + r}, -90}, {Pt{X: x1 - r, Y: y1 - r}, 0}, {Pt{X: x0 + r, Y: y1 - r}, 90}, {Pt{X: x0 + r, Y: y0 + r}, 180}}
	for _, k := range corners {
		for i := 0; i <= 2; i++ {
			a := (k.start + float64(i)*45) * math.Pi / 180
			out = append(out, Pt{X: k.c.X + r*math.Cos(a), Y: k.c.Y + r*math.Sin(a)})
		}
	}
	return out
}

// Star is a five-pointed star, point up.
func Star(c Pt, r float64) []Pt {
	out := make([]Pt, 10)
	for i := range out {
		rad := r
		if i%2 == 1 {
			rad = r * 0.42
		}
		a := (-90 + float64(i)*36) * math.Pi / 180
		out[i] = Pt{X: c.X + rad*math.Cos(a), Y: c.Y + rad*math.Sin(a)}
	}
	return out
}

// Burst is a jagged explosion shape with n points.
func Burst(c Pt, r float64, n int) []Pt {
	out := make([]Pt, 2*n)
	for i := range out {
		rad := r
		if i%2 == 1 {
			rad = r * 0.6
		}
		a := (-90 + float64(i)*180/float64(n)) * math.Pi / 180
		out[i] = Pt{X: c.X + rad*math.Cos(a), Y: c.Y + rad*math.Sin(a)}
	}
	return out
}
