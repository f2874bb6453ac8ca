package pbem

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fieldpost/engine"
	"fieldpost/mail"
)

// playerArgsFree are the player commands whose arguments are text, dates
// or an address, never a game id: the game comes from the secret.
var playerArgsFree = map[string]bool{cmdMessage: true, cmdTeam: true, cmdAbsence: true, cmdAddress: true}

// playerRequest handles what only a game's players may ask: orders, CHECK,
// STATUS, MAP, HISTORY and RESEND.
func (t *txn) playerRequest(req *request) error {
	claimed := req.Header.Game
	historyRound := 0
	if req.Command != cmdOrders && req.Command != cmdCheck && !playerArgsFree[req.Command] {
		// The arguments: a game id, HISTORY's round number, TIMEZONE's zone
		// (its last word).
		args := req.Args
		if req.Command == cmdTimezone && len(args) > 0 {
			args = args[:len(args)-1]
		}
		for _, a := range args {
			if n, err := strconv.Atoi(a); err == nil && req.Command == cmdHistory {
				historyRound = n
			} else if claimed == "" {
				claimed = strings.ToLower(a)
			}
		}
	}
	id, err := t.authenticate(req, claimed)
	if id == nil {
		return err
	}
	t.log = t.log.With("game", id.game.ID, "side", id.side)
	if err := t.seats().seatReachable(id); err != nil {
		return err
	}
	switch req.Command {
	case cmdOrders:
		return t.orders(id, req, false)
	case cmdCheck:
		return t.orders(id, req, true)
	case cmdStatus:
		return t.letters().mailPlayer(id.game, id.side, kindStatus, "Status before round "+strconv.Itoa(id.game.Round()), "", true)
	case cmdMap:
		return t.mapMail(id)
	case cmdHistory:
		return t.history(id, historyRound)
	case cmdTimezone:
		return t.playerTimeZone(id, req)
	case cmdMessage:
		return t.tableTalk(id, req)
	case cmdTeam:
		return t.teamMessage(id, req)
	case cmdAbsence:
		return t.seats().absence(id, req)
	case cmdAddress:
		return t.seats().moveAddress(id, req)
	case cmdResend:
		switch {
		case id.game.Turn > 0:
			return t.rounds().reportMails(id.game, id.game.Turn-1, id.game.Player(id.side))
		case id.game.Ended:
			return t.letters().mailPlayer(id.game, id.side, kindError, "No report", "The game ended before its first round: there is no report to send.", false)
		}
		return t.rounds().welcome(id.game, id.side, nil)
	}
	return fmt.Errorf("no handler for command %s", req.Command)
}

// orders reads a side's orders from the mail in hand and stores them, or
// with check only says what it makes of them. Once every side has sent
// orders the round is played.
func (t *txn) orders(id *identity, req *request, check bool) error {
	g, side := id.game, id.side
	kind, refused := kindAccepted, kindRejected
	if check {
		kind, refused = kindCheck, kindCheck
	}
	if g.Ended {
		return t.letters().mailPlayer(g, side, kindError, "The game is over",
			fmt.Sprintf("Game %s is over, orders are no longer taken.\n%s", g.ID, g.Result), false)
	}
	if r := req.Header.Round; r != 0 && r != g.Round() {
		why := fmt.Sprintf("These orders are for round %d, which has been played already.", r)
		if r > g.Round() {
			why = fmt.Sprintf("These orders are for round %d, which is not open yet.", r)
		}
		t.log.Info("orders for another round refused", "round", r, "current", g.Round())
		return t.letters().mailPlayer(g, side, refused, fmt.Sprintf("Orders for round %d NOT accepted", r),
			why+fmt.Sprintf("\nThe orders now are for round %d. Nothing has changed: send orders for round %d\n"+
				"(reply to the latest report, or send STATUS for the current order form).", g.Round(), g.Round()), false)
	}
	pos, err := t.position(g)
	if err != nil {
		return err
	}
	if !slices.Contains(pos.Step().Waiting, seatSide(side)) {
		if standing, ok := pos.(engine.Standing); ok && !check {
			return t.standingOrders(g, side, standing, req)
		}
		return t.letters().mailPlayer(g, side, refused, fmt.Sprintf("Orders for round %d NOT accepted", g.Round()),
			fmt.Sprintf("Round %d (%s) takes no orders from %s: it waits for %s.", g.Round(), pos.Step().Name,
				seatSide(side), strings.Join(pos.Step().Waiting, ", ")), false)
	}
	reading, text := readOrders(pos, side, g.ID, req, t.msg, check, t.s.opts.Limits.MaxErrors)
	t.reading = &reading
	notes := readingNotes(req, reading)
	switch {
	case reading.Errors == 0 && !reading.Found && req.SubjectCommand != "":
		// No orders after all: the subject's command is what the mail asks.
		req.Command, req.SubjectCommand = req.SubjectCommand, ""
		return t.dispatch(req)
	case reading.Errors == 0 && !reading.Found:
		t.log.Info("mail with neither orders nor a command")
		return t.letters().mailPlayer(g, side, kindHelp, "No orders found", noOrdersWhy(req), false)
	case reading.Errors > 0:
		t.log.Info("orders refused", "check", check, "errors", reading.Errors)
		subject := fmt.Sprintf("Orders for round %d NOT accepted", g.Round())
		if check {
			subject = fmt.Sprintf("Orders for round %d checked: %s", g.Round(), plural(reading.Errors, "error"))
		}
		return t.letters().refuse(g, side, refused, subject, reading.Answer+notes, text, reading.Problems)
	case check:
		t.log.Info("orders checked")
		return t.letters().mailPlayer(g, side, kindCheck, fmt.Sprintf("Orders for round %d checked: valid", g.Round()),
			reading.Answer+notes, false)
	}

	if _, team := teamSide(pos, seatSide(side)); team {
		// The side's orders are its seats' together: these must go with
		// those the other seats sent (the family refuses a clash).
		if _, _, err := t.sideOrders(g, pos, seatSide(side), map[string]engine.Orders{side: reading.Orders}); err != nil {
			t.log.Info("seat orders clash with the side's", "err", err)
			return t.letters().mailPlayer(g, side, refused, fmt.Sprintf("Orders for round %d NOT accepted", g.Round()),
				fmt.Sprintf("Your orders are valid alone, but not with those the other seats of %s have sent:\n  %v\n"+
					"Nothing has changed. Agree with your team (TEAM message) and send them again.\n", seatSide(side), err), false)
		}
	}
	raw, err := reading.Orders.Marshal()
	if err != nil {
		return fmt.Errorf("game %s: storing the orders of %s: %w", g.ID, side, err)
	}
	err = t.putSubmission(g.ID, g.Turn, side, &submission{Orders: raw, Echo: reading.Answer, MessageID: t.msg.MessageID, Received: t.now})
	if err != nil {
		return err
	}
	missing, err := t.rounds().missingSides(g)
	if err != nil {
		return err
	}
	t.log.Info("orders accepted", "round", g.Round(), "waiting_for", missing)
	if err := t.letters().mailPlayer(g, side, kind, fmt.Sprintf("Orders accepted for round %d", g.Round()), reading.Answer+notes, false); err != nil {
		return err
	}
	if len(missing) > 0 || g.Paused {
		return nil
	}
	return t.rounds().playRound(g, "")
}

// standingOrders takes a waiting side's standing orders for the round
// being waited for, where the game system has them: the position changes,
// the round and its dice do not.
func (t *txn) standingOrders(g *Game, side string, standing engine.Standing, req *request) error {
	pos, err := t.position(g)
	if err != nil {
		return err
	}
	text := withoutOwnMail(req.Text, g.ID, pos.Title())
	next, reading := standing.Stand(side, text, t.s.opts.Limits.MaxErrors)
	switch {
	case next == nil && reading.Errors > 0:
		t.log.Info("standing orders refused", "errors", reading.Errors)
		return t.letters().refuse(g, side, kindRejected, fmt.Sprintf("Standing orders for round %d NOT accepted", g.Round()), reading.Answer, text, reading.Problems)
	case next == nil:
		return t.letters().mailPlayer(g, side, kindRejected, fmt.Sprintf("Orders for round %d NOT accepted", g.Round()),
			fmt.Sprintf("Round %d (%s) waits for %s's orders; you may send only your standing orders (REACT) now.",
				g.Round(), pos.Step().Name, strings.Join(pos.Step().Waiting, ", ")), false)
	}
	if err := t.putPosition(g, next); err != nil {
		return err
	}
	t.log.Info("standing orders accepted", "round", g.Round())
	return t.letters().mailPlayer(g, side, kindAccepted, fmt.Sprintf("Standing orders accepted for round %d", g.Round()), reading.Answer, false)
}

// readingNotes says how the judge read a mail's orders, where that is not
// plain: from an attachment, with a command in the subject not done, with
// lines ignored.
func readingNotes(req *request, reading engine.Reading) string {
	var b strings.Builder
	if req.Attachment != "" {
		fmt.Fprintf(&b, "\nThe orders were read from the attached file %s, since the mail itself held none.\n", req.Attachment)
	}
	if req.FromQuotedForm {
		b.WriteString("\nThe orders were read from the order form in the judge's mail quoted in yours, which you\n" +
			"changed there, since you wrote none above or below it.\n")
	}
	if req.Inline {
		b.WriteString("\nThe orders were read from the order form quoted in your mail, with the lines you wrote\n" +
			"between its quoted lines each in place of the quoted line it follows when both name the same thing.\n")
	}
	if req.SubjectCommand != "" {
		fmt.Fprintf(&b, "\nThe subject of your mail asks for %s, but the mail holds orders: the orders were read and\n"+
			"%s was not done. Send %s in a mail of its own.\n", req.SubjectCommand, req.SubjectCommand, req.SubjectCommand)
	}
	if len(reading.Ignored) > 0 {
		b.WriteString("\nThese lines were not read as orders:\n")
		for _, l := range reading.Ignored {
			fmt.Fprintf(&b, "  line %d: %s  (%s)\n", l.Line, strings.TrimSpace(l.Text), l.Why)
		}
	}
	return b.String()
}

// blankLine empties line i of text, keeping the other lines' numbers.
func blankLine(text string, i int) string {
	lines := strings.Split(text, "\n")
	if i >= 0 && i < len(lines) {
		lines[i] = ""
	}
	return strings.Join(lines, "\n")
}

// mapMail sends the map of the current position.
func (t *txn) mapMail(id *identity) error {
	g := id.game
	pos, err := t.position(g)
	if err != nil {
		return err
	}
	png, err := t.s.positionMap(pos, seatSide(id.side))
	if err != nil {
		return err
	}
	d := t.letters().gameData(g, id.side, pos)
	if d.TextMap, err = textMap(pos, seatSide(id.side)); err != nil {
		return err
	}
	l := &letter{kind: kindMap, game: g, side: id.side, to: g.Player(id.side).Address,
		subject: fmt.Sprintf("[%s] Map before round %d", g.ID, g.Round()), inline: []mail.Part{png}}
	if l.text, err = t.s.render(kindMap, d); err != nil {
		return err
	}
	return t.letters().queue(l)
}

// history sends the report of a round played (n from 1; 0 for the last).
func (t *txn) history(id *identity, n int) error {
	g := id.game
	if g.Turn == 0 {
		return t.letters().mailPlayer(g, id.side, kindError, "No round played yet", "No round of this game has been played yet: there is no report to send.", false)
	}
	if n == 0 {
		n = g.Turn
	}
	if n < 1 || n > g.Turn {
		return t.letters().mailPlayer(g, id.side, kindError, fmt.Sprintf("No round %d", n),
			fmt.Sprintf("HISTORY %d: the rounds played are 1 to %d.", n, g.Turn), false)
	}
	played, err := t.rounds().playedRound(g, n-1)
	if err != nil {
		return err
	}
	d := t.letters().gameData(g, id.side, played.after)
	if d.Body, err = played.report(seatSide(id.side)); err != nil {
		return err
	}
	png, err := played.png(seatSide(id.side))
	if err != nil {
		return err
	}
	l := &letter{kind: kindHistory, game: g, side: id.side, to: g.Player(id.side).Address,
		subject: fmt.Sprintf("[%s] Report of round %d (again)", g.ID, n), inline: []mail.Part{png}}
	if l.text, err = t.s.render(kindHistory, d); err != nil {
		return err
	}
	return t.letters().queue(l)
}

// subscribe adds the sender to a game's observers, or removes it. An
// observer receives the reports and can change nothing, so no secret is
// asked for; the answer goes to the address subscribed, which can undo it.
func (t *txn) subscribe(req *request) error {
	on := req.Command == cmdSubscribe
	gameID := req.Header.Game
	if len(req.Args) > 0 {
		gameID = strings.ToLower(req.Args[0])
	}
	addr := strings.ToLower(t.senderAddress())
	if addr == "" {
		return nil
	}
	if gameID == "" {
		return t.answerSender(kindError, req.Command+" needs a game", req.Command+" needs the game's id: "+req.Command+" GAMEID.")
	}
	g, err := t.game(gameID)
	if err != nil {
		return err
	}
	if g == nil {
		return t.answerSender(kindError, "no game "+gameID, fmt.Sprintf("There is no game %q on this judge.", gameID))
	}
	i := slices.IndexFunc(g.Observers, func(o string) bool { return strings.EqualFold(o, addr) })
	var body string
	switch {
	case on && i < 0:
		g.Observers = append(g.Observers, addr)
		body = fmt.Sprintf("You now receive the reports of game %s. To stop: UNSUBSCRIBE %s.", g.ID, g.ID)
	case on:
		body = fmt.Sprintf("You already receive the reports of game %s. To stop: UNSUBSCRIBE %s.", g.ID, g.ID)
	case i >= 0:
		g.Observers = append(g.Observers[:i], g.Observers[i+1:]...)
		body = fmt.Sprintf("You no longer receive the reports of game %s.", g.ID)
	default:
		body = fmt.Sprintf("You were not receiving the reports of game %s.", g.ID)
	}
	if err := t.putGame(g); err != nil {
		return err
	}
	t.log.Info("observer list changed", "game", g.ID, "subscribe", on, "observer", addr)
	pos, err := t.position(g)
	if err != nil {
		return err
	}
	d := t.letters().gameData(g, "", pos)
	d.Body = body
	if on {
		if d.Situation, err = pos.Situation(publicView(g)); err != nil {
			return err
		}
	}
	l := &letter{kind: kindStatus, game: g, to: addr, subject: fmt.Sprintf("[%s] %s", g.ID, strings.ToLower(req.Command))}
	if l.text, err = t.s.render(kindStatus, d); err != nil {
		return err
	}
	return t.letters().queue(l)
}
