package pbem

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bounceOf is a bounce from the mail package's testdata, returning the
// mail with Message-ID id.
func bounceOf(t *testing.T, file, id string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "mail", "testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.ReplaceAll(raw, []byte("MESSAGE-ID-HERE"), []byte(id))
}

// A bounce of the judge's mail to a player, in each format the mail
// package reads, marks the player unreachable in game show and tells the
// game master, once; the bounce itself is never answered.
func TestBounceMarksThePlayerUnreachable(t *testing.T) {
	for _, file := range []string{"bounce-postfix-dsn.eml", "bounce-gmail-dsn.eml", "bounce-qmail.eml", "bounce-exim.eml"} {
		t.Run(file, func(t *testing.T) {
			j := newJudge(t, nil)
			w := j.newGame("tutorial-1", "")
			bounce := bounceOf(t, file, w["german"].MessageID)
			j.handleRaw(bounce)
			gm := j.takeN(1)[0]
			if gm.Kind() != kindGM || gm.To() != testGM || !strings.Contains(gm.Subject, "german player cannot be reached") ||
				!strings.Contains(gm.Text, bob) || !strings.Contains(gm.Text, "5.") {
				t.Fatalf("the GM's notice: %s\n%s", gm, gm.Text)
			}
			g := gameRecord(t, j.store, "tutorial-1")
			if u := g.Player("german").Unreachable; u == nil || !u.Since.Equal(j.clock.Now()) || !strings.Contains(u.Reason, "5.") {
				t.Fatalf("german: %+v", g.Player("german"))
			}
			if g.Player("us").Unreachable != nil {
				t.Error("us marked unreachable too")
			}
			info, err := j.store.Game(testSystems(t), "tutorial-1")
			if err != nil {
				t.Fatal(err)
			}
			var show strings.Builder
			if err := WriteGame(&show, info, j.clock.Now()); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(show.String(), "UNREACHABLE: german ("+bob+")") {
				t.Errorf("game show:\n%s", show.String())
			}
			j.handleRaw(bounce)
			j.takeN(0)
		})
	}
}

// Bounces of no player's mail, delay warnings and read receipts change
// nothing and are never answered.
func TestBouncesThatMarkNobody(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.handle(clientMail{From: "dave@example.net", To: testJudge, Subject: "help", Body: "HELP"})
	help := j.takeN(1)[0]
	for _, raw := range [][]byte{
		bounceOf(t, "bounce-postfix-dsn.eml", help.MessageID),           // a help to a stranger
		bounceOf(t, "bounce-exim.eml", "forged-"+w["german"].MessageID), // no mail of the judge
		bounceOf(t, "bounce-delayed-dsn.eml", w["german"].MessageID),    // only delayed
		bounceOf(t, "read-receipt.eml", w["german"].MessageID),
	} {
		j.handleRaw(raw)
		j.takeN(0)
	}
	for _, p := range gameRecord(t, j.store, "tutorial-1").Players {
		if p.Unreachable != nil {
			t.Errorf("%s marked unreachable", p.Side)
		}
	}
}
