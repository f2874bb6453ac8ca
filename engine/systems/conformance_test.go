package systems_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/engine/systems"
	"fieldpost/templates"
)

// hosted are the game systems the binary hosts.
func hosted(t *testing.T) engine.Systems {
	t.Helper()
	all, err := systems.New(templates.FS)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestEverySystemConforms holds every registered game system to what the
// judge assumes of the seam, on every bundled scenario, through a whole game
// of its bots: the same seed gives the same bytes (positions, rounds,
// reports, maps); what the judge stores reads back the same; the order form
// sent back unchanged is accepted for every side the game waits for; a
// system that hides information shows each side a view of its own, one
// that does not shows everyone the same; and the game ends.
func TestEverySystemConforms(t *testing.T) {
	for _, sys := range hosted(t) {
		t.Run(sys.Name(), func(t *testing.T) {
			if sys.Title() == "" || len(sys.Scenarios()) == 0 {
				t.Fatalf("no title or no scenarios: %q, %v", sys.Title(), sys.Scenarios())
			}
			for _, info := range sys.Scenarios() {
				t.Run(info.Name, func(t *testing.T) { conforms(t, sys, info) })
			}
		})
	}
}

// maxPlays bounds a bot game: far beyond the longest bundled scenario.
const maxPlays = 400

func conforms(t *testing.T, sys engine.System, info engine.ScenarioInfo) {
	pos := newGame(t, sys, info)
	planner, ok := sys.(engine.Planner)
	if !ok {
		t.Fatal("the system has no bot: engine.Planner is what plays a whole game here")
	}
	for play := 0; !pos.Step().Over; play++ {
		if play == maxPlays {
			t.Fatalf("the game has not ended after %d plays: %+v", maxPlays, pos.Step())
		}
		if pos.Turn() != play {
			t.Fatalf("Turn() = %d after %d plays", pos.Turn(), play)
		}
		formsAreAccepted(t, pos)
		viewsHide(t, pos)
		orders := botOrders(t, planner, pos, uint64(play))
		seed := engine.RoundSeed(7, play)
		next, round := playTwice(t, pos, orders, seed)
		meta := engine.RoundMeta{Game: "g1", Seed: seed, Orders: orders}
		next, round = storedRoundTrip(t, sys, pos, next, round, meta)
		if play == 0 {
			mapsAreDeterministic(t, pos, next, round)
		}
		pos = next
	}
	if step := pos.Step(); step.Result == "" || len(step.Waiting) != 0 {
		t.Errorf("the game is over with no result or still waits: %+v", step)
	}
}

// newGame sets up a scenario twice from the same seed: the same bytes, and
// the sides the scenario lists.
func newGame(t *testing.T, sys engine.System, info engine.ScenarioInfo) engine.Position {
	t.Helper()
	pos, err := sys.NewGame(info.Name, 11)
	if err != nil {
		t.Fatal(err)
	}
	again, err := sys.NewGame(info.Name, 11)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(marshal(t, pos), marshal(t, again)) {
		t.Error("NewGame with the same seed gave different positions")
	}
	if fmt.Sprint(pos.Sides()) != fmt.Sprint(info.Sides) || len(info.Sides) < 2 {
		t.Errorf("the position's sides %v, the scenario lists %v", pos.Sides(), info.Sides)
	}
	if pos.Scenario() != info.Name || pos.Turn() != 0 {
		t.Errorf("a new game of %s: scenario %q, turn %d", info.Name, pos.Scenario(), pos.Turn())
	}
	return pos
}

// formsAreAccepted sends back every side's order form unchanged: a waiting
// side's as orders, another's as the standing orders it may send while it
// waits, where the system has them. The reading says the round the form's
// header names, the next play's (the judge tells an old form quoted back
// from the current one by it).
func formsAreAccepted(t *testing.T, pos engine.Position) {
	t.Helper()
	for _, sd := range pos.Sides() {
		form := pos.Form(sd.Name, "g1")
		var r engine.Reading
		if standing, ok := pos.(engine.Standing); ok && !slices.Contains(pos.Step().Waiting, sd.Name) {
			_, r = standing.Stand(sd.Name, form, 0)
		} else {
			r = pos.Read(sd.Name, form, 0)
		}
		if r.Errors != 0 {
			t.Fatalf("turn %d: %s's unchanged form is refused:\n%s\n--- the form:\n%s", pos.Turn(), sd.Name, r.Answer, form)
		}
		if r.Round != pos.Turn()+1 {
			t.Fatalf("turn %d: the reading of %s's unchanged form says round %d, want %d, the round of its header:\n%s", pos.Turn(), sd.Name, r.Round, pos.Turn()+1, form)
		}
		headerAlone(t, pos, sd.Name, form)
		if _, ok := pos.(engine.Standing); !ok || slices.Contains(pos.Step().Waiting, sd.Name) {
			inALetter(t, pos, sd.Name, form)
		}
	}
}

// headerAlone sends the form's header line and nothing else: in every
// family that is no orders (the judge answers that it found none), and no
// error either.
func headerAlone(t *testing.T, pos engine.Position, side, form string) {
	t.Helper()
	for line := range strings.Lines(form) {
		if !strings.HasPrefix(line, "GAME ") {
			continue
		}
		if r := pos.Read(side, line, 0); r.Found || r.Errors != 0 {
			t.Fatalf("turn %d: %s's header alone reads as orders (found %v, %d errors), want none:\n%s%s", pos.Turn(), side, r.Found, r.Errors, line, r.Answer)
		}
		return
	}
	t.Fatalf("turn %d: %s's form has no GAME header:\n%s", pos.Turn(), side, form)
}

// inALetter sends the form as a player writes a letter: a greeting above
// it, a sign-off below and no END line. Every family reads the orders and
// passes over the player's own words, listing the sign-off.
func inALetter(t *testing.T, pos engine.Position, side, form string) {
	t.Helper()
	var body strings.Builder
	body.WriteString("Hello umpire,\nhere are my orders.\n\n")
	for line := range strings.Lines(form) {
		if strings.TrimSpace(line) != "END" {
			body.WriteString(line)
		}
	}
	body.WriteString("\nCheers,\nAlice\n")
	r := pos.Read(side, body.String(), 0)
	if r.Errors != 0 || !r.Found {
		t.Fatalf("turn %d: %s's form in a letter: %d errors, found %v, want read:\n%s\n--- the letter:\n%s", pos.Turn(), side, r.Errors, r.Found, r.Answer, body.String())
	}
	if n := len(r.Ignored); n != 2 || r.Ignored[0].Text != "Cheers," || r.Ignored[1].Text != "Alice" {
		t.Fatalf("turn %d: %s's form in a letter: ignored %+v, want the sign-off", pos.Turn(), side, r.Ignored)
	}
}

// viewsHide checks lightly what each side is shown: each its own view, not
// the public's, where information is hidden (what a view must leave out is
// the fog-of-war properties' to check, family by family); the same for
// every side and the public where nothing is.
func viewsHide(t *testing.T, pos engine.Position) {
	t.Helper()
	sides := pos.Sides()
	first := view(t, pos, sides[0].Name)
	whole := marshal(t, pos)
	public := view(t, pos, engine.Public)
	switch {
	case pos.HidesInformation() && bytes.Equal(public, first):
		t.Fatalf("turn %d: the public is shown %s's view, yet the game hides information", pos.Turn(), sides[0].Name)
	case !pos.HidesInformation() && !bytes.Equal(public, first):
		t.Fatalf("turn %d: the public and %s are shown different views, yet the game hides nothing", pos.Turn(), sides[0].Name)
	}
	for _, sd := range sides[1:] {
		v := view(t, pos, sd.Name)
		switch {
		case pos.HidesInformation() && bytes.Equal(v, public):
			t.Fatalf("turn %d: %s is shown the public's view, yet the game hides information", pos.Turn(), sd.Name)
		case pos.HidesInformation() && bytes.Equal(v, first):
			t.Fatalf("turn %d: %s and %s are shown the same view, yet the game hides information", pos.Turn(), sides[0].Name, sd.Name)
		case pos.HidesInformation() && bytes.Equal(v, whole):
			t.Fatalf("turn %d: %s is shown the whole position, yet the game hides information", pos.Turn(), sd.Name)
		case !pos.HidesInformation() && !bytes.Equal(v, first):
			t.Fatalf("turn %d: %s and %s are shown different views, yet the game hides nothing", pos.Turn(), sides[0].Name, sd.Name)
		}
	}
}

// botOrders has every waiting side's bot plan from its view; the plan must
// read back as orders, which must store and read back the same.
func botOrders(t *testing.T, planner engine.Planner, pos engine.Position, seed uint64) map[string]engine.Orders {
	t.Helper()
	orders := map[string]engine.Orders{}
	for _, side := range pos.Step().Waiting {
		plan, err := planner.Plan(view(t, pos, side), side, "g1", seed)
		if err != nil {
			t.Fatalf("turn %d: %s's bot: %v", pos.Turn(), side, err)
		}
		if plan.Turn != pos.Turn() || plan.Orders == "" {
			t.Fatalf("turn %d: %s's bot planned for turn %d: %q", pos.Turn(), side, plan.Turn, plan.Orders)
		}
		r := pos.Read(side, plan.Orders, 0)
		if r.Orders == nil {
			t.Fatalf("turn %d: %s's bot orders are refused:\n%s\n--- the orders:\n%s", pos.Turn(), side, r.Answer, plan.Orders)
		}
		stored, err := r.Orders.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := pos.LoadOrders(side, stored)
		if err != nil {
			t.Fatalf("turn %d: %s's stored orders: %v", pos.Turn(), side, err)
		}
		if again, _ := loaded.Marshal(); !bytes.Equal(again, stored) {
			t.Fatalf("turn %d: %s's orders stored and read back differ:\n%s\n%s", pos.Turn(), side, stored, again)
		}
		written, err := pos.WriteOrders(side, loaded, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if rw := pos.Read(side, written, 0); rw.Orders == nil {
			t.Fatalf("turn %d: %s's orders as written do not read back:\n%s\n--- written:\n%s", pos.Turn(), side, rw.Answer, written)
		}
		orders[side] = loaded
	}
	return orders
}

// playTwice plays the same orders with the same dice twice: the same bytes.
func playTwice(t *testing.T, pos engine.Position, orders map[string]engine.Orders, seed uint64) (engine.Position, engine.Round) {
	t.Helper()
	next, round, err := pos.Play(orders, engine.NewSeededDice(seed))
	if err != nil {
		t.Fatalf("turn %d: %v", pos.Turn(), err)
	}
	next2, round2, err := pos.Play(orders, engine.NewSeededDice(seed))
	if err != nil {
		t.Fatalf("turn %d, played again: %v", pos.Turn(), err)
	}
	if !bytes.Equal(marshal(t, next), marshal(t, next2)) || !bytes.Equal(marshal(t, round), marshal(t, round2)) {
		t.Fatalf("turn %d: the same orders and seed played twice gave different bytes", pos.Turn())
	}
	if next.Turn() != pos.Turn()+1 {
		t.Fatalf("turn %d: the next position's turn is %d", pos.Turn(), next.Turn())
	}
	return next, round
}

// storedRoundTrip stores the position after and the round as the judge
// does and reads them back: the same bytes, and reports that are the same
// word for word for every side. It returns what was read back, which the
// game goes on from.
func storedRoundTrip(t *testing.T, sys engine.System, before, after engine.Position, round engine.Round, meta engine.RoundMeta) (engine.Position, engine.Round) {
	t.Helper()
	storedPos, storedRound := marshal(t, after), marshal(t, round)
	loadedPos, err := sys.Load(storedPos)
	if err != nil {
		t.Fatalf("turn %d: the stored position: %v", before.Turn(), err)
	}
	if !bytes.Equal(marshal(t, loadedPos), storedPos) {
		t.Fatalf("turn %d: the position stored and read back differs", before.Turn())
	}
	loadedRound, err := before.LoadRound(loadedPos, storedRound)
	if err != nil {
		t.Fatalf("turn %d: the stored round: %v", before.Turn(), err)
	}
	if !bytes.Equal(marshal(t, loadedRound), storedRound) {
		t.Fatalf("turn %d: the round stored and read back differs", before.Turn())
	}
	var first string
	for i, sd := range after.Sides() {
		text := report(t, round, sd.Name, meta)
		if again := report(t, loadedRound, sd.Name, meta); again != text {
			t.Fatalf("turn %d: %s's report differs once the round is stored and read back:\n%s\n---\n%s", before.Turn(), sd.Name, text, again)
		}
		if i == 0 {
			first = text
		} else if !after.HidesInformation() && text != first {
			t.Fatalf("turn %d: %s's report differs from %s's, yet the game hides nothing", before.Turn(), sd.Name, after.Sides()[0].Name)
		}
	}
	return loadedPos, loadedRound
}

// mapsAreDeterministic draws every map twice, and from a position and round
// read back: the same bytes. A format the system does not draw is refused
// with ErrMapFormat, as the pages expect.
func mapsAreDeterministic(t *testing.T, before, after engine.Position, round engine.Round) {
	t.Helper()
	for _, sd := range before.Sides() {
		for _, f := range []engine.MapFormat{engine.PNG, engine.SVG, engine.ASCII} {
			a, errA := drawn(func(b *bytes.Buffer) error { return after.Map(b, sd.Name, f) })
			b, errB := drawn(func(b *bytes.Buffer) error { return after.Map(b, sd.Name, f) })
			c, errC := drawn(func(b *bytes.Buffer) error { return round.Map(b, sd.Name, f) })
			d, errD := drawn(func(b *bytes.Buffer) error { return round.Map(b, sd.Name, f) })
			if f == engine.SVG && errors.Is(errA, engine.ErrMapFormat) {
				continue
			}
			if err := errors.Join(errA, errB, errC, errD); err != nil {
				t.Fatalf("%s's %s map: %v", sd.Name, f, err)
			}
			if len(a) == 0 || !bytes.Equal(a, b) || !bytes.Equal(c, d) {
				t.Errorf("%s's %s map: drawn twice, different bytes (or none)", sd.Name, f)
			}
		}
		var gif bytes.Buffer
		if err := after.Map(&gif, sd.Name, engine.MapFormat("gif")); !errors.Is(err, engine.ErrMapFormat) {
			t.Errorf("a gif map gives %v, want ErrMapFormat", err)
		}
	}
}

func drawn(draw func(*bytes.Buffer) error) ([]byte, error) {
	var b bytes.Buffer
	err := draw(&b)
	return b.Bytes(), err
}

func view(t *testing.T, pos engine.Position, side string) []byte {
	t.Helper()
	v, err := pos.View(side)
	if err != nil {
		t.Fatalf("turn %d: %s's view: %v", pos.Turn(), side, err)
	}
	return v
}

func report(t *testing.T, round engine.Round, side string, meta engine.RoundMeta) string {
	t.Helper()
	text, err := round.Report(side, meta)
	if err != nil || text == "" {
		t.Fatalf("%s's report: %q, %v", side, text, err)
	}
	return text
}

// marshal is what the judge stores of a position, orders or a round.
func marshal(t *testing.T, v interface{ Marshal() ([]byte, error) }) []byte {
	t.Helper()
	b, err := v.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
