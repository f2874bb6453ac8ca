package pbem

import (
	"fmt"
	"strings"
)

// seatUnreachable records that the judge's mail of a kind to a player
// failed for good (the server refused it, or it bounced), with the mail
// server's reason: `game show` names the seat, and the game master is told
// at once, with the way out. A player already marked is not told about
// again: one mail to the GM per player and game, until the player is
// reachable again (seatReachable). A mail to someone who is no longer the
// side's player, or to no player, is only logged.
func (t seating) seatUnreachable(gameID, side, to, kind, how, reason string) error {
	log := t.log.With("game", gameID, "side", side, "kind", kind, "reason", reason)
	if gameID == "" || side == "" {
		log.Warn("mail " + how + " (not to a player); not told")
		return nil
	}
	g, err := t.game(gameID)
	if err != nil {
		return err
	}
	var p *Player
	if g != nil {
		p = g.Player(side)
	}
	if p == nil || p.Address != to {
		log.Warn("mail to a former player " + how + "; ignored")
		return nil
	}
	if p.Unreachable != nil {
		log.Warn("mail to a player marked unreachable "+how+"; the GM was told already", "since", p.Unreachable.Since)
		return nil
	}
	log.Warn("mail to a player " + how + ": marked unreachable")
	p.Unreachable = &Unreachable{Since: t.now, Reason: reason}
	if err := t.putGame(g); err != nil {
		return err
	}
	if t.s.opts.GMAddress == "" {
		return nil
	}
	return t.letters().answerGM(kindGM, g, fmt.Sprintf("The %s player cannot be reached", p.Side),
		fmt.Sprintf("The judge's %s mail to %s, who plays %s in game %s, %s:\n\n    %s\n\n"+
			"The %s player gets no reports or order forms, and the game waits for its orders.\n"+
			"%s\n\n"+
			"You are told once: the judge's later mails to this player are not reported, until\n"+
			"the player mails the judge from %s again. `fieldpost game show %s` names the seat.",
			kind, p.Address, p.Side, g.ID, how, reason, p.Side, wayOut(g.ID, p.seatName()), p.Address, g.ID))
}

// wayOut is what the GM can do about a seat that cannot be reached.
func wayOut(gameID, seat string) string {
	return fmt.Sprintf("The way out: REPLACE %[1]s %[2]s ADDRESS gives the seat to a working address (a new secret,\n"+
		"welcome and order form), or OPEN %[1]s %[2]s lets the caretaker play it until someone JOINs.", gameID, seat)
}

// seatReachable clears a player's unreachable mark when the player mails
// the judge from the registered address: the address works again.
func (t seating) seatReachable(id *identity) error {
	p := id.game.Player(id.side)
	if t.msg == nil || p == nil || p.Unreachable == nil || !strings.EqualFold(t.msg.From.Email, p.Address) {
		return nil
	}
	t.log.Info("a player marked unreachable mailed from its address: reachable again", "since", p.Unreachable.Since)
	p.Unreachable = nil
	return t.putGame(id.game)
}
