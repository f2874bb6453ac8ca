package pbem

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"fieldpost/engine"
	"fieldpost/mail"
	"fieldpost/pbem/store"
	"fieldpost/pbem/web"
)

// Orders from a player's page: a player on a phone without a good mail
// program checks and sends orders from the private page. The page's
// orders go the way a mail's go: Submit hands the judge a mail made of
// them, handled by the same code in one transaction, remembered by the
// same dedupe and answered by mail as any; Check reads them as a CHECK
// mail would and shows the answer on the page instead of mailing it.

// maxPageOrders bounds the text of orders posted from a page, as the
// judge bounds an order attachment.
const maxPageOrders = maxOrderAttachment

// pageOrders reads orders posted from a side's page, with check only says
// what the judge makes of them. nonce names the showing of the form.
func (s *Service) pageOrders(secret, nonce, text string, check bool) (*web.Answer, error) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	switch req := readRequest(text, ""); {
	case req.Empty:
		return nil, fmt.Errorf("%w: the form is empty", web.ErrNotRead)
	case req.Command != cmdOrders:
		return nil, fmt.Errorf("%w: the form's first line is the command %s; the page takes orders, send commands by mail", web.ErrNotRead, req.Command)
	}
	var to mail.Address
	err := s.store.db.View(func(tx *store.Tx) error {
		g, side, err := gameBySecret(storeTx{tx}, secret)
		if err != nil || g == nil {
			return cmpErr(err, web.ErrNotFound)
		}
		to = mail.Address{Email: g.Player(side).Address}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(nonce + "\x00" + text))
	what := "orders"
	if check {
		what = "check"
	}
	// The mail the page stands for: from the player, to the address that
	// carries the secret, as a reply to the judge would be.
	msg := &mail.Inbound{
		MessageID: fmt.Sprintf("page-%s-%s@%s", what, hex.EncodeToString(sum[:12]), s.domain),
		From:      to,
		To:        []mail.Address{{Email: s.tokenAddress(strings.ToLower(secret))}},
		Subject:   "Orders from the player's page",
		Date:      s.clock.Now(),
		Text:      text,
	}
	log := s.log.With("message_id", msg.MessageID, "from", "page")
	var heard []*letter
	var read *engine.Reading
	answer := &web.Answer{}
	if check {
		err = s.store.db.View(func(tx *store.Tx) error {
			t := &txn{storeTx: storeTx{tx}, s: s, now: s.clock.Now(), msg: msg, log: log, heard: &heard, unsent: true}
			err := t.pageRequest(true)
			read = t.reading
			return err
		})
	} else {
		key := dedupeKey(msg)
		err = s.update(msg, log, func(t *txn) error {
			if t.processed(key) {
				t.log.Info("orders from the page sent before; ignored")
				answer.Again = true
				return nil
			}
			t.heard = &heard
			if err := t.pageRequest(false); err != nil {
				return err
			}
			read = t.reading
			return t.markProcessed(key, t.now)
		})
	}
	if err != nil {
		return nil, err
	}
	// The first letter to the side is the answer to its orders; the
	// reports of a round they completed come after it.
	answer.Valid = read != nil && read.Errors == 0 && read.Orders != nil
	for _, l := range heard {
		if l.to == to.Email {
			answer.Subject, answer.Text = l.subject, l.text
			answer.Accepted = !check && l.kind == kindAccepted
			break
		}
	}
	return answer, nil
}

// pageRequest does what the mail in hand, made from a page, asks: the
// orders, or with check their CHECK, under the limits of any mail.
func (t *txn) pageRequest(check bool) error {
	own := mail.StripQuoted(t.msg.Text)
	if n, limit := lineCount(own), t.s.opts.Limits.MaxLines; n > limit {
		return fmt.Errorf("%w: the form has %d lines; the judge reads at most %d", web.ErrNotRead, n, limit)
	}
	req := readStripped(t.msg, own)
	t.req = req
	if check {
		req.Command = cmdCheck
	}
	t.log.Info("orders from the page", "check", check)
	return t.playerRequest(req)
}
