package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// fieldpost check reads a file of orders exactly as the judge reads a
// mail's text: what would get "No orders found" by mail is refused here.
func TestCheckReadsAsTheJudge(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "s.json")
	mustRun(t, "new", "--scenario", "tutorial", "--out", state, "--seed", "1")
	form := mustRun(t, "form", "--state", state, "--side", "us", "--game", "tutorial-1")
	header, _, _ := strings.Cut(form, "\nBN ")
	for name, body := range map[string]string{
		"empty":        "",
		"prose":        "Dear judge, I shall send my orders tomorrow.\nRegards, Alice\n",
		"random bytes": "\x00\x9f\xff\x12garbage\x80\x81\n\xfe",
		"cut-off form": header + "\n",
	} {
		code, out, _ := fieldpost(t, "check", "--state", state, "--side", "us", write(t, filepath.Join(dir, "in.txt"), body))
		if code != 1 || !strings.Contains(out, "neither orders nor a command") && !strings.Contains(out, "no text") {
			t.Errorf("%s: exit %d:\n%s", name, code, out)
		}
	}
	code, out, _ := fieldpost(t, "check", "--state", state, "--side", "us", write(t, filepath.Join(dir, "form.txt"), "Turn 1 orders below\n\n"+form))
	if code != 0 || !strings.Contains(out, "Orders accepted") {
		t.Errorf("the form: exit %d:\n%s", code, out)
	}
}

// fieldpost check --mail reads a raw mail as the daemon would and shows
// what it read and the answer.
func TestCheckMail(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "s.json")
	mustRun(t, "new", "--scenario", "tutorial", "--out", state, "--seed", "1")
	form := mustRun(t, "form", "--state", state, "--side", "us", "--game", "tutorial-1")
	orders := strings.TrimSuffix(strings.TrimRight(form, "\n"), "END")
	head := "From: Alice <alice@example.org>\r\nTo: judge+secret@club.example\r\nSubject: Re: [tutorial-1] Welcome\r\n" +
		"Message-ID: <m1@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n"
	outlook := head + "\r\n" + orders + "\r\nFrom: Fieldpost <judge@club.example>\r\nSent: Monday, March 2, 2026 6:00 PM\r\n" +
		"To: Alice <alice@example.org>\r\nSubject: [tutorial-1] Welcome\r\n\r\n" + strings.ReplaceAll(form, "\n", "\r\n")
	for _, c := range []struct {
		name, raw string
		code      int
		says      []string
	}{
		{"outlook reply", outlook, 0, []string{"What the judge read", "BN 743", "Orders accepted"}},
		{"quoted only", head + "\r\nOn Mon, 2 Mar 2026, Fieldpost <judge@club.example> wrote:\r\n> " + strings.ReplaceAll(form, "\n", "\r\n> "), 1,
			[]string{"only quoted text"}},
		{"out of office", strings.Replace(head, "Subject: Re: [tutorial-1] Welcome", "Subject: Out of Office: [tutorial-1] Welcome", 1) + "\r\nAway.\r\n", 1,
			[]string{"sent by a machine"}},
		{"an error", head + "\r\nBN 743 M\r\n  A 0303 0909\r\n", 1, []string{"line 2", "NOT accepted: 1 error"}},
	} {
		code, out, _ := fieldpost(t, "check", "--state", state, "--side", "us", "--mail", write(t, filepath.Join(dir, "m.eml"), c.raw))
		if code != c.code {
			t.Errorf("%s: exit %d, want %d:\n%s", c.name, code, c.code, out)
		}
		for _, s := range c.says {
			if !strings.Contains(out, s) {
				t.Errorf("%s: the output lacks %q:\n%s", c.name, s, out)
			}
		}
	}
}
