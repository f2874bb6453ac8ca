package main

import (
	"crypto/rand"
	"log/slog"
	"time"

	"fieldpost/internal/clubjudge"
	"fieldpost/mail"
	"fieldpost/mail/club"
)

// The load run's club accounts: the judge, the game master, the players
// of the loaded games (one account a side, in every game), the raw
// baseline's responder, and the two bots of the long game.
const (
	judgeAccount = clubjudge.JudgeAccount
	gmAccount    = clubjudge.GMAccount
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
