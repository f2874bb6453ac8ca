package mailtest

import (
	"fmt"
	"net"
	"time"

	"github.com/emersion/go-smtp"
)

// SendLMTP hands raw to the LMTP server at addr (host:port) for the
// recipients, as a mail server's delivery agent does, and returns nil only
// when the server acknowledged the mail for every recipient: otherwise the
// mail is still the caller's to hand over again.
func SendLMTP(addr, from string, to []string, raw []byte) error {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return err
	}
	c := smtp.NewClientLMTP(conn)
	defer c.Close()
	c.CommandTimeout, c.SubmissionTimeout = 30*time.Second, 30*time.Second
	if err := c.Hello("mailtest.localhost"); err != nil {
		return fmt.Errorf("LHLO: %w", err)
	}
	if err := c.Mail(from, nil); err != nil {
		return fmt.Errorf("MAIL FROM: %w", err)
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt, nil); err != nil {
			return fmt.Errorf("RCPT TO:<%s>: %w", rcpt, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(raw); err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.CloseWithLMTPResponse(); err != nil {
		return fmt.Errorf("end of DATA: %w", err)
	}
	return c.Quit()
}
