package pbem

import (
	"strings"

	"fieldpost/mail"
)

// replyAddress is where an answer to the sender goes.
func replyAddress(msg *mail.Inbound) string {
	if len(msg.ReplyTo) > 0 && msg.ReplyTo[0].Email != "" {
		return msg.ReplyTo[0].Email
	}
	return msg.From.Email
}

// answerSender answers the sender of the mail in hand about no game (help
// and errors for strangers). A mail without a usable sender address is
// only logged.
//
// A mail that carries a player's secret is answered as the judge answers
// that player: at the player's address, with the Reply-To that carries the
// secret and in the game's thread, so that the player can simply reply.
func (t *txn) answerSender(kind, subject, body string) error {
	id, err := t.knownSender()
	if err != nil {
		return err
	}
	if id != nil {
		text, err := t.s.render(kind, &mailData{Body: body})
		if err != nil {
			return err
		}
		return t.letters().queue(&letter{kind: kind, game: id.game, side: id.side, to: id.game.Player(id.side).Address,
			subject: "[" + id.game.ID + "] " + subject, text: text})
	}
	to, note, err := t.strangerAnswer()
	if to == "" || err != nil {
		return err
	}
	text, err := t.s.render(kind, &mailData{Body: joinNote(body, note)})
	if err != nil {
		return err
	}
	return t.letters().queue(&letter{kind: kind, to: to, subject: "Fieldpost: " + subject, text: text})
}

func (t *txn) help(intro string) error {
	return t.answerSender(kindHelp, "how to play by mail", intro)
}

// knownSender returns the player whose secret the mail in hand carries
// (in a PASSWORD line or its reply address), nil for anyone else.
func (t *txn) knownSender() (*identity, error) {
	req := t.req
	if req == nil {
		req = &request{}
	}
	for _, secret := range t.secrets(req) {
		gameID, side, ok := t.tokenOwner(hashSecret(secret))
		if !ok {
			continue
		}
		g, err := t.game(gameID)
		if err != nil {
			return nil, err
		}
		if g != nil && g.Player(side) != nil {
			return &identity{g, side}, nil
		}
	}
	return nil, nil
}

// strangerAnswer is where an answer to the sender of the mail in hand
// goes, "" when there is none or when the StrangerAnswers limit holds it
// back (a sender who is no player, observer or GM), with the note on the
// answers held back before.
func (t *txn) strangerAnswer() (to, note string, err error) {
	to = t.senderAddress()
	if to == "" {
		return "", "", nil
	}
	known, err := t.knownAddress(to, t.s.opts.GMAddress)
	if err != nil || known {
		return to, "", err
	}
	ok, note, err := t.limits().allow(limitStranger, to, t.s.opts.StrangerAnswers)
	if !ok || err != nil {
		return "", "", err
	}
	return to, note, nil
}

// joinNote puts a limit's note after a mail's text.
func joinNote(body, note string) string {
	if note == "" {
		return body
	}
	if body == "" {
		return note
	}
	return body + "\n\n" + note
}

// senderAddress is where an answer to the sender of the mail in hand
// goes, "" (logged) when there is no address mail can be sent to: such a
// mail would fail to compose at every retry.
func (t *txn) senderAddress() string {
	to := replyAddress(t.msg)
	if !sendable(to) {
		t.log.Info("no address to answer", "address", to)
		return ""
	}
	return to
}

// sendable reports whether mail can be sent to addr: an addr-spec without
// spaces, brackets or commas, as mail.Compose requires.
func sendable(addr string) bool {
	local, domain, ok := strings.Cut(addr, "@")
	return ok && local != "" && domain != "" && !strings.ContainsAny(addr, "<> \t\r\n,\"")
}
