package pbem

import (
	"fmt"
	"slices"
	"strings"

	"fieldpost/engine"
)

// identity is an authenticated player: a side of a game.
type identity struct {
	game *Game
	side string
}

// secrets returns the secrets a mail carries: its PASSWORD lines first
// (written on purpose), then the tokens of the addresses it was sent to.
func (t *txn) secrets(req *request) []string {
	return append(slices.Clone(req.Header.Passwords), plusTokens(t.msg, t.s.opts.Address)...)
}

// authenticate finds the player who sent the mail in hand: a secret it
// carries must be a player's, and of the game and side the mail names, if
// it names them (claimedGame comes from a GAME line or a command's
// argument). The From address plays no part. When there is no such player
// it deals with the failure (see authFailed) and returns nil.
func (t *txn) authenticate(req *request, claimedGame string) (*identity, error) {
	var valid []identity
	for _, secret := range t.secrets(req) {
		gameID, side, ok := t.tokenOwner(hashSecret(secret))
		if !ok {
			continue
		}
		g, err := t.game(gameID)
		if err != nil {
			return nil, err
		}
		if g != nil {
			valid = append(valid, identity{g, side})
		}
	}
	for _, id := range valid {
		if (claimedGame == "" || id.game.ID == claimedGame) && claimsSeat(req.Header, id.side) {
			return &id, nil
		}
	}
	if len(valid) > 0 {
		// A good secret for another game or side than the mail says: a slip,
		// told to the player the secret belongs to.
		id := valid[0]
		t.log.Info("credentials and GAME or SIDE line disagree", "game", id.game.ID, "side", id.side, "claimed_game", claimedGame, "claimed_side", req.Header.Side)
		claim := "game " + claimedGame
		if claimedGame == "" || claimedGame == id.game.ID {
			claim = "side " + req.Header.Side
			if req.Header.Seat > 0 {
				claim += fmt.Sprintf(" seat %d", req.Header.Seat)
			}
		}
		return nil, t.letters().mailPlayer(id.game, id.side, kindError, "Mail not used: wrong game or side",
			fmt.Sprintf("Your mail says it is for %s, but the secret it carries is yours, for side %s of game %s.\n"+
				"Nothing was done. Send it again with the right GAME and SIDE lines (or none: the secret says them).",
				claim, id.side, id.game.ID), false)
	}
	return nil, t.authFailed(req, claimedGame)
}

// claimsSeat reports whether a mail's SIDE and SEAT lines, where it has
// them, name the seat a secret is for (SEAT 1, or none, is the
// commander-in-chief's).
func claimsSeat(h header, seat string) bool {
	side, n := engine.SplitSeat(seat)
	return (h.Side == "" || engine.SameSide(h.Side, side) || engine.SameSide(h.Side, seat)) &&
		(h.Seat == 0 || h.Seat == n)
}

// authFailed deals with a mail that carries no valid secret. It is never
// answered to its sender, who may be forging a player's address: when the
// mail names a game and side (or a game, and comes from a player's
// address), that side's player is told at its registered address; a mail
// naming a game that does not exist gets that answer, which says nothing
// about anyone; anything else is only logged.
func (t *txn) authFailed(req *request, claimedGame string) error {
	from := t.msg.From.Email
	if claimedGame == "" {
		t.log.Warn("mail without valid credentials ignored", "from", from)
		return nil
	}
	g, err := t.game(claimedGame)
	if err != nil {
		return err
	}
	if g == nil {
		t.log.Info("mail for an unknown game", "game", claimedGame, "from", from)
		return t.answerSender(kindError, "no game "+claimedGame,
			fmt.Sprintf("There is no game %q on this judge. Check the GAME line, or reply to the judge's latest mail about your game.", claimedGame))
	}
	var p *Player
	for i := range g.Players {
		if req.Header.Side != "" && engine.SameSide(g.Players[i].Side, req.Header.Side) ||
			req.Header.Side == "" && strings.EqualFold(g.Players[i].Address, from) {
			p = &g.Players[i]
			break
		}
	}
	if p == nil {
		t.log.Warn("mail without valid credentials ignored", "game", g.ID, "from", from)
		return nil
	}
	t.log.Warn("mail without valid credentials; the side's player is told", "game", g.ID, "side", p.Side, "from", from)
	ok, note, err := t.limits().allow(limitRefusal, g.ID+" "+p.Side, t.s.opts.RefusalNotices)
	if !ok || err != nil {
		return err
	}
	return t.letters().mailPlayer(g, p.Side, kindAuthFailed, "A mail in your name was refused", joinNote(
		fmt.Sprintf("A mail for side %s of game %s arrived without your secret, or with a wrong one, and was ignored: nothing changed.\n\n"+
			"  From:    %s\n  Subject: %s\n\n"+
			"If you sent it: reply to the judge's latest mail (its reply address carries your secret), "+
			"or add a line PASSWORD with your secret, from the welcome mail.\n"+
			"If you did not: someone tried to send orders in your name. Nothing sent without your secret counts.",
			p.Side, g.ID, from, t.msg.Subject), note), false)
}

// isGM reports whether the mail in hand carries the game master's secret.
func (t *txn) isGM(req *request) bool {
	if t.s.opts.GMSecret == "" {
		return false
	}
	for _, secret := range t.secrets(req) {
		if sameSecret(secret, t.s.opts.GMSecret) {
			return true
		}
	}
	return false
}
