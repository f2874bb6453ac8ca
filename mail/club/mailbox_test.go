package club_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"fieldpost/mail"
	"fieldpost/mail/club"
)

// The mailbox commands a mail program uses besides those above: SEARCH by
// header, text and flag, COPY (into the same mailbox too), RENAME of a
// mailbox with the ones below it, LSUB.
func TestMailboxCommands(t *testing.T) {
	s := startServer(t, club.Config{})
	for _, subject := range []string{"orders one", "orders two", "chat"} {
		if err := s.Deliver("", []string{"us@fieldpost.local"}, testMessage("german", "us", subject)); err != nil {
			t.Fatal(err)
		}
	}
	c := imapLogin(t, s, "us", "us-pw", nil)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.SeqSetNum(3), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen}, Silent: true}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		criteria imap.SearchCriteria
		want     []imap.UID
	}{
		{"HEADER Subject two", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "two"}}}, []imap.UID{2}},
		{"TEXT round", imap.SearchCriteria{Text: []string{"ROUND"}}, []imap.UID{1, 2, 3}},
		{"BODY orders", imap.SearchCriteria{Body: []string{"orders"}}, []imap.UID{1, 2, 3}},
		{"UNSEEN", imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, []imap.UID{1, 2}},
		{"NOT SUBJECT orders", imap.SearchCriteria{Not: []imap.SearchCriteria{{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "orders"}}}}}, []imap.UID{3}},
		{"UID 2:*", imap.SearchCriteria{UID: []imap.UIDSet{{{Start: 2, Stop: 0}}}}, []imap.UID{2, 3}},
	} {
		data, err := c.UIDSearch(&tc.criteria, nil).Wait()
		if err != nil || !slices.Equal(data.AllUIDs(), tc.want) {
			t.Errorf("UID SEARCH %s: %v, %v; want %v", tc.name, data.AllUIDs(), err, tc.want)
		}
	}

	copied, err := c.Copy(imap.SeqSetNum(3), "INBOX").Wait()
	if err != nil || !slices.Equal(copied.DestUIDs, imap.UIDSetNum(4)) {
		t.Fatalf("COPY into the same mailbox: %+v, %v", copied, err)
	}
	inbox := readMailbox(t, s, "us", "INBOX")
	if len(inbox.messages) != 4 || inbox.messages[3].raw != inbox.messages[2].raw || !slices.Equal(inbox.messages[3].flags, []imap.Flag{imap.FlagSeen}) {
		t.Errorf("after COPY: %+v", inbox)
	}

	for _, name := range []string{"Games", "Games/demo", "Gamesx"} {
		if err := c.Create(name, nil).Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Subscribe("Games/demo").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Rename("Games", "Old", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Rename("Gamesx", "INBOX", nil).Wait(); err == nil {
		t.Error("RENAME onto INBOX succeeded")
	}
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range list {
		names = append(names, l.Mailbox)
	}
	if !slices.Equal(names, []string{"Gamesx", "INBOX", "Old", "Old/demo"}) {
		t.Errorf("after RENAME: %v", names)
	}
	subscribed, err := c.List("", "*", &imap.ListOptions{SelectSubscribed: true}).Collect()
	if err != nil || len(subscribed) != 1 || subscribed[0].Mailbox != "Old/demo" {
		t.Errorf("subscribed: %v, %v", subscribed, err)
	}
}

// The judge's intake deletes its old handled mails from the club server
// (imap_processed_keep): APPEND with a date, SEARCH BEFORE, STORE \Deleted
// and UID EXPUNGE, as PurgeProcessed does them.
func TestJudgePurgesOldHandledMail(t *testing.T) {
	s := startServer(t, club.Config{})
	c := imapLogin(t, s, "judge", "judge-pw", nil)
	if err := c.Create("Processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i, age := range []time.Duration{40 * 24 * time.Hour, 2 * time.Hour} {
		raw := testMessage("us", "judge", fmt.Sprintf("orders %d", i))
		cmd := c.Append("Processed", int64(len(raw)), &imap.AppendOptions{Time: now.Add(-age)})
		if _, err := cmd.Write(raw); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	in, err := mail.NewIntake(mail.IntakeConfig{Addr: s.IMAPAddr(), TLS: mail.TLSNone, Username: "judge", Password: "judge-pw"})
	if err != nil {
		t.Fatal(err)
	}
	n, err := in.PurgeProcessed(context.Background(), now.Add(-30*24*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("PurgeProcessed: %d deleted, %v; want 1", n, err)
	}
	box := readMailbox(t, s, "judge", "Processed")
	if len(box.messages) != 1 || !strings.Contains(box.messages[0].raw, "orders 1") {
		t.Errorf("Processed after the purge: %+v", box)
	}
}
