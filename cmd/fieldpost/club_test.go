package main

import (
	"strings"
	"testing"
	"time"
)

// fieldpost club add makes an account on the running embedded judge's
// club server and prints its settings, which work at once; a NEWGAME
// naming a new address of the club's domain makes one too, and tells the
// GM its settings. The banner keeps the game's line on the first screen
// of a 24-line terminal and names the GM's account with its password;
// after a restart the new accounts are listed too, one line each.
func TestClubAddAndNewLocalAddress(t *testing.T) {
	dir := t.TempDir()
	out, stop := startEmbedded(t, dir)
	banner := strings.Split(out.String(), "\n")
	if i := indexOf(banner, "(game id demo) has been created"); i < 0 || i >= 24 {
		t.Errorf("the game's line is line %d of the banner:\n%s", i+1, out.String())
	}
	gm := printedAccount(t, out.String(), "gm")
	if !strings.Contains(out.String(), "password "+gm.password+"  the game master") {
		t.Errorf("the banner does not name the GM's account:\n%s", out.String())
	}

	settings := mustRun(t, "club", "add", "carol", "--database", embeddedDatabase(dir))
	if !strings.Contains(settings, "carol@") || !strings.Contains(settings, "Password:") {
		t.Fatalf("club add printed:\n%s", settings)
	}
	carol := account{address: field(t, settings, "Email address"), password: field(t, settings, "Password")}
	carol.imap, carol.smtp = gm.imap, gm.smtp
	if code, _, errOut := fieldpost(t, "club", "add", "carol", "--database", embeddedDatabase(dir)); code == 0 || !strings.Contains(errOut, "already") {
		t.Errorf("club add twice: exit %d, %s", code, errOut)
	}
	_, domain, _ := strings.Cut(carol.address, "@")
	made := mustRun(t, "game", "new", "--database", embeddedDatabase(dir), "--scenario", "tutorial", "--id", "club-1",
		"--player", "us="+carol.address, "--player", "german=dave@"+domain)
	if !strings.Contains(made, "New club mail accounts") || !strings.Contains(made, "dave@"+domain) || strings.Contains(made, "\"carol\"") {
		t.Errorf("the GM's answer:\n%s", made)
	}
	waitFor(t, "carol's welcome", 10*time.Second, func() bool { return ofKind(inbox(t, carol), "welcome") != nil })

	stop()
	again, _ := startEmbedded(t, dir)
	for _, name := range []string{"carol", "dave", "gm", "us", "german"} {
		printedAccount(t, again.String(), name)
	}
	if a := printedAccount(t, again.String(), "carol"); a.password != carol.password {
		t.Error("carol's account was not kept across the restart")
	}
}

func indexOf(lines []string, part string) int {
	for i, l := range lines {
		if strings.Contains(l, part) {
			return i
		}
	}
	return -1
}

// field reads "  Name:   value" from a club account's settings.
func field(t *testing.T, text, name string) string {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), ":"); ok && k == name {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no %s in:\n%s", name, text)
	return ""
}
