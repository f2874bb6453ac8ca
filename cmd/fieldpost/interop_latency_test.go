//go:build interop

package main

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"fieldpost/mail"
)

// latencyRounds is how many mails each way is measured with.
const latencyRounds = 20

// How long a player's mail takes to be answered, on one machine, through
// the Postfix stack two ways: to a judge reading its mailbox in Dovecot
// with IMAP IDLE, and to a judge Postfix hands its mail to by LMTP. A
// player's HELP mail is timed from its submission to Postfix until the
// judge's answer is a file in the player's Maildir (Dovecot's LMTP
// delivery, no IMAP client in between); the judge's own share is from its
// log, from the mail read to the answer taken by Postfix. It logs the
// figures for docs/performance.md and asserts nothing about them.
func TestInteropLatency(t *testing.T) {
	srv := startedServers(t)
	if srv.opensmtpd() {
		t.Skip("the latency comparison runs on the Postfix stack")
	}
	srv.do(t, "wait-delivered")
	srv.emptyMailboxes(t, "judge", "us")
	dir := t.TempDir()
	bin := buildFieldpost(t, dir)
	env := append(os.Environ(), "SSL_CERT_FILE="+srv.get(t, "CA_FILE"),
		"FIELDPOST_IMAP_PASSWORD="+srv.password(t, "judge"), "FIELDPOST_SMTP_PASSWORD="+srv.password(t, "judge"))
	common := fmt.Sprintf("smtp_addr = %s\nsmtp_tls = tls\nsmtp_username = judge\nstranger_answers = 1000/1h\n",
		srv.get(t, "SUBMISSIONS_ADDR"))
	type way struct {
		name, address string
		judge         *process
	}
	idle := &way{name: "Dovecot + IMAP IDLE", address: srv.address(t, "judge")}
	idle.judge = startProcess(t, "judge-idle", bin, dir, env, "serve", "--config", write(t, filepath.Join(dir, "idle.conf"),
		fmt.Sprintf("address = %s\ndatabase = %s\nimap_addr = %s\nimap_tls = tls\nimap_username = judge\n",
			idle.address, filepath.Join(dir, "idle.db"), srv.get(t, "IMAPS_ADDR"))+common))
	lmtp := &way{name: "Postfix + LMTP", address: srv.get(t, "LMTP_JUDGE_ADDRESS")}
	lmtp.judge = startProcess(t, "judge-lmtp", bin, dir, env, "serve", "--config", write(t, filepath.Join(dir, "lmtp.conf"),
		fmt.Sprintf("address = %s\ndatabase = %s\nlmtp_listen = %s\n",
			lmtp.address, filepath.Join(dir, "lmtp.db"), srv.get(t, "JUDGE_LMTP_ADDR"))+common))
	interopWaitFor(t, "the LMTP judge to listen", func() bool {
		conn, err := net.Dial("tcp", srv.get(t, "JUDGE_LMTP_ADDR"))
		if err == nil {
			conn.Close()
		}
		return err == nil
	})

	player, err := mail.NewSender(mail.SenderConfig{Addr: srv.get(t, "SUBMISSION_STARTTLS_ADDR"), TLS: mail.TLSStartTLS,
		TLSConfig: &tls.Config{RootCAs: srv.roots}, Username: "us", Password: srv.password(t, "us")})
	if err != nil {
		t.Fatal(err)
	}
	defer player.Close()
	maildir := filepath.Join(srv.dir, "mail", "us", "Maildir", "new")
	delivered := func() int {
		entries, _ := os.ReadDir(maildir) // none yet: the folder is made by the first delivery
		return len(entries)
	}
	// ask mails HELP to a judge and waits for the answer in the Maildir.
	ask := func(w *way) (time.Duration, string) {
		t.Helper()
		id := mail.NewMessageID(srv.get(t, "DOMAIN"))
		raw, err := mail.Compose(&mail.Outbound{From: mail.Address{Email: srv.address(t, "us")},
			To: []mail.Address{{Email: w.address}}, Subject: "help", Date: time.Now(), MessageID: id, Text: "HELP\n", Personal: true})
		if err != nil {
			t.Fatal(err)
		}
		before := delivered()
		start := time.Now()
		if err := player.Send(t.Context(), srv.address(t, "us"), []string{w.address}, raw); err != nil {
			t.Fatal(err)
		}
		for delivered() == before {
			if time.Since(start) > interopWait {
				t.Fatalf("%s: no answer within %v", w.name, interopWait)
			}
			time.Sleep(time.Millisecond)
		}
		return time.Since(start), id
	}
	endToEnd := map[*way][]time.Duration{}
	ids := map[*way][]string{}
	for round := range latencyRounds + 1 {
		for _, w := range []*way{idle, lmtp} {
			d, id := ask(w)
			if round > 0 { // the first warms up connections and caches
				endToEnd[w] = append(endToEnd[w], d)
				ids[w] = append(ids[w], id)
			}
		}
	}
	for _, w := range []*way{idle, lmtp} {
		w.judge.stop(t)
		share := judgeShares(t, w.judge.log, ids[w])
		t.Logf("mail -> answer, %d mails, %s: end to end p50 %v, p90 %v, max %v; the judge's share p50 %v, p90 %v",
			latencyRounds, w.name, percentile(endToEnd[w], 50), percentile(endToEnd[w], 90), percentile(endToEnd[w], 100),
			percentile(share, 50), percentile(share, 90))
	}
}

// judgeShares reads from a judge's log, for each mail id, the time from
// the mail read ("mail received") to its answer taken by the SMTP server
// (the next "mail sent": the mails are asked one at a time).
func judgeShares(t *testing.T, logPath string, ids []string) []time.Duration {
	t.Helper()
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line := regexp.MustCompile(`^time=(\S+) .*msg="mail (received|sent)"(?: message_id=(\S+))?`)
	var shares []time.Duration
	var received time.Time
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, m[1])
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case m[2] == "received" && slices.Contains(ids, m[3]):
			received = at
		case m[2] == "sent" && !received.IsZero():
			shares = append(shares, at.Sub(received))
			received = time.Time{}
		}
	}
	if len(shares) != len(ids) {
		t.Errorf("%s: %d answers timed, want %d", logPath, len(shares), len(ids))
	}
	return shares
}

// percentile is the p-th percentile of ds (the nearest rank).
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := max((p*len(s)+99)/100-1, 0)
	return s[i].Round(time.Millisecond / 10)
}
