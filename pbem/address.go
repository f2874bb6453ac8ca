package pbem

import (
	"fmt"
	netmail "net/mail"
	"strings"
	"time"
)

// pendingAddress is a player's move to a new address, or a JOIN, waiting
// for a reply from the address; the store keeps it under the hash of its
// confirmation code (the code itself is only in the mail to the address).
type pendingAddress struct {
	Game       string    `json:"game"`
	Side       string    `json:"side"`
	Generation int       `json:"generation"`
	Address    string    `json:"address"`
	Expires    time.Time `json:"expires"`
	// Join: the address asked to JOIN the open seat, not to move it.
	Join bool `json:"join,omitempty"`
}

// confirmPrefix starts the judge's address token that confirms an
// address change: judge+confirm-CODE@domain.
const confirmPrefix = "confirm-"

// confirmWithin is how long a new address has to confirm.
const confirmWithin = 7 * 24 * time.Hour

// moveAddress handles ADDRESS new@x from a player: the judge mails the
// new address, and a reply from it moves the seat there.
func (t seating) moveAddress(id *identity, req *request) error {
	g, p := id.game, id.game.Player(id.side)
	if len(req.Args) != 1 {
		return t.letters().mailPlayer(g, id.side, kindError, "ADDRESS: which address?", "The command: ADDRESS new@example.org", false)
	}
	a, err := netmail.ParseAddress(req.Args[0])
	if err != nil || !sendable(a.Address) {
		return t.letters().mailPlayer(g, id.side, kindError, "ADDRESS: not an address", fmt.Sprintf("%q is not a mail address.", req.Args[0]), false)
	}
	if strings.EqualFold(a.Address, p.Address) {
		return t.letters().mailPlayer(g, id.side, kindError, "ADDRESS: the same address", "Your seat is at "+p.Address+" already.", false)
	}
	err = t.askConfirmation(g, p, a.Address, pendingAddress{}, fmt.Sprintf(
		"The player of seat %s of game %s asks to get the game's mail at this address from now on.\n"+
			"If that is you: reply to this mail (nothing to write). If it is not, ignore this mail: nothing changes.",
		p.seatName(), g.ID), "")
	if err != nil {
		return err
	}
	t.log.Info("address change asked; waiting for the new address", "seat", p.seatName())
	return t.letters().mailPlayer(g, id.side, kindSeat, "ADDRESS: reply from the new address", fmt.Sprintf(
		"The judge mailed %s. Once a reply from it arrives, your seat's mail goes there, with a new secret;\n"+
			"until then nothing changes.", a.Address), false)
}

// askConfirmation mails an address a request to reply from it, whose
// reply address carries a one-time code; pa says what the reply does
// (its game, seat, address and expiry are filled in here).
func (t seating) askConfirmation(g *Game, p *Player, addr string, pa pendingAddress, body, note string) error {
	code := strings.ToLower(randomHex(10))
	pa.Game, pa.Side, pa.Generation, pa.Address, pa.Expires = g.ID, p.Side, p.Generation, addr, t.now.Add(confirmWithin)
	if err := t.tx.PutPending(hashSecret(code), &pa); err != nil {
		return err
	}
	text, err := t.s.render(kindConfirm, &mailData{Body: joinNote(body+fmt.Sprintf("\nThis request lapses on %s.", formatTime(pa.Expires)), note)})
	if err != nil {
		return err
	}
	subject := fmt.Sprintf("[%s] Confirm your address for seat %s", g.ID, p.seatName())
	if pa.Join {
		subject = fmt.Sprintf("[%s] Confirm: JOIN seat %s", g.ID, p.seatName())
	}
	return t.letters().queue(&letter{kind: kindConfirm, game: g, to: addr, subject: subject, text: text,
		replyTo: t.s.tokenAddress(confirmPrefix + code)})
}

// confirmAddress moves a seat, or seats a JOIN, when the mail in hand
// answers a confirmation from the address asked; done reports whether it
// was one (answered, or ignored when it comes from another address).
func (t seating) confirmAddress() (done bool, err error) {
	for _, token := range plusTokens(t.msg, t.s.opts.Address) {
		code, ok := strings.CutPrefix(strings.ToLower(token), confirmPrefix)
		if !ok {
			continue
		}
		key := hashSecret(code)
		var pa pendingAddress
		found, err := t.tx.Pending(key, &pa)
		if err != nil || !found {
			return found, err
		}
		if !strings.EqualFold(t.msg.From.Email, pa.Address) {
			t.log.Warn("an address confirmation from another address ignored", "from", t.msg.From.Email)
			return true, nil
		}
		if err := t.tx.DeletePending(key); err != nil {
			return true, err
		}
		g, err := t.game(pa.Game)
		if err != nil || g == nil {
			return true, err
		}
		p := g.Player(pa.Side)
		if p == nil || p.Generation != pa.Generation || t.now.After(pa.Expires) || g.Ended {
			t.log.Info("a stale address confirmation ignored", "game", pa.Game, "side", pa.Side)
			return true, t.answerSender(kindError, "Nothing changed", "This confirmation came too late, or the seat changed hands meanwhile: nothing changed.")
		}
		if pa.Join {
			return true, t.seatJoined(g, p, pa.Address)
		}
		old := p.Address
		if err := t.handOver(g, p, pa.Address, "", true); err != nil {
			return true, err
		}
		t.log.Info("seat moved to its new address", "game", g.ID, "seat", p.seatName())
		if err := t.tellFormerPlayer(g, old, p.Side, "you moved the seat to your new address, where the game's mail goes now with a new secret."); err != nil {
			return true, err
		}
		return true, t.letters().answerGM(kindGM, g, "Seat "+p.seatName()+" moved", fmt.Sprintf(
			"The player of seat %s of game %s moved from %s to %s (confirmed from the new address).", p.seatName(), g.ID, old, pa.Address))
	}
	return false, nil
}
