package rules

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/ordertext"
	"fieldpost/engine/ordertext/casetest"
)

// The adjudication cases under testdata/cases are the rules tests: each file
// sets up a position (PRESTATE, in the scenario format), gives both sides'
// orders and the dice, plays a round or a part of one (RUN), and states what
// must follow (POSTSTATE, EVENTS, or ERRORS for orders that must be refused).
// The format is documented in testdata/cases/README.md.

func TestCases(t *testing.T) {
	// Star General rolls d6 only.
	casetest.Run(t, "testdata/cases", "*/*.case", ordertext.CaseFormat{MaxFace: 6}, runCaseFile)
}

func runCaseFile(t *testing.T, cf *ordertext.Case) {
	var pre []string
	for _, l := range cf.Position {
		pre = append(pre, l.Raw)
	}
	sc, err := ParseScenario([]byte(strings.Join(pre, "\n")), BundledRuleset)
	if err != nil {
		t.Fatalf("PRESTATE (from line %d): %v", cf.PositionLine, err)
	}
	rs := sc.Ruleset
	if err := checkCitations(rs, cf.Sections); err != nil {
		t.Fatalf("SECTION: %v", err)
	}
	st := sc.NewGame()
	var orders []*Orders
	for _, sd := range st.Sides {
		lines, ok := cf.Orders[sd.Name]
		if !ok {
			continue
		}
		o, err := parseCaseOrders(sd.Name, lines)
		if err != nil {
			t.Fatalf("ORDERS %s: %v", sd.Name, err)
		}
		orders = append(orders, o)
	}
	for side := range cf.Orders {
		if side == "" {
			t.Fatal("ORDERS takes a side")
		}
		if st.Side(side) == nil {
			t.Fatalf("ORDERS for unknown side %q", side)
		}
	}
	dice := &engine.ScriptedDice{Faces: cf.Dice}
	next, events, err := runCase(rs, st, orders, dice, cf.Run)
	if len(cf.Errors) > 0 {
		if err == nil {
			t.Fatalf("orders were accepted; want errors:\n%s", joinLines(cf.Errors))
		}
		for _, want := range cf.Errors {
			if !strings.Contains(err.Error(), want.Text) {
				t.Errorf("line %d: no error containing %q; got:\n%v", want.N, want.Text, err)
			}
		}
		return
	}
	if err != nil {
		t.Fatalf("resolve: %v", err)
	}
	log := eventLog(events)
	if dice.Short > 0 {
		t.Errorf("the case gave %d dice but the round asked for %d more\n%s", len(cf.Dice), dice.Short, log)
	} else if dice.Used < len(dice.Faces) {
		t.Errorf("the case gave %d dice but only %d were rolled\n%s", len(cf.Dice), dice.Used, log)
	}
	checkEvents(t, cf.Events, events, log)
	for _, l := range cf.Post {
		if msg := checkPost(rs, next, l.Text); msg != "" {
			t.Errorf("POSTSTATE line %d %q: %s\n%s", l.N, l.Text, msg, log)
		}
	}
}

// checkCitations: a case cites the sections of the book its ruleset plays,
// optionally naming that book ("3SG"), never another book's numbers.
func checkCitations(rs *Ruleset, sections []string) error {
	for _, s := range sections {
		switch {
		case strings.EqualFold(s, rs.Name):
		case strings.EqualFold(s, "2SG") || strings.EqualFold(s, "3SG"):
			return fmt.Errorf("the case plays %s and names %s", rs.Name, s)
		case !rs.InBook(s):
			return fmt.Errorf("%s has no section %q", rs.Title, s)
		}
	}
	return nil
}

// runCase plays what RUN names: a whole round (the default), or parts of one
// after the round has started: "activate UNIT..." (those turns, in that
// order, without initiative rolls) and/or "artillery" (the artillery phase).
func runCase(rs *Ruleset, st *State, orders []*Orders, dice Dice, run []string) (*State, []Event, error) {
	if len(run) == 0 || run[0] == "round" {
		return Resolve(rs, st, orders, dice)
	}
	bySide := map[string]*Orders{}
	for _, o := range orders {
		if ps := Validate(rs, st, o); len(ps) > 0 {
			return nil, nil, ps
		}
		bySide[o.Side] = o
	}
	for _, sd := range st.Sides {
		if bySide[sd.Name] == nil {
			bySide[sd.Name] = DefaultOrders(rs, st, sd.Name)
		}
	}
	r := newResolver(rs, st, bySide, dice)
	r.startRound()
	for i := 0; i < len(run); i++ {
		switch run[i] {
		case "activate":
			for i+1 < len(run) && run[i+1] != "artillery" {
				i++
				u := r.st.Unit(run[i])
				if u == nil {
					return nil, nil, fmt.Errorf("RUN activate: no unit %q", run[i])
				}
				r.activate(u)
			}
		case "artillery":
			r.artilleryPhase()
		default:
			return nil, nil, fmt.Errorf("RUN %q: want round, activate UNIT..., artillery", run[i])
		}
	}
	return r.st, r.events, nil
}

func joinLines(ls []ordertext.Line) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString("  " + l.Text + "\n")
	}
	return b.String()
}

func eventLog(events []Event) string {
	var b strings.Builder
	b.WriteString("event log:\n")
	for _, e := range events {
		fmt.Fprintf(&b, "  [%s] %s", e.Kind, e.Text)
		if len(e.Dice) > 0 {
			fmt.Fprintf(&b, " dice=%v", e.Dice)
		}
		b.WriteByte('\n')
		if c := e.Combat; c != nil {
			for _, f := range []Force{c.Attacker, c.Defender} {
				fmt.Fprintf(&b, "      %s %s: %d dice on %s, rolled %v, %d hits, %d lost\n", f.Side, f.Unit, f.Dice, f.Rule, f.Rolled, f.Hits, f.Losses)
				for _, s := range f.Sources {
					fmt.Fprintf(&b, "        %s (%s) base %d", s.Who, s.Kind, s.Base)
					for _, fc := range s.Factors {
						fmt.Fprintf(&b, " %+d %s [%s]", fc.Dice, fc.Why, fc.Section)
					}
					fmt.Fprintf(&b, " = %d\n", s.Dice)
				}
			}
		}
	}
	return b.String()
}

// checkEvents: each EVENTS line must appear, in order, as part of an event's
// text or as "combat" facts: "attacker dice N", "defender hits N", "winner SIDE".
func checkEvents(t *testing.T, want []ordertext.Line, events []Event, log string) {
	var texts []string
	for _, e := range events {
		texts = append(texts, e.Text)
		if c := e.Combat; c != nil {
			texts = append(texts, fmt.Sprintf("attacker dice %d rule %s hits %d losses %d", c.Attacker.Dice, c.Attacker.Rule, c.Attacker.Hits, c.Attacker.Losses))
			texts = append(texts, fmt.Sprintf("defender dice %d rule %s hits %d losses %d", c.Defender.Dice, c.Defender.Rule, c.Defender.Hits, c.Defender.Losses))
			if c.Winner != "" {
				texts = append(texts, "winner "+c.Winner)
			}
		}
	}
	pos := 0
	for _, w := range want {
		found := false
		for pos < len(texts) {
			pos++
			if strings.Contains(texts[pos-1], w.Text) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("EVENTS line %d: no event containing %q (in order)\n%s", w.N, w.Text, log)
			return
		}
	}
}

// checkPost compares one POSTSTATE line with the state; it returns what differs.
//
//	stand UNIT NAME HEX|gone [sp=N] [support=NAME|none] [transport=NAME|none]
//	unit UNIT [status=S] [removed] [hq=lost|present]
//	battery ID HEX|gone [sp=N] [shots=N]
//	objective HEX owner=SIDE
//	game winner=SIDE|draw|none [ended]
//	calendar day=N round=N [night]
//	air SIDE left=N
func checkPost(rs *Ruleset, st *State, line string) string {
	f := strings.Fields(line)
	opts := map[string]string{}
	flags := map[string]bool{}
	for _, a := range f[1:] {
		if k, v, ok := strings.Cut(a, "="); ok {
			opts[k] = v
		} else {
			flags[a] = true
		}
	}
	var errs []string
	cmp := func(what string, got any, want string) {
		if fmt.Sprint(got) != want {
			errs = append(errs, fmt.Sprintf("%s is %v, want %s", what, got, want))
		}
	}
	switch f[0] {
	case "stand":
		if len(f) < 4 {
			return "stand UNIT NAME HEX|gone ..."
		}
		u := st.Unit(f[1])
		if u == nil {
			return "no such unit"
		}
		s := u.Stand(f[2])
		if f[3] == "gone" {
			if s != nil {
				return fmt.Sprintf("stand is still on the map at %s with %d SP", s.Hex, s.SP)
			}
			return ""
		}
		if s == nil {
			return "stand is not on the map"
		}
		cmp("hex", s.Hex, f[3])
		if v, ok := opts["sp"]; ok {
			cmp("sp", s.SP, v)
		}
		platoon := func(p *Platoon) string {
			if p == nil {
				return "none"
			}
			return p.Name
		}
		if v, ok := opts["support"]; ok {
			cmp("support", platoon(s.Support), v)
		}
		if v, ok := opts["transport"]; ok {
			cmp("transport", platoon(s.Transport), v)
		}
	case "unit":
		u := st.Unit(f[1])
		if u == nil {
			return "no such unit"
		}
		if v, ok := opts["status"]; ok {
			cmp("status", u.Status, v)
		}
		if flags["removed"] != u.Removed {
			cmp("removed", u.Removed, fmt.Sprint(flags["removed"]))
		}
		if v, ok := opts["hq"]; ok {
			got := "present"
			if u.HQ(rs) == nil {
				got = "lost"
			}
			cmp("hq", got, v)
		}
	case "battery":
		bt := st.Battery(f[1])
		if bt == nil {
			return "no such battery"
		}
		if len(f) > 2 && f[2] == "gone" {
			if !bt.Removed {
				return "battery is still in play"
			}
			return ""
		}
		if bt.Removed {
			return "battery was destroyed"
		}
		if len(f) > 2 && !strings.Contains(f[2], "=") {
			cmp("hex", bt.Hex, f[2])
		}
		if v, ok := opts["sp"]; ok {
			cmp("sp", bt.SP, v)
		}
		if v, ok := opts["shots"]; ok {
			cmp("shots", bt.Shots, v)
		}
	case "objective":
		for _, o := range st.Objectives {
			if o.Hex.String() == f[1] {
				owner := o.Owner
				if owner == "" {
					owner = "none"
				}
				cmp("owner", owner, opts["owner"])
				return strings.Join(errs, "; ")
			}
		}
		return "no such objective"
	case "game":
		if v, ok := opts["winner"]; ok {
			got := st.Winner
			if got == "" {
				got = "none"
			}
			cmp("winner", got, v)
		}
		cmp("ended", st.Ended, fmt.Sprint(flags["ended"]))
	case "calendar":
		if v, ok := opts["day"]; ok {
			cmp("day", st.Day, v)
		}
		if v, ok := opts["round"]; ok {
			cmp("round", st.Round, v)
		}
		cmp("night", st.Night, fmt.Sprint(flags["night"]))
	case "air":
		sd := st.Side(f[1])
		if sd == nil {
			return "no such side"
		}
		cmp("air left", sd.AirLeft, opts["left"])
	default:
		return "unknown POSTSTATE line"
	}
	return strings.Join(errs, "; ")
}

// parseCaseOrders reads the strict orders notation of the case files:
//
//	UNIT ID STATUS
//	  MOVE STAND HEX HEX...
//	  SWAP PLATOON STAND
//	  ATTACK HEX STAND:close|fire [STAND:close|fire] [la=P,P] [batteries=B,B] [air=N]
//	  HQAT HEX
//	PRIORITY ID ID...
//	BATTERY ID [keep=N] [fire=HEX] [move=HEX,HEX...]
//	AIRSTRIKE HEX
//	CHOICE losses=keep-strength|platoons-first holdatcost=yes|no pursue=yes|no defsupport=yes|no
//	NIGHT STRENGTH UNIT STAND SP | NIGHT PLATOON UNIT PLATOON STAND | NIGHT REBUILD UNIT STAND HEX SP | NIGHT RESHUFFLE UNIT STAND HEX
func parseCaseOrders(side string, lines []ordertext.Line) (*Orders, error) {
	o := &Orders{Side: side}
	var cur *UnitOrders
	hexes := func(ss []string) ([]Hex, error) {
		var out []Hex
		for _, s := range ss {
			h, err := ParseHex(s)
			if err != nil {
				return nil, err
			}
			out = append(out, h)
		}
		return out, nil
	}
	night := func() *NightOrders {
		if o.Night == nil {
			o.Night = &NightOrders{}
		}
		return o.Night
	}
	for _, l := range lines {
		f := l.Words
		if len(f) == 0 {
			continue
		}
		bad := func(err error) error { return fmt.Errorf("line %d %q: %v", l.N, l.Text, err) }
		atoi := func(s string) int { v, _ := strconv.Atoi(s); return v }
		switch strings.ToUpper(f[0]) {
		case "UNIT":
			if len(f) != 3 {
				return nil, bad(fmt.Errorf("UNIT ID STATUS"))
			}
			s, err := ParseStatus(f[2])
			if err != nil {
				return nil, bad(err)
			}
			o.Units = append(o.Units, UnitOrders{Unit: f[1], Status: s})
			cur = &o.Units[len(o.Units)-1]
		case "MOVE":
			path, err := hexes(f[2:])
			if err != nil || cur == nil {
				return nil, bad(fmt.Errorf("MOVE STAND HEX... inside a UNIT: %v", err))
			}
			cur.Moves = append(cur.Moves, StandMove{Stand: f[1], Path: path})
		case "SWAP":
			if cur == nil || len(f) != 3 {
				return nil, bad(fmt.Errorf("SWAP PLATOON STAND inside a UNIT"))
			}
			cur.Swaps = append(cur.Swaps, Swap{Platoon: f[1], To: f[2]})
		case "HQAT":
			h, err := ParseHex(f[1])
			if err != nil || cur == nil {
				return nil, bad(fmt.Errorf("HQAT HEX inside a UNIT"))
			}
			cur.HQPlacement = h
		case "ATTACK":
			if cur == nil || len(f) < 3 {
				return nil, bad(fmt.Errorf("ATTACK HEX STAND:close|fire ... inside a UNIT"))
			}
			h, err := ParseHex(f[1])
			if err != nil {
				return nil, bad(err)
			}
			a := &Attack{Target: h}
			for _, arg := range f[2:] {
				k, v, _ := strings.Cut(arg, "=")
				switch k {
				case "la":
					a.LightArtillery = strings.Split(v, ",")
				case "batteries":
					a.Batteries = strings.Split(v, ",")
				case "air":
					a.Air = atoi(v)
				default:
					name, mode, ok := strings.Cut(arg, ":")
					if !ok || (mode != "close" && mode != "fire") {
						return nil, bad(fmt.Errorf("attacking stand %q: write STAND:close or STAND:fire", arg))
					}
					a.Stands = append(a.Stands, AttackStand{Stand: name, Close: mode == "close"})
				}
			}
			cur.Attack = a
		case "PRIORITY":
			o.Priority = f[1:]
		case "BATTERY":
			bo := BatteryOrders{Battery: f[1]}
			for _, arg := range f[2:] {
				k, v, _ := strings.Cut(arg, "=")
				switch k {
				case "keep":
					bo.Keep = atoi(v)
				case "fire":
					h, err := ParseHex(v)
					if err != nil {
						return nil, bad(err)
					}
					bo.Fire = h
				case "move":
					path, err := hexes(strings.Split(v, ","))
					if err != nil {
						return nil, bad(err)
					}
					bo.Move = path
				default:
					return nil, bad(fmt.Errorf("BATTERY option %q", arg))
				}
			}
			o.Batteries = append(o.Batteries, bo)
		case "AIRSTRIKE":
			hs, err := hexes(f[1:])
			if err != nil {
				return nil, bad(err)
			}
			o.AirStrikes = append(o.AirStrikes, hs...)
		case "CHOICE":
			for _, arg := range f[1:] {
				k, v, _ := strings.Cut(arg, "=")
				switch k {
				case "losses":
					o.Choices.Losses = v
				case "holdatcost":
					o.Choices.NoHoldAtCost = v == "no"
				case "pursue":
					o.Choices.NoPursuit = v == "no"
				case "defsupport":
					o.Choices.NoDefensiveSupport = v == "no"
				default:
					return nil, bad(fmt.Errorf("CHOICE %q", arg))
				}
			}
		case "NIGHT":
			if len(f) < 2 {
				return nil, bad(fmt.Errorf("NIGHT what"))
			}
			n := night()
			switch strings.ToUpper(f[1]) {
			case "STRENGTH":
				n.Strength = append(n.Strength, Recovery{Unit: f[2], Stand: f[3], SP: atoi(f[4])})
			case "PLATOON":
				pr := PlatoonRecovery{Unit: f[2], Platoon: f[3], To: f[4]}
				if len(f) > 5 {
					from, ok := strings.CutPrefix(f[5], "from=")
					if !ok {
						return nil, bad(fmt.Errorf("NIGHT PLATOON: %q, want from=UNIT", f[5]))
					}
					pr.From = from
				}
				n.Platoons = append(n.Platoons, pr)
			case "REBUILD":
				h, err := ParseHex(f[4])
				if err != nil {
					return nil, bad(err)
				}
				n.Rebuild = append(n.Rebuild, Rebuild{Unit: f[2], Stand: f[3], Hex: h, SP: atoi(f[5])})
			case "RESHUFFLE":
				h, err := ParseHex(f[4])
				if err != nil {
					return nil, bad(err)
				}
				n.Reshuffle = append(n.Reshuffle, NightMove{Unit: f[2], Stand: f[3], To: h})
			default:
				return nil, bad(fmt.Errorf("NIGHT %s", f[1]))
			}
		default:
			return nil, bad(fmt.Errorf("unknown order keyword"))
		}
	}
	return o, nil
}
