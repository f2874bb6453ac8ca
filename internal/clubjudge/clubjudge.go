// Package clubjudge sets a judge up on a club mail server (mail/club): the
// judge's and the game master's accounts, the judge's configuration file
// and a mail to the judge from an account of the club. The embedded mode
// (fieldpost serve without --config), its tests and the load tool
// (cmd/fieldpost-load) share it.
package clubjudge

import (
	"fmt"
	"strings"
	"time"

	"fieldpost/mail"
	"fieldpost/mail/club"
)

// The club's accounts of the judge and of the game master.
const (
	JudgeAccount = "judge"
	GMAccount    = "gm"
)

// Config is the configuration file of a judge on the club server srv, with
// its database and further lines, without passwords (the judge reads them
// from its environment).
func Config(srv *club.Server, database string, more ...string) string {
	text := fmt.Sprintf(`address = %s
database = %s
imap_addr = %s
imap_tls = none
imap_username = %s
smtp_addr = %s
smtp_tls = none
smtp_username = %s
gm_address = %s
`, srv.Address(JudgeAccount), database, srv.IMAPAddr(), JudgeAccount, srv.SMTPAddr(), JudgeAccount, srv.Address(GMAccount))
	for _, line := range more {
		text += line + "\n"
	}
	return text
}

// Mail delivers a mail from an account of the club to the judge, as the
// account's mail program would send it.
func Mail(srv *club.Server, account, subject, body string) error {
	from := srv.Address(account)
	raw, err := mail.Compose(&mail.Outbound{
		From: mail.Address{Email: from}, To: []mail.Address{{Email: srv.Address(JudgeAccount)}},
		Subject: subject, MessageID: mail.NewMessageID(srv.Domain()), Date: time.Now(), Text: body, Personal: true,
	})
	if err != nil {
		return err
	}
	return srv.Deliver(from, []string{srv.Address(JudgeAccount)}, raw)
}

// GMMail delivers a command from the game master's account to the judge,
// with the GM secret.
func GMMail(srv *club.Server, gmSecret, command string) error {
	return Mail(srv, GMAccount, strings.Fields(command)[0], "PASSWORD "+gmSecret+"\n"+command+"\n")
}
