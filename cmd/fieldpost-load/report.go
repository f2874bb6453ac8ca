package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// loadReport is what a load run measured.
type loadReport struct {
	opt       loadOptions
	fileBytes int64
	buildTime time.Duration
	// cold says how the database was taken out of the page cache.
	cold              string
	startSocket       time.Duration // process start to the control socket answering
	startAnswer       time.Duration // process start to the answer of a mail waiting in the INBOX
	rssStart          procMemory
	rssEnd            procMemory
	baseline, judge   runFigures
	accepted, refused int
	longGames         int
	longRounds        int
	perRound          int64    // bytes stored per round, all buckets
	roundBytes        []string // each long game's positions and records, by turn
}

// runFigures are one side of the comparison: the rate of a burst and the
// latency of single mails.
type runFigures struct {
	mails    int
	elapsed  time.Duration
	p50, p99 time.Duration
}

func (f runFigures) rate() float64 { return float64(f.mails) / f.elapsed.Seconds() }

// procMemory is a process's memory from /proc/PID/status, in kB.
type procMemory struct{ rss, peak, anon, file int }

func (r *loadReport) write(w io.Writer) {
	o := r.opt
	mb := func(kb int) string { return fmt.Sprintf("%.0f MB", float64(kb)/1024) }
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	fmt.Fprintf(w, "fieldpost load: %d games of %s (%d played, %d copies); database %.0f MB, built in %.1f s\n",
		o.games, o.scenario, o.played, o.games-o.played, float64(r.fileBytes)/1e6, r.buildTime.Seconds())
	fmt.Fprintln(w, "| measure | figure |")
	fmt.Fprintln(w, "|---|---|")
	fmt.Fprintf(w, "| raw fetch + reply baseline, %d mails together | %.0f /s |\n", r.baseline.mails, r.baseline.rate())
	fmt.Fprintf(w, "| order mails answered, %d together | %.0f /s = %.2f x baseline |\n",
		r.judge.mails, r.judge.rate(), r.judge.rate()/r.baseline.rate())
	fmt.Fprintf(w, "| mail -> answer, one at a time (%d mails) | judge p50 %s, p99 %s; baseline p50 %s, p99 %s |\n",
		o.latency, ms(r.judge.p50), ms(r.judge.p99), ms(r.baseline.p50), ms(r.baseline.p99))
	fmt.Fprintf(w, "| order mails accepted / refused | %d / %d |\n", r.accepted, r.refused)
	fmt.Fprintf(w, "| start (%s) | control socket %s, first mail answered %s |\n", r.cold, ms(r.startSocket), ms(r.startAnswer))
	fmt.Fprintf(w, "| judge's resident memory | after start %s (anon %s, file %s); after the mails %s; peak (the page check's time included) %s |\n",
		mb(r.rssStart.rss), mb(r.rssStart.anon), mb(r.rssStart.file), mb(r.rssEnd.rss), mb(r.rssEnd.peak))
	if r.longRounds > 0 {
		fmt.Fprintf(w, "| stored per round, %d %s games played to the end by two bots, %d rounds | %.1f KB |\n",
			r.longGames, o.longGame, r.longRounds, float64(r.perRound)/1000)
		fmt.Fprintf(w, "| position + record of each round, KB | %s |\n", strings.Join(r.roundBytes, "; "))
	}
}

// roundSizes shows a game's rounds' sizes in KB, to see whether they grow.
func roundSizes(b []int) string {
	var parts []string
	for _, n := range b {
		parts = append(parts, fmt.Sprintf("%.0f", float64(n)/1000))
	}
	return strings.Join(parts, " ")
}
