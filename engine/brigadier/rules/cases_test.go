package rules_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/brigadier/ordertext"
	"fieldpost/engine/brigadier/report"
	"fieldpost/engine/brigadier/rules"
	kernel "fieldpost/engine/ordertext"
	"fieldpost/engine/ordertext/casetest"
)

// The adjudication cases: testdata/cases/*.case, each a small scenario
// (MAP, SIDE, BATTALION and platoon lines as in a scenario; an open 24×16
// map and a daylight clock unless given) with:
//
//	TERRAIN letter hex hex ...   terrain on the open map
//
//	CASE title                   CITE sections
//	ORDERS side ... END          a side's mail, read by the order language
//	DICE phase d d d ...         the dice of a phase, in the order rolled
//	UPTO phase                   stop the turn after that phase
//	SEES observer target yes|no  visibility before the turn
//	TABLE hits sixes div kills wounds | rungs steps exp rungs |
//	      dice firer target n | allowance platoon order n | cost platoon hex n
//	EXPECT side platoon field=value ...   after the turn
//	EXPECT text "..." | notext "..." | error side "..." | valid side |
//	       radio battalion in|out | clock hh:mm | initiative side |
//	       report side has|hasnot "..."
func TestCases(t *testing.T) {
	rs, err := rules.BundledRuleset()
	if err != nil {
		t.Fatal(err)
	}
	// Brigadier's cases are a scenario with the case's lines among its
	// own, and script their dice by phase.
	format := kernel.CaseFormat{Loose: true, Directives: []string{"UPTO", "EXPECT", "SEES", "TABLE", "TERRAIN"}}
	files := casetest.Run(t, "testdata/cases", "*.case", format, func(t *testing.T, c *kernel.Case) { runCase(t, rs, c) })
	if files < 50 {
		t.Errorf("%d adjudication cases, want at least 50", files)
	}
}

func runCase(t *testing.T, rs *rules.Ruleset, c *kernel.Case) {
	// A phase without a script rolls seeded dice, so that a case need only
	// script what it checks.
	dice := &engine.ScriptedDice{Phases: c.PhaseDice, Unscripted: engine.NewSeededDice(1)}
	if dice.Phases == nil {
		dice.Phases = map[string][]int{}
	}
	var expects, sees, tables, terrain [][]string
	upto := ""
	for _, d := range c.Directives {
		switch f := d.Words; strings.ToUpper(f[0]) {
		case "UPTO":
			upto = f[1]
		case "EXPECT":
			expects = append(expects, f[1:])
		case "SEES":
			sees = append(sees, f[1:])
		case "TABLE":
			tables = append(tables, f[1:])
		case "TERRAIN":
			terrain = append(terrain, f[1:])
		}
	}
	var scen []string
	hasMap, hasClock := false, false
	for _, l := range c.Position {
		scen = append(scen, l.Raw)
		hasMap = hasMap || len(l.Words) > 0 && l.Words[0] == "MAP"
		hasClock = hasClock || len(l.Words) > 0 && l.Words[0] == "CLOCK"
	}
	orders := map[string]string{}
	for side, lines := range c.Orders {
		var raws []string
		for _, l := range lines {
			raws = append(raws, l.Raw)
		}
		orders[side] = strings.Join(raws, "\n")
	}
	head := []string{"SCENARIO case", "RULESET bgc"}
	if !hasClock {
		head = append(head, "CLOCK 12:00 END 18:00 SUNRISE 06:00 SUNSET 20:00")
	}
	if !hasMap {
		rows := make([][]byte, 16)
		for i := range rows {
			rows[i] = []byte(strings.Repeat(".", 24))
		}
		for _, tr := range terrain {
			for _, hs := range tr[1:] {
				h := rules.MustHex(hs)
				rows[h.Row-1][h.Col-1] = tr[0][0]
			}
		}
		head = append(head, "MAP 24 16")
		for _, r := range rows {
			head = append(head, string(r))
		}
	}
	sc, err := rules.ParseScenario(rs, strings.Join(append(head, scen...), "\n"))
	if err != nil {
		t.Fatal(err)
	}
	st := sc.State
	find := func(name string) *rules.Platoon {
		for _, p := range st.Platoons {
			if p.Name == name {
				return p
			}
		}
		t.Fatalf("no platoon %s", name)
		return nil
	}
	for _, s := range sees {
		got := rules.Sees(rs, st, find(s[0]), find(s[1]))
		if got != (s[2] == "yes") {
			t.Errorf("SEES %s %s: %v, want %s", s[0], s[1], got, s[2])
		}
	}
	for _, tb := range tables {
		checkTable(t, rs, st, find, tb)
	}
	var list []*rules.Orders
	for _, sd := range st.Sides {
		text, ok := orders[sd.Name]
		if !ok {
			// A side without ORDERS sent a mail naming none of its
			// platoons: they keep their orders and do not fire.
			list = append(list, &rules.Orders{Side: sd.Name})
			continue
		}
		sub, errs := ordertext.Parse(rs, st, sd.Name, text)
		want := expectsFor(expects, "error", sd.Name)
		if want != "" {
			if !strings.Contains(caseText(errs), want) {
				t.Errorf("%s's orders: errors %v, want one with %q", sd.Name, errs, want)
			}
			continue
		}
		if errs != nil {
			t.Fatalf("%s's orders refused: %v", sd.Name, errs)
		}
		list = append(list, sub.Orders)
	}
	resolve := slices.ContainsFunc(expects, func(e []string) bool { return e[0] != "error" && e[0] != "valid" })
	if !resolve {
		return
	}
	after, events, err := rules.ResolveUpTo(rs, st, list, dice, upto)
	if err != nil {
		t.Fatal(err)
	}
	if dice.Short > 0 || len(dice.Wrong) > 0 {
		t.Fatalf("the case needs %d more dice, wrong faces at %v", dice.Short, dice.Wrong)
	}
	var all strings.Builder
	for _, e := range events {
		all.WriteString(e.Text + "\n")
	}
	log := all.String()
	for _, e := range expects {
		switch e[0] {
		case "error", "valid":
		case "text":
			if !strings.Contains(log, e[1]) {
				t.Errorf("the events do not say %q:\n%s", e[1], log)
			}
		case "notext":
			if strings.Contains(log, e[1]) {
				t.Errorf("the events say %q:\n%s", e[1], log)
			}
		case "radio":
			for _, b := range after.Battalions {
				if b.Name == e[1] && b.Radio != (e[2] == "in") {
					t.Errorf("radio %s: %v, want %s\n%s", e[1], b.Radio, e[2], log)
				}
			}
		case "clock":
			if got := rules.ClockText(after.Clock); got != e[1] {
				t.Errorf("clock %s, want %s", got, e[1])
			}
		case "initiative":
			if after.Initiative != e[1] {
				t.Errorf("initiative %s, want %s\n%s", after.Initiative, e[1], log)
			}
		case "report":
			text := report.Text(report.Round{Ruleset: rs, Before: st, After: after, Events: events}, e[1])
			if strings.Contains(text, e[3]) != (e[2] == "has") {
				t.Errorf("%s's report %s %q:\n%s", e[1], e[2], e[3], text)
			}
		default:
			checkPlatoon(t, rs, after, e, log)
		}
	}
}

func expectsFor(expects [][]string, kind, side string) string {
	for _, e := range expects {
		if e[0] == kind && len(e) > 2 && e[1] == side {
			return e[2]
		}
	}
	return ""
}

func checkPlatoon(t *testing.T, rs *rules.Ruleset, st *rules.State, e []string, log string) {
	var p *rules.Platoon
	for _, q := range st.Platoons {
		if q.Side == e[0] && q.Name == e[1] {
			p = q
		}
	}
	if p == nil {
		t.Fatalf("EXPECT: no platoon %s of %s", e[1], e[0])
	}
	for _, kv := range e[2:] {
		k, v, _ := strings.Cut(kv, "=")
		var got string
		switch k {
		case "hex":
			got = p.Hex.String()
		case "order":
			got = rs.OrderName(p.Order)
		case "dead":
			got = strconv.Itoa(p.Dead)
		case "wounded":
			got = strconv.Itoa(p.Wounded)
		case "count":
			got = strconv.Itoa(p.Count(rs))
		case "removed":
			got = yes(p.Removed)
		case "fate":
			got = p.Fate
		case "hidden":
			got = yes(p.Hidden)
		case "dug_in":
			got = yes(p.DugIn)
		default:
			t.Fatalf("EXPECT: unknown field %s", k)
		}
		if got != v {
			t.Errorf("%s %s: %s=%s, want %s\n%s", e[0], e[1], k, got, v, log)
		}
	}
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func checkTable(t *testing.T, rs *rules.Ruleset, st *rules.State, find func(string) *rules.Platoon, tb []string) {
	n := func(s string) int {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("TABLE %v: %q", tb, s)
		}
		return v
	}
	switch tb[0] {
	case "hits":
		k, w := rules.Hits(n(tb[1]), n(tb[2]))
		if k != n(tb[3]) || w != n(tb[4]) {
			t.Errorf("TABLE hits %s sixes 1/%s: %d kills %d wounds, want %s %s", tb[1], tb[2], k, w, tb[3], tb[4])
		}
	case "rungs":
		if got := rules.Rungs(n(tb[1]), rs.Absorb[tb[2]].I()); got != n(tb[3]) {
			t.Errorf("TABLE rungs %s steps %s: %d, want %s", tb[1], tb[2], got, tb[3])
		}
	case "dice":
		f, tg := find(tb[1]), find(tb[2])
		w, d := rules.BestWeapon(rs, f, tg, rules.Distance(f.Hex, tg.Hex))
		if d != n(tb[3]) {
			t.Errorf("TABLE dice %s at %s: %d (%s), want %s", tb[1], tb[2], d, w, tb[3])
		}
	case "allowance":
		if got := rules.Allowance(rs, find(tb[1]), rs.RungOf(tb[2])); got != n(tb[3]) {
			t.Errorf("TABLE allowance %s %s: %d, want %s", tb[1], tb[2], got, tb[3])
		}
	case "cost":
		p := find(tb[1])
		h := rules.MustHex(tb[2])
		if got := rules.StepCost(rs, st, p, p.Hex, h, p.Order); got != n(tb[3]) {
			t.Errorf("TABLE cost %s into %s: %d, want %s", tb[1], tb[2], got, tb[3])
		}
	default:
		t.Fatalf("unknown TABLE %s", tb[0])
	}
}

// caseText is the problems as the case files write them, the book's way:
// "line 2: 2Zug: HQ has already given its one order this turn (11.2)".
func caseText(probs []engine.Problem) string {
	var b strings.Builder
	for _, p := range probs {
		if p.Line > 0 {
			fmt.Fprintf(&b, "line %d: ", p.Line)
		}
		b.WriteString(p.Text)
		if p.Rule != "" {
			fmt.Fprintf(&b, " (%s)", p.Rule)
		}
		b.WriteString("\n")
	}
	return b.String()
}
