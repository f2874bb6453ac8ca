package club

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/emersion/go-smtp"
	"go.etcd.io/bbolt"
)

// recipient is a local envelope recipient: the address as written, which
// becomes the Delivered-To field, and the account it belongs to.
type recipient struct {
	address string
	account *account
}

// Deliver puts raw, a complete RFC 5322 message, into the INBOX of every
// recipient in to, as the SMTP server does with the mail it accepts, and
// with the same checks except authentication: it is for the daemon's own
// mail. from is the envelope sender ("" for the null sender), written to
// Return-Path. Every recipient must be a local address (tags allowed) or
// nothing is delivered; a refusal wraps the *smtp.SMTPError that the SMTP
// server would have answered (550 for a recipient that is not local).
func (s *Server) Deliver(from string, to []string, raw []byte) error {
	if len(to) == 0 {
		return errors.New("club: deliver: no recipients")
	}
	if !validEnvelopeAddress(from) {
		return fmt.Errorf("club: deliver: invalid sender %q", from)
	}
	if int64(len(raw)) > s.cfg.MaxMessageSize {
		return fmt.Errorf("club: deliver: message of %d bytes, the limit is %d: %w", len(raw), s.cfg.MaxMessageSize, smtp.ErrDataTooLarge)
	}
	var rcpts []recipient
	for _, addr := range to {
		r, err := s.resolveRecipient(addr)
		if err != nil {
			return fmt.Errorf("club: deliver: %w", err)
		}
		rcpts = addRecipient(rcpts, r)
	}
	return s.deliver(from, rcpts, raw)
}

// addRecipient appends r to rcpts unless the same address (in any case)
// is already there, so that a message listing an address twice arrives
// once.
func addRecipient(rcpts []recipient, r recipient) []recipient {
	for _, have := range rcpts {
		if strings.EqualFold(have.address, r.address) {
			return rcpts
		}
	}
	return append(rcpts, r)
}

// deliver appends the message to each recipient's INBOX, unseen, after
// Return-Path and Delivered-To fields as a delivery agent writes them, in
// one transaction: once it returns, every copy is on disk. It then wakes
// the accounts' idling clients.
func (s *Server) deliver(from string, rcpts []recipient, raw []byte) error {
	body := crlfLines(raw)
	// There is no \Recent (IMAP4rev2 dropped it): no flag at all makes the
	// message new and unseen.
	meta := msgMeta{date: time.Now()}
	sizes := make([]int, len(rcpts))
	err := s.store.change(func(tx *bbolt.Tx, q *queue) error {
		for i, r := range rcpts {
			var msg bytes.Buffer
			msg.Grow(len(body) + len(from) + len(r.address) + 32)
			fmt.Fprintf(&msg, "Return-Path: <%s>\r\nDelivered-To: %s\r\n", from, r.address)
			msg.Write(body)
			sizes[i] = msg.Len()
			inbox, err := openBox(tx, r.account.Name, "INBOX")
			if err != nil {
				return fmt.Errorf("the INBOX of %q: %w", r.account.Name, err)
			}
			if _, err := inbox.add(msg.Bytes(), meta); err != nil {
				return fmt.Errorf("the INBOX of %q: %w", r.account.Name, err)
			}
			if err := inbox.saveInfo(); err != nil {
				return err
			}
			q.exists(inbox.id, inbox.info.count)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("club: delivering: %w", err)
	}
	for i, r := range rcpts {
		r.account.changes.broadcast()
		if s.cfg.Delivered != nil {
			s.cfg.Delivered(r.account.Name, raw)
		}
		// The address is not logged: its tag is a player's secret.
		s.log.Info("mail delivered", "from", untagged(from), "account", r.account.Name, "bytes", sizes[i])
	}
	return nil
}

// resolveRecipient finds the account of a local envelope recipient. Its
// errors are the SMTP replies refusing the recipient.
func (s *Server) resolveRecipient(addr string) (recipient, error) {
	if !validEnvelopeAddress(addr) || addr == "" {
		return recipient{}, &smtp.SMTPError{
			Code:         553,
			EnhancedCode: smtp.EnhancedCode{5, 1, 3},
			Message:      fmt.Sprintf("<%s>: bad address syntax", addr),
		}
	}
	at := strings.LastIndexByte(addr, '@')
	if at < 0 || !strings.EqualFold(addr[at+1:], s.cfg.Domain) {
		return recipient{}, &smtp.SMTPError{
			Code:         550,
			EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: fmt.Sprintf("<%s>: not an address of this server. This is Fieldpost's club mail server: "+
				"it delivers only to @%s addresses and does not relay mail to the Internet", addr, s.cfg.Domain),
		}
	}
	name, _, _ := strings.Cut(addr[:at], "+")
	a := s.lookup(strings.ToLower(name))
	if a == nil {
		return recipient{}, &smtp.SMTPError{
			Code:         550,
			EnhancedCode: smtp.EnhancedCode{5, 1, 1},
			Message:      fmt.Sprintf("<%s>: no such account on this server", addr),
		}
	}
	return recipient{address: addr, account: a}, nil
}

// validEnvelopeAddress reports whether addr can be written into a header
// field as is: printable ASCII without the characters that delimit an
// address. The SMTP parser already refuses most others; Deliver's callers
// are not parsed.
func validEnvelopeAddress(addr string) bool {
	for _, c := range []byte(addr) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`<>"\()[],;:`, c) >= 0 {
			return false
		}
	}
	return true
}

// untagged removes a "+tag" from an address for logging.
func untagged(addr string) string {
	local, domain, ok := strings.Cut(addr, "@")
	if !ok {
		return addr
	}
	local, _, _ = strings.Cut(local, "+")
	return local + "@" + domain
}

// crlfLines returns raw with every bare LF turned into CRLF: IMAP clients
// expect CRLF line ends, and a message from a sloppy client or a Go string
// may have bare LFs.
func crlfLines(raw []byte) []byte {
	bare := bytes.Count(raw, []byte("\n")) - bytes.Count(raw, []byte("\r\n"))
	if bare == 0 {
		return raw
	}
	out := make([]byte, 0, len(raw)+bare)
	for i, c := range raw {
		if c == '\n' && (i == 0 || raw[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, c)
	}
	return out
}
