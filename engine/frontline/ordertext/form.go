package ordertext

import (
	"fmt"
	"sort"
	"strings"

	"fieldpost/engine/frontline/fog"
	"fieldpost/engine/frontline/rules"
)

// Form is the order form mailed to a side: its situation as comments (the
// turn's opening, hand, treasury, supply due, staged units, its units
// where they stand, the enemy it can see) and orders that are valid sent
// back unchanged. The active side's form deploys its staged units when it
// may; the waiting side's holds only its standing orders (REACT).
func Form(s *rules.State, game, side string) string {
	side = strings.ToUpper(side)
	v := fog.View(s, side)
	p := v.Player(side)
	var b strings.Builder
	active := s.Active == side
	role := "you are WAITING: send REACT orders for the coming turn if you wish"
	if active {
		role = "you are ACTIVE"
	}
	fmt.Fprintf(&b, "GAME %s SIDE %s ROUND %d\n", game, side, s.Plays+1)
	comment(&b, "", fmt.Sprintf("%s turn %d of %d (your own turn %d) - %s", s.Active, s.Turn, s.Turns, p.OwnTurn, role))
	for _, e := range v.Opening {
		comment(&b, "", e.Text)
	}
	comment(&b, "", fmt.Sprintf("Treasury %d.  Hand: %s.  Enemy hand: %d card(s).", p.Treasury, orNone(p.Hand), v.Player(s.Enemy(side)).HandSize))
	due, gross, ports := s.SupplyDue(side)
	supply := fmt.Sprintf("Supply due %d (%d less %d for %d port(s)).", due, gross, gross-due, ports)
	if due > p.Treasury {
		supply += fmt.Sprintf(" DEFICIT %d: IDLE units worth %d or the judge picks the cheapest.", due-p.Treasury, (due-p.Treasury)*10)
	}
	comment(&b, "", supply)
	if hit := portStates(s); hit != "" {
		comment(&b, "", "Ports hit (never rebuilt): "+hit)
	}
	var staged []string
	for _, u := range v.Units {
		if u.Side == side && u.Staged > 0 && u.In == "" {
			staged = append(staged, fmt.Sprintf("%s (bought turn %d%s)", u.ID, u.Staged, arrival(s, u)))
		}
		if u.Side == side && u.Relocate > 0 {
			staged = append(staged, fmt.Sprintf("%s (being relocated to %s, set up at the end of turn %d)", u.ID, u.Hex, u.Relocate))
		}
	}
	comment(&b, "", "Staged: "+orNone(staged))
	for _, m := range v.Modifiers {
		comment(&b, "", fmt.Sprintf("In force: %s (%s)", m.Name, orAll(m.Side)))
	}
	b.WriteString("# Your units:\n")
	for _, line := range roster(v, side) {
		comment(&b, "  ", line)
	}
	b.WriteString("# Enemy units you can see:\n")
	for _, line := range roster(v, s.Enemy(side)) {
		comment(&b, "  ", line)
	}
	if active {
		comment(&b, "", "BUY code count [XP n]; BUILD MINES|WIRE|AF AT hex BY engineer; BUILD CP AT hex BY unit (your turns 1, 6, 11...)")
		comment(&b, "", "BUILD EBR AT from-to BY engineer (a bridge over the river, the engineer in from); BUILD PILLBOX AT hex BY engineer")
		example(&b, produceExample(v, side))
		b.WriteString("PRODUCE\n")
		comment(&b, "", "unit hex hex... [LOAD u] [UNLOAD u] [HITCH g] [UNHITCH g] [DIG] [RECON hex] [DETONATE hex] [CLEAR obstacle] [REPAIR] [MERGE u] [MAN u] [PUSH] [HIT-AND-RUN] [LAND hex]; ENCIRCLE hex OPEN hex")
		comment(&b, "", "unit [hex...] OCCUPY emplacement (infantry, last step); engineer DETONATE its own hex blows a port there")
		example(&b, moveExample(s, side))
		b.WriteString("MOVE\n")
		comment(&b, "", "ENGAGE hex WITH units [SUSPEND|WITHDRAW|CEASEFIRE|SURRENDER IF cond] [INSPIRE]; then: unit AT SIDE:ID [AP|HE]; MISSION fo [PIN|BLIND] WITH guns [THEN FFE]")
		comment(&b, "", "also: unit SMOKE [IF cond] (smoke vehicles); unit AT PORT:hex (155 mm shells, 500 lb bombs)")
		example(&b, combatExample(v, side)...)
		b.WriteString("COMBAT\n")
		comment(&b, "", "unit AT port, or unit ON ship deploying now (your turns 5, 10, 15...; or RUSH units); a line of its own, any turn: RELOCATE cp TO hex BY unit")
		b.WriteString("DEPLOY\n")
		if s.Player(side) != nil && (p.OwnTurn%5 == 0) {
			for _, u := range s.Units {
				if u.Side == side && u.Staged > 0 && u.Staged < p.OwnTurn && u.In == "" {
					if h, ok := deployHex(s, u); ok {
						fmt.Fprintf(&b, "  %s AT %s\n", u.ID, h)
					}
				}
			}
		}
	}
	comment(&b, "", "REACT may also hold: SMOKE hex|any IF cond; ENGINEERS-FIGHT yes|no; IDLE-FIGHT yes|no (no unless written)")
	example(&b, fmt.Sprintf("%-22s # under REACT: withdraw when losing", "  WITHDRAW any IF ODDS<0.5"))
	b.WriteString("REACT              # standing orders for the enemy's next turn\n")
	b.WriteString(FormatStanding(p.Standing.Still(v, side)))
	b.WriteString("END\n")
	return b.String()
}

// example writes worked lines of an order, as comments: how one is
// written, with the side's own units.
func example(b *strings.Builder, lines ...string) {
	for i, line := range lines {
		lead := "# e.g.  "
		if i > 0 {
			lead = "#       "
		}
		if line != "" {
			b.WriteString(lead + line + "\n")
		}
	}
}

// fighter reports whether u is one of the side's own fighting units, to
// show in the examples: on the map, not a crew nor carried, with weapons.
func fighter(v *rules.State, u *rules.Unit) bool {
	return u.OnMap() && u.In == "" && u.Role == "" && len(v.Card(u).Weapons) > 0 && v.Card(u).Kind != "structure"
}

// ownUnits are the side's fighting units, its infantry first.
func ownUnits(v *rules.State, side string) []*rules.Unit {
	var out []*rules.Unit
	for _, u := range v.Units {
		if u.Side == side && fighter(v, u) {
			out = append(out, u)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return v.Card(out[i]).Kind == "infantry" && v.Card(out[j]).Kind != "infantry"
	})
	return out
}

// produceExample buys two more of the side's first unit.
func produceExample(v *rules.State, side string) string {
	if units := ownUnits(v, side); len(units) > 0 {
		return "BUY " + units[0].Code + " 2"
	}
	return ""
}

// moveExample is a move one of the side's units may make: two hexes
// where it can, else one, read back without a problem.
func moveExample(s *rules.State, side string) string {
	valid := func(line string) bool {
		_, probs := Parse(s, side, "MOVE\n"+line+"\n")
		return len(probs) == 0
	}
	for _, u := range ownUnits(s.View(side), side) {
		for _, a := range u.Hex.Neighbours() {
			one := u.ID + " " + a.String()
			if !valid(one) {
				continue
			}
			for _, c := range a.Neighbours() {
				if two := one + " " + c.String(); c != u.Hex && valid(two) {
					return fmt.Sprintf("%-22s # into %s, then %s", two, a, c)
				}
			}
			return fmt.Sprintf("%-22s # into the next hex", one)
		}
	}
	return ""
}

// combatExample engages an enemy unit the side sees with one of its own
// that can hurt it, naming the target: units fight in the hex they engage.
func combatExample(v *rules.State, side string) []string {
	for _, own := range ownUnits(v, side) {
		for _, enemy := range v.Units {
			if enemy.Side == side || !fighter(v, enemy) || len(v.RoundShots(own, enemy.Hex, enemy, false)) == 0 {
				continue
			}
			return []string{
				fmt.Sprintf("%-22s # your units fight in the hex", fmt.Sprintf("ENGAGE %s WITH %s", enemy.Hex, own.ID)),
				fmt.Sprintf("%-22s # they engage: most weapons reach", fmt.Sprintf("  %s AT %s:%s", own.ID, enemy.Side, enemy.ID)),
				fmt.Sprintf("%-22s # no farther (range 0)", ""),
			}
		}
	}
	return nil
}

// formWidth is the longest line of the form: mail programs wrap longer
// lines (at 72, 76 or 78 characters), and a wrapped tail would read as an
// order of its own.
const formWidth = 72

// comment writes text as comment lines of at most formWidth characters,
// after "#" and indent, the lines after the first indented two more.
func comment(b *strings.Builder, indent, text string) {
	prefix := "# " + indent
	line := prefix
	for _, word := range strings.Fields(text) {
		if len(line) > len(prefix) && len(line)+1+len(word) > formWidth {
			b.WriteString(line + "\n")
			line = prefix + "  "
		}
		if len(line) > len(strings.TrimRight(prefix, " ")) && !strings.HasSuffix(line, " ") {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
}

func deployHex(s *rules.State, u *rules.Unit) (rules.Hex, bool) {
	var hs []rules.Hex
	for h, side := range s.Control {
		if side == u.Side && s.CanDeployAt(u, h) {
			hs = append(hs, h)
		}
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].String() < hs[j].String() })
	if len(hs) == 0 {
		return rules.Hex{}, false
	}
	return hs[0], true
}

func orNone(a []string) string {
	if len(a) == 0 {
		return "none"
	}
	return strings.Join(a, ", ")
}

func orAll(s string) string {
	if s == "" {
		return "both sides"
	}
	return s
}

// roster lists a side's deployed units by hex with their state.
func roster(v *rules.State, side string) []string {
	byHex := map[rules.Hex][]string{}
	var hexes []rules.Hex
	for _, u := range v.Units {
		if u.Side != side || !u.OnMap() {
			continue
		}
		if _, ok := byHex[u.Hex]; !ok {
			hexes = append(hexes, u.Hex)
		}
		byHex[u.Hex] = append(byHex[u.Hex], Describe(v, u))
	}
	sort.Slice(hexes, func(i, j int) bool { return hexes[i].String() < hexes[j].String() })
	var out []string
	for _, h := range hexes {
		name := v.Map.Names[h]
		if name != "" {
			name = " " + name
		}
		out = append(out, fmt.Sprintf("%s%s: %s", h, name, strings.Join(byHex[h], ", ")))
	}
	if len(out) == 0 {
		out = append(out, "none")
	}
	return out
}

// Describe names a unit with its state: damaged, dug in, idle, carried...
func Describe(v *rules.State, u *rules.Unit) string {
	var w []string
	if u.Damaged {
		w = append(w, "damaged")
	}
	if u.DugIn {
		w = append(w, "dug in")
	}
	if u.Idle {
		w = append(w, "idle")
	}
	if u.Hidden && !u.Found {
		w = append(w, "hidden")
	}
	if u.Aloft {
		w = append(w, fmt.Sprintf("aloft, %d turn(s) of flight", u.TOF))
	}
	if u.In != "" {
		w = append(w, u.Role+" of "+u.In)
	}
	if u.Building != "" && u.Side == v.ViewOf {
		w = append(w, "building "+u.Building)
	}
	if u.Within != "" {
		w = append(w, "in "+u.Within)
	}
	if !u.Across.IsZero() {
		w = append(w, "bridge to "+u.Across.String())
	}
	if len(u.Stars) > 0 {
		w = append(w, strings.Join(u.Stars, "+"))
	}
	w = append(w, describeMore(u)...)
	if len(w) == 0 {
		return u.ID
	}
	return u.ID + " (" + strings.Join(w, ", ") + ")"
}

// FormatStanding writes standing orders in the REACT language.
func FormatStanding(st rules.Standing) string {
	var b strings.Builder
	switch st.Retaliate {
	case "none":
		b.WriteString("  RETALIATE none\n")
	case "list":
		b.WriteString("  RETALIATE " + strings.Join(st.RetaliateUnits, " ") + "\n")
	default:
		b.WriteString("  RETALIATE all\n")
	}
	targets := st.Targets
	if targets == "" {
		targets = "best-odds"
	}
	ap := st.AP
	if ap == "" {
		ap = "auto"
	}
	dc := "no"
	if st.DefensiveCombat {
		dc = "yes"
	}
	fmt.Fprintf(&b, "  TARGETS %s\n  AP %s\n  DEFENSIVE-COMBAT %s\n", targets, ap, dc)
	for _, o := range st.Withdraw {
		fmt.Fprintf(&b, "  WITHDRAW %s IF %s", hexOrAny(o.Hex), FormatCondition(o.If))
		if !o.To.IsZero() {
			fmt.Fprintf(&b, " TO %s", o.To)
		}
		b.WriteString("\n")
	}
	for _, o := range st.Inspire {
		fmt.Fprintf(&b, "  INSPIRE %s\n", hexOrAny(o.Hex))
	}
	for _, o := range st.Interdict {
		fmt.Fprintf(&b, "  INTERDICT %s WITH %s %s\n", hexOrAny(o.Hex), o.FO, strings.Join(o.Guns, " "))
	}
	for _, o := range st.Support {
		ffe := ""
		if o.FFE {
			ffe = " THEN FFE"
		}
		fmt.Fprintf(&b, "  SUPPORT %s WITH %s %s %s%s\n", hexOrAny(o.Hex), o.FO, strings.Join(o.Guns, " "), orWord(o.Mission, "DESTROY"), ffe)
	}
	for _, o := range st.Cover {
		fmt.Fprintf(&b, "  COVER %s WITH %s %s\n", o.Hex, o.FO, strings.Join(o.Guns, " "))
	}
	for _, o := range st.CeaseFire {
		fmt.Fprintf(&b, "  CEASEFIRE %s IF %s\n", hexOrAny(o.Hex), FormatCondition(o.If))
	}
	for _, o := range st.Surrender {
		fmt.Fprintf(&b, "  SURRENDER %s IF %s\n", hexOrAny(o.Hex), FormatCondition(o.If))
	}
	if len(st.Scramble) > 0 {
		fmt.Fprintf(&b, "  SCRAMBLE %s\n", strings.Join(st.Scramble, " "))
	}
	for _, o := range st.Smoke {
		fmt.Fprintf(&b, "  SMOKE %s IF %s\n", hexOrAny(o.Hex), FormatCondition(o.If))
	}
	if st.EngineersFight {
		b.WriteString("  ENGINEERS-FIGHT yes\n")
	}
	if st.IdleFight {
		b.WriteString("  IDLE-FIGHT yes\n")
	}
	fmt.Fprintf(&b, "  ACCEPT-CEASEFIRE %s\n  ACCEPT-SURRENDER %s\n", orWord(st.AcceptCeasefire, "never"), orWord(st.AcceptSurrender, "yes"))
	fmt.Fprintf(&b, "  CAPTURED %s\n", orWord(st.Captured, "keep"))
	return b.String()
}

func orWord(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func hexOrAny(h rules.Hex) string {
	if h.IsZero() {
		return "any"
	}
	return h.String()
}

// FormatCondition writes a condition as the language spells it.
func FormatCondition(c *rules.Condition) string {
	if c == nil {
		return "ALWAYS"
	}
	switch c.Kind {
	case "LOST":
		return fmt.Sprintf("LOST %d", c.N)
	case "ENEMY-HAS":
		return "ENEMY-HAS " + c.What
	case "ODDS<", "ODDS>":
		return fmt.Sprintf("%s%g", c.Kind, c.R)
	case "ROUND>=", "ENEMY-COST>":
		return fmt.Sprintf("%s%d", c.Kind, c.N)
	}
	return c.Kind
}

// portStates lists the ports hit by heavy weapons or blown (§VII.3.4).
func portStates(s *rules.State) string {
	var out []string
	for h, st := range s.Ports {
		out = append(out, h.String()+" "+st)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
