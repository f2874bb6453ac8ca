package pbem

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkDivisionOrderMail times one order mail of the division scenario
// (krinkelt) handled and committed: the larger position to read and check
// than the tutorial's of BenchmarkMailAt.
func BenchmarkDivisionOrderMail(b *testing.B) {
	j := newJudge(b, &Options{Deadline: 48 * time.Hour})
	j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=krinkelt id=k0 us=%s german=%s", alice, bob)))
	mails := j.takeN(3)
	w := byKind(b, mails, kindWelcome, alice)
	orders := w.reply(alice, w.Form())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		in := parseClient(b, orders)
		if err := j.svc.Handle(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}
