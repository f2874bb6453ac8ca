package pbem

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// talkRecord is one message of table talk (the store keeps a game's in
// order, private until the game ends): who sent it (a seat, or "GM"),
// to whom (talkOpponents, talkAll) and what, never an address. TEAM
// messages are Game.Team.
type talkRecord struct {
	At    time.Time `json:"at"`
	Round int       `json:"round"`
	From  string    `json:"from"`
	To    string    `json:"to"`
	Text  string    `json:"text"`
}

// Whom table talk goes to.
const (
	talkOpponents = "opponents"
	talkAll       = "everyone"
)

// maxTalk bounds one message's text.
const maxTalk = 4000

// limitTalk limits each seat's (and the GM's) table talk in a game.
const limitTalk = "talk"

// talkText is the text of MESSAGE or BROADCAST: the words after the
// command word and the lines after its line.
func talkText(req *request, skip int) string {
	var lines []string
	if len(req.Args) > skip {
		lines = append(lines, strings.Join(req.Args[skip:], " "))
	}
	if req.Line >= 0 {
		all := strings.Split(req.Text, "\n")
		for _, l := range all[min(req.Line+1, len(all)):] {
			lines = append(lines, strings.TrimRight(l, " \t\r"))
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func (t storeTx) putTalk(game string, r *talkRecord) error {
	return t.tx.AddTalk(game, r)
}

// talk returns a game's table talk, the first first.
func (t storeTx) talk(game string) ([]talkRecord, error) {
	var out []talkRecord
	for seq, v := range t.tx.Talk(game) {
		var r talkRecord
		if err := v.Decode(&r); err != nil {
			return nil, fmt.Errorf("game %s: table talk %016x: %w", game, seq, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// tableTalk handles MESSAGE: the judge passes the text on to the other
// sides' players, naming the sender by its seat, and keeps it in the
// game's record. (TEAM, to the own side's seats, is teamMessage.)
func (t *txn) tableTalk(id *identity, req *request) error {
	g, from := id.game, id.game.Player(id.side)
	text := talkText(req, 0)
	switch {
	case text == "":
		return t.letters().mailPlayer(g, id.side, kindError, "MESSAGE: no text",
			"MESSAGE needs its text, on its line or the lines after: MESSAGE Shall we agree a draw?", false)
	case utf8.RuneCountInString(text) > maxTalk:
		return t.letters().mailPlayer(g, id.side, kindError, "MESSAGE: too long", fmt.Sprintf(
			"Your MESSAGE has %d characters; the judge passes on at most %d. Nothing was sent.", utf8.RuneCountInString(text), maxTalk), false)
	case g.Ended:
		return t.letters().mailPlayer(g, id.side, kindError, "MESSAGE: the game is over", "Game "+g.ID+" is over: table talk ended with it.", false)
	}
	var recipients []Player
	for _, p := range g.Players {
		if !p.isOpen() && seatSide(p.Side) != seatSide(id.side) {
			recipients = append(recipients, p)
		}
	}
	if len(recipients) == 0 {
		return t.letters().mailPlayer(g, id.side, kindError, "MESSAGE: nobody to send to",
			"Nobody plays the other sides now (their seats are open). Nothing was sent.", false)
	}
	ok, _, err := t.limits().allow(limitTalk, g.ID+" "+from.seatName(), t.s.opts.TalkLimit)
	if err != nil {
		return err
	}
	if !ok {
		return t.letters().mailPlayer(g, id.side, kindError, "MESSAGE not sent", fmt.Sprintf(
			"The judge passes on at most %s of table talk from each seat; this one was not sent.", t.s.opts.TalkLimit), false)
	}
	if err := t.putTalk(g.ID, &talkRecord{At: t.now, Round: g.Round(), From: from.seatName(), To: talkOpponents, Text: text}); err != nil {
		return err
	}
	for _, p := range recipients {
		body := fmt.Sprintf("Message from seat %s (round %d):\n\n%s\n\nTo answer: reply with a first line MESSAGE and your text.",
			from.seatName(), g.Round(), indent(text))
		if err := t.letters().mailPlayer(g, p.Side, kindTalk, "Message from "+from.seatName(), body, false); err != nil {
			return err
		}
	}
	t.log.Info("table talk passed on", "recipients", len(recipients))
	return t.letters().mailPlayer(g, id.side, kindTalk, "Message sent", fmt.Sprintf(
		"Your message was passed on to %s, signed seat %s; your address was not shown.\n"+
			"It is kept in the game's record and shown on the game's page once the game is over.",
		plural(len(recipients), "player"), from.seatName()), false)
}

// broadcast handles the GM's BROADCAST GAMEID text: to every player and
// observer of the game, kept in its record as the GM's.
func (t *txn) broadcast(g *Game, req *request) error {
	text := talkText(req, 1)
	if req.Header.Game != "" && (len(req.Args) == 0 || !strings.EqualFold(req.Args[0], g.ID)) {
		text = talkText(req, 0)
	}
	switch {
	case text == "":
		return t.refuseGM(g, cmdBroadcast, "BROADCAST needs its text: BROADCAST "+g.ID+" The next round is played on Friday.")
	case utf8.RuneCountInString(text) > maxTalk:
		return t.refuseGM(g, cmdBroadcast, fmt.Sprintf("The text has %d characters; at most %d.", utf8.RuneCountInString(text), maxTalk))
	}
	if err := t.putTalk(g.ID, &talkRecord{At: t.now, Round: g.Round(), From: "GM", To: talkAll, Text: text}); err != nil {
		return err
	}
	body := "From the game master:\n\n" + indent(text)
	n := 0
	for _, p := range g.Players {
		if p.isOpen() {
			continue
		}
		n++
		if err := t.letters().mailPlayer(g, p.Side, kindTalk, "From the game master", body, false); err != nil {
			return err
		}
	}
	if err := t.letters().mailObservers(g, kindTalk, "From the game master", body); err != nil {
		return err
	}
	return t.letters().answerGM(kindGM, g, "Broadcast sent", fmt.Sprintf("Your message went to %s and %s of game %s.",
		plural(n, "player"), plural(len(g.Observers), "observer"), g.ID))
}

// indent sets a quoted text off by two spaces.
func indent(text string) string {
	return "  " + strings.ReplaceAll(text, "\n", "\n  ")
}
