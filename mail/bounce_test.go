package mail

import (
	"bytes"
	"slices"
	"testing"
)

// Bounces in the formats mail servers write are read: the failed
// recipient, the status and the Message-ID of the mail returned. Delay
// warnings and read receipts are not bounces.
func TestReadBounce(t *testing.T) {
	for _, tc := range []struct {
		file           string
		bounce         bool
		address        string
		status         string
		diagnosticPart string
	}{
		{"bounce-postfix-dsn.eml", true, "bob@example.de", "5.1.1", "User unknown in virtual mailbox table"},
		{"bounce-gmail-dsn.eml", true, "bob@example.de", "5.1.1", "does not exist"},
		{"bounce-qmail.eml", true, "bob@example.de", "5.2.1", "Mailbox disabled"},
		{"bounce-exim.eml", true, "bob@example.de", "5.7.1", "Mailbox unavailable"},
		{"bounce.eml", true, "gone@example.org", "5.1.1", ""},
		{"bounce-delayed-dsn.eml", false, "", "", ""},
		{"read-receipt.eml", false, "", "", ""},
		{"plain.eml", false, "", "", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			msg, err := Parse(bytes.NewReader(readTestdata(t, tc.file)), 0)
			if err != nil {
				t.Fatal(err)
			}
			b, ok := ReadBounce(msg)
			if ok != tc.bounce {
				t.Fatalf("read as a bounce: %v, want %v (%+v)", ok, tc.bounce, b)
			}
			if !ok {
				return
			}
			if len(b.Recipients) != 1 || b.Recipients[0].Address != tc.address || b.Recipients[0].Status != tc.status ||
				!bytes.Contains([]byte(b.Recipients[0].Diagnostic), []byte(tc.diagnosticPart)) {
				t.Errorf("recipients %+v", b.Recipients)
			}
			if tc.file != "bounce.eml" && !slices.Contains(b.MessageIDs, "MESSAGE-ID-HERE") {
				t.Errorf("the returned mail's Message-ID not found: %q", b.MessageIDs)
			}
			if b.Reason() == "" {
				t.Error("no reason")
			}
		})
	}
}
