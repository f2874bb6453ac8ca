package main

import (
	"crypto/rand"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"fieldpost/mail/club"
	"fieldpost/pbem/config"
)

// startTestClub starts a club mail server in dir for a test whose judge
// is a child process: accounts for the judge, the GM and the players, each
// with a fresh password; delivered, when not nil, sees every mail the
// server delivers. The server stops when the test ends.
func startTestClub(t *testing.T, dir string, players []string, delivered func(account string, raw []byte)) (*club.Server, *clubFile) {
	t.Helper()
	cf := &clubFile{Domain: club.DefaultDomain, GMSecret: "gm-" + rand.Text()}
	for _, n := range append([]string{judgeAccount, gmAccount}, players...) {
		cf.Accounts = append(cf.Accounts, club.Account{Name: n, Password: rand.Text()[:16]})
	}
	srv, err := club.New(club.Config{MailFile: filepath.Join(dir, "mail.db"), Domain: cf.Domain,
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Accounts: cf.Accounts,
		Logger: slog.New(slog.DiscardHandler), Delivered: delivered})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, cf
}

// judgeSecrets are the environment that gives a child judge its club
// passwords and the GM's secret; imap is false for a judge that takes its
// mail over LMTP only.
func judgeSecrets(cf *clubFile, imap bool) []string {
	env := []string{config.EnvSMTPPassword + "=" + cf.password(judgeAccount), config.EnvGMSecret + "=" + cf.GMSecret}
	if imap {
		env = append(env, config.EnvIMAPPassword+"="+cf.password(judgeAccount))
	}
	return env
}

// childJudge runs the test binary as `fieldpost serve --config conf`, a
// judge the test can kill; its output goes to dir/judge.log, whose end
// the test's log shows when the test failed.
type childJudge struct {
	t    *testing.T
	conf string
	env  []string
	log  *os.File
}

func newChildJudge(t *testing.T, dir, conf string, env []string) *childJudge {
	t.Helper()
	log, err := os.Create(filepath.Join(dir, "judge.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			raw, _ := os.ReadFile(log.Name())
			t.Logf("the judge's log ends:\n%s", tail(string(raw), 6000))
		}
		log.Close()
	})
	return &childJudge{t: t, conf: conf, env: append(append(os.Environ(), asFieldpost+"=1"), env...), log: log}
}

// start starts the judge once more.
func (j *childJudge) start() *exec.Cmd {
	j.t.Helper()
	cmd := exec.Command(os.Args[0], "serve", "--config", j.conf)
	cmd.Env = j.env
	cmd.Stdout, cmd.Stderr = j.log, j.log
	if err := cmd.Start(); err != nil {
		j.t.Fatal(err)
	}
	return cmd
}
