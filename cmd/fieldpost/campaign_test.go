package main

import (
	"context"
	"fmt"
	"log/slog"
	mathrand "math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"fieldpost/internal/clubjudge"
	"fieldpost/mail"
)

// asFieldpost, set in the environment, makes the test binary run as
// fieldpost with its arguments instead of running the tests: the campaign
// test's judge is a child process it can kill.
const asFieldpost = "FIELDPOST_TEST_AS_FIELDPOST"

func TestMain(m *testing.M) {
	if os.Getenv(asFieldpost) == "1" {
		os.Exit(run(&env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:]))
	}
	// The judges the tests run in this process check their database in a
	// child process, this test binary: it must run as fieldpost too.
	if err := os.Setenv(asFieldpost, "1"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

// The campaign under fire: bots play tutorial games by mail, one after
// the other, through a club mail server of the test, while the judge, a
// child process, is killed with SIGKILL at random points of its life and
// started again. Then it runs to the end of the games, and nothing may be
// lost or done twice: every submission answered, every round played once
// (one report per round and player, never a second different one), every
// report delivered, no round played on default orders.
//
// FIELDPOST_KILLS sets the number of kills (12 by default: the short form
// CI runs), FIELDPOST_KILL_SEED the random kill points.
func TestCampaignSurvivesJudgeKills(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a judge process many times")
	}
	kills := 12
	if v := os.Getenv("FIELDPOST_KILLS"); v != "" {
		var err error
		if kills, err = strconv.Atoi(v); err != nil {
			t.Fatalf("FIELDPOST_KILLS: %v", err)
		}
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("FIELDPOST_KILL_SEED"); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("FIELDPOST_KILL_SEED: %v", err)
		}
	}
	t.Logf("%d kills, FIELDPOST_KILL_SEED=%d", kills, seed)
	rng := mathrand.New(mathrand.NewPCG(seed, 0))

	dir := t.TempDir()
	quiet := slog.New(slog.DiscardHandler)
	srv, cf := startTestClub(t, dir, []string{"us", "german"}, nil)

	conf := write(t, filepath.Join(dir, "judge.conf"), clubjudge.Config(srv, filepath.Join(dir, "judge.db"), "deadline = none", "send_retry_min = 1s"))
	child := newChildJudge(t, dir, conf, judgeSecrets(cf, true))

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	var got campaignMail
	for i, side := range []string{"us", "german"} {
		b, intake, err := clubBot(srv, cf, side, "", side, uint64(i+1), quiet)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { _ = intake.Run(ctx, got.recording(b.Handle)) })
	}

	games := 0
	nextGame := func() {
		games++
		if err := gmMail(srv, cf, newGameCommand(fmt.Sprintf("c%d", games), srv)); err != nil {
			t.Fatal(err)
		}
	}
	nextGame()
	// A mail in hand at two kills in a row is taken for one that kills the
	// judge, and set aside (TestJudgeKilledByAMailSetsItAside): after a kill
	// with mail in the judge's INBOX, where a mail in hand is, the judge
	// reads that mail before it is killed again.
	judgeInbox := account{address: srv.Address(judgeAccount), password: cf.password(judgeAccount), imap: srv.IMAPAddr()}
	mailWaited := false
	for range kills {
		judge := child.start()
		if mailWaited {
			waitFor(t, "the judge to read the mail waiting", time.Minute, func() bool { return len(inbox(t, judgeInbox)) == 0 })
		}
		time.Sleep(time.Duration(rng.Int64N(int64(1500 * time.Millisecond))))
		if err := judge.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = judge.Wait() // killed
		mailWaited = len(inbox(t, judgeInbox)) > 0
		if got.over(fmt.Sprintf("c%d", games)) {
			nextGame()
		}
	}

	judge := child.start()
	last := fmt.Sprintf("c%d", games)
	waitFor(t, "the last game to end", 2*time.Minute, func() bool { return got.over(last) })
	if err := judge.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := judge.Wait(); err != nil {
		t.Errorf("the judge's graceful stop: %v", err)
	}

	rounds, copies := got.check(t, games)
	if !t.Failed() {
		t.Logf("%d kills: %d games, %d rounds played, %d mails to the players, %d of them copies (same Message-ID) of a mail sent again "+
			"after a kill; 0 lost submissions, 0 rounds played twice, 0 second reports of a round, every report delivered",
			kills, games, rounds, got.count(), copies)
	}
}

// campaignMail records every mail of the judge the bots receive.
type campaignMail struct {
	mu    sync.Mutex
	mails []receivedMail
}

type receivedMail struct {
	id, kind, game, side string
	round                int
	defaulted            bool
}

func (c *campaignMail) recording(handle mail.Handler) mail.Handler {
	return func(ctx context.Context, msg *mail.Inbound) error {
		round, _ := strconv.Atoi(msg.Header.Get("X-Fieldpost-Round"))
		c.mu.Lock()
		c.mails = append(c.mails, receivedMail{id: msg.MessageID, kind: msg.Header.Get("X-Fieldpost-Kind"),
			game: msg.Header.Get("X-Fieldpost-Game"), side: msg.Header.Get("X-Fieldpost-Side"), round: round,
			defaulted: strings.Contains(msg.Text, "sent no orders")})
		c.mu.Unlock()
		return handle(ctx, msg)
	}
}

func (c *campaignMail) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.mails)
}

// over reports whether both players of a game have its final report.
func (c *campaignMail) over(game string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	sides := map[string]bool{}
	for _, m := range c.mails {
		if m.game == game && m.kind == "game-over" {
			sides[m.side] = true
		}
	}
	return len(sides) == 2
}

// check fails the test for anything lost or done twice in games c1..cN,
// and returns the rounds played and the copies of mails sent again (the
// same Message-ID: a kill between the SMTP server's taking a mail and the
// outbox's recording it).
func (c *campaignMail) check(t *testing.T, games int) (rounds, copies int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	type key struct {
		game, side, kind string
		round            int
	}
	ids := map[key]map[string]bool{}
	seen := map[string]bool{}
	accepted := map[string]int{}
	for _, m := range c.mails {
		if seen[m.id] {
			copies++
			continue
		}
		seen[m.id] = true
		k := key{m.game, m.side, m.kind, m.round}
		if ids[k] == nil {
			ids[k] = map[string]bool{}
		}
		ids[k][m.id] = true
		if m.kind == "accepted" {
			accepted[m.game+" "+m.side]++
		}
		if m.defaulted {
			t.Errorf("%s %s round %d: a side played default orders: a submission was lost", m.game, m.kind, m.round)
		}
	}
	for k, set := range ids {
		if (k.kind == "report" || k.kind == "game-over") && len(set) > 1 {
			t.Errorf("%s: %d different reports of round %d to %s: the round was played twice", k.game, len(set), k.round, k.side)
		}
	}
	for g := 1; g <= games; g++ {
		game := fmt.Sprintf("c%d", g)
		for _, side := range []string{"us", "german"} {
			final := 0
			for k := range ids {
				if k.game == game && k.side == side && k.kind == "game-over" {
					final = k.round
				}
			}
			if final == 0 {
				t.Errorf("%s: %s never got the final report", game, side)
				continue
			}
			for r := 1; r < final; r++ {
				if len(ids[key{game, side, "report", r}]) != 1 {
					t.Errorf("%s: %s got %d reports of round %d", game, side, len(ids[key{game, side, "report", r}]), r)
				}
			}
			if n := accepted[game+" "+side]; n < final {
				t.Errorf("%s: %s had %d submissions accepted for %d rounds", game, side, n, final)
			}
			if side == "us" {
				rounds += final
			}
		}
	}
	return rounds, copies
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
