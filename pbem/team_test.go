package pbem

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fieldpost/engine"
)

// teamGame is a team game to play by mail: a scenario and its seats
// (NEWGAME's SIDE.n keys) beside one player for each side.
type teamGame struct {
	system, scenario string
	seats            []string // subordinate seat ids
	// missing is the seat that sends nothing in the second round its side
	// plays, which is then played at the deadline.
	missing string
}

// The team games of the proof: a Frontline General and two Commanders a
// side, a Three Star General corps commander and two regiment players a
// side, a Brigadier game with two commands on one side.
var teamGames = []teamGame{
	{system: "frontline", scenario: "foggia", seats: []string{"US.2", "US.3", "GE.2", "GE.3"}, missing: "US.3"},
	{system: "brigadier", scenario: "river-crest", seats: []string{"us.2", "us.3"}, missing: "us.3"},
	{system: "stargeneral", scenario: "arras", seats: []string{"allies.2", "allies.3", "german.2", "german.3"}, missing: "german.2"},
}

// A team game by mail through the judge, in each family: every seat's
// player answers the mails carrying its form with its seat's bot orders,
// in an order that changes each round; one seat sends nothing once and the
// round is played at the deadline, its units doing the default orders;
// the commander-in-chief reassigns a unit of seat 2 to seat 3 mid-game and
// the next forms show it; every seat gets every report of its side.
func TestTeamGamesByMail(t *testing.T) {
	systems := testSystems(t)
	for _, tg := range teamGames {
		t.Run(tg.system+"/"+tg.scenario, func(t *testing.T) {
			sys, err := systems.Lookup(tg.system)
			if err != nil {
				t.Fatal(err)
			}
			// A game's dice and decks are drawn at random: one may end
			// before it has shown everything; then another is played.
			for attempt := range 5 {
				if playTeamGame(t, sys.(engine.Planner), systems, tg, fmt.Sprintf("team-%d", attempt)) {
					return
				}
			}
			t.Fatal("five games ended before a seat was missing and a reassigned unit was seen")
		})
	}
}

// playTeamGame plays a whole team game by mail; it reports whether the
// game showed a seat missing at the deadline and a unit reassigned.
func playTeamGame(t *testing.T, planner engine.Planner, systems engine.Systems, tg teamGame, id string) bool {
	_, sc, err := systems.Scenario(tg.scenario)
	if err != nil {
		t.Fatal(err)
	}
	j := newJudge(t, nil)
	address := map[string]string{} // seat -> address
	var args []string
	for _, sd := range sc.Sides {
		address[sd.Name] = strings.ToLower(sd.Name) + "@example.org"
		args = append(args, sd.Name+"="+address[sd.Name])
	}
	for _, seat := range tg.seats {
		address[seat] = strings.ToLower(seat) + "@example.org"
		args = append(args, seat+"="+address[seat])
	}
	j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=%s id=%s deadline=48h %s", sc.Name, id, strings.Join(args, " "))))
	inbox := j.take()
	if n := len(address) + 1; len(inbox) != n {
		t.Fatalf("want %d mails (a welcome a seat, the GM's answer), got:\n%s", n, describe(inbox))
	}
	reports := map[string]int{}
	played := map[string]int{} // side -> orders its commander-in-chief sent
	missed, assigned, assignTo, assignedRound := false, "", "", 0
	chief := seatSide(tg.seats[0])
	for step := 0; ; step++ {
		if step > 400 {
			t.Fatal("the game does not end")
		}
		var answers []clientMail
		over := false
		forms := map[string]string{}
		for _, m := range inbox {
			seat := m.Side()
			switch m.Kind() {
			case kindReport:
				reports[seat]++
			case kindGameOver:
				reports[seat]++
				over = true
			case kindRejected:
				t.Fatalf("%s's orders were refused:\n%s", seat, m.Text)
			}
			if m.Form() == "" || seat == "" || over {
				continue
			}
			forms[seat] = m.Form()
			plan, err := planner.Plan(m.part(t, "situation.json"), seat, id, uint64(step))
			if err != nil {
				t.Fatalf("%s: %v", seat, err)
			}
			if plan.Orders == "" {
				continue
			}
			side := seatSide(seat)
			orders := plan.Orders
			if seat == chief && assigned == "" && played[side] == 1 {
				// The commander-in-chief gives a unit of seat 2 to seat 3.
				assignTo = tg.seats[1]
				assigned = firstUnit(t, m.Form(), tg.seats[0])
				assignedRound = gameRecord(t, j.store, id).Round()
				orders = strings.Replace(orders, "\nEND", fmt.Sprintf("\nASSIGN %s TO %s\nEND", assigned, assignTo), 1)
			}
			if seat == tg.missing && played[side] == 1 && !missed {
				missed = true
				continue
			}
			answers = append(answers, m.reply(address[seat], orders))
		}
		if over {
			break
		}
		for _, a := range answers {
			if seat := seatOfAddress(address, a.From); seat == seatSide(seat) {
				played[seat]++
			}
		}
		if assigned != "" && forms[assignTo] != "" && gameRecord(t, j.store, id).Round() > assignedRound {
			if !strings.Contains(seatUnitsLine(forms[assignTo], assignTo), " "+assigned) {
				t.Fatalf("%s was assigned to %s, whose form does not list it:\n%s", assigned, assignTo, forms[assignTo])
			}
			assignTo = "" // seen
		}
		if step%2 == 1 {
			slices.Reverse(answers) // seats' orders in any order
		}
		before := gameRecord(t, j.store, id).Turn
		for _, a := range answers {
			j.handle(a)
		}
		inbox = j.take()
		if gameRecord(t, j.store, id).Turn == before {
			// A seat is missing: the round is played at the deadline.
			j.clock.Advance(72 * time.Hour)
			j.deadlines()
			inbox = append(inbox, j.take()...)
			if r := byKindMaybe(inbox, kindRejected, ""); r != nil {
				t.Fatalf("orders refused:\n%s", r.Text)
			}
			if byKindMaybe(inbox, kindDefaulted, address[tg.missing]) == nil {
				t.Fatalf("the missing seat %s was not told its units held:\n%s", tg.missing, describe(inbox))
			}
		}
	}
	g := gameRecord(t, j.store, id)
	if !missed || assigned == "" || assignTo != "" {
		return false // over too soon
	}
	for seat := range address {
		if reports[seat] != g.Turn {
			t.Errorf("%s received %d reports of %d rounds", seat, reports[seat], g.Turn)
		}
	}
	t.Logf("a whole game of %d rounds played by %d seats: %s", g.Turn, len(address), g.Result)
	return true
}

// seatOfAddress is the seat a player's address holds.
func seatOfAddress(address map[string]string, from string) string {
	for seat, a := range address {
		if a == from {
			return seat
		}
	}
	return ""
}

// byKindMaybe finds the mail of a kind to an address, nil if none.
func byKindMaybe(mails []*sent, kind, to string) *sent {
	for _, m := range mails {
		if m.Kind() == kind && (to == "" || m.To() == to) {
			return m
		}
	}
	return nil
}

// seatUnitsLine is the line of a seat's form listing a seat's units.
func seatUnitsLine(form, seat string) string {
	for line := range strings.Lines(form) {
		if strings.HasPrefix(line, "# -> "+seat+" ") || strings.HasPrefix(line, "#    "+seat+" ") {
			return line
		}
	}
	return ""
}

// firstUnit is the first unit a form lists for a seat.
func firstUnit(t *testing.T, form, seat string) string {
	line := seatUnitsLine(form, seat)
	_, units, ok := strings.Cut(line, ": ")
	f := strings.Fields(units)
	if !ok || len(f) == 0 || f[0] == "no" {
		t.Fatalf("no units of %s in the form:\n%s", seat, form)
	}
	return f[0]
}

// A team game of Two Star General by mail, seat by seat: each seat has
// its own secret and form; a seat's orders for another's unit are refused
// by line; a seat's secret with another seat's SEAT line is a slip told to
// its player; the pages show each side's seats and who has sent; a TEAM
// message reaches the side's other seats only and is public once the
// game is over.
func TestTeamSeatsByMail(t *testing.T) {
	const carol = "carol@example.org"
	j := newJudge(t, &Options{BaseURL: "http://judge.test"})
	j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=tutorial id=t1 us=%s us.2=%s us.3=empty german=%s", alice, carol, bob)))
	mails := j.takeN(4)
	gm := byKind(t, mails, kindGM, testGM)
	chief, second := byKind(t, mails, kindWelcome, alice), byKind(t, mails, kindWelcome, carol)
	if !strings.Contains(gm.Text, "us.2 (Subordinate 1)") {
		t.Errorf("the GM's answer does not name the seat:\n%s", gm.Text)
	}
	if second.Side() != "us.2" || chief.Token() == second.Token() {
		t.Fatalf("seat us.2's welcome: side %q, its own secret: %v", second.Side(), chief.Token() != second.Token())
	}
	form := second.Form()
	if !strings.Contains(form, "GAME t1  SIDE us  SEAT 2  ROUND 1") || strings.Contains(form, "PRIORITY") {
		t.Errorf("seat us.2's form:\n%s", form)
	}
	mine, chiefs := firstUnit(t, form, "us.2"), firstUnit(t, form, "us")

	// Another seat's unit, and the commander's PRIORITY: refused by line.
	j.handle(second.reply(carol, fmt.Sprintf("BN %s H\nBN %s H\nPRIORITY %s\nEND\n", mine, chiefs, chiefs)))
	refused := byKind(t, j.takeN(1), kindRejected, carol)
	for _, want := range []string{"line 2: BN " + chiefs + " H\n  " + chiefs + " is commanded by seat us, not by you (us.2)",
		"line 3: PRIORITY " + chiefs + "\n  PRIORITY is the side's commander's"} {
		if !strings.Contains(refused.Text, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, refused.Text)
		}
	}
	// Seat 2's secret, SEAT 3 written: nothing done, carol told.
	j.handle(second.reply(carol, fmt.Sprintf("GAME t1 SIDE us SEAT 3\nBN %s H\nEND\n", mine)))
	if slip := byKind(t, j.takeN(1), kindError, carol); !strings.Contains(slip.Text, "side us seat 3") {
		t.Errorf("the slip:\n%s", slip.Text)
	}
	j.handle(second.reply(carol, form))
	byKind(t, j.takeN(1), kindAccepted, carol)

	pages, err := newWebPages(j.svc, j.svc.log)
	if err != nil {
		t.Fatal(err)
	}
	_, _, body := get(t, pages.Handler(), "/g/t1")
	for _, want := range []string{"us Commander (waiting)", "us.2 Subordinate 1 (orders in)", "us.3 Subordinate 2 (empty)"} {
		if !strings.Contains(body, want) {
			t.Errorf("the game page lacks %q:\n%s", want, body)
		}
	}
	_, _, body = get(t, pages.Handler(), "/p/"+second.Token())
	if !strings.Contains(body, "seat us.2 (Subordinate 1)") || !strings.Contains(body, "SEAT 2") {
		t.Errorf("seat us.2's page:\n%s", body)
	}

	// TEAM: to alice only, not to bob.
	j.handle(second.reply(carol, "TEAM Shall I push on the left?\nI have fresh troops.\n"))
	got := j.takeN(2)
	team := byKind(t, got, kindTeam, alice)
	byKind(t, got, kindStatus, carol)
	if !strings.Contains(team.Text, "From us.2 (Subordinate 1):\n\nShall I push on the left?\nI have fresh troops.") {
		t.Errorf("the TEAM message:\n%s", team.Text)
	}
	_, _, body = get(t, pages.Handler(), "/g/t1")
	if strings.Contains(body, "fresh troops") {
		t.Errorf("a TEAM message is public before the game ends")
	}
	j.handle(gmMail("END t1"))
	j.take()
	_, _, body = get(t, pages.Handler(), "/g/t1")
	if !strings.Contains(body, "fresh troops") {
		t.Errorf("the TEAM message is not public once the game is over:\n%s", body)
	}
}

// NEWGAME's seats are checked: a seat beyond what the rules allow, units
// that are not the side's, a seat of no side.
func TestNewGameRefusesBadSeats(t *testing.T) {
	j := newJudge(t, nil)
	for cmd, want := range map[string]string{
		"us.7=c@example.org":                               "at most 5 seats a side",
		"us.2=c@example.org us.2.units=NOPE":               "NOPE is no unit of us",
		"british.2=c@example.org":                          "british.2 is no seat",
		"us.2=not-an-address":                              "us.2=not-an-address is not a mail address",
		"us.3.units=743":                                   "gives units to a seat that has no player",
		"us.2=c@example.org us.3=d@example.org us.3.name=": "has no value",
	} {
		j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=tutorial id=x us=%s german=%s %s", alice, bob, cmd)))
		got := j.take()
		if len(got) != 1 {
			t.Fatalf("%s: a game was created:\n%s", cmd, describe(got))
		}
		m := byKind(t, got, kindGM, testGM)
		if !strings.Contains(m.Text, want) {
			t.Errorf("%s: the refusal lacks %q:\n%s", cmd, want, m.Text)
		}
	}
}

// Every seat's order form, sent back unchanged, is valid, in every family
// and every bundled scenario: the form holds what the seat may order.
func TestSeatFormsAreValidUnchanged(t *testing.T) {
	for _, sys := range testSystems(t) {
		for _, sc := range sys.Scenarios() {
			pos, err := sys.NewGame(sc.Name, 1)
			if err != nil {
				t.Fatal(err)
			}
			seated, ok := pos.(engine.Seated)
			if !ok {
				t.Errorf("%s is not Seated", sys.Name())
				continue
			}
			var setups []engine.SeatSetup
			for _, sd := range sc.Sides {
				setups = append(setups, engine.SeatSetup{ID: sd.Name + ".2"}, engine.SeatSetup{ID: sd.Name + ".3"})
			}
			team, err := seated.WithSeats(setups)
			if err != nil {
				t.Fatalf("%s: %v", sc.Name, err)
			}
			for _, side := range team.Step().Waiting {
				for _, seat := range team.(engine.Seated).Seats(side) {
					form := team.(engine.Seated).SeatForm(seat.ID, "g")
					if r := team.(engine.Seated).SeatRead(seat.ID, form, 0); r.Errors > 0 {
						t.Errorf("%s %s: the form sent back unchanged is refused:\n%s\n%s", sc.Name, seat.ID, r.Answer, form)
					}
				}
			}
		}
	}
}

// Each seat's orders are checked alone, then with those the side's other
// seats have sent: orders valid alone that break the rules with the
// others' are refused, saying so, and the side's stored orders stay as
// they were.
func TestSeatOrdersThatClashAreRefused(t *testing.T) {
	j := newJudge(t, nil)
	j.handle(gmMail("NEWGAME scenario=foggia id=clash US=us@example.org US.2=north@example.org US.2.units=HT-1 " +
		"US.3=south@example.org US.3.units=ENG-1 GE=ge@example.org"))
	welcome := map[string]*sent{}
	for _, m := range j.take() {
		if m.Kind() == kindWelcome {
			welcome[m.Side()] = m
		}
	}
	j.handle(welcome["US.2"].reply("north@example.org", "GAME clash SIDE US SEAT 2 ROUND 1\nMOVE\n  HT-1 LOAD ENG-1\nEND\n"))
	byKind(t, j.takeN(1), kindAccepted, "north@example.org")
	j.handle(welcome["US.3"].reply("south@example.org", "GAME clash SIDE US SEAT 3 ROUND 1\nMOVE\n  ENG-1 2221\nEND\n"))
	refused := byKind(t, j.takeN(1), kindRejected, "south@example.org")
	if !strings.Contains(refused.Text, "not with those the other seats of US have sent") || !strings.Contains(refused.Text, "ENG-1 has two move orders") {
		t.Errorf("the clash refusal:\n%s", refused.Text)
	}
	storeView(t, j.store, func(tx storeTx) error {
		if sub, err := tx.submission("clash", 0, "US.3"); err != nil || sub != nil {
			t.Errorf("the refused orders were stored: %v %v", sub, err)
		}
		return nil
	})
}
