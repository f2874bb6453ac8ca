package pbem

import (
	"fmt"
	netmail "net/mail"
	"slices"
	"strconv"
	"strings"
)

// seating is the people side of a transaction: who holds each seat and
// how it changes hands (REPLACE, OPEN, JOIN, APPROVE, ADDRESS), a seat's
// absences, a seat abandoned or unreachable, and the game's POLICY.
type seating struct{ *txn }

func (t *txn) seats() seating { return seating{t} }

// SeatState is who holds a side's seat and how it has been kept: the address
// plays from round Since, under secret generation Generation; Past lists
// who held it before. Missed and OnTime count the current holder's rounds
// (reliability), InARow its deadlines missed one after another.
type SeatState struct {
	// Generation goes into the seat's secret: a seat given to another
	// address gets a new secret and the old one stops working.
	Generation int `json:"generation,omitempty"`
	// Since is the first round the current address plays; 0 for round 1.
	Since  int      `json:"since,omitempty"`
	Past   []Tenure `json:"past,omitempty"`
	Missed int      `json:"missed,omitempty"`
	OnTime int      `json:"on_time,omitempty"`
	InARow int      `json:"in_a_row,omitempty"`
	// Abandoned: the seat was open after InARow reached the game's
	// AbandonAfter; the caretaker plays it until someone takes it.
	Abandoned bool `json:"abandoned,omitempty"`
	// Joining is the address that asked to JOIN the open seat and waits for
	// the GM's APPROVE.
	Joining string `json:"joining,omitempty"`
	// Absences are the absences announced; AbsenceDays counts their days
	// against the club's limit.
	Absences    []Absence `json:"absences,omitempty"`
	AbsenceDays int       `json:"absence_days,omitempty"`
}

// Tenure is a player's time in a seat before it changed hands: the
// rounds From to To it played, and how reliably.
type Tenure struct {
	Address string `json:"address"`
	From    int    `json:"from"`
	To      int    `json:"to"`
	Missed  int    `json:"missed,omitempty"`
	OnTime  int    `json:"on_time,omitempty"`
	// Left says why: replaced by the GM, opened, abandoned.
	Left string `json:"left"`
}

// rounds says which rounds a tenure played: "rounds 1-3", "round 2", or
// "no round" for a seat given away before its first.
func (tn Tenure) rounds() string {
	switch {
	case tn.To < tn.From:
		return "no round"
	case tn.To == tn.From:
		return fmt.Sprintf("round %d", tn.From)
	}
	return fmt.Sprintf("rounds %d-%d", tn.From, tn.To)
}

// Policy is what the GM chose for a game's people side (POLICY, or the
// same keys in NEWGAME).
type Policy struct {
	// Caretaker is what a side without orders plays at the deadline:
	// caretakerHold (""), caretakerStanding or caretakerBot.
	Caretaker string `json:"caretaker,omitempty"`
	// AbandonAfter deadlines missed in a row make a seat abandoned; 0 for
	// never.
	AbandonAfter int `json:"abandon_after,omitempty"`
	// Approval: a JOIN waits for the GM's APPROVE.
	Approval bool `json:"approval,omitempty"`
	// MinReliability is the reliability (percent of rounds on time over
	// the club) a JOIN needs; 0 for none.
	MinReliability int `json:"min_reliability,omitempty"`
	// Absence is what an absence does: absenceExtend ("") moves the
	// deadlines past it, absenceCaretaker lets the caretaker play.
	Absence string `json:"absence,omitempty"`
	// Rated: the game's result updates the club ladder.
	Rated bool `json:"rated,omitempty"`
}

// The caretakers and absence policies.
const (
	caretakerHold     = "hold"
	caretakerStanding = "standing"
	caretakerBot      = "bot"
	absenceExtend     = "extend"
	absenceCaretaker  = "caretaker"
)

// openSeat is the address word that makes a seat open in NEWGAME.
const openSeat = "open"

// isOpen reports whether nobody holds the seat: the caretaker plays it
// and anyone may JOIN it.
func (p *Player) isOpen() bool { return p.Address == "" }

// seatName is how commands, reports and table talk name a seat: SIDE
// for the side's commander, SIDE.N for its other players (the seat id).
func (p *Player) seatName() string { return p.Side }

// seat finds the seat a command names: SIDE for the side's commander (also
// SIDE.1), SIDE.N for another of its seats (engine.SeatID).
func (g *Game) seat(name string) (*Player, error) {
	name = strings.TrimSuffix(name, ".1")
	for i := range g.Players {
		if strings.EqualFold(g.Players[i].Side, name) {
			return &g.Players[i], nil
		}
	}
	var seats []string
	for _, p := range g.Players {
		seats = append(seats, p.Side)
	}
	return nil, fmt.Errorf("game %s has no seat %q; its seats: %s", g.ID, name, strings.Join(seats, ", "))
}

// parsePolicy reads a policy key of POLICY or NEWGAME into pol; known is
// false for a key that is no policy's.
func parsePolicy(pol *Policy, key, val string) (known bool, err error) {
	yes := func() (bool, error) {
		switch strings.ToLower(val) {
		case "yes", "on", "true":
			return true, nil
		case "no", "off", "false":
			return false, nil
		}
		return false, fmt.Errorf("%s=%s: want yes or no", key, val)
	}
	number := func(max int) (int, error) {
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 || n > max {
			return 0, fmt.Errorf("%s=%s: want a whole number from 0 to %d", key, val, max)
		}
		return n, nil
	}
	switch key {
	case "caretaker":
		v := strings.ToLower(val)
		if v != caretakerHold && v != caretakerStanding && v != caretakerBot {
			return true, fmt.Errorf("caretaker=%s: want hold, standing or bot", val)
		}
		pol.Caretaker = v
	case "abandon":
		pol.AbandonAfter, err = number(100)
	case "approval":
		pol.Approval, err = yes()
	case "reliability":
		pol.MinReliability, err = number(100)
	case "absence":
		v := strings.ToLower(val)
		if v != absenceExtend && v != absenceCaretaker {
			return true, fmt.Errorf("absence=%s: want extend or caretaker", val)
		}
		pol.Absence = v
	case "rated":
		pol.Rated, err = yes()
	default:
		return false, nil
	}
	return true, err
}

// describe writes a game's policy for the GM and game show.
func (pol Policy) describe() string {
	caretaker := pol.Caretaker
	if caretaker == "" {
		caretaker = caretakerHold
	}
	abandon := "never"
	if pol.AbandonAfter > 0 {
		abandon = "after " + plural(pol.AbandonAfter, "missed deadline") + " in a row"
	}
	absence := pol.Absence
	if absence == "" {
		absence = absenceExtend
	}
	yesNo := map[bool]string{true: "yes", false: "no"}
	return fmt.Sprintf("caretaker=%s, seats abandoned %s, absence=%s, JOIN needs approval: %s, reliability=%d%%, rated: %s",
		caretaker, abandon, absence, yesNo[pol.Approval], pol.MinReliability, yesNo[pol.Rated])
}

// policy handles POLICY GAMEID key=value ...: caretaker=hold|standing|bot
// abandon=N absence=extend|caretaker approval=yes|no reliability=PERCENT
// rated=yes|no.
func (t seating) policy(g *Game, args []string) error {
	refuse := func(why string) error {
		return t.refuseGM(g, cmdPolicy, why+"\n\nThe command: POLICY "+g.ID+" caretaker=hold|standing|bot abandon=N "+
			"absence=extend|caretaker approval=yes|no reliability=PERCENT rated=yes|no")
	}
	pairs, err := keyValues(args)
	if err != nil || len(pairs) == 0 {
		return refuse("POLICY needs at least one key=value.")
	}
	for _, kv := range pairs {
		known, err := parsePolicy(&g.Policy, kv[0], kv[1])
		switch {
		case !known:
			return refuse(fmt.Sprintf("%q is no policy key.", kv[0]))
		case err != nil:
			return refuse(err.Error() + ".")
		}
	}
	if err := t.putGame(g); err != nil {
		return err
	}
	t.log.Info("policy changed", "policy", g.Policy.describe())
	return t.letters().answerGM(kindGM, g, "Policy changed", fmt.Sprintf("Game %s: %s.", g.ID, g.Policy.describe()))
}

// handOver gives a seat to another address (none: the seat is open). A
// new player's rounds are counted afresh and the old holder's are kept in
// Past; moved keeps them, the same player having a new address. Either
// way the seat gets a new secret and the old one stops working; the new
// address is mailed a welcome with it and the current order form.
func (t seating) handOver(g *Game, p *Player, addr, left string, moved bool) error {
	if err := t.deleteToken(hashSecret(deriveSecret(t.s.opts.ServerKey, g, p.Side))); err != nil {
		return err
	}
	if !moved {
		if !p.isOpen() {
			p.Past = append(p.Past, Tenure{Address: p.Address, From: max(p.Since, 1), To: g.Round() - 1,
				Missed: p.Missed, OnTime: p.OnTime, Left: left})
		}
		p.Since, p.Missed, p.OnTime, p.InARow = g.Round(), 0, 0, 0
		p.Absences, p.AbsenceDays = nil, 0
	}
	p.Address, p.Generation, p.Joining, p.Unreachable = addr, p.Generation+1, "", nil
	p.Abandoned = p.Abandoned && addr == ""
	if err := t.putGame(g); err != nil {
		return err
	}
	if addr == "" {
		return nil
	}
	if err := t.putToken(hashSecret(deriveSecret(t.s.opts.ServerKey, g, p.Side)), g.ID, p.Side); err != nil {
		return err
	}
	if g.Ended {
		return nil
	}
	return t.rounds().welcome(g, p.Side, nil)
}

// tellFormerPlayer tells the address that held a seat that it holds it no
// more; the mail carries no secret.
func (t seating) tellFormerPlayer(g *Game, addr, side, why string) error {
	if addr == "" {
		return nil
	}
	text, err := t.s.render(kindGM, &mailData{Game: g.ID, Title: g.Title, Body: fmt.Sprintf(
		"You no longer play side %s of game %s: %s\nYour secret for it no longer works.", side, g.ID, why)})
	if err != nil {
		return err
	}
	return t.letters().queue(&letter{kind: kindSeat, game: g, to: addr, subject: fmt.Sprintf("[%s] You no longer play %s", g.ID, side), text: text})
}

// tellSeatChange tells a game's other players and observers that a seat
// changed hands, without any address.
func (t seating) tellSeatChange(g *Game, p *Player, what string) error {
	for _, other := range g.Players {
		if other.Side == p.Side || other.isOpen() {
			continue
		}
		if err := t.letters().mailPlayer(g, other.Side, kindSeat, "Seat "+p.seatName()+": "+what, "Seat "+p.seatName()+" of game "+g.ID+": "+what+".", false); err != nil {
			return err
		}
	}
	return t.letters().mailObservers(g, kindSeat, "Seat "+p.seatName()+": "+what, "Seat "+p.seatName()+" of game "+g.ID+": "+what+".")
}

// seatArgs reads the SEAT [ADDRESS] arguments of REPLACE, OPEN and
// APPROVE; it answers the GM and returns nil when they do not read.
func (t seating) seatArgs(g *Game, cmd string, args []string, withAddress bool) (*Player, string, error) {
	usage := cmd + " " + g.ID + " SIDE"
	if withAddress {
		usage += " ADDRESS"
	}
	if want := map[bool]int{true: 2, false: 1}[withAddress]; len(args) != want {
		return nil, "", t.refuseGM(g, cmd, "The command: "+usage+" (a seat is SIDE or SIDE.N).")
	}
	p, err := g.seat(args[0])
	if err != nil {
		return nil, "", t.refuseGM(g, cmd, err.Error()+".")
	}
	if !withAddress {
		return p, "", nil
	}
	a, err := netmail.ParseAddress(args[1])
	if err != nil || !sendable(a.Address) {
		return nil, "", t.refuseGM(g, cmd, fmt.Sprintf("%q is not a mail address.", args[1]))
	}
	for _, other := range g.Players {
		if strings.EqualFold(other.Address, a.Address) {
			return nil, "", t.refuseGM(g, cmd, fmt.Sprintf("%s plays seat %s of game %s already.", a.Address, other.seatName(), g.ID))
		}
	}
	return p, a.Address, nil
}

// replace handles REPLACE GAMEID SEAT ADDRESS: the seat goes to another
// address. It is also the way to give a seat whose mail bounced, an open
// seat or an abandoned one to a player.
func (t seating) replace(g *Game, args []string) error {
	p, addr, err := t.seatArgs(g, cmdReplace, args, true)
	if p == nil {
		return err
	}
	old := p.Address
	if err := t.handOver(g, p, addr, "replaced", false); err != nil {
		return err
	}
	t.log.Info("seat replaced", "seat", p.seatName(), "round", g.Round())
	if err := t.tellFormerPlayer(g, old, p.Side, "the game master gave your seat to another player."); err != nil {
		return err
	}
	if err := t.tellSeatChange(g, p, fmt.Sprintf("a new player plays it from round %d", g.Round())); err != nil {
		return err
	}
	return t.letters().answerGM(kindGM, g, "Seat "+p.seatName()+" replaced", fmt.Sprintf(
		"Seat %s of game %s is played by %s from round %d; it was mailed a welcome with a new secret and the current order form.\n"+
			"The old secret no longer works.", p.seatName(), g.ID, addr, g.Round()))
}

// openSeatCommand handles OPEN GAMEID SEAT: nobody holds the seat now, the
// caretaker plays it, and anyone may JOIN it.
func (t seating) openSeatCommand(g *Game, args []string) error {
	p, _, err := t.seatArgs(g, cmdOpen, args, false)
	if p == nil {
		return err
	}
	if p.isOpen() {
		return t.refuseGM(g, cmdOpen, fmt.Sprintf("Seat %s of game %s is open already.", p.seatName(), g.ID))
	}
	old := p.Address
	if err := t.handOver(g, p, "", "opened by the game master", false); err != nil {
		return err
	}
	if err := t.tellFormerPlayer(g, old, p.Side, "the game master opened your seat for another player."); err != nil {
		return err
	}
	if err := t.offerSeat(g, p, "Seat "+p.seatName()+" open", ""); err != nil {
		return err
	}
	return t.rounds().playIfComplete(g)
}

// offerSeat tells the game's players, its observers and the GM that a
// seat is open, and how to take it; the GM's mail starts with intro.
func (t seating) offerSeat(g *Game, p *Player, subject, intro string) error {
	how := fmt.Sprintf("is open: the caretaker plays it until someone takes it. To play it, mail the judge (%s)\n"+
		"the line JOIN %s %s", t.s.opts.Address, g.ID, p.seatName())
	if g.Approval {
		how += " (the game master approves who joins)"
	}
	if g.MinReliability > 0 {
		how += fmt.Sprintf(" (only players who kept %d%% of their deadlines in the club)", g.MinReliability)
	}
	if err := t.tellSeatChange(g, p, how); err != nil {
		return err
	}
	t.log.Info("seat open", "seat", p.seatName())
	return t.letters().answerGM(kindGM, g, subject, intro+fmt.Sprintf("Seat %s of game %s %s.", p.seatName(), g.ID, how))
}

// approve handles APPROVE GAMEID SEAT: the address that asked to JOIN the
// seat gets it.
func (t seating) approve(g *Game, args []string) error {
	p, _, err := t.seatArgs(g, cmdApprove, args, false)
	if p == nil {
		return err
	}
	if p.Joining == "" {
		return t.refuseGM(g, cmdApprove, fmt.Sprintf("Nobody asked to join seat %s of game %s.", p.seatName(), g.ID))
	}
	addr := p.Joining
	if err := t.handOver(g, p, addr, "", false); err != nil {
		return err
	}
	if err := t.tellSeatChange(g, p, fmt.Sprintf("a new player plays it from round %d", g.Round())); err != nil {
		return err
	}
	return t.letters().answerGM(kindGM, g, "Seat "+p.seatName()+" taken", fmt.Sprintf(
		"Seat %s of game %s is played by %s from round %d; it was mailed its welcome.", p.seatName(), g.ID, addr, g.Round()))
}

// join handles JOIN GAMEID SEAT from anyone: the first to ask for an open
// seat gets it, at once or after the GM's APPROVE, if its reliability in
// the club is what the game asks.
func (t seating) join(req *request) error {
	if len(req.Args) != 2 {
		return t.answerSender(kindError, "JOIN: which game and seat?", "The command: JOIN GAMEID SIDE (a seat is SIDE or SIDE.N).")
	}
	addr := t.senderAddress()
	if addr == "" {
		return nil
	}
	g, err := t.game(strings.ToLower(req.Args[0]))
	if err != nil {
		return err
	}
	if g == nil || g.Ended {
		return t.answerSender(kindError, "JOIN: no such game", fmt.Sprintf("There is no game %q open on this judge.", req.Args[0]))
	}
	p, err := g.seat(req.Args[1])
	if err != nil {
		return t.answerSender(kindError, "JOIN: no such seat", err.Error()+".")
	}
	refuse := func(why string) error {
		t.log.Info("JOIN refused", "game", g.ID, "seat", p.seatName(), "why", why)
		return t.answerSender(kindError, "JOIN "+g.ID+" "+p.seatName()+" refused", why)
	}
	switch {
	case !p.isOpen():
		return refuse(fmt.Sprintf("Seat %s of game %s is not open: someone plays it.", p.seatName(), g.ID))
	case p.Joining != "":
		return refuse(fmt.Sprintf("Someone asked for seat %s of game %s first; the game master is deciding.", p.seatName(), g.ID))
	case slices.ContainsFunc(g.Players, func(o Player) bool { return strings.EqualFold(o.Address, addr) }):
		return refuse(fmt.Sprintf("You play a seat of game %s already.", g.ID))
	}
	if g.MinReliability > 0 {
		rel, err := t.clubReliability(addr)
		if err != nil {
			return err
		}
		if rel.Rounds() == 0 || rel.Percent() < g.MinReliability {
			return refuse(fmt.Sprintf("Game %s takes players who kept at least %d%% of their deadlines in the club; your record: %s.",
				g.ID, g.MinReliability, rel))
		}
	}
	// The address asking may be forged: it confirms by replying from it.
	// Mail to an address the judge does not know is limited, as answers
	// to strangers are.
	known, err := t.knownAddress(addr, t.s.opts.GMAddress)
	if err != nil {
		return err
	}
	note := ""
	if !known {
		var ok bool
		if ok, note, err = t.limits().allow(limitStranger, addr, t.s.opts.StrangerAnswers); !ok || err != nil {
			return err
		}
	}
	return t.askConfirmation(g, p, addr, pendingAddress{Join: true}, fmt.Sprintf(
		"You asked to play seat %s of game %s (%s). To take it: reply to this mail (nothing to write);\n"+
			"the first JOIN confirmed gets the seat. If you did not ask, ignore this mail: nothing happens.", p.seatName(), g.ID, g.Title), note)
}

// seatJoined gives an open seat to an address that confirmed its JOIN,
// if it is still open and the address may have it: at once, or after
// the GM's APPROVE when the game asks for it.
func (t seating) seatJoined(g *Game, p *Player, addr string) error {
	tell := func(subject, body string) error {
		text, err := t.s.render(kindSeat, &mailData{Game: g.ID, Title: g.Title, Body: body})
		if err != nil {
			return err
		}
		return t.letters().queue(&letter{kind: kindSeat, game: g, to: addr, subject: "[" + g.ID + "] " + subject, text: text})
	}
	switch {
	case !p.isOpen() || p.Joining != "":
		return tell("JOIN "+p.seatName()+": taken", fmt.Sprintf("Someone took seat %s of game %s first.", p.seatName(), g.ID))
	case slices.ContainsFunc(g.Players, func(o Player) bool { return strings.EqualFold(o.Address, addr) }):
		return tell("JOIN "+p.seatName()+" refused", fmt.Sprintf("You play a seat of game %s already.", g.ID))
	}
	if g.Approval {
		p.Joining = addr
		if err := t.putGame(g); err != nil {
			return err
		}
		if err := t.letters().answerGM(kindGM, g, "JOIN "+p.seatName()+" waits for you", fmt.Sprintf(
			"%s asks to play seat %s of game %s (confirmed from that address). To let it: APPROVE %s %s;\n"+
				"to give the seat to someone else: REPLACE %s %s ADDRESS.",
			addr, p.seatName(), g.ID, g.ID, p.seatName(), g.ID, p.seatName())); err != nil {
			return err
		}
		return tell("JOIN "+p.seatName()+": waiting for the game master",
			"The game master approves who joins this game; you will get the welcome once it has.")
	}
	if err := t.handOver(g, p, addr, "", false); err != nil {
		return err
	}
	t.log.Info("seat taken by JOIN", "game", g.ID, "seat", p.seatName())
	if err := t.tellSeatChange(g, p, fmt.Sprintf("a new player plays it from round %d", g.Round())); err != nil {
		return err
	}
	return t.letters().answerGM(kindGM, g, "Seat "+p.seatName()+" taken", fmt.Sprintf(
		"%s took seat %s of game %s by JOIN; it plays from round %d.", addr, p.seatName(), g.ID, g.Round()))
}
