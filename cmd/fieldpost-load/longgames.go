package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"fieldpost/internal/clubjudge"
	"fieldpost/mail"
	"fieldpost/pbem"
	"fieldpost/pbem/player"
)

// longGames plays games of the long scenario to their end between two
// bots, one after the other, until they have played run.opt.longRounds
// rounds, the judge running, and measures what each round stored: the
// database is measured with the judge stopped before and after.
func (run *loadRun) longGames(ctx context.Context, r *loadReport, sides []string) error {
	before, err := pbem.MeasureStorage(run.cfg.Database, "")
	if err != nil {
		return err
	}
	judge, err := run.startJudge()
	if err != nil {
		return err
	}
	defer judge.kill()
	quiet := slog.New(slog.DiscardHandler)
	var players string
	for i, side := range sides {
		account := longPrefix + strings.ToLower(side)
		players += fmt.Sprintf(" %s=%s", side, run.srv.Address(account))
		sender, err := run.club.sender(run.srv, account)
		if err != nil {
			return err
		}
		defer sender.Close()
		b := player.New(player.Config{Side: side, From: mail.Address{Email: run.srv.Address(account)}, Seed: uint64(i + 1),
			Sender: sender, Systems: run.systems, Log: quiet})
		run.arrivals.bot(account, b)
	}
	var games []string
	for rounds := 0; rounds < run.opt.longRounds; {
		id := fmt.Sprintf("long-%d", len(games)+1)
		games = append(games, id)
		if err := clubjudge.GMMail(run.srv, run.club.gmSecret, fmt.Sprintf("NEWGAME scenario=%s id=%s deadline=none%s", run.opt.longGame, id, players)); err != nil {
			return err
		}
		turns, err := run.arrivals.waitOver(ctx, id, len(sides), 10*time.Minute)
		if err != nil {
			return err
		}
		rounds += turns
	}
	if err := judge.stop(); err != nil {
		return err
	}
	after, err := pbem.MeasureStorage(run.cfg.Database, "")
	if err != nil {
		return err
	}
	for _, id := range games {
		g, err := pbem.MeasureStorage(run.cfg.Database, id)
		if err != nil {
			return err
		}
		r.longRounds += len(g.Rounds) - 1 // the last position is the end's, with no round after it
		r.roundBytes = append(r.roundBytes, roundSizes(g.Rounds[:len(g.Rounds)-1]))
	}
	if r.longRounds > 0 {
		r.perRound = (after.Total - before.Total) / int64(r.longRounds)
	}
	r.longGames = len(games)
	run.progress("%d games of %s played to the end: %d rounds", len(games), run.opt.longGame, r.longRounds)
	return nil
}
