package pbem

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"maps"
	netmail "net/mail"
	"slices"
	"strings"
	"time"

	"fieldpost/engine"
	"fieldpost/mail"
	"fieldpost/pbem/config"
)

// gmCommand handles the game master's commands, which need the GM secret.
func (t *txn) gmCommand(req *request) error {
	if !t.isGM(req) {
		t.log.Warn("GM command without the GM credentials ignored", "command", req.Command, "from", t.msg.From.Email)
		if t.s.opts.GMAddress == "" {
			return nil
		}
		ok, note, err := t.limits().allow(limitRefusal, "gm", t.s.opts.RefusalNotices)
		if !ok || err != nil {
			return err
		}
		return t.letters().answerGM(kindAuthFailed, nil, "A GM command was refused", joinNote(
			fmt.Sprintf("A %s command arrived without the GM secret, or with a wrong one, and was ignored.\n\n"+
				"  From:    %s\n  Subject: %s\n", req.Command, t.msg.From.Email, t.msg.Subject), note))
	}
	return t.runGM(req)
}

// runGM does a GM command whose authority is established: a mail with the
// GM secret, or the administration (Service.Admin).
func (t *txn) runGM(req *request) error {
	if req.Command == cmdNewGame {
		return t.newGame(req)
	}
	g, args, err := t.gmGame(req)
	if g == nil {
		return err
	}
	t.log = t.log.With("game", g.ID)
	switch req.Command {
	case cmdDeadline, cmdExtend:
		return t.setDeadline(g, req.Command, args)
	case cmdPause:
		return t.pause(g)
	case cmdResume:
		return t.resume(g)
	case cmdForce:
		if g.Ended {
			return t.refuseGM(g, cmdForce, fmt.Sprintf("Game %s is over.", g.ID))
		}
		round := g.Round()
		if err := t.rounds().playRound(g, forcedNotice); err != nil {
			return err
		}
		without := "sides without orders played the default orders"
		if g.Caretaker == caretakerBot || g.Caretaker == caretakerStanding {
			without = "the caretaker (" + g.Caretaker + ") played the sides without orders"
		}
		return t.letters().answerGM(kindGM, g, fmt.Sprintf("Round %d played", round),
			fmt.Sprintf("Round %d of game %s was played now; %s.", round, g.ID, without))
	case cmdRollback:
		return t.rollback(g)
	case cmdEnd:
		return t.endGame(g)
	case cmdRemail:
		return t.remail(g)
	case cmdTimezone:
		return t.gameTimeZone(g, args)
	case cmdReplace:
		return t.seats().replace(g, args)
	case cmdOpen:
		return t.seats().openSeatCommand(g, args)
	case cmdApprove:
		return t.seats().approve(g, args)
	case cmdPolicy:
		return t.seats().policy(g, args)
	case cmdBroadcast:
		return t.broadcast(g, req)
	}
	return fmt.Errorf("no handler for command %s", req.Command)
}

// gmGame finds the game a GM command is about: its first argument, or the
// GAME line. When there is none it answers the GM and returns nil.
func (t *txn) gmGame(req *request) (*Game, []string, error) {
	args := req.Args
	id := req.Header.Game
	if len(args) > 0 {
		g, err := t.game(strings.ToLower(args[0]))
		if err != nil || g != nil {
			return g, args[1:], err
		}
		if id == "" {
			id = strings.ToLower(args[0])
		}
	}
	if id == "" {
		return nil, nil, t.refuseGM(nil, req.Command, req.Command+" needs the game's id: "+req.Command+" GAMEID ...")
	}
	g, err := t.game(id)
	if err != nil || g != nil {
		return g, args, err
	}
	return nil, nil, t.refuseGM(nil, req.Command, fmt.Sprintf("There is no game %q.", id))
}

// refuseGM answers the GM that a command was not carried out, and why.
func (t *txn) refuseGM(g *Game, cmd, why string) error {
	if t.answer != nil {
		t.answer.Refused = true
	}
	if req := t.req; req != nil && req.Command == cmd && req.Line >= 0 {
		lines := strings.Split(req.Text, "\n")
		why = fmt.Sprintf("Line %d of your mail: %s\n\n%s", req.Line+1, strings.TrimSpace(lines[req.Line]), why)
	}
	return t.letters().answerGM(kindGM, g, cmd+" refused", why)
}

// newGameSyntax is the reminder sent with a NEWGAME that could not be read.
const newGameSyntax = "NEWGAME scenario=NAME id=GAMEID SIDE=address|bot SIDE=address|bot [SIDE.2=address|bot|empty ...] [SIDE.2.units=a,b] [deadline=48h|none]"

// newGame creates a game: NEWGAME scenario=NAME id=GAMEID SIDE=address ...
// [deadline=DURATION|none]. Each player is mailed a welcome with its
// secret and the first order form.
func (t *txn) newGame(req *request) error {
	refuse := func(format string, args ...any) error {
		return t.refuseGM(nil, cmdNewGame, fmt.Sprintf(format, args...)+"\n\nThe command: "+newGameSyntax)
	}
	pairs, err := keyValues(append(slices.Clone(req.Args), req.Params...))
	if err != nil {
		return refuse("%v.", err)
	}
	var scenario, id string
	var policy Policy
	period := t.s.opts.Deadline
	addresses := map[string]string{}
	// Subordinate seats (team play): SIDE.n=address|empty, SIDE.n.name=,
	// SIDE.n.units=.
	seats, seatNames, seatUnits := map[string]string{}, map[string]string{}, map[string]string{}
	for _, kv := range pairs {
		if known, err := parsePolicy(&policy, kv[0], kv[1]); known {
			if err != nil {
				return refuse("%v.", err)
			}
			continue
		}
		switch key, val := kv[0], kv[1]; key {
		case "scenario":
			scenario = strings.ToLower(val)
		case "id", "game":
			id = strings.ToLower(val)
		case "deadline":
			if strings.EqualFold(val, "none") {
				period = 0
				break
			}
			if period, err = config.ParseDuration(val); err != nil || period <= 0 {
				return refuse("deadline=%s: want a duration such as 48h or 2d, or none.", val)
			}
		default:
			if base, attr, ok := strings.Cut(key, ".units"); ok && attr == "" && strings.Contains(base, ".") {
				seatUnits[base] = val
			} else if base, attr, ok := strings.Cut(key, ".name"); ok && attr == "" && strings.Contains(base, ".") {
				seatNames[base] = strings.ReplaceAll(val, "_", " ")
			} else if strings.Contains(key, ".") {
				seats[key] = val
			} else {
				addresses[key] = val
			}
		}
	}
	sys, sc, err := t.s.opts.Systems.Scenario(scenario)
	if err != nil {
		return refuse("No scenario %q; the scenarios are: %s.", scenario, strings.Join(t.s.opts.Systems.ScenarioNames(), ", "))
	}
	if !validGameID(id) {
		return refuse("The game id %q must be 1 to 40 lower-case letters, digits and hyphens, e.g. id=tutorial-1.", id)
	}
	if old, err := t.game(id); err != nil || old != nil {
		if err != nil {
			return err
		}
		return refuse("There is a game %s already (ids are never reused).", id)
	}
	seed := randomSeed()
	pos, err := sys.NewGame(sc.Name, engine.SetupSeed(seed))
	if err != nil {
		return fmt.Errorf("setting up %s: %w", sc.Name, err)
	}
	g := &Game{ID: id, System: sys.Name(), Scenario: sc.Name, Ruleset: sc.Ruleset, Title: pos.Title(), Seed: seed,
		Nonce: randomHex(8), Turn: pos.Turn(), Period: period, Thread: mail.NewMessageID(t.s.domain), Created: t.now, Policy: policy}
	var sides, newAccounts []string
	for _, sd := range pos.Sides() {
		sides = append(sides, sd.Name)
		val, ok := addresses[strings.ToLower(sd.Name)]
		if !ok {
			continue
		}
		delete(addresses, strings.ToLower(sd.Name))
		if strings.EqualFold(val, openSeat) {
			g.Players = append(g.Players, Player{Side: sd.Name})
			continue
		}
		addr, why := t.playerAddress(id, sd.Name, val, &newAccounts)
		if why != "" {
			return refuse("%s", why)
		}
		g.Players = append(g.Players, Player{Side: sd.Name, Address: addr})
	}
	if len(addresses) > 0 {
		keys := slices.Sorted(maps.Keys(addresses))
		return refuse("%q is neither scenario, id, deadline nor a side of %s (%s).", keys[0], sc.Name, strings.Join(sides, ", "))
	}
	if len(g.Players) != len(sides) {
		return refuse("Every side needs a player's address: %s.", strings.Join(sides, "=..., ")+"=...")
	}
	for _, key := range slices.Sorted(maps.Keys(seatNames)) {
		if _, ok := seats[key]; !ok {
			return refuse("%s.name names a seat that has no player (%s=address, or %s=empty).", key, key, key)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(seatUnits)) {
		if _, ok := seats[key]; !ok {
			return refuse("%s.units gives units to a seat that has no player (%s=address, or %s=empty).", key, key, key)
		}
	}
	if len(seats) > 0 {
		seated, ok := pos.(engine.Seated)
		if !ok {
			return refuse("%s is played one player a side: it has no seats such as %s.", sys.Title(), slices.Sorted(maps.Keys(seats))[0])
		}
		setups := seatSetups(seats, seatNames, seatUnits)
		for i, su := range setups {
			side, n := engine.SplitSeat(su.ID)
			j := slices.IndexFunc(sides, func(sd string) bool { return strings.EqualFold(sd, side) })
			if j < 0 || n < 2 {
				return refuse("%s is no seat: seats are SIDE.2, SIDE.3... of the sides %s.", su.ID, strings.Join(sides, ", "))
			}
			setups[i].ID = engine.SeatID(sides[j], n)
			if su.Empty {
				continue
			}
			addr, why := t.playerAddress(id, setups[i].ID, seats[su.ID], &newAccounts)
			if why != "" {
				return refuse("%s", why)
			}
			g.Players = append(g.Players, Player{Side: setups[i].ID, Address: addr})
		}
		if pos, err = seated.WithSeats(setups); err != nil {
			return refuse("The seats: %v.", err)
		}
	}
	t.rounds().openRound(g)
	if err := t.putPosition(g, pos); err != nil {
		return err
	}
	if err := t.putGame(g); err != nil {
		return err
	}
	for _, p := range g.Players {
		if p.isOpen() {
			continue
		}
		if err := t.putToken(hashSecret(deriveSecret(t.s.opts.ServerKey, g, p.Side)), g.ID, p.Side); err != nil {
			return err
		}
	}
	t.log.Info("game created", "game", g.ID, "scenario", g.Scenario)

	var png *mail.Part
	if !pos.HidesInformation() {
		part, err := t.s.positionMap(pos, "")
		if err != nil {
			return err
		}
		png = &part
	}
	var who []string
	for _, p := range g.Players {
		if p.isOpen() {
			who = append(who, fmt.Sprintf("  %-10s open: JOIN %s %s", p.Side, g.ID, p.seatName()))
			continue
		}
		if err := t.rounds().welcome(g, p.Side, png); err != nil {
			return err
		}
		who = append(who, fmt.Sprintf("  %-10s %s", seatLine(pos, p.Side), p.Address))
	}
	deadline := "no deadline"
	if period > 0 {
		deadline = fmt.Sprintf("%s a round (the first: %s)", formatDuration(period), formatTime(g.Deadline))
	}
	return t.letters().answerGM(kindGM, g, "Game created",
		fmt.Sprintf("Game %s is created: %s (%s), %s.\n\nPlayers, each mailed a welcome with its secret (you are told at once\nif one of them cannot be reached):\n%s\n\nPolicy: %s.\n",
			g.ID, g.Title, g.Scenario, deadline, strings.Join(who, "\n"), g.Policy.describe())+newAccountsText(newAccounts))
}

// newAccountsText tells the GM of the club accounts a NEWGAME created,
// with what their players need to use them.
func newAccountsText(settings []string) string {
	if len(settings) == 0 {
		return ""
	}
	return "\nNew club mail accounts, for their players:\n\n" + strings.Join(settings, "\n")
}

// playerAddress reads NEWGAME's address of a side's or seat's player: a
// mail address, or bot for a bot with an account of its own (the embedded
// judge's). why says what is wrong, "" when nothing is.
func (t *txn) playerAddress(game, seat, val string, newAccounts *[]string) (address, why string) {
	if strings.EqualFold(val, "bot") {
		if t.s.opts.BotAccount == nil {
			return "", fmt.Sprintf("%s=bot: only the embedded judge (fieldpost serve without --config), while it runs, "+
				"gives a bot a mail account of its own; here, give the bot's own mail address.", seat)
		}
		var err error
		if val, err = t.s.opts.BotAccount(game, seat); err != nil {
			return "", fmt.Sprintf("%s=bot: no account for the bot: %v.", seat, err)
		}
		t.log.Info("a bot's account seated", "game", game, "side", seat, "address", val)
	}
	addr, err := netmail.ParseAddress(val)
	if err != nil || !sendable(addr.Address) {
		return "", fmt.Sprintf("%s=%s is not a mail address.", seat, val)
	}
	// A new address of the club's own domain gets an account on the
	// embedded club server; the GM is told its settings.
	if local, domain, _ := strings.Cut(addr.Address, "@"); t.s.opts.ClubAccount != nil && strings.EqualFold(domain, t.s.domain) {
		settings, err := t.s.opts.ClubAccount(local)
		if err != nil {
			return "", fmt.Sprintf("%s=%s: no club account for it: %v.", seat, val, err)
		}
		if settings != "" {
			t.log.Info("a club account created for a player", "game", game, "side", seat, "address", addr.Address)
			*newAccounts = append(*newAccounts, settings)
		}
	}
	return addr.Address, ""
}

// randomSeed draws a game's dice seed.
func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:]) // never fails: crypto/rand aborts the program instead
	return binary.BigEndian.Uint64(b[:])
}

// setDeadline handles DEADLINE GAMEID DURATION|TIME|NONE and EXTEND GAMEID
// DURATION, for the current round.
func (t *txn) setDeadline(g *Game, cmd string, args []string) error {
	refuse := func(why string) error { return t.refuseGM(g, cmd, why) }
	switch {
	case g.Ended:
		return refuse(fmt.Sprintf("Game %s is over.", g.ID))
	case g.Paused:
		return refuse(fmt.Sprintf("Game %s is paused: RESUME it first.", g.ID))
	}
	var deadline time.Time
	if cmd == cmdExtend {
		if g.Deadline.IsZero() {
			return refuse("The round has no deadline to extend: set one with DEADLINE " + g.ID + " 48h.")
		}
		if len(args) != 1 {
			return refuse("EXTEND needs one duration: EXTEND " + g.ID + " 24h.")
		}
		d, err := config.ParseDuration(args[0])
		if err != nil || d <= 0 {
			return refuse(fmt.Sprintf("%q: EXTEND needs a positive duration such as 24h or 2d.", args[0]))
		}
		deadline = g.Deadline.Add(d)
	} else {
		var err error
		if deadline, err = parseDeadline(args, t.now); err != nil {
			return refuse(err.Error() + ".")
		}
	}
	g.Deadline, g.RemindedUntil = deadline, t.now
	if err := t.putGame(g); err != nil {
		return err
	}
	text := fmt.Sprintf("The deadline for round %d is now %s.", g.Round(), formatTime(deadline))
	if deadline.IsZero() {
		text = fmt.Sprintf("Round %d has no deadline now: it is played when every side has sent orders.", g.Round())
	}
	t.log.Info("deadline changed", "deadline", deadline)
	if err := t.letters().notifyPlayers(g, "The deadline has changed", "The game master has changed the deadline.\n"+text); err != nil {
		return err
	}
	return t.letters().answerGM(kindGM, g, "Deadline changed", text+"\nThe players were told.")
}

func (t *txn) pause(g *Game) error {
	if g.Ended || g.Paused {
		return t.refuseGM(g, cmdPause, fmt.Sprintf("Game %s is already paused or over.", g.ID))
	}
	g.Paused = true
	if !g.Deadline.IsZero() {
		g.Remaining = max(g.Deadline.Sub(t.now), 0)
	}
	if err := t.putGame(g); err != nil {
		return err
	}
	t.log.Info("game paused")
	body := fmt.Sprintf("The game master has paused game %s: no round is played and the deadline stops until the game resumes.\n"+
		"You may still send orders for round %d.", g.ID, g.Round())
	if err := t.letters().notifyPlayers(g, "Game paused", body); err != nil {
		return err
	}
	return t.letters().answerGM(kindGM, g, "Game paused", body)
}

// resume restarts a paused game with the time its round had left; the
// round is played at once if every side has sent orders meanwhile.
func (t *txn) resume(g *Game) error {
	if !g.Paused {
		return t.refuseGM(g, cmdResume, fmt.Sprintf("Game %s is not paused.", g.ID))
	}
	g.Paused = false
	deadline := "It has no deadline."
	if !g.Deadline.IsZero() {
		g.Deadline, g.RemindedUntil = t.now.Add(g.Remaining), t.now
		deadline = "The deadline for round " + fmt.Sprint(g.Round()) + " is now " + formatTime(g.Deadline) + "."
	}
	if err := t.putGame(g); err != nil {
		return err
	}
	t.log.Info("game resumed")
	body := fmt.Sprintf("The game master has resumed game %s. %s", g.ID, deadline)
	if err := t.letters().notifyPlayers(g, "Game resumed", body); err != nil {
		return err
	}
	if err := t.letters().answerGM(kindGM, g, "Game resumed", body); err != nil {
		return err
	}
	missing, err := t.rounds().missingSides(g)
	if err != nil || len(missing) > 0 {
		return err
	}
	return t.rounds().playRound(g, "")
}

// rollback undoes the last round played: the position before it comes
// back, the orders of both rounds concerned are forgotten, and the game
// gets a new dice seed, since the undone round's seed was revealed in its
// report and would let a player plan against known dice.
func (t *txn) rollback(g *Game) error {
	if g.Turn == 0 {
		return t.refuseGM(g, cmdRollback, fmt.Sprintf("No round of game %s has been played.", g.ID))
	}
	undone := g.Turn // the round played from turn Turn-1
	rec, err := t.round(g.ID, g.Turn-1)
	if err != nil {
		return err
	}
	uncountRound(g, rec, undone)
	for _, err := range []error{
		t.deleteSubmissions(g.ID, g.Turn),
		t.dropPosition(g, g.Turn),
		t.deleteSubmissions(g.ID, g.Turn-1),
		t.deleteRound(g.ID, g.Turn-1),
	} {
		if err != nil {
			return err
		}
	}
	g.Turn--
	g.Seed = randomSeed()
	g.Ended, g.Result = false, ""
	t.rounds().openRound(g)
	if err := t.putGame(g); err != nil {
		return err
	}
	t.log.Info("round rolled back", "round", undone)
	body := fmt.Sprintf("The game master has undone round %d of game %s: the position is as it was before it,\n"+
		"and round %d will be played again, with new dice, from new orders. Orders sent for it\n"+
		"before count no more: send them again.", undone, g.ID, undone)
	for _, p := range g.Players {
		if err := t.letters().mailPlayer(g, p.Side, kindStatus, fmt.Sprintf("Round %d undone: send orders again", undone), body, true); err != nil {
			return err
		}
	}
	if err := t.letters().mailObservers(g, kindGM, fmt.Sprintf("Round %d undone", undone), body); err != nil {
		return err
	}
	return t.letters().answerGM(kindGM, g, fmt.Sprintf("Round %d undone", undone), body)
}

// endGame ends a game before its time; everyone gets the final situation.
func (t *txn) endGame(g *Game) error {
	if g.Ended {
		return t.refuseGM(g, cmdEnd, fmt.Sprintf("Game %s is over already.", g.ID))
	}
	g.Ended, g.Result, g.Deadline = true, "The game master ended the game.", time.Time{}
	if err := t.putGame(g); err != nil {
		return err
	}
	t.log.Info("game ended by the GM")
	pos, err := t.position(g)
	if err != nil {
		return err
	}
	body := fmt.Sprintf("The game master has ended game %s before its time. The final situation:", g.ID)
	recipients := append(slices.Clone(g.Players), observersAsPlayers(g)...)
	var png *mail.Part
	for _, p := range recipients {
		view := seatSide(p.Side)
		if view == "" {
			view = publicView(g) // the game is over: everything
		}
		if png == nil || pos.HidesInformation() {
			part, err := t.s.positionMap(pos, view)
			if err != nil {
				return err
			}
			png = &part
		}
		attachment, err := situationPart(pos, view)
		if err != nil {
			return err
		}
		d := t.letters().gameData(g, p.Side, pos)
		d.Body = body
		if d.Situation, err = pos.Situation(view); err != nil {
			return err
		}
		l := &letter{kind: kindGameOver, game: g, side: p.Side, to: p.Address, subject: fmt.Sprintf("[%s] Game over", g.ID),
			inline: []mail.Part{*png}, attachments: []mail.Part{attachment}}
		if l.text, err = t.s.render("round", d); err != nil {
			return err
		}
		if err := t.letters().queue(l); err != nil {
			return err
		}
	}
	return t.letters().answerGM(kindGM, g, "Game ended",
		fmt.Sprintf("Game %s is ended. The final situation was mailed to every player and observer.", g.ID))
}

// observersAsPlayers lists a game's observers as recipients without a side.
func observersAsPlayers(g *Game) []Player {
	var out []Player
	for _, addr := range g.Observers {
		out = append(out, Player{Address: addr})
	}
	return out
}

// remail mails every player of a game, again, its situation and order form
// with its secret in the reply address: for players who lost their mail
// (the embedded club server keeps none across a restart).
func (t *txn) remail(g *Game) error {
	if g.Ended {
		return t.refuseGM(g, cmdRemail, fmt.Sprintf("Game %s is over.", g.ID))
	}
	body := fmt.Sprintf("The game master has sent you the situation of game %s again, with your order form.\n"+
		"Your secret is in this mail's reply address: reply to it with your orders.", g.ID)
	for _, p := range g.Players {
		if err := t.letters().mailPlayer(g, p.Side, kindStatus, fmt.Sprintf("Round %d: your situation and order form again", g.Round()), body, true); err != nil {
			return err
		}
	}
	return t.letters().answerGM(kindGM, g, "Situation mailed again", fmt.Sprintf("Every player of game %s was mailed its situation and order form again.", g.ID))
}
