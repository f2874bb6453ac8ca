package pbem

import (
	"errors"
	"strings"
	"testing"
)

// NEWGAME's SIDE=bot seats the account the judge's BotAccount gives the
// bot of that side and game; a judge without one refuses it, saying why,
// and so does one whose BotAccount fails.
func TestNewGameSeatsABotAccount(t *testing.T) {
	j := newJudge(t, nil)
	j.handle(gmMail("NEWGAME scenario=tutorial id=solo us=" + alice + " german=bot"))
	if answer := j.takeN(1)[0]; !strings.Contains(answer.Subject, "NEWGAME refused") ||
		!strings.Contains(answer.Text, "german=bot: only the embedded judge (fieldpost serve without --config), while it runs") {
		t.Errorf("the answer: %s\n%s", answer, answer.Text)
	}

	var asked []string
	j = newJudge(t, &Options{BotAccount: func(game, side string) (string, error) {
		asked = append(asked, game+"/"+side)
		if game == "broken" {
			return "", errors.New("the club's mail file is full")
		}
		return "bot-" + game + "-" + side + "@club.example", nil
	}})
	j.handle(gmMail("NEWGAME scenario=tutorial id=solo us=" + alice + " german=Bot"))
	mails := j.takeN(3)
	byKind(t, mails, kindWelcome, "bot-solo-german@club.example")
	if gm := byKind(t, mails, kindGM, testGM); !strings.Contains(gm.Text, "bot-solo-german@club.example") {
		t.Errorf("the GM's answer:\n%s", gm.Text)
	}
	j.handle(gmMail("NEWGAME scenario=tutorial id=broken us=bot german=" + bob))
	if answer := j.takeN(1)[0]; !strings.Contains(answer.Text, "us=bot: no account for the bot: the club's mail file is full") {
		t.Errorf("the answer:\n%s", answer.Text)
	}
	if strings.Join(asked, " ") != "solo/german broken/us" {
		t.Errorf("accounts asked for: %v", asked)
	}
}
