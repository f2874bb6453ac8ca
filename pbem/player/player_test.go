package player

import (
	"testing"

	"fieldpost/mail"
	"fieldpost/pbem/protocol"
)

// The order form is what stands between the judge's marker and the
// form's END line; a mail without a whole form has none.
func TestOrderForm(t *testing.T) {
	form := "GAME tutorial-1\nSIDE us\n# orders here\nEND\n"
	for _, c := range []struct{ text, want string }{
		{"Welcome.\n\n" + protocol.FormMarker + "\n" + form + "after the form\n", form},
		{"Welcome.\n\n" + protocol.FormMarker + "\nGAME tutorial-1\nSIDE us\n", ""},
		{"Welcome, no form.\n", ""},
	} {
		if got := orderForm(c.text); got != c.want {
			t.Errorf("orderForm(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// An answer goes to the judge's token address only when it is the
// judge's own address: a forged Reply-To elsewhere is not followed.
func TestJudgeReplyTo(t *testing.T) {
	judge := mail.Address{Email: "judge@club.example"}
	token := protocol.TokenAddress(judge.Email, "t0k3n")
	for _, c := range []struct {
		replyTo []mail.Address
		want    string
		ok      bool
	}{
		{[]mail.Address{{Email: token}}, token, true},
		{nil, judge.Email, true},
		{[]mail.Address{{Email: "thief@elsewhere.example"}}, "thief@elsewhere.example", false},
	} {
		to, ok := JudgeReplyTo(&mail.Inbound{From: judge, ReplyTo: c.replyTo})
		if to != c.want || ok != c.ok {
			t.Errorf("JudgeReplyTo with Reply-To %v = %q, %v; want %q, %v", c.replyTo, to, ok, c.want, c.ok)
		}
	}
}
