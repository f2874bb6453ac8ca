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

// The people commands by fieldpost game, with the judge running: policy,
// replace, open, approve after a JOIN by mail, broadcast; game show gives
// the seats' history and reliability, and club ladder prints the players.
func TestGamePeopleCommands(t *testing.T) {
	j := newJudge(t)
	j.start()
	conf := []string{"--config", j.conf}
	game := func(args ...string) string { return mustRun(t, append(append([]string{"game"}, args...), conf...)...) }
	game("new", "--scenario", "tutorial", "--id", "c1", "--player", "us="+alice, "--player", "german="+bob)
	j.mails(3)

	contains(t, game("policy", "c1", "caretaker=bot", "abandon=3", "approval=yes", "rated=yes"),
		"caretaker=bot, seats abandoned after 3 missed deadlines in a row", "JOIN needs approval: yes", "rated: yes")
	wantMails(t, j.mails(1), "gm "+gm)
	mustFail(t, 1, `"colour" is no policy key`, append([]string{"game", "policy", "c1", "colour=red"}, conf...)...)

	const carol = "carol@example.net"
	contains(t, game("replace", "c1", "german", carol), "Seat german of game c1 is played by "+carol+" from round 1", "new secret")
	wantMails(t, j.mails(4), "gm "+gm, "seat "+alice, "seat "+bob, "welcome "+carol)
	mustFail(t, 1, `no seat "german.2"`, append([]string{"game", "replace", "c1", "german.2", "dave@example.org"}, conf...)...)

	contains(t, game("open", "c1", "us"), "Seat us of game c1 is open")
	wantMails(t, j.mails(3), "gm "+gm, "seat "+alice, "seat "+carol)
	mustFail(t, 1, "Nobody asked to join seat us", append([]string{"game", "approve", "c1", "us"}, conf...)...)

	contains(t, game("broadcast", "c1", "No", "round", "over", "Christmas."), "Your message went to 1 player and 0 observers")
	wantMails(t, j.mails(2), "gm "+gm, "talk "+carol)

	out := game("show", "c1")
	contains(t, out, "Policy: caretaker=bot", "us: open: the caretaker plays it", "german: "+carol+" from round 1",
		"before: "+bob+", no round, replaced", "club no rounds yet")
	contains(t, mustRun(t, "club", "ladder", "--config", j.conf), "PLAYER", carol, "unrated")
}
