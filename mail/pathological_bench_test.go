//go:build unix

package mail

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The pathological mails of issue 15, each at two sizes, as the intake
// reads them (10 MiB size limit, DefaultLimits). Time and memory per mail
// must grow linearly: twice the mail, at most about twice the ns/op and
// B/op. Run with
//
//	go test ./mail -run '^$' -bench Pathological -benchmem -benchtime 3x
//
// docs/limits.md has the figures.
func BenchmarkPathological(b *testing.B) {
	header := "From: m@example.org\r\nTo: judge@club.example\r\nSubject: x\r\nMessage-ID: <p@example.org>\r\n"
	html := header + "Content-Type: text/html\r\n\r\n"
	cases := []struct {
		name  string
		sizes []int
		mail  func(n int) string
	}{
		{"one line of n bytes", []int{5e6, 10e6}, func(n int) string {
			return header + "\r\n" + strings.Repeat("x", n)
		}},
		{"n MIME parts", []int{50e3, 100e3}, func(n int) string {
			return header + "Content-Type: multipart/mixed; boundary=b\r\n\r\n" +
				strings.Repeat("--b\r\n\r\nHOLD\r\n", n) + "--b--\r\n"
		}},
		{"n nested multiparts", []int{50e3, 100e3}, func(n int) string {
			var s strings.Builder
			s.WriteString(header + "Content-Type: multipart/mixed; boundary=b0\r\n\r\n")
			for i := 1; i <= n; i++ {
				fmt.Fprintf(&s, "--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n", i-1, i)
			}
			return s.String()
		}},
		{"n nested blockquotes", []int{50e3, 100e3}, func(n int) string {
			return html + strings.Repeat("<blockquote>quoted<br>", n) + strings.Repeat("</blockquote>", n)
		}},
		{"n bytes of li", []int{5e6, 10e6}, func(n int) string {
			return html + "<ol>" + strings.Repeat("<li>x", n/5)
		}},
	}
	for _, c := range cases {
		for _, n := range c.sizes {
			raw := []byte(c.mail(n))
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(raw)))
				b.ReportAllocs()
				var text int
				start := cpuTime()
				for b.Loop() {
					in, err := parseBytes(raw, 10<<20, DefaultLimits)
					if err != nil {
						b.Fatal(err)
					}
					text = len(StripQuoted(in.Text))
				}
				b.ReportMetric(float64(text), "text-bytes")
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
