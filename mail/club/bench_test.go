package club_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"

	"fieldpost/mail/club"
)

// BenchmarkSendFetch measures the club server end to end on loopback: a
// message is submitted over SMTP (one authenticated connection, one
// transaction per message) and read back over IMAP (NOOP to learn of it,
// then UID FETCH of the whole message). "single" waits for each message
// before sending the next; "batch" sends 50 and fetches them with one
// command. msgs/s counts messages sent and fetched.
func BenchmarkSendFetch(b *testing.B) {
	for _, batch := range []int{1, 50} {
		name := "single"
		if batch > 1 {
			name = fmt.Sprintf("batch%d", batch)
		}
		b.Run(name, func(b *testing.B) { benchmarkSendFetch(b, batch) })
	}
}

func benchmarkSendFetch(b *testing.B, batch int) {
	s := startServer(b, club.Config{})
	sc := smtpLogin(b, s, "us", "us-pw")
	ic := imapLogin(b, s, "judge", "judge-pw", nil)
	if _, err := ic.Select("INBOX", nil).Wait(); err != nil {
		b.Fatal(err)
	}
	// A typical order mail: headers and about 1 KB of text.
	msg := append(testMessage("us@fieldpost.local", "judge+T0k3n@fieldpost.local", "orders"),
		[]byte(strings.Repeat("MOVE 1A 0506 0607 HALT-ON-CONTACT\r\n", 30))...)
	section := &imap.FetchItemBodySection{Peek: true}
	options := &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}

	var next imap.UID = 1
	b.SetBytes(int64(len(msg) * batch))
	for b.Loop() {
		for range batch {
			if err := sc.SendMail("us@fieldpost.local", []string{"judge+T0k3n@fieldpost.local"}, bytes.NewReader(msg)); err != nil {
				b.Fatal(err)
			}
		}
		if err := ic.Noop().Wait(); err != nil {
			b.Fatal(err)
		}
		bufs, err := ic.Fetch(imap.UIDSetNum(uidRange(next, batch)...), options).Collect()
		if err != nil {
			b.Fatal(err)
		}
		if len(bufs) != batch || len(bufs[batch-1].FindBodySection(section)) <= len(msg) {
			b.Fatalf("fetched %d messages, want %d", len(bufs), batch)
		}
		next += imap.UID(batch)
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "msgs/s")
}

// uidRange returns n consecutive UIDs from first.
func uidRange(first imap.UID, n int) []imap.UID {
	uids := make([]imap.UID, n)
	for i := range uids {
		uids[i] = first + imap.UID(i)
	}
	return uids
}
