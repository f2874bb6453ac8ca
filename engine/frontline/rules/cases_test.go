package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/frontline/ordertext"
	"fieldpost/engine/frontline/rules"
)

// The adjudication cases under testdata/cases are the rules tests: each
// file sets up a position (PRESTATE, in the scenario format), gives the
// active side's orders in the order language and the dice, plays the turn,
// and states what must follow (POSTSTATE, EVENTS in order, or ERRORS for
// orders that must be refused). testdata/cases/README.md has the format.
func TestCases(t *testing.T) {
	files, err := filepath.Glob("testdata/cases/*.case")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no cases found")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".case")
		t.Run(name, func(t *testing.T) { runCase(t, f) })
	}
}

type caseFile struct {
	section              []string
	pre, orders          []string
	standing             map[string][]string
	dice                 []int
	post, events, errors []string
}

func readCase(t *testing.T, path string) caseFile {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c caseFile
	block := ""
	for i, raw := range strings.Split(string(b), "\n") {
		f := strings.Fields(raw)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			if block == "ORDERS" {
				c.orders = append(c.orders, raw)
			}
			continue
		}
		switch f[0] {
		case "SECTION":
			c.section = append(c.section, f[1:]...)
			continue
		case "PRESTATE", "ORDERS", "POSTSTATE", "EVENTS", "ERRORS":
			block = f[0]
			continue
		case "STANDING":
			if len(f) != 2 {
				t.Fatalf("%s:%d: STANDING takes a side", path, i+1)
			}
			block = "STANDING " + f[1]
			if c.standing == nil {
				c.standing = map[string][]string{}
			}
			continue
		case "DICE":
			block = ""
			for _, d := range f[1:] {
				if d == "|" {
					continue
				}
				v, err := strconv.Atoi(d)
				if err != nil || v < 1 || v > 20 {
					t.Fatalf("%s:%d: die %q is not 1 to 20", path, i+1, d)
				}
				c.dice = append(c.dice, v)
			}
			continue
		}
		line := strings.TrimSpace(raw)
		switch block {
		case "PRESTATE":
			c.pre = append(c.pre, raw)
		case "ORDERS":
			c.orders = append(c.orders, raw)
		case "POSTSTATE":
			c.post = append(c.post, line)
		case "EVENTS":
			c.events = append(c.events, line)
		case "ERRORS":
			c.errors = append(c.errors, line)
		default:
			if side, ok := strings.CutPrefix(block, "STANDING "); ok {
				c.standing[side] = append(c.standing[side], line)
				continue
			}
			t.Fatalf("%s:%d: %q outside any block", path, i+1, line)
		}
	}
	if len(c.section) == 0 {
		t.Fatalf("%s: no SECTION: every case cites the rule it checks", path)
	}
	return c
}

func runCase(t *testing.T, path string) {
	c := readCase(t, path)
	s, err := rules.ParseScenario(strings.Join(c.pre, "\n"))
	if err != nil {
		t.Fatalf("PRESTATE: %v", err)
	}
	for side, lines := range c.standing {
		so, probs := ordertext.Parse(s, side, "REACT\n"+strings.Join(lines, "\n"))
		if len(probs) > 0 || so.Standing == nil {
			t.Fatalf("STANDING %s: %v", side, probs)
		}
		if s, err = s.SetStanding(side, *so.Standing); err != nil {
			t.Fatal(err)
		}
	}
	o, probs := ordertext.Parse(s, s.Active, strings.Join(c.orders, "\n"))
	if len(c.errors) > 0 {
		var all []string
		for _, p := range probs {
			all = append(all, p.Error())
		}
		text := strings.Join(all, "\n")
		for _, want := range c.errors {
			if !strings.Contains(text, want) {
				t.Errorf("problems lack %q; got:\n%s", want, text)
			}
		}
		if len(probs) == 0 {
			t.Errorf("orders accepted, want refused")
		}
		return
	}
	if len(probs) > 0 {
		t.Fatalf("orders refused: %v", probs)
	}
	d := &engine.ScriptedDice{Faces: c.dice}
	n, events, err := s.Play(o, d)
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	var log []string
	for _, e := range append(events, n.Opening...) {
		line := e.Text
		for _, r := range e.Rolls {
			line += " [" + r.String() + "]"
		}
		log = append(log, line)
	}
	text := strings.Join(log, "\n")
	if d.Used != len(d.Faces) || d.Short > 0 || len(d.Wrong) > 0 {
		t.Errorf("dice: %d scripted, %d used, %d asked beyond, wrong faces at %v; log:\n%s", len(d.Faces), d.Used, d.Short, d.Wrong, text)
	}
	at := 0
	for _, want := range c.events {
		found := false
		for ; at < len(log); at++ {
			if strings.Contains(log[at], want) {
				found = true
				at++
				break
			}
		}
		if !found {
			t.Errorf("event %q not found in order; log:\n%s", want, text)
			break
		}
	}
	for _, line := range c.post {
		if err := checkPost(n, line); err != nil {
			t.Errorf("POSTSTATE %q: %v\nlog:\n%s", line, err, text)
		}
	}
}

// checkPost checks one POSTSTATE line:
//
//	unit SIDE:ID HEX|gone [damaged|intact] [dug|undug] [idle] [in=ID|in=-] [stars=a,b] [staged]
//	treasury SIDE N · hand SIDE card... · control HEX SIDE · bridge HEX-HEX intact|collapsed
//	game over=yes|no [winner=SIDE] · active SIDE TURN · score SIDE N
func checkPost(s *rules.State, line string) error {
	f := strings.Fields(line)
	switch f[0] {
	case "unit":
		side, id, _ := strings.Cut(f[1], ":")
		u := s.Unit(side, id)
		if f[2] == "gone" {
			if u != nil {
				return fmt.Errorf("still there at %s", u.Hex)
			}
			return nil
		}
		if u == nil {
			return fmt.Errorf("gone")
		}
		if f[2] != "-" && u.Hex.String() != f[2] {
			return fmt.Errorf("at %s", u.Hex)
		}
		for _, w := range f[3:] {
			k, v, _ := strings.Cut(w, "=")
			var ok bool
			switch k {
			case "damaged":
				ok = u.Damaged
			case "intact":
				ok = !u.Damaged
			case "dug":
				ok = u.DugIn
			case "undug":
				ok = !u.DugIn
			case "idle":
				ok = u.Idle
			case "active":
				ok = !u.Idle
			case "staged":
				ok = u.Staged > 0
			case "deployed":
				ok = u.Staged == 0
			case "aloft":
				ok = u.Aloft
			case "grounded":
				ok = !u.Aloft
			case "found":
				ok = u.Found
			case "unfound":
				ok = !u.Found
			case "away":
				ok = u.Away > 0
			case "relocating":
				ok = u.Relocate > 0
			case "captured":
				ok = u.Captured
			case "spent":
				ok = u.Spent
			case "loaded":
				ok = !u.Spent
			case "momentum":
				ok = strconv.Itoa(u.Momentum) == v
			case "in":
				ok = u.In == strings.TrimPrefix(v, "-")
			case "stars":
				ok = strings.Join(u.Stars, ",") == v
			case "building":
				ok = u.Building == strings.TrimPrefix(v, "-")
			case "within":
				ok = u.Within == strings.TrimPrefix(v, "-")
			default:
				return fmt.Errorf("unknown word %q", w)
			}
			if !ok {
				return fmt.Errorf("%s is not so: %+v", w, *u)
			}
		}
	case "treasury", "score":
		p := s.Player(f[1])
		want, _ := strconv.Atoi(f[2])
		got := p.Treasury
		if f[0] == "score" {
			got = p.Score
		}
		if got != want {
			return fmt.Errorf("is %d", got)
		}
	case "hand":
		if got := strings.Join(s.Player(f[1]).Hand, " "); got != strings.Join(f[2:], " ") {
			return fmt.Errorf("is %q", got)
		}
	case "control":
		h, _ := rules.ParseHex(f[1])
		if s.Control[h] != f[2] {
			return fmt.Errorf("held by %q", s.Control[h])
		}
	case "bridge":
		hs, err := rules.ParseHexside(f[1])
		if err != nil {
			return err
		}
		if s.Bridges[hs] != f[2] {
			return fmt.Errorf("is %q", s.Bridges[hs])
		}
	case "port":
		h, _ := rules.ParseHex(f[1])
		if got := s.PortState(h); got != f[2] {
			return fmt.Errorf("is %q", got)
		}
	case "game":
		for _, w := range f[1:] {
			k, v, _ := strings.Cut(w, "=")
			switch k {
			case "over":
				if s.Over != (v == "yes") {
					return fmt.Errorf("over is %v (%s)", s.Over, s.Result)
				}
			case "winner":
				if s.Winner != v {
					return fmt.Errorf("winner is %q", s.Winner)
				}
			}
		}
	case "active":
		turn, _ := strconv.Atoi(f[2])
		if s.Active != f[1] || s.Turn != turn {
			return fmt.Errorf("active %s turn %d", s.Active, s.Turn)
		}
	default:
		return fmt.Errorf("unknown POSTSTATE line")
	}
	return nil
}
