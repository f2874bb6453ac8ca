//go:build unix

package ordertext

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"fieldpost/engine"
)

// Order texts of n lines, each line an error, as a hostile or broken mail
// gives them (issue 15: 100 k order lines). Time and memory must grow
// linearly with n; the judge reads at most pbem's MaxLines lines of a mail
// anyway. Run with
//
//	go test ./engine/stargeneral/ordertext -run '^$' -bench Pathological -benchmem -benchtime 3x
func BenchmarkPathologicalOrders(b *testing.B) {
	rs, st := testState(b)
	for _, c := range []struct {
		name string
		line string
	}{
		{"junk lines", "ZZZZ junk line\n"},
		{"repeated stand lines", "  1A 0304\n"},
	} {
		for _, n := range []int{50e3, 100e3} {
			body := "GAME g SIDE axis ROUND 1\nBN I/77 M\n" + strings.Repeat(c.line, n)
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				var errs []engine.Problem
				start := cpuTime()
				for b.Loop() {
					_, errs = Parse(rs, st, "axis", body)
					engine.Refusal(body, errs, 0)
				}
				b.ReportMetric(float64(len(errs)), "errors")
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
