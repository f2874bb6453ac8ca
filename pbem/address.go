package pbem

import (
	"fmt"
	netmail "net/mail"
	"strings"
	"time"
)

// bucketPending: hex SHA-256 of an address change's confirmation code ->
// pendingAddress (JSON). The code itself is only in the mail to the new
// address.
var bucketPending = []byte("pending")

// pendingAddress is a player's move to a new address, waiting for a reply
// from it.
type pendingAddress struct {
	Game       string    `json:"game"`
	Side       string    `json:"side"`
	Generation int       `json:"generation"`
	Address    string    `json:"address"`
	Expires    time.Time `json:"expires"`
}

// confirmPrefix starts the judge's address token that confirms an
// address change: judge+confirm-CODE@domain.
const confirmPrefix = "confirm-"

// confirmWithin is how long a new address has to confirm.
const confirmWithin = 7 * 24 * time.Hour

// moveAddress handles ADDRESS new@x from a player: the judge mails the
// new address, and a reply from it moves the seat there.
func (t *txn) moveAddress(id *identity, req *request) error {
	g, p := id.game, id.game.Player(id.side)
	if len(req.Args) != 1 {
		return t.mailPlayer(g, id.side, kindError, "ADDRESS: which address?", "The command: ADDRESS new@example.org", false)
	}
	a, err := netmail.ParseAddress(req.Args[0])
	if err != nil || !sendable(a.Address) {
		return t.mailPlayer(g, id.side, kindError, "ADDRESS: not an address", fmt.Sprintf("%q is not a mail address.", req.Args[0]), false)
	}
	if strings.EqualFold(a.Address, p.Address) {
		return t.mailPlayer(g, id.side, kindError, "ADDRESS: the same address", "Your seat is at "+p.Address+" already.", false)
	}
	code := strings.ToLower(randomHex(10))
	if err := putJSON(t.tx.Bucket(bucketPending), []byte(hashSecret(code)), &pendingAddress{Game: g.ID, Side: id.side,
		Generation: p.Generation, Address: a.Address, Expires: t.now.Add(confirmWithin)}); err != nil {
		return err
	}
	text, err := t.s.render(kindConfirm, &mailData{Body: fmt.Sprintf(
		"The player of seat %s of game %s asks to get the game's mail at this address from now on.\n"+
			"If that is you: reply to this mail (nothing to write), by %s.\nIf it is not, ignore this mail: nothing changes.",
		p.seatName(), g.ID, formatTime(t.now.Add(confirmWithin)))})
	if err != nil {
		return err
	}
	if err := t.queue(&letter{kind: kindConfirm, game: g, to: a.Address, subject: fmt.Sprintf("[%s] Confirm your address for seat %s", g.ID, p.seatName()),
		text: text, replyTo: t.s.tokenAddress(confirmPrefix + code)}); err != nil {
		return err
	}
	t.log.Info("address change asked; waiting for the new address", "seat", p.seatName())
	return t.mailPlayer(g, id.side, kindSeat, "ADDRESS: reply from the new address", fmt.Sprintf(
		"The judge mailed %s. Once a reply from it arrives, your seat's mail goes there, with a new secret;\n"+
			"until then nothing changes.", a.Address), false)
}

// confirmAddress moves a seat when the mail in hand answers an address
// change's confirmation from the new address; done reports whether it was
// one (answered, or ignored when it comes from another address).
func (t *txn) confirmAddress() (done bool, err error) {
	for _, token := range plusTokens(t.msg, t.s.opts.Address) {
		code, ok := strings.CutPrefix(strings.ToLower(token), confirmPrefix)
		if !ok {
			continue
		}
		key := []byte(hashSecret(code))
		var pa pendingAddress
		found, err := getJSON(t.tx.Bucket(bucketPending), key, &pa)
		if err != nil || !found {
			return found, err
		}
		if !strings.EqualFold(t.msg.From.Email, pa.Address) {
			t.log.Warn("an address confirmation from another address ignored", "from", t.msg.From.Email)
			return true, nil
		}
		if err := t.tx.Bucket(bucketPending).Delete(key); err != nil {
			return true, err
		}
		g, err := t.game(pa.Game)
		if err != nil || g == nil {
			return true, err
		}
		p := g.Player(pa.Side)
		if p == nil || p.Generation != pa.Generation || t.now.After(pa.Expires) || g.Ended {
			t.log.Info("a stale address confirmation ignored", "game", pa.Game, "side", pa.Side)
			return true, t.answerSender(kindError, "Address not changed", "This confirmation came too late, or the seat changed hands meanwhile: nothing changed.")
		}
		old := p.Address
		if err := t.handOver(g, p, pa.Address, "", true); err != nil {
			return true, err
		}
		t.log.Info("seat moved to its new address", "game", g.ID, "seat", p.seatName())
		if err := t.tellFormerPlayer(g, old, p.Side, "you moved the seat to your new address, where the game's mail goes now with a new secret."); err != nil {
			return true, err
		}
		return true, t.answerGM(kindGM, g, "Seat "+p.seatName()+" moved", fmt.Sprintf(
			"The player of seat %s of game %s moved from %s to %s (confirmed from the new address).", p.seatName(), g.ID, old, pa.Address))
	}
	return false, nil
}
