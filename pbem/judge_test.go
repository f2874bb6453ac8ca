package pbem

import (
	"fieldpost/engine"

	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"fieldpost/engine/stargeneral/ordertext"
	"fieldpost/engine/stargeneral/rules"
)

var (
	commitmentLine = regexp.MustCompile(`SHA-256 of their seed is\s+([0-9a-f]{64})`)
	seedLine       = regexp.MustCompile(`Dice seed for this round: (\d+)`)
)

func commitment(t testing.TB, m *sent) string {
	t.Helper()
	c := commitmentLine.FindStringSubmatch(m.Text)
	if c == nil {
		t.Fatalf("no seed commitment in %s:\n%s", m, m.Text)
	}
	return c[1]
}

func revealedSeed(t testing.TB, m *sent) uint64 {
	t.Helper()
	s := seedLine.FindStringSubmatch(m.Text)
	if s == nil {
		t.Fatalf("no seed in %s:\n%s", m, m.Text)
	}
	n, err := strconv.ParseUint(s[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// The welcome is the mail the bot and the players build on: every header
// field and part docs/mail-format.md promises.
func TestWelcomeFollowsTheContract(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 48 * time.Hour})
	w := j.newGame("tutorial-1", "")
	var thread string
	tokens := map[string]bool{}
	for side, m := range w {
		if m.Game() != "tutorial-1" || m.Side() != side || m.Round() != "1" {
			t.Errorf("%s: wrong X-Fieldpost fields", m)
		}
		if m.From.Email != testJudge || m.Header.Get("List-Id") != "<tutorial-1.club.example>" || m.Header.Get("Auto-Submitted") != "auto-generated" {
			t.Errorf("%s: From %s, List-Id %q, Auto-Submitted %q", m, m.From.Email, m.Header.Get("List-Id"), m.Header.Get("Auto-Submitted"))
		}
		token := m.Token()
		if len(token) != secretLength || !strings.Contains(m.Text, "PASSWORD "+token) || m.ReplyAddress() != "judge+"+token+"@club.example" {
			t.Errorf("%s: token %q, Reply-To %s", m, token, m.ReplyAddress())
		}
		tokens[token] = true
		if thread == "" {
			thread = m.References[0]
		}
		if m.References[0] != thread || m.InReplyTo[0] != thread {
			t.Errorf("%s: References %v, In-Reply-To %v: want the game's thread %s", m, m.References, m.InReplyTo, thread)
		}
		form := m.Form()
		if !strings.Contains(form, "GAME tutorial-1  SIDE "+side+"  ROUND 1\n") || !strings.HasSuffix(strings.TrimSpace(form), "\nEND") {
			t.Errorf("%s: the text does not end with the order form:\n%s", m, form)
		}
		var situation struct {
			Ruleset string       `json:"ruleset"`
			State   *rules.State `json:"state"`
		}
		if err := json.Unmarshal(m.part(t, "situation.json"), &situation); err != nil || situation.Ruleset != "2sg" || situation.State.Turn != 0 {
			t.Errorf("%s: situation.json: %v, ruleset %q", m, err, situation.Ruleset)
		}
		if png := m.part(t, "map.png"); !strings.HasPrefix(string(png), "\x89PNG") {
			t.Errorf("%s: map.png is not a PNG", m)
		}
		if !strings.Contains(m.Text, "due by Wed 4 Mar 2026 18:00 UTC") {
			t.Errorf("%s: no deadline 48 h from now:\n%s", m, m.Text)
		}
	}
	if len(tokens) != 2 {
		t.Errorf("the two sides have the same secret")
	}
	// The store knows the secrets only by their hashes.
	storeView(t, j.store, func(st storeTx) error {
		// Not the outbox: the mails to the players carry their secrets.
		looked := map[string]bool{"games": true, "tokens": true, "states": true, "settings": true}
		return st.tx.Each(func(collection string, k, v []byte) error {
			for token := range tokens {
				if looked[collection] && strings.Contains(string(k)+string(v), token) {
					t.Errorf("collection %s holds a player's secret", collection)
				}
			}
			return nil
		})
	})
}

// A round by mail: a reply to the welcome with orders, quoting it whole;
// orders in a new mail with the PASSWORD line; both accepted; the round is
// played at once and both sides get the report, whose seed matches the
// welcome's commitment and replays the round exactly.
func TestRoundIsPlayedWhenBothSidesSent(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 48 * time.Hour})
	w := j.newGame("tutorial-1", "")
	usOrders := docExample(t)
	j.handle(w["us"].reply(alice, usOrders+"\nCheers, Alice\n\nOn Monday the judge wrote:\n"+quoted(w["us"].Text)))
	accepted := j.takeN(1)[0]
	if accepted.Kind() != kindAccepted || accepted.To() != alice || !strings.Contains(accepted.Text, "attacks 0705 with A (distant fire)") {
		t.Fatalf("want the echo with the attack's odds, got %s:\n%s", accepted, accepted.Text)
	}
	if accepted.InReplyTo[0] == w["us"].References[0] {
		t.Errorf("the answer does not refer to the mail it answers")
	}

	j.handle(clientMail{From: bob, To: testJudge, Subject: "orders",
		Body: "Hallo,\n\nGAME tutorial-1 SIDE german ROUND 1\nPASSWORD " + w["german"].Token() + "\n" + germanOrders(t, 1) + "END\nBob\n"})
	mails := j.takeN(3)
	byKind(t, mails, kindAccepted, bob)
	seed := uint64(0)
	for side, to := range map[string]string{"us": alice, "german": bob} {
		r := byKind(t, mails, kindReport, to)
		if r.Round() != "1" || r.Side() != side || !strings.Contains(r.Form(), "ROUND 2\n") {
			t.Errorf("%s: want the report of round 1 with the round 2 order form", r)
		}
		seed = revealedSeed(t, r)
		if got, want := engine.SeedCommitment(seed), commitment(t, w[side]); got != want {
			t.Errorf("the revealed seed's commitment %s is not the welcome's %s", got, want)
		}
		if commitment(t, r) == commitment(t, w[side]) {
			t.Errorf("round 2 has round 1's seed commitment")
		}
		r.part(t, "map.png")
		r.part(t, "situation.json")
	}

	// Anyone can replay the round from the opening position, the orders and
	// the seed.
	sc, _ := rules.BundledScenario("tutorial")
	st := sc.NewGame()
	us, errs := ordertext.Parse(sc.Ruleset, st, "us", usOrders)
	ger, errs2 := ordertext.Parse(sc.Ruleset, st, "german", germanOrders(t, 1))
	if errs != nil || errs2 != nil {
		t.Fatal(errs, errs2)
	}
	want, _, err := rules.Resolve(sc.Ruleset, st, []*rules.Orders{us.Orders, ger.Orders}, engine.NewSeededDice(seed))
	if err != nil {
		t.Fatal(err)
	}
	storeView(t, j.store, func(tx storeTx) error {
		got, err := tx.state("tutorial-1", 1)
		if err != nil {
			return err
		}
		b, _ := json.Marshal(want)
		if string(got) != string(b) {
			t.Errorf("the replayed round differs from the judge's")
		}
		return nil
	})
}

// Orders sent again before the round is played replace the earlier ones.
func TestLaterOrdersReplaceEarlier(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	form := w["us"].Form()
	j.handle(w["us"].reply(alice, strings.Replace(form, "BN 743 M", "BN 743 H", 1)))
	j.handle(w["us"].reply(alice, form))
	j.takeN(2)
	j.handle(w["german"].reply(bob, w["german"].Form()))
	j.takeN(3)
	storeView(t, j.store, func(tx storeTx) error {
		r, err := tx.round("tutorial-1", 0)
		if err != nil {
			return err
		}
		var played rules.Orders
		if err := json.Unmarshal(r.Orders[0], &played); err != nil {
			return err
		}
		if got := played.For("743").Status; got != rules.Move {
			t.Errorf("743 played %s: the first orders were used", got)
		}
		return nil
	})
}

// CHECK answers with the echo or the errors and stores nothing.
func TestCheckStoresNothing(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.handle(w["us"].reply(alice, "CHECK\n"+docExample(t)))
	m := j.takeN(1)[0]
	if m.Kind() != kindCheck || !strings.Contains(m.Subject, "valid") || !strings.Contains(m.Text, "attacks 0705 with A") {
		t.Errorf("want a valid check with the echo, got %s:\n%s", m, m.Text)
	}
	j.handle(w["us"].reply(alice, "check\nBN 743 M\n  A 0303 0909\n"))
	m = j.takeN(1)[0]
	if m.Kind() != kindCheck || !strings.Contains(m.Subject, "1 error") || !strings.Contains(m.Text, "line 3") {
		t.Errorf("want the error of line 3, got %s:\n%s", m, m.Text)
	}
	storeView(t, j.store, func(tx storeTx) error {
		missing, err := tx.sidesWithoutOrders(gameRecord(t, j.store, "tutorial-1"), nil, bothSides)
		if len(missing) != 2 {
			t.Errorf("CHECK stored orders: waiting only for %v", missing)
		}
		return err
	})
}

// Refused orders list every error; orders for another round than the
// current one are refused with the reason.
func TestOrdersRefused(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.handle(w["us"].reply(alice, "GAME tutorial-1 SIDE us ROUND 1\nBN 743 M\n  A 0303 0909\nBN 9/99 M\n"))
	m := j.takeN(1)[0]
	if m.Kind() != kindRejected || !strings.Contains(m.Text, "2 errors") || !strings.Contains(m.Text, "9/99") {
		t.Errorf("want both errors, got %s:\n%s", m, m.Text)
	}
	j.handle(w["us"].reply(alice, w["us"].Form()))
	j.handle(w["german"].reply(bob, w["german"].Form()))
	mails := j.takeN(4)
	report := byKind(t, mails, kindReport, alice)

	for round, want := range map[int]string{1: "has been played already", 3: "is not open yet"} {
		j.handle(report.reply(alice, strings.Replace(w["us"].Form(), "ROUND 1", fmt.Sprintf("ROUND %d", round), 1)))
		m := j.takeN(1)[0]
		if m.Kind() != kindRejected || !strings.Contains(m.Text, want) || !strings.Contains(m.Text, "The orders now are for round 2") {
			t.Errorf("ROUND %d: got %s:\n%s", round, m, m.Text)
		}
	}
	if got := gameRecord(t, j.store, "tutorial-1"); got.Turn != 1 {
		t.Errorf("turn %d after refused orders", got.Turn)
	}
}

// A reply with no orders and no command is answered with the help, not
// taken as empty orders.
func TestReplyWithoutOrders(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.handle(w["us"].reply(alice, "Thanks, see you on the battlefield!\n\n"+quoted(w["us"].Text)))
	if m := j.takeN(1)[0]; m.Kind() != kindHelp || m.To() != alice || !strings.Contains(m.Text, "neither orders nor a command") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
	if g := gameRecord(t, j.store, "tutorial-1"); g.Turn != 0 {
		t.Fatal("the round was played")
	}
}

func TestAuthentication(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.newGame("tutorial-2", "")
	form := w["us"].Form()
	noOrders := func() {
		t.Helper()
		storeView(t, j.store, func(tx storeTx) error {
			missing, err := tx.sidesWithoutOrders(gameRecord(t, j.store, "tutorial-1"), nil, bothSides)
			if len(missing) != 2 {
				t.Errorf("orders were stored: waiting only for %v", missing)
			}
			return err
		})
	}

	// A wrong PASSWORD: the real player is told, never the sender.
	j.handle(clientMail{From: "Mallory <mallory@evil.example>", To: testJudge, Subject: "orders",
		Body: "PASSWORD aaaabbbbccccdddd\n" + form})
	m := j.takeN(1)[0]
	if m.Kind() != kindAuthFailed || m.To() != alice || m.Side() != "us" || !strings.Contains(m.Text, "mallory@evil.example") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}

	// A forged From with a Reply-To of the forger's, no secret: the same.
	j.handle(clientMail{From: "Alice <" + alice + ">", ReplyTo: "mallory@evil.example", To: testJudge, Subject: "orders", Body: form})
	if m := j.takeN(1)[0]; m.Kind() != kindAuthFailed || m.To() != alice {
		t.Errorf("got %s", m)
	}
	// A forged From naming the game only: the From picks the side to tell.
	j.handle(clientMail{From: alice, ReplyTo: "mallory@evil.example", To: testJudge, Subject: "status", Body: "STATUS tutorial-1"})
	if m := j.takeN(1)[0]; m.Kind() != kindAuthFailed || m.To() != alice {
		t.Errorf("got %s", m)
	}
	// A wrong token and nothing that names a game: logged only.
	j.handle(clientMail{From: "mallory@evil.example", To: "judge+aaaabbbbccccdddd@club.example", Subject: "hi", Body: "BN 743 H\n"})
	j.takeN(0)
	if !strings.Contains(j.logs.String(), "mail without valid credentials ignored") {
		t.Error("the failure was not logged")
	}
	noOrders()

	// A good secret, but the mail names another side: told to the owner.
	j.handle(w["us"].reply(alice, strings.Replace(form, "SIDE us", "SIDE german", 1)))
	if m := j.takeN(1)[0]; m.Kind() != kindError || m.To() != alice || !strings.Contains(m.Text, "side german") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
	// A good secret of one game for another game.
	j.handle(w["us"].reply(alice, strings.Replace(form, "GAME tutorial-1", "GAME tutorial-2", 1)))
	if m := j.takeN(1)[0]; m.Kind() != kindError || m.To() != alice || !strings.Contains(m.Text, "game tutorial-2") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
	// An unknown game: the sender learns only that it does not exist.
	j.handle(clientMail{From: "carol@example.net", To: testJudge, Subject: "orders", Body: "GAME nosuch SIDE us\nPASSWORD x\nBN 743 H\n"})
	if m := j.takeN(1)[0]; m.Kind() != kindError || m.To() != "carol@example.net" || !strings.Contains(m.Text, `no game "nosuch"`) {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
	noOrders()

	// The secret is read case-insensitively, from a PASSWORD line.
	j.handle(clientMail{From: "alice@elsewhere.example", To: testJudge, Subject: "orders",
		Body: "PASSWORD " + strings.ToUpper(w["us"].Token()) + "\n" + form})
	if m := j.takeN(1)[0]; m.Kind() != kindAccepted || m.To() != alice {
		t.Errorf("got %s: the answer goes to the registered address", m)
	}

	// GM commands need the GM secret: a player's is not enough.
	j.handle(w["us"].reply(alice, "PAUSE tutorial-1"))
	if m := j.takeN(1)[0]; m.Kind() != kindAuthFailed || m.To() != testGM {
		t.Errorf("got %s", m)
	}
	if gameRecord(t, j.store, "tutorial-1").Paused {
		t.Error("a player paused the game")
	}
}

func TestStatusMapHistoryResend(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 48 * time.Hour})
	w := j.newGame("tutorial-1", "")
	us := w["us"]
	j.handle(us.reply(alice, "HISTORY"))
	if m := j.takeN(1)[0]; m.Kind() != kindError || !strings.Contains(m.Text, "No round") {
		t.Errorf("got %s", m)
	}
	j.handle(us.reply(alice, "RESEND"))
	if m := j.takeN(1)[0]; m.Kind() != kindWelcome || m.Token() != us.Token() {
		t.Errorf("RESEND before round 1: got %s", m)
	}
	j.handle(us.reply(alice, us.Form()))
	j.takeN(1)
	j.handle(us.reply(alice, "status"))
	m := j.takeN(1)[0]
	if m.Kind() != kindStatus || !strings.Contains(m.Text, "Still waiting for the orders of: german") || !strings.HasSuffix(strings.TrimSpace(m.Form()), "\nEND") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
	m.part(t, "situation.json")
	j.handle(us.reply(alice, "MAP"))
	if m := j.takeN(1)[0]; m.Kind() != kindMap || !strings.HasPrefix(string(m.part(t, "map.png")), "\x89PNG") {
		t.Errorf("got %s", m)
	}
	j.handle(w["german"].reply(bob, w["german"].Form()))
	report := byKind(t, j.takeN(3), kindReport, bob)
	j.handle(report.reply(bob, "HISTORY 1"))
	m = j.takeN(1)[0]
	if m.Kind() != kindHistory || revealedSeed(t, m) != revealedSeed(t, report) || m.Form() != "" {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
	j.handle(report.reply(bob, "HISTORY 7"))
	if m := j.takeN(1)[0]; m.Kind() != kindError || !strings.Contains(m.Text, "1 to 1") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
	j.handle(report.reply(bob, "RESEND"))
	if m := j.takeN(1)[0]; m.Kind() != kindReport || m.To() != bob || m.Form() != report.Form() {
		t.Errorf("RESEND: got %s", m)
	}
	// A command in the subject of an empty mail.
	j.handle(clientMail{From: bob, To: report.ReplyAddress(), Subject: "Re: [tutorial-1] status", Body: "\n"})
	if m := j.takeN(1)[0]; m.Kind() != kindStatus {
		t.Errorf("got %s", m)
	}
}

// Observers subscribe without a secret, get the reports without a form or
// a token, and can change nothing.
func TestObservers(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.handle(clientMail{From: "Carol <carol@example.net>", To: testJudge, Subject: "watch", Body: "SUBSCRIBE tutorial-1\n"})
	if m := j.takeN(1)[0]; m.Kind() != kindStatus || m.To() != "carol@example.net" || m.Token() != "" || m.Form() != "" {
		t.Errorf("got %s", m)
	}
	j.handle(w["us"].reply(alice, w["us"].Form()))
	j.handle(w["german"].reply(bob, w["german"].Form()))
	mails := j.takeN(5)
	m := byKind(t, mails, kindReport, "carol@example.net")
	if m.Side() != "" || m.Token() != "" || m.ReplyAddress() != testJudge || m.Form() != "" {
		t.Errorf("the observer's copy: side %q, Reply-To %s, form %q", m.Side(), m.ReplyAddress(), m.Form())
	}
	j.handle(clientMail{From: "carol@example.net", To: testJudge, Subject: "stop", Body: "unsubscribe tutorial-1\n"})
	j.takeN(1)
	if g := gameRecord(t, j.store, "tutorial-1"); len(g.Observers) != 0 {
		t.Errorf("observers %v", g.Observers)
	}
}

func TestHelpUnreadableAndOversized(t *testing.T) {
	j := newJudge(t, &Options{MaxMessageSize: 4096})
	j.handle(clientMail{From: "dave@example.net", To: testJudge, Subject: "hello", Body: "HELP\n"})
	if m := j.takeN(1)[0]; m.Kind() != kindHelp || !strings.Contains(m.Text, "NEWGAME scenario=NAME") {
		t.Errorf("got %s", m)
	}
	j.handle(clientMail{From: "erin@example.net", To: testJudge, Subject: "photo", Body: "\n\n"})
	if m := j.takeN(1)[0]; m.Kind() != kindHelp || !strings.Contains(m.Text, "no text the judge could read") {
		t.Errorf("got %s", m)
	}
	// An address mail cannot be sent to is not answered (and the mail is
	// not retried for ever).
	j.handle(clientMail{From: `"dave smith"@example.net`, To: testJudge, Subject: "hello", Body: "HELP\n"})
	j.takeN(0)
	big := clientMail{From: "frank@example.net", To: testJudge, Subject: "big", Body: strings.Repeat("x", 10000)}
	in, err := parseLimited(big.raw(), 4096)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.svc.Handle(t.Context(), in); err != nil {
		t.Fatal(err)
	}
	j.flush()
	if m := j.takeN(1)[0]; m.Kind() != kindError || !strings.Contains(m.Text, "larger than the judge reads (4 KiB)") {
		t.Errorf("got %s:\n%s", m, m.Text)
	}
}

// A mail handled twice (redelivered, or the same Message-ID) has one
// effect; mail sent by machines is never answered.
func TestDuplicatesAndAutomaticMail(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	reply := w["us"].reply(alice, w["us"].Form())
	reply.MessageID = "the-same@example.org"
	j.handle(reply)
	j.handle(reply)
	j.takeN(1)

	for _, extra := range [][]string{
		{"Auto-Submitted: auto-replied"},
		{"X-Autoreply: yes"},
		{"Return-Path: <>"},
		{"Precedence: bulk"},
	} {
		m := w["us"].reply(alice, "I am on holiday until Monday.\n")
		m.Extra = extra
		j.handle(m)
	}
	j.handle(clientMail{From: "Mail Delivery System <MAILER-DAEMON@example.org>", To: testJudge, Subject: "Undelivered", Body: "HELP\n"})
	j.handle(clientMail{From: "judge+x@club.example", To: testJudge, Subject: "loop", Body: "HELP\n"})
	j.takeN(0)
}
