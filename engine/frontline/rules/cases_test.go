package rules_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/frontline/ordertext"
	"fieldpost/engine/frontline/rules"
	kernel "fieldpost/engine/ordertext"
	"fieldpost/engine/ordertext/casetest"
)

// The adjudication cases under testdata/cases are the rules tests: each
// file sets up a position (PRESTATE, in the scenario format), gives the
// active side's orders in the order language and the dice, plays the turn,
// and states what must follow (POSTSTATE, EVENTS in order, or ERRORS for
// orders that must be refused). testdata/cases/README.md has the format.
func TestCases(t *testing.T) {
	// Frontline's dice go up to d20 and its orders name no side.
	casetest.Run(t, "testdata/cases", "*.case", kernel.CaseFormat{MaxFace: 20}, runCase)
}

// written is lines as written, one text.
func written(lines []kernel.Line) string {
	raws := make([]string, len(lines))
	for i, l := range lines {
		raws[i] = l.Raw
	}
	return strings.Join(raws, "\n")
}

func runCase(t *testing.T, c *kernel.Case) {
	s, err := rules.ParseScenario(written(c.Position))
	if err != nil {
		t.Fatalf("PRESTATE: %v", err)
	}
	for side, lines := range c.Standing {
		sub, probs := ordertext.Parse(s, side, "REACT\n"+written(lines))
		so := sub.Orders
		if len(probs) > 0 || so.Standing == nil {
			t.Fatalf("STANDING %s: %v", side, probs)
		}
		if s, err = s.SetStanding(side, *so.Standing); err != nil {
			t.Fatal(err)
		}
	}
	sub, probs := ordertext.Parse(s, s.Active, written(c.Orders[""]))
	o := sub.Orders
	if len(c.Errors) > 0 {
		var all []string
		for _, p := range probs {
			all = append(all, p.String())
		}
		text := strings.Join(all, "\n")
		for _, want := range c.Errors {
			if !strings.Contains(text, want.Text) {
				t.Errorf("problems lack %q; got:\n%s", want.Text, text)
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
	d := &engine.ScriptedDice{Faces: c.Dice}
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
	for _, want := range c.Events {
		found := false
		for ; at < len(log); at++ {
			if strings.Contains(log[at], want.Text) {
				found = true
				at++
				break
			}
		}
		if !found {
			t.Errorf("event %q not found in order; log:\n%s", want.Text, text)
			break
		}
	}
	for _, line := range c.Post {
		if err := checkPost(n, line.Text); err != nil {
			t.Errorf("POSTSTATE line %d %q: %v\nlog:\n%s", line.N, line.Text, err, text)
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
