//go:build unix

package pbem

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"syscall"
	"testing"
	"time"

	"fieldpost/mail"
)

// A player's mail of n junk order lines (issue 15: 10 MiB of them kept the
// database's write transaction busy for 68 s), handled by the judge with
// the default line cap and with none. Run with
//
//	go test ./pbem -run '^$' -bench PathologicalOrderMail -benchmem -benchtime 3x
func BenchmarkPathologicalOrderMail(b *testing.B) {
	for _, c := range []struct {
		name     string
		maxLines int
	}{{"default cap", 0}, {"no cap", 1 << 30}} {
		for _, n := range []int{50e3, 100e3} {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				ctx := context.Background()
				store, err := OpenStore(b.TempDir() + "/judge.db")
				if err != nil {
					b.Fatal(err)
				}
				defer store.Close()
				sender := &recordingSender{t: b}
				svc, err := NewService(store, sender, Options{Address: testJudge, ServerKey: testServerKey,
					GMSecret: testGMSecret, GMAddress: testGM, Clock: newFakeClock(),
					Logger: slog.New(slog.DiscardHandler), Limits: Limits{MaxLines: c.maxLines}})
				if err != nil {
					b.Fatal(err)
				}
				handle := func(m clientMail) {
					in, err := mail.Parse(bytes.NewReader(m.raw()), 10<<20)
					if err != nil {
						b.Fatal(err)
					}
					if err := svc.Handle(ctx, in); err != nil {
						b.Fatal(err)
					}
					if err := svc.Flush(ctx); err != nil {
						b.Fatal(err)
					}
				}
				handle(gmMail("NEWGAME scenario=tutorial id=t-1 us=" + alice + " german=" + bob))
				welcome := byKind(b, sender.sent, kindWelcome, alice)
				body := "GAME t-1 SIDE us ROUND 1\n" + strings.Repeat("ZZZZ junk line\n", n)
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				start := cpuTime()
				for b.Loop() {
					handle(welcome.reply(alice, body))
				}
				last := sender.sent[len(sender.sent)-1]
				b.ReportMetric(float64(len(last.Raw)), "answer-bytes")
				b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// cpuTime is the CPU time the process has used, user and system: on a
// machine shared with other work it measures a benchmark better than the
// wall clock of ns/op.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
