package main

import (
	"crypto/rand"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"fieldpost/mail"
	"fieldpost/mail/club"
)

// The load run's club accounts: the judge, the game master, the players
// of the loaded games (one account a side, in every game), the raw
// baseline's responder, and the two bots of the long game.
const (
	judgeAccount = "judge"
	gmAccount    = "gm"
	echoAccount  = "echo"
	longPrefix   = "long-"
)

// clubAccounts are the accounts of the run's club server and the GM
// secret the judge is given.
type clubAccounts struct {
	accounts []club.Account
	gmSecret string
}

func newClubAccounts(names []string) *clubAccounts {
	c := &clubAccounts{gmSecret: "gm-" + rand.Text()}
	for _, n := range names {
		c.accounts = append(c.accounts, club.Account{Name: n, Password: rand.Text()[:16]})
	}
	return c
}

func (c *clubAccounts) password(name string) string {
	for _, a := range c.accounts {
		if a.Name == name {
			return a.Password
		}
	}
	return ""
}

// judgeConfig is the configuration file of the judge on the club server
// srv, with its database and further lines, without passwords (the judge
// reads them from its environment).
func judgeConfig(srv *club.Server, database string, more ...string) string {
	text := fmt.Sprintf(`address = %s
database = %s
imap_addr = %s
imap_tls = none
imap_username = %s
smtp_addr = %s
smtp_tls = none
smtp_username = %s
gm_address = %s
`, srv.Address(judgeAccount), database, srv.IMAPAddr(), judgeAccount, srv.SMTPAddr(), judgeAccount, srv.Address(gmAccount))
	return text + strings.Join(more, "\n") + "\n"
}

// intake reads the INBOX of a club account, quietly: the run's figures
// are its output.
func (c *clubAccounts) intake(srv *club.Server, account string) (*mail.Intake, error) {
	return mail.NewIntake(mail.IntakeConfig{Addr: srv.IMAPAddr(), TLS: mail.TLSNone, Username: account,
		Password: c.password(account), RetryMin: 100 * time.Millisecond, LeaveSetAside: true, Logger: slog.New(slog.DiscardHandler)})
}

// sender sends as a club account.
func (c *clubAccounts) sender(srv *club.Server, account string) (*mail.Sender, error) {
	return mail.NewSender(mail.SenderConfig{Addr: srv.SMTPAddr(), TLS: mail.TLSNone, Username: account, Password: c.password(account)})
}

// gmMail delivers a command from the GM's account to the judge, as a GM's
// mail program would.
func (c *clubAccounts) gmMail(srv *club.Server, command string) error {
	from, to := srv.Address(gmAccount), srv.Address(judgeAccount)
	raw, err := mail.Compose(&mail.Outbound{
		From: mail.Address{Email: from}, To: []mail.Address{{Email: to}}, Subject: strings.Fields(command)[0],
		MessageID: mail.NewMessageID(srv.Domain()), Date: time.Now(), Text: "PASSWORD " + c.gmSecret + "\n" + command + "\n", Personal: true,
	})
	if err != nil {
		return err
	}
	return srv.Deliver(from, []string{to}, raw)
}
