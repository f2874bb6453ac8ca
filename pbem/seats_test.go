package pbem

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fieldpost/engine"
)

const carol = "carol@example.net"

// byKindTo returns the mails of a kind to an address.
func byKindTo(mails []*sent, kind, to string) []*sent {
	var out []*sent
	for _, m := range mails {
		if m.Kind() == kind && m.To() == to {
			out = append(out, m)
		}
	}
	return out
}

// REPLACE gives a seat to another address mid-game: a welcome with a new
// secret and the current form, the old secret stops working, the old
// player is told without the new address, the other player is told, and
// the seat's history keeps who played which rounds.
func TestReplaceMidGame(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "deadline=none")
	j.handle(w["us"].reply(alice, docExample(t)))
	j.handle(w["german"].reply(bob, germanOrders(t, 1)))
	mails := j.take()
	report := byKind(t, mails, kindReport, bob)

	j.handle(gmMail("REPLACE tutorial-1 german.1 " + carol))
	mails = j.take()
	welcome := byKind(t, mails, kindWelcome, carol)
	if welcome.Round() != "2" || welcome.Form() == "" || welcome.Token() == report.Token() {
		t.Fatalf("the new player's welcome: round %s, form %q, token changed %v", welcome.Round(), welcome.Form(), welcome.Token() != report.Token())
	}
	old := byKind(t, mails, kindSeat, bob)
	if strings.Contains(old.Text, carol) || !strings.Contains(old.Text, "no longer") || strings.Contains(old.ReplyAddress(), "+") {
		t.Errorf("the old player's notice:\n%s\nreply to %s", old.Text, old.ReplyAddress())
	}
	if m := byKind(t, mails, kindSeat, alice); strings.Contains(m.Text, carol) || !strings.Contains(m.Text, "new player plays it from round 2") {
		t.Errorf("the other player's notice:\n%s", m.Text)
	}
	if m := byKind(t, mails, kindGM, testGM); !strings.Contains(m.Text, carol) {
		t.Errorf("the GM's answer:\n%s", m.Text)
	}

	// The old secret no longer works: bob's reply is ignored (logged);
	// with GAME and SIDE lines, the seat's player, carol, is told of it. Carol's
	// orders are taken.
	j.handle(report.reply(bob, germanOrders(t, 2)))
	if mails := j.take(); len(mails) != 0 || !strings.Contains(j.logs.String(), "mail without valid credentials ignored") {
		t.Fatalf("the old secret still works:\n%s", describe(mails))
	}
	j.handle(report.reply(bob, "GAME tutorial-1 SIDE german\n"+germanOrders(t, 2)))
	if mails := j.take(); len(mails) != 1 || len(byKindTo(mails, kindAuthFailed, carol)) != 1 {
		t.Fatalf("the old secret with a GAME line:\n%s", describe(mails))
	}
	j.handle(welcome.reply(carol, germanOrders(t, 2)))
	byKind(t, j.take(), kindAccepted, carol)

	g := gameRecord(t, j.store, "tutorial-1")
	p := g.Player("german")
	want := []Tenure{{Address: bob, From: 1, To: 1, OnTime: 1, Left: "replaced"}}
	if !slices.Equal(p.Past, want) || p.Address != carol || p.Since != 2 {
		t.Errorf("the seat's history: %+v, now %s since round %d", p.Past, p.Address, p.Since)
	}

	for cmd, want := range map[string]string{
		"REPLACE tutorial-1 german":                    "The command: REPLACE tutorial-1 SIDE ADDRESS",
		"REPLACE tutorial-1 german.2 dave@example.org": `no seat "german.2"; its seats: us, german`,
		"REPLACE tutorial-1 russian dave@example.org":  `no seat "russian"`,
		"REPLACE tutorial-1 german nomail":             "is not a mail address",
		"REPLACE tutorial-1 german " + alice:           "plays seat us",
	} {
		j.handle(gmMail(cmd))
		if m := j.takeN(1)[0]; m.To() != testGM || !strings.Contains(m.Text, want) {
			t.Errorf("%s: got %s\n%s", cmd, m, m.Text)
		}
	}
}

// A seat is open from NEWGAME (SIDE=open) or OPEN: the caretaker plays
// it and waits for nobody, and the first to JOIN it gets it; with
// approval=yes the GM's APPROVE seats the one that asked.
func TestOpenSeatAndJoin(t *testing.T) {
	j := newJudge(t, nil)
	j.handle(gmMail("NEWGAME scenario=tutorial id=tutorial-1 us=" + alice + " german=open deadline=none caretaker=bot approval=yes"))
	mails := j.takeN(2)
	if m := byKind(t, mails, kindGM, testGM); !strings.Contains(m.Text, "open: JOIN tutorial-1 german") || !strings.Contains(m.Text, "caretaker=bot") {
		t.Errorf("the GM's answer:\n%s", m.Text)
	}
	w := byKind(t, mails, kindWelcome, alice)
	// The round waits for nobody but alice: the bot plays the open side.
	j.handle(w.reply(alice, docExample(t)))
	mails = j.take()
	r := byKind(t, mails, kindReport, alice)
	if !strings.Contains(r.Text, "german sent no orders: the caretaker, the stargeneral bot, planned german's orders from german's own view") {
		t.Errorf("the report does not say the caretaker played:\n%s", r.Text)
	}

	// JOIN is confirmed by a reply from the address: a forged From takes
	// nothing.
	j.handle(clientMail{From: carol, To: testJudge, Subject: "join", Body: "JOIN tutorial-1 german\n"})
	confirm := j.takeN(1)[0]
	if confirm.Kind() != kindConfirm || confirm.To() != carol || !strings.Contains(confirm.ReplyAddress(), "+confirm-") {
		t.Fatalf("the JOIN's confirmation: %s", confirm)
	}
	j.handle(confirm.reply("mallory@example.org", ""))
	j.takeN(0)
	j.handle(confirm.reply(carol, ""))
	mails = j.take()
	byKind(t, mails, kindSeat, carol)
	if m := byKind(t, mails, kindGM, testGM); !strings.Contains(m.Text, "APPROVE tutorial-1 german") {
		t.Errorf("the GM is not asked:\n%s", m.Text)
	}
	j.handle(clientMail{From: "dave@example.org", To: testJudge, Subject: "join", Body: "JOIN tutorial-1 german\n"})
	if m := j.takeN(1)[0]; !strings.Contains(m.Text, "asked for seat german of game tutorial-1 first") {
		t.Errorf("a second JOIN: %s", m.Text)
	}
	j.handle(gmMail("APPROVE tutorial-1 german"))
	mails = j.take()
	welcome := byKind(t, mails, kindWelcome, carol)
	if welcome.Round() != "2" {
		t.Errorf("welcome for round %s", welcome.Round())
	}
	byKind(t, mails, kindSeat, alice)
	j.handle(clientMail{From: "dave@example.org", To: testJudge, Subject: "join", Body: "JOIN tutorial-1 german\n"})
	if m := j.take(); len(m) != 0 {
		t.Errorf("a stranger is answered twice a day: %s", describe(m))
	}

	// OPEN by the GM: the old secret stops working, everyone is told.
	j.handle(gmMail("OPEN tutorial-1 german"))
	mails = j.take()
	byKind(t, mails, kindSeat, carol)
	if m := byKind(t, mails, kindSeat, alice); !strings.Contains(m.Text, "JOIN tutorial-1 german") {
		t.Errorf("alice is not told how to join:\n%s", m.Text)
	}
	j.handle(welcome.reply(carol, germanOrders(t, 2)))
	if mails := j.take(); len(byKindTo(mails, kindAccepted, carol)) > 0 {
		t.Errorf("the old secret of an opened seat works")
	}
}

// A seat whose player missed AbandonAfter deadlines in a row is
// abandoned: the GM is told, the seat is offered, the caretaker plays it,
// and a JOIN seats a new player; reliability counts the rounds.
func TestAbandonedSeat(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 24 * time.Hour, Grace: time.Hour})
	w := j.newGame("tutorial-1", "abandon=2 caretaker=hold")
	for round := 1; round <= 2; round++ {
		j.handle(w["us"].reply(alice, w["us"].Form()))
		mails := j.take()
		j.clock.Advance(26 * time.Hour)
		j.deadlines()
		mails = j.take()
		w["us"] = byKind(t, mails, kindReport, alice)
		if round == 1 {
			byKind(t, mails, kindDefaulted, bob)
			continue
		}
		if m := byKind(t, mails, kindGM, testGM); !strings.Contains(m.Text, "missed 2 deadlines in a row and is abandoned") ||
			!strings.Contains(m.Text, "JOIN tutorial-1 german") {
			t.Errorf("the GM's notice:\n%s", m.Text)
		}
		byKind(t, mails, kindSeat, bob)
		byKind(t, mails, kindSeat, alice)
	}
	g := gameRecord(t, j.store, "tutorial-1")
	if p := g.Player("german"); !p.isOpen() || !p.Abandoned || len(p.Past) != 1 || p.Past[0].Missed != 2 {
		t.Fatalf("the abandoned seat: %+v", p.SeatState)
	}
	if p := g.Player("us"); p.OnTime != 2 || p.Missed != 0 {
		t.Errorf("alice's record: %+v", p.SeatState)
	}
	var rel Reliability
	storeView(t, j.store, func(st storeTx) error {
		var err error
		rel, err = st.clubReliability(bob)
		return err
	})
	if rel != (Reliability{Missed: 2}) || rel.String() != "0% (0 of 2 rounds on time)" {
		t.Errorf("bob's club reliability: %v", rel)
	}
	// Round 3 waits only for alice: the open seat waits for nobody.
	j.handle(w["us"].reply(alice, w["us"].Form()))
	byKind(t, j.take(), kindReport, alice)

	// A game that asks for a reliability: bob's record keeps him out.
	j.handle(gmMail("POLICY tutorial-1 reliability=50"))
	j.takeN(1)
	j.handle(clientMail{From: bob, To: testJudge, Subject: "join", Body: "JOIN tutorial-1 german\n"})
	if m := j.takeN(1)[0]; !strings.Contains(m.Text, "at least 50%") || !strings.Contains(m.Text, "0 of 2 rounds") {
		t.Errorf("bob's JOIN:\n%s", m.Text)
	}
	j.handle(gmMail("POLICY tutorial-1 reliability=0"))
	j.takeN(1)
	j.handle(clientMail{From: carol, To: testJudge, Subject: "join", Body: "JOIN tutorial-1 german\n"})
	j.handle(byKind(t, j.take(), kindConfirm, carol).reply(carol, ""))
	mails := j.take()
	byKind(t, mails, kindWelcome, carol)
	if p := gameRecord(t, j.store, "tutorial-1").Player("german"); p.Address != carol || p.Abandoned || p.Since != 4 {
		t.Errorf("the seat after JOIN: %s %+v", p.Address, p.SeatState)
	}
}

// The caretaker bot plays each family's sides at the deadline, from each
// side's own view; standing repeats a side's last orders.
func TestCaretakerPlaysEveryFamily(t *testing.T) {
	for _, sys := range testSystems(t) {
		for _, sc := range sys.Scenarios()[:1] {
			t.Run(sys.Name(), func(t *testing.T) {
				j := newJudge(t, &Options{Deadline: 24 * time.Hour, Grace: time.Hour})
				j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=%s id=g1 %s=%s %s=%s caretaker=bot", sc.Name,
					sc.Sides[0].Name, alice, sc.Sides[1].Name, bob)))
				j.take()
				for round := 1; round <= 2; round++ {
					j.clock.Advance(26 * time.Hour)
					j.deadlines()
					mails := j.take()
					var rec *roundRecord
					storeView(t, j.store, func(st storeTx) error {
						var err error
						rec, err = st.round("g1", round-1)
						return err
					})
					if len(rec.Caretaker) == 0 || len(rec.Defaulted) != 0 {
						t.Fatalf("round %d: caretaker %v, defaulted %v", round, rec.Caretaker, rec.Defaulted)
					}
					for side, how := range rec.Caretaker {
						if !strings.Contains(how, "bot, planned "+side+"'s orders from "+side+"'s own view") {
							t.Errorf("round %d, %s: %s", round, side, how)
						}
						to := map[string]string{sc.Sides[0].Name: alice, sc.Sides[1].Name: bob}[side]
						if m := byKind(t, mails, kindDefaulted, to); !strings.Contains(m.Text, "the caretaker") {
							t.Errorf("%s's notice:\n%s", side, m.Text)
						}
					}
					for _, m := range mails {
						if (m.Kind() == kindReport || m.Kind() == kindGameOver) && !strings.Contains(m.Text, "sent no orders: the caretaker") {
							t.Errorf("round %d: a report does not say the caretaker played:\n%s", round, m.Text)
						}
					}
				}
			})
		}
	}
}

// The standing caretaker gives a side its own last orders again.
func TestStandingCaretaker(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 24 * time.Hour, Grace: time.Hour})
	w := j.newGame("tutorial-1", "caretaker=standing")
	j.handle(w["us"].reply(alice, docExample(t)))
	// The form sent back unchanged: orders that still read next round.
	j.handle(w["german"].reply(bob, w["german"].Form()))
	mails := j.take()
	j.handle(byKind(t, mails, kindReport, alice).reply(alice, byKind(t, mails, kindReport, alice).Form()))
	j.take()
	j.clock.Advance(26 * time.Hour)
	j.deadlines()
	mails = j.take()
	if m := byKind(t, mails, kindDefaulted, bob); !strings.Contains(m.Text, "german's standing orders, those of round 1 again") {
		t.Errorf("bob's notice:\n%s", m.Text)
	}
	if g := gameRecord(t, j.store, "tutorial-1"); g.Player("german").Missed != 1 {
		t.Errorf("german's missed deadline not counted: %+v", g.Player("german").SeatState)
	}
}

// ABSENCE moves a deadline that falls in it (absence=extend), tells
// everyone the dates but not the reason, and is bounded by the club's
// days; with absence=caretaker the rounds in it are not counted missed.
func TestAbsence(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 48 * time.Hour, AbsenceDays: 10})
	w := j.newGame("tutorial-1", "")
	now := j.clock.Now()
	from, to := now.Format(time.DateOnly), now.Add(3*24*time.Hour).Format(time.DateOnly)
	j.handle(w["german"].reply(bob, "ABSENCE "+from+" "+to+" my grandmother's birthday\n"))
	mails := j.take()
	for who, kind := range map[string]string{alice: kindAbsence, bob: kindAbsence, testGM: kindGM} {
		m := byKind(t, mails, kind, who)
		if strings.Contains(m.Text, "grandmother") || !strings.Contains(m.Text, "Seat german of game tutorial-1 will be away from "+from+" to "+to+" (4 days)") {
			t.Errorf("%s is told:\n%s", who, m.Text)
		}
	}
	want := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).Add(5 * 24 * time.Hour)
	if g := gameRecord(t, j.store, "tutorial-1"); !g.Deadline.Equal(want) {
		t.Errorf("deadline %v, want a day after the absence, %v", g.Deadline, want)
	}
	for args, why := range map[string]string{
		from + " " + now.Add(20*24*time.Hour).Format(time.DateOnly): "allows 10 days",
		to + " " + from:         "is before the first",
		"soon later":            `"soon" is not a date`,
		"2020-01-01 2020-01-02": "is past already",
	} {
		j.handle(w["german"].reply(bob, "ABSENCE "+args+"\n"))
		if m := j.takeN(1)[0]; m.To() != bob || !strings.Contains(m.Text, why) {
			t.Errorf("ABSENCE %s: %s\n%s", args, m, m.Text)
		}
	}

	// absence=caretaker: the deadline stays, the caretaker plays, and the
	// round is not counted missed.
	j2 := newJudge(t, &Options{Deadline: 24 * time.Hour, Grace: time.Hour})
	w = j2.newGame("t2", "absence=caretaker caretaker=bot")
	now = j2.clock.Now()
	j2.handle(w["german"].reply(bob, "ABSENCE "+now.Format(time.DateOnly)+" "+now.Add(2*24*time.Hour).Format(time.DateOnly)+"\n"))
	j2.take()
	j2.handle(w["us"].reply(alice, docExample(t)))
	j2.take()
	j2.clock.Advance(26 * time.Hour)
	j2.deadlines()
	byKind(t, j2.take(), kindDefaulted, bob)
	if p := gameRecord(t, j2.store, "t2").Player("german"); p.Missed != 0 || p.InARow != 0 {
		t.Errorf("an absent round counted missed: %+v", p.SeatState)
	}
}

// MESSAGE and TEAM carry table talk signed with the seat, never an
// address, kept in the game's record and limited; BROADCAST is the GM's.
func TestTableTalk(t *testing.T) {
	j := newJudge(t, &Options{TalkLimit: Limit{N: 2, Per: 24 * time.Hour}})
	w := j.newGame("tutorial-1", "")
	j.handle(w["us"].reply(alice, "MESSAGE Shall we agree a draw\nafter round 6?\n"))
	mails := j.takeN(2)
	m := byKind(t, mails, kindTalk, bob)
	if !strings.Contains(m.Text, "from seat us") || !strings.Contains(m.Text, "  Shall we agree a draw\n  after round 6?") ||
		strings.Contains(m.Raw2(), alice) {
		t.Errorf("bob receives:\n%s", m.Raw)
	}
	// bob answers by replying to it.
	j.handle(m.reply(bob, "MSG No.\n"))
	if m := byKind(t, j.takeN(2), kindTalk, alice); !strings.Contains(m.Text, "from seat german") {
		t.Errorf("alice receives:\n%s", m.Text)
	}
	j.handle(w["us"].reply(alice, "TEAM hold the bridge\n"))
	if m := j.takeN(1)[0]; m.To() != alice || !strings.Contains(m.Text, "Nobody else plays us") {
		t.Errorf("TEAM with nobody else: %s\n%s", m, m.Text)
	}
	j.handle(w["us"].reply(alice, "MESSAGE second\n"))
	j.takeN(2)
	j.handle(w["us"].reply(alice, "MESSAGE third\n"))
	if m := j.takeN(1)[0]; m.To() != alice || !strings.Contains(m.Text, "at most 2 per 1 day") {
		t.Errorf("over the limit: %s\n%s", m, m.Text)
	}
	j.handle(gmMail("BROADCAST tutorial-1 No round over Christmas."))
	mails = j.takeN(3)
	for _, who := range []string{alice, bob} {
		if m := byKind(t, mails, kindTalk, who); !strings.Contains(m.Text, "From the game master:\n\n  No round over Christmas.") {
			t.Errorf("%s receives:\n%s", who, m.Text)
		}
	}
	var talk []talkRecord
	storeView(t, j.store, func(st storeTx) error {
		var err error
		talk, err = st.talk("tutorial-1")
		return err
	})
	var got []string
	for _, r := range talk {
		got = append(got, r.From+">"+r.To+": "+r.Text)
	}
	want := []string{"us>opponents: Shall we agree a draw\nafter round 6?", "german>opponents: No.", "us>opponents: second", "GM>everyone: No round over Christmas."}
	if !slices.Equal(got, want) {
		t.Errorf("the record: %q", got)
	}
}

// Raw2 is the whole mail as text.
func (s *sent) Raw2() string { return string(s.Raw) }

// ADDRESS moves a seat once a reply from the new address confirms it; a
// reply from elsewhere does nothing.
func TestAddressChange(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "deadline=none")
	const alice2 = "alice@new.example"
	j.handle(w["us"].reply(alice, "ADDRESS "+alice2+"\n"))
	mails := j.takeN(2)
	confirm := byKind(t, mails, kindConfirm, alice2)
	byKind(t, mails, kindSeat, alice)
	if !strings.Contains(confirm.ReplyAddress(), "+confirm-") || strings.Contains(confirm.Raw2(), w["us"].Token()) {
		t.Fatalf("the confirmation: reply to %s", confirm.ReplyAddress())
	}
	j.handle(confirm.reply("mallory@example.org", ""))
	j.takeN(0)
	if g := gameRecord(t, j.store, "tutorial-1"); g.Player("us").Address != alice {
		t.Fatal("moved by a reply from another address")
	}
	j.handle(confirm.reply(alice2, ""))
	mails = j.take()
	welcome := byKind(t, mails, kindWelcome, alice2)
	byKind(t, mails, kindSeat, alice)
	byKind(t, mails, kindGM, testGM)
	if welcome.Token() == w["us"].Token() {
		t.Error("the secret did not change")
	}
	j.handle(welcome.reply(alice2, docExample(t)))
	byKind(t, j.take(), kindAccepted, alice2)
	// The confirmation works once.
	j.handle(confirm.reply(alice2, ""))
	if mails := j.take(); len(byKindTo(mails, kindWelcome, alice2)) != 0 {
		t.Errorf("confirmed twice: %s", describe(mails))
	}
}

// POLICY sets the game's policy and refuses what it does not know.
func TestPolicy(t *testing.T) {
	j := newJudge(t, nil)
	j.newGame("tutorial-1", "")
	j.handle(gmMail("POLICY tutorial-1 caretaker=bot abandon=3 absence=caretaker approval=yes reliability=80 rated=yes"))
	if m := j.takeN(1)[0]; !strings.Contains(m.Text, "caretaker=bot, seats abandoned after 3 missed deadlines in a row, absence=caretaker, JOIN needs approval: yes, reliability=80%, rated: yes") {
		t.Errorf("got %s", m.Text)
	}
	for cmd, want := range map[string]string{
		"POLICY tutorial-1 caretaker=nap": "want hold, standing or bot",
		"POLICY tutorial-1 abandon=-1":    "from 0 to 100",
		"POLICY tutorial-1 colour=red":    `"colour" is no policy key`,
		"POLICY tutorial-1":               "at least one key=value",
	} {
		j.handle(gmMail(cmd))
		if m := j.takeN(1)[0]; !strings.Contains(m.Text, want) {
			t.Errorf("%s: %s", cmd, m.Text)
		}
	}
}

// A rated game updates the ladder when it finishes: Glicko-2 from 1500.
func TestRatedGameUpdatesTheLadder(t *testing.T) {
	j := newJudge(t, nil)
	j.newGame("tutorial-1", "rated=yes deadline=none")
	j.handle(gmMail("END tutorial-1"))
	j.take()
	// END gives no result: nothing is rated.
	rows, err := j.store.Ladder()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if len(r.Games) > 0 {
			t.Errorf("an ended game rated: %+v", r)
		}
	}
	err = j.svc.update(nil, j.svc.log, func(tx *txn) error {
		g, err := tx.game("tutorial-1")
		if err != nil {
			return err
		}
		return tx.rounds().rateGame(g, engine.Step{Over: true, Winner: "us"})
	})
	if err != nil {
		t.Fatal(err)
	}
	rows, err = j.store.Ladder()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Address != alice || rows[0].Wins != 1 || rows[1].Losses != 1 ||
		fmt.Sprintf("%.2f %.2f", rows[0].Rating, rows[1].Rating) != "1662.31 1337.69" {
		t.Errorf("the ladder: %+v", rows)
	}
}

// A seat whose mail failed for good is given another address by REPLACE:
// the unreachable mark goes with the old address.
func TestReplaceUnreachableSeat(t *testing.T) {
	j := newJudge(t, nil)
	j.newGame("t1", "deadline=none")
	err := j.svc.update(nil, j.svc.log, func(tx *txn) error {
		return tx.seats().seatUnreachable("t1", "german", bob, kindWelcome, "bounced", "550 no such user")
	})
	if err != nil {
		t.Fatal(err)
	}
	j.flush()
	if m := byKind(t, j.take(), kindGM, testGM); !strings.Contains(m.Text, "REPLACE t1 german ADDRESS") {
		t.Errorf("the GM is not told the way out:\n%s", m.Text)
	}
	j.handle(gmMail("REPLACE t1 german " + carol))
	byKind(t, j.take(), kindWelcome, carol)
	if p := gameRecord(t, j.store, "t1").Player("german"); p.Unreachable != nil || p.Address != carol {
		t.Errorf("the seat after REPLACE: %s, unreachable %v", p.Address, p.Unreachable)
	}
}

// ROLLBACK takes back what the undone round counted in the seats'
// reliability.
func TestRollbackUncountsReliability(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 24 * time.Hour, Grace: time.Hour})
	w := j.newGame("t1", "")
	j.handle(w["us"].reply(alice, w["us"].Form()))
	j.take()
	j.clock.Advance(26 * time.Hour)
	j.deadlines()
	j.take()
	if g := gameRecord(t, j.store, "t1"); g.Player("us").OnTime != 1 || g.Player("german").Missed != 1 || g.Player("german").InARow != 1 {
		t.Fatalf("counted: us %+v, german %+v", g.Player("us").SeatState, g.Player("german").SeatState)
	}
	j.handle(gmMail("ROLLBACK t1"))
	j.take()
	if g := gameRecord(t, j.store, "t1"); g.Player("us").OnTime != 0 || g.Player("german").Missed != 0 || g.Player("german").InARow != 0 {
		t.Errorf("after ROLLBACK: us %+v, german %+v", g.Player("us").SeatState, g.Player("german").SeatState)
	}
}

// Table talk too long or empty is refused with what was wrong; nothing is
// passed on.
func TestTableTalkRefusals(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("t1", "")
	for body, want := range map[string]string{
		"MESSAGE\n": "MESSAGE needs its text",
		"MESSAGE " + strings.Repeat("é", 4001) + "\n": "has 4001 characters; the judge passes on at most 4000",
	} {
		j.handle(w["us"].reply(alice, body))
		if m := j.takeN(1)[0]; m.To() != alice || !strings.Contains(m.Text, want) {
			t.Errorf("%.20q: %s\n%s", body, m, m.Text)
		}
	}
	j.handle(gmMail("BROADCAST t1"))
	if m := j.takeN(1)[0]; m.To() != testGM || !strings.Contains(m.Text, "BROADCAST needs its text") {
		t.Errorf("BROADCAST without text: %s", m.Text)
	}
}

// In a team game a subordinate seat (SIDE.N) is named as such: REPLACE
// gives it a new address and secret, its MESSAGE goes to every seat of
// the other side, signed with its seat id, and a round played at the
// deadline counts each seat's reliability apart.
func TestTeamSeats(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 24 * time.Hour, Grace: time.Hour})
	j.handle(gmMail("NEWGAME scenario=river-crest id=rt us=a@example.org us.2=b@example.org us.3=c@example.org german=g@example.org"))
	mails := j.take()
	seat2 := byKind(t, mails, kindWelcome, "b@example.org")
	j.handle(gmMail("REPLACE rt us.2 " + carol))
	mails = j.take()
	welcome := byKind(t, mails, kindWelcome, carol)
	if welcome.Side() != "us.2" || welcome.Token() == seat2.Token() {
		t.Errorf("the new player's welcome: seat %s, token changed %v", welcome.Side(), welcome.Token() != seat2.Token())
	}
	byKind(t, mails, kindSeat, "b@example.org")
	j.handle(welcome.reply(carol, "MESSAGE Hold fire at the ford.\n"))
	mails = j.take()
	if m := byKind(t, mails, kindTalk, "g@example.org"); !strings.Contains(m.Text, "Message from seat us.2") || strings.Contains(m.Raw2(), carol) {
		t.Errorf("the German player receives:\n%s", m.Text)
	}
	if got := byKindTo(mails, kindTalk, "a@example.org"); len(got) != 0 {
		t.Error("a MESSAGE reached the sender's own side")
	}
	j.clock.Advance(26 * time.Hour)
	j.deadlines()
	j.take()
	g := gameRecord(t, j.store, "rt")
	for _, seat := range []string{"us", "german"} {
		if p := g.Player(seat); p.Missed != 1 {
			t.Errorf("seat %s: %+v", seat, p.SeatState)
		}
	}
	if p := g.Player("us.2"); p.Address != carol || len(p.Past) != 1 || p.Past[0].Address != "b@example.org" {
		t.Errorf("seat us.2: %s %+v", p.Address, p.SeatState)
	}
}
