package club_test

import (
	"bufio"
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"fieldpost/mail/club"
)

// mailboxState is what a client caches of a mailbox: its UIDVALIDITY and
// UIDNEXT, and each message's UID, flags and text.
type mailboxState struct {
	uidValidity uint32
	uidNext     imap.UID
	messages    []messageState
}

type messageState struct {
	uid   imap.UID
	flags []imap.Flag
	raw   string
}

// readMailbox reads a mailbox of user without changing it.
func readMailbox(t testing.TB, s *club.Server, user, mailbox string) mailboxState {
	t.Helper()
	c := imapLogin(t, s, user, password(user), nil)
	defer c.Logout()
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatalf("selecting %s of %s: %v", mailbox, user, err)
	}
	st := mailboxState{uidValidity: sel.UIDValidity, uidNext: sel.UIDNext}
	if sel.NumMessages == 0 {
		return st
	}
	section := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{
		UID: true, Flags: true, BodySection: []*imap.FetchItemBodySection{section},
	}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	for _, buf := range bufs {
		flags := slices.Clone(buf.Flags)
		slices.Sort(flags)
		st.messages = append(st.messages, messageState{uid: buf.UID, flags: flags, raw: string(buf.FindBodySection(section))})
	}
	return st
}

func (a mailboxState) equal(b mailboxState) bool {
	return a.uidValidity == b.uidValidity && a.uidNext == b.uidNext &&
		slices.EqualFunc(a.messages, b.messages, func(x, y messageState) bool {
			return x.uid == y.uid && slices.Equal(x.flags, y.flags) && x.raw == y.raw
		})
}

// A restarted server on the same mail file has every mailbox as it was:
// the messages, their UIDs and flags, UIDNEXT and UIDVALIDITY; the next
// message gets the next UID.
func TestRestartKeepsMail(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mail.db")
	s := startServer(t, club.Config{MailFile: file})
	for i := range 4 {
		if err := send(t, s, "us", "us@fieldpost.local", []string{"judge+T0k3n@fieldpost.local"}, testMessage("us", "judge", fmt.Sprint("orders ", i))); err != nil {
			t.Fatal(err)
		}
	}
	c := imapLogin(t, s, "judge", "judge-pw", nil)
	if err := c.Create("Processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(imap.UIDSetNum(1), "Processed").Wait(); err != nil {
		t.Fatal(err)
	}
	// UID 4 goes, so that UIDNEXT is no longer the last UID + 1.
	if err := c.Store(imap.UIDSetNum(4), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}, Silent: true}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(2), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagFlagged, "$Orders"}, Silent: true}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	// Reading a message without PEEK marks it \Seen.
	if _, err := c.Fetch(imap.UIDSetNum(3), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{}}}).Collect(); err != nil {
		t.Fatal(err)
	}
	c.Logout()

	before := map[string]mailboxState{
		"INBOX":     readMailbox(t, s, "judge", "INBOX"),
		"Processed": readMailbox(t, s, "judge", "Processed"),
	}
	inbox := before["INBOX"]
	if len(inbox.messages) != 2 || inbox.uidNext != 5 || !slices.Contains(inbox.messages[0].flags, imap.FlagFlagged) ||
		!slices.Contains(inbox.messages[1].flags, imap.FlagSeen) || len(before["Processed"].messages) != 1 {
		t.Fatalf("before the restart: %+v", before)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = startServer(t, club.Config{MailFile: file})
	for name, want := range before {
		if got := readMailbox(t, s, "judge", name); !got.equal(want) {
			t.Errorf("%s after the restart:\n%+v\nwant\n%+v", name, got, want)
		}
	}
	c = imapLogin(t, s, "judge", "judge-pw", nil)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	flagged, err := c.UIDSearch(&imap.SearchCriteria{Flag: []imap.Flag{"$orders"}}, nil).Wait()
	if err != nil || !slices.Equal(flagged.AllUIDs(), []imap.UID{2}) {
		t.Errorf("UID SEARCH KEYWORD $orders after the restart: %v, %v", flagged, err)
	}
	list, err := c.List("", "*", nil).Collect()
	if err != nil || len(list) != 2 {
		t.Errorf("LIST after the restart: %v, %v", list, err)
	}
	if err := s.Deliver("", []string{"judge@fieldpost.local"}, testMessage("us", "judge", "after")); err != nil {
		t.Fatal(err)
	}
	if after := readMailbox(t, s, "judge", "INBOX"); len(after.messages) != 3 || after.messages[2].uid != 5 || after.uidValidity != inbox.uidValidity {
		t.Errorf("a message delivered after the restart: %+v", after)
	}
}

// A mailbox created after one was deleted, or renamed away, gets another
// UIDVALIDITY, also after a restart; a renamed mailbox keeps its own.
func TestUIDValidityNeverReused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mail.db")
	s := startServer(t, club.Config{MailFile: file})
	c := imapLogin(t, s, "us", "us-pw", nil)
	uidValidity := func(name string) uint32 {
		t.Helper()
		st, err := c.Status(name, &imap.StatusOptions{UIDValidity: true}).Wait()
		if err != nil {
			t.Fatalf("STATUS %s: %v", name, err)
		}
		return st.UIDValidity
	}
	seen := map[uint32]string{}
	// fresh checks that the mailbox name, at the moment when, has a
	// UIDVALIDITY no mailbox had before.
	fresh := func(name, when string) uint32 {
		t.Helper()
		v := uidValidity(name)
		if other, ok := seen[v]; ok {
			t.Errorf("%s %s has UIDVALIDITY %d, as %s had", name, when, v, other)
		}
		seen[v] = name + " " + when
		return v
	}
	fresh("INBOX", "at first")

	if err := c.Create("Orders", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	fresh("Orders", "at first")
	if err := c.Delete("Orders").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Create("Orders", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	orders := fresh("Orders", "created again")
	if err := c.Rename("Orders", "Archive", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if got := uidValidity("Archive"); got != orders {
		t.Errorf("renamed mailbox has UIDVALIDITY %d, want its own %d", got, orders)
	}
	if err := c.Create("Orders", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	fresh("Orders", "after the rename")
	if err := c.Delete("Orders").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = startServer(t, club.Config{MailFile: file})
	c = imapLogin(t, s, "us", "us-pw", nil)
	if got := uidValidity("Archive"); got != orders {
		t.Errorf("after the restart Archive has UIDVALIDITY %d, want %d", got, orders)
	}
	if err := c.Create("Orders", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	fresh("Orders", "after the restart")
}

// helperEnv names the mail file of the server TestKilledServer runs in a
// child process.
const helperEnv = "CLUB_TEST_MAIL_FILE"

// TestHelperServer is the child of TestKilledServer: a club server that
// prints its addresses and serves until it is killed.
func TestHelperServer(t *testing.T) {
	file := os.Getenv(helperEnv)
	if file == "" {
		t.Skip("only run by TestKilledServer")
	}
	s, err := club.New(club.Config{MailFile: file, IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
		Accounts: testAccounts, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("listening %s %s\n", s.IMAPAddr(), s.SMTPAddr())
	select {}
}

// Every message the server accepted over SMTP, and every flag it stored
// over IMAP, is in the mail file when the server is killed (SIGKILL) right
// after answering.
func TestKilledServer(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mail.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperServer$")
	cmd.Env = append(os.Environ(), helperEnv+"="+file)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var imapAddr, smtpAddr string
	line, err := bufio.NewReader(out).ReadString('\n')
	if _, scanErr := fmt.Sscanf(line, "listening %s %s", &imapAddr, &smtpAddr); err != nil || scanErr != nil {
		t.Fatalf("the helper server said %q: %v %v", line, err, scanErr)
	}

	const n = 20
	sc := smtpDial(t, smtpAddr, "us", "us-pw")
	for i := range n {
		if err := sc.SendMail("us@fieldpost.local", []string{"judge@fieldpost.local"}, bytes.NewReader(testMessage("us", "judge", fmt.Sprint("m", i)))); err != nil {
			t.Fatal(err)
		}
	}
	ic, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ic.Close()
	if err := ic.Login("judge", "judge-pw").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := ic.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := ic.Store(imap.UIDSetNum(n), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagAnswered}, Silent: true}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	s := startServer(t, club.Config{MailFile: file})
	got := readMailbox(t, s, "judge", "INBOX")
	if len(got.messages) != n || !slices.Contains(got.messages[n-1].flags, imap.FlagAnswered) {
		t.Fatalf("after SIGKILL the INBOX has %d messages (want %d), the last flagged %v", len(got.messages), n, got.messages[len(got.messages)-1].flags)
	}
	for i, m := range got.messages {
		if !strings.Contains(m.raw, fmt.Sprintf("Subject: m%d\r\n", i)) {
			t.Errorf("message %d after SIGKILL:\n%s", i+1, m.raw)
		}
	}
}

// An idling client of a restarted server hears of new mail at once.
func TestIdleAfterRestart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mail.db")
	s := startServer(t, club.Config{MailFile: file})
	if err := s.Deliver("", []string{"judge@fieldpost.local"}, testMessage("us", "judge", "before")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = startServer(t, club.Config{MailFile: file})
	exists := make(chan uint32, 8)
	c := imapLogin(t, s, "judge", "judge-pw", &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(data *imapclient.UnilateralDataMailbox) {
				if data.NumMessages != nil {
					exists <- *data.NumMessages
				}
			},
		},
	})
	if sel, err := c.Select("INBOX", nil).Wait(); err != nil || sel.NumMessages != 1 {
		t.Fatalf("SELECT after the restart: %v, %v", sel, err)
	}
	idle, err := c.Idle()
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	if err := send(t, s, "us", "us@fieldpost.local", []string{"judge@fieldpost.local"}, testMessage("us", "judge", "after")); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-exists:
		if n != 2 {
			t.Errorf("EXISTS %d, want 2", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the idling client was not told of the new mail")
	}
}

// A second server cannot open a mail file in use, and says why.
func TestMailFileInUse(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mail.db")
	startServer(t, club.Config{MailFile: file})
	_, err := club.New(club.Config{MailFile: file})
	if err == nil || !strings.Contains(err.Error(), "in use by another process") {
		t.Errorf("a second server on the same mail file: %v", err)
	}
}
