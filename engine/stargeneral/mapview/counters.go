package mapview

import (
	"image/color"
	"math"
	"strconv"

	"fieldpost/engine/hexdraw"
	"fieldpost/engine/stargeneral/rules"
)

// The two sides: counters in field grey and in khaki, and a strong shade of
// each for arrows and objective rings.
var (
	sideFill   = [2]color.RGBA{hexdraw.RGB(0x9fb3cc), hexdraw.RGB(0xcdb15a)}
	sideStrong = [2]color.RGBA{hexdraw.RGB(0x1f4e8c), hexdraw.RGB(0x7a5a00)}
	counterRim = hexdraw.RGB(0x202020)
	symbolBack = hexdraw.RGB(0xfbfbf6)
	lossText   = hexdraw.RGB(0xa01010)
	markBack   = hexdraw.RGB(0xfbfbf6)

	statusBack = map[rules.Status]color.RGBA{
		rules.Move: hexdraw.RGB(0x2e7d32), rules.Hold: hexdraw.RGB(0xf2b01e), rules.DigIn: hexdraw.RGB(0x6d4c41), rules.Retreat: hexdraw.RGB(0xc62828),
	}
	statusInk = map[rules.Status]color.RGBA{
		rules.Move: hexdraw.RGB(0xffffff), rules.Hold: hexdraw.RGB(0x1c1c1c), rules.DigIn: hexdraw.RGB(0xffffff), rules.Retreat: hexdraw.RGB(0xffffff),
	}
	statusWords = map[rules.Status]string{
		rules.Move: "move", rules.Hold: "hold", rules.DigIn: "dig in", rules.Retreat: "retreat",
	}
)

// symbol is a NATO-style unit symbol: the frame's contents.
type symbol struct {
	kind      string // "infantry", "tank", "recce", "artillery", "hq", or "other"
	armoured  bool   // an oval inside: tracked or armoured
	motorised bool   // wheels under the frame
	letter    string // for "other": the type's initial
}

// counter is what one counter shows.
type counter struct {
	side   int
	top    string       // unit or battery id
	status rules.Status // "" for a battery
	name   string       // stand name
	sym    symbol
	sp     int
	maxSP  int
	marks  []string // attached support and transport
	shots  int      // batteries: shots left this round
	per    int      // batteries: shots a round
	// outOfCommand: the stand is farther from its HQ than the command range.
	outOfCommand bool
}

func (r *renderer) side(name string) int { return r.sideOf[name] }

func (r *renderer) standCounter(u *rules.Unit, s *rules.Stand) counter {
	hq := u.HQ(r.rs)
	return counter{side: r.side(u.Side), top: u.ID, status: u.Status, name: s.Name,
		sym: standSymbol(r.rs, s), sp: s.SP, maxSP: s.MaxSP, marks: standMarks(r.rs, s),
		outOfCommand: hq != nil && rules.Distance(hq.Hex, s.Hex) > r.rs.CommandRange}
}

func (r *renderer) batteryCounter(b *rules.Battery) counter {
	st := r.rs.StandTypes[b.Type]
	return counter{side: r.side(b.Side), top: b.ID, name: "Bty",
		sym: symbol{kind: "artillery", armoured: b.Armoured || st.Armoured}, sp: b.SP, maxSP: b.MaxSP,
		shots: b.Shots, per: b.ShotsPerRound}
}

// standSymbol reads the symbol from the stand's role and what carries it.
func standSymbol(rs *rules.Ruleset, s *rules.Stand) symbol {
	st := rs.StandTypes[s.Type]
	armoured := s.Armoured || st.Armoured
	move := st.Move
	if s.MoveClass != "" {
		move = s.MoveClass
	}
	if s.Support != nil && rs.StandTypes[s.Support.Type].GivesArmour {
		armoured = true
	}
	switch st.Role {
	case rules.RoleHQ:
		return symbol{kind: "hq", armoured: armoured}
	case rules.RoleInfantry:
		return symbol{kind: "infantry", armoured: armoured, motorised: move == "wheeled" && !armoured}
	case rules.RoleTank:
		if move == "wheeled" {
			return symbol{kind: "recce", armoured: true}
		}
		return symbol{kind: "tank", armoured: true}
	case rules.RoleArtillery:
		return symbol{kind: "artillery", armoured: armoured}
	}
	letter := "?"
	if s.Type != "" {
		letter = string([]rune(s.Type)[:1])
	}
	return symbol{kind: "other", armoured: armoured, letter: letter}
}

// standMarks lists the short marks of a stand's support platoon and truck.
func standMarks(rs *rules.Ruleset, s *rules.Stand) []string {
	var out []string
	for _, p := range []*rules.Platoon{s.Support, s.Transport} {
		if p != nil {
			out = append(out, platoonMark(rs, p.Type))
		}
	}
	return out
}

// platoonMark is the short mark for a support or transport type.
func platoonMark(rs *rules.Ruleset, typ string) string {
	st := rs.StandTypes[typ]
	switch {
	case st.GivesArmour:
		return "HT"
	case st.Class == rules.ClassTransport:
		return "T"
	}
	switch st.Role {
	case rules.RoleMG:
		return "MG"
	case rules.RoleAT:
		return "AT"
	case rules.RoleLightArtillery:
		return "LA"
	case rules.RoleEngineers:
		return "E"
	case rules.RoleAA:
		return "AA"
	case rules.RoleTankPlatoon:
		return "TK"
	}
	if typ == "" {
		return "?"
	}
	return string([]rune(typ)[:1])
}

// counterSize is the width and height of a counter for hex radius r.
func counterSize(r float64) (w, h float64) { return math.Round(1.4 * r), math.Round(1.04 * r) }

// counterBox is the counter's rectangle when it stands in the hex at ctr.
func counterBox(ctr pt, r float64) (x0, y0, x1, y1 float64) {
	w, h := counterSize(r)
	x0 = math.Round(ctr.X - w/2)
	y0 = math.Round(ctr.Y - h/2)
	return x0, y0, x0 + w, y0 + h
}

// counterShape is the outline of a counter in the hex at ctr: its box with
// the corners cut just enough to keep it a pixel inside the hex, so that
// it never covers a neighbour's.
func counterShape(ctr pt, r float64) []pt {
	x0, y0, x1, y1 := counterBox(ctr, r)
	hex := hexdraw.Hexagon(ctr, r)
	for cut := 0.0; ; cut++ {
		shape := []pt{{X: x0 + cut, Y: y0}, {X: x1 - cut, Y: y0}, {X: x1, Y: y0 + cut}, {X: x1, Y: y1 - cut}, {X: x1 - cut, Y: y1}, {X: x0 + cut, Y: y1}, {X: x0, Y: y1 - cut}, {X: x0, Y: y0 + cut}}
		if insideConvex(shape, hex, 1) || cut > (y1-y0)/2 {
			return shape
		}
	}
}

// insideConvex reports whether every point of p lies inside the convex
// polygon poly, at least margin from its sides.
func insideConvex(p, poly []pt, margin float64) bool {
	area := 0.0
	for i := range poly {
		j := (i + 1) % len(poly)
		area += poly[i].X*poly[j].Y - poly[j].X*poly[i].Y
	}
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		n := b.Sub(a).Perp().Unit()
		if area < 0 {
			n = n.Scale(-1)
		}
		for _, q := range p {
			// n points inwards: the distance of q into the polygon.
			if d := q.Sub(a).X*n.X + q.Sub(a).Y*n.Y; d < margin {
				return false
			}
		}
	}
	return true
}

// inset moves a convex polygon's corners d towards its middle.
func inset(p []pt, d float64) []pt {
	var c pt
	for _, q := range p {
		c = c.Add(q)
	}
	c = c.Scale(1 / float64(len(p)))
	out := make([]pt, len(p))
	for i, q := range p {
		v := c.Sub(q)
		out[i] = q.Add(pt{X: math.Copysign(math.Min(d, math.Abs(v.X)), v.X), Y: math.Copysign(math.Min(d, math.Abs(v.Y)), v.Y)})
	}
	return out
}

// drawCounter draws a counter in the hex centred at ctr: unit id and order
// on top, the type symbol and stand name in the middle, strength and
// attached support below.
func (r *renderer) drawCounter(ctr pt, k counter) {
	c := r.c
	x0, y0, x1, y1 := counterBox(ctr, r.r)
	cw := x1 - x0
	pad := math.Max(2, math.Round(0.08*r.r))
	shape := counterShape(ctr, r.r)
	crisp := c.Crisp
	c.Crisp = true
	rim, rimW := counterRim, 1.0
	if k.outOfCommand {
		// Out of command: a thick red rim.
		rim, rimW = unheld, 2
	}
	c.Fill(rim, shape)
	c.Fill(sideFill[k.side], inset(shape, rimW))
	c.Crisp = crisp

	// Top row: unit id, and the unit's order in a coloured box.
	rowH := math.Round(0.3 * r.r)
	topBase := y0 + 1 + rowH/2
	avail := cw - 2*pad
	if k.status != "" {
		sb := rowH
		bx1 := x1 - 2
		c.Fill(statusBack[k.status], hexdraw.RectShape(bx1-sb, y0+2, bx1, y0+2+sb))
		sf := c.Face(true, int(math.Round(0.27*r.r)))
		c.TextCentred(sf, string(k.status), bx1-sb/2, y0+2+sb/2, statusInk[k.status])
		avail -= sb + 1
	}
	tf := c.Fit(true, int(math.Round(0.27*r.r)), int(math.Round(0.2*r.r)), k.top, avail)
	if float64(tf.Width(k.top)) > avail {
		// A long id ("Panther") that bold does not fit at the smallest size
		// is written in regular, narrower, rather than cut short.
		tf = c.Fit(false, int(math.Round(0.27*r.r)), int(math.Round(0.2*r.r)), k.top, avail)
	}
	c.Text(tf, hexdraw.Clip(tf, k.top, avail), x0+pad, topBase+hexdraw.CapHalf(tf), ink)

	// Middle row: symbol frame and stand name.
	fw, fh := symbolSize(r.r)
	fx0 := x0 + pad
	fy0 := math.Round(y0 + 0.5*(y1-y0) - fh/2)
	drawSymbol(c, k.sym, fx0, fy0, fx0+fw, fy0+fh)
	nameW := x1 - pad - (fx0 + fw + 2)
	nf := c.Fit(true, int(math.Round(0.31*r.r)), int(math.Round(0.2*r.r)), k.name, nameW)
	c.TextCentred(nf, hexdraw.Clip(nf, k.name, nameW), fx0+fw+2+nameW/2, fy0+fh/2, ink)

	// Bottom row: strength left of full, then support marks or shots.
	bf := c.Face(true, int(math.Round(0.26*r.r)))
	baseY := y1 - 1 - rowH/2
	sp := strconv.Itoa(k.sp) + "/" + strconv.Itoa(k.maxSP)
	spCol := ink
	if k.sp < k.maxSP {
		spCol = lossText
	}
	c.Text(bf, sp, x0+pad, baseY+hexdraw.CapHalf(bf), spCol)
	right := x1 - pad
	if k.per > 4 {
		// Too many shots for pips: the number left.
		mf := c.Face(true, int(math.Round(0.22*r.r)))
		txt := strconv.Itoa(k.shots) + " sh"
		c.Text(mf, txt, right-float64(mf.Width(txt)), baseY+hexdraw.CapHalf(mf), ink)
		return
	}
	if k.per > 0 {
		pr := math.Max(1.5, 0.07*r.r)
		for i := k.per - 1; i >= 0; i-- {
			p := pt{X: right - pr, Y: baseY}
			c.Fill(ink, hexdraw.Circle(p, pr+0.8))
			if i >= k.shots {
				c.Fill(markBack, hexdraw.Circle(p, pr-0.4))
			}
			right -= 2*pr + 2
		}
		return
	}
	mf := c.Face(true, int(math.Round(0.22*r.r)))
	for i := len(k.marks) - 1; i >= 0; i-- {
		m := k.marks[i]
		w := float64(mf.Width(m)) + 3
		c.Fill(markBack, hexdraw.RectShape(right-w, baseY-rowH/2+1, right, baseY+rowH/2-1))
		c.TextCentred(mf, m, right-w/2+0.5, baseY, ink)
		right -= w + 1
	}
}

// symbolSize is the width and height of a unit symbol's frame.
func symbolSize(r float64) (w, h float64) { return math.Round(0.5 * r), math.Round(0.37 * r) }

// drawSymbol draws a NATO-style unit symbol in the frame (x0,y0)-(x1,y1).
func drawSymbol(c *hexdraw.Canvas, s symbol, x0, y0, x1, y1 float64) {
	w, h := x1-x0, y1-y0
	lw := math.Max(1, h/11)
	c.Fill(ink, hexdraw.RectShape(x0, y0, x1, y1))
	c.Fill(symbolBack, hexdraw.RectShape(x0+lw, y0+lw, x1-lw, y1-lw))
	mid := pt{X: x0 + w/2, Y: y0 + h/2}
	if s.armoured {
		oval := hexdraw.RoundRect(x0+w*0.2, y0+h*0.24, x1-w*0.2, y1-h*0.24, h*0.26)
		c.StrokeClosed(ink, lw, oval)
	}
	switch s.kind {
	case "infantry":
		c.Stroke(ink, lw, pt{X: x0, Y: y0}, pt{X: x1, Y: y1})
		c.Stroke(ink, lw, pt{X: x0, Y: y1}, pt{X: x1, Y: y0})
	case "recce":
		c.Stroke(ink, lw, pt{X: x0, Y: y1}, pt{X: x1, Y: y0})
	case "artillery":
		c.Fill(ink, hexdraw.Circle(mid, h*0.17))
	case "hq":
		// A flag on its staff, smaller inside an armoured oval.
		px, top, bot, fw := x0+w*0.3, y0+h*0.12, y1-h*0.12, w*0.4
		if s.armoured {
			px, top, bot, fw = x0+w*0.4, y0+h*0.32, y1-h*0.3, w*0.24
		}
		c.Stroke(ink, lw, pt{X: px, Y: bot}, pt{X: px, Y: top})
		c.Fill(ink, hexdraw.RectShape(px, top, px+fw, top+(bot-top)*0.5))
	case "other":
		f := c.Face(true, int(math.Round(h*0.75)))
		c.TextCentred(f, s.letter, mid.X, mid.Y, ink)
	}
	if s.motorised {
		for _, fx := range []float64{0.3, 0.7} {
			c.StrokeClosed(ink, lw*0.8, hexdraw.Circle(pt{X: x0 + w*fx, Y: y1 - h*0.2}, h*0.1))
		}
	}
}
