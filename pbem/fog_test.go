package pbem

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/emersion/go-message"

	"fieldpost/engine"
	"fieldpost/engine/hexdraw/hexdrawtest"
)

// A game that hides information, played whole by mail with an observer
// subscribed, its bots answering the judge's mails: after every round
// every public page, map and download, and every part of the observer's
// mails, names no unit of either side; each side's mails (text, HTML,
// situation.json) name no enemy unit its situation does not show, before
// the round or after it, nor do its own pages and its answers to STATUS,
// MAP, HISTORY and RESEND. Once the game is over the public pages and
// game.json show everything.
func TestHiddenGamesShowThePublicNoUnit(t *testing.T) {
	for _, game := range []struct{ system, scenario string }{
		// Foggia Plain is played by the engine's tests: a long game.
		{"brigadier", "wood-edge"}, {"frontline", "ofanto"},
	} {
		t.Run(game.scenario, func(t *testing.T) {
			playHiddenGame(t, game.system, game.scenario)
		})
	}
}

func playHiddenGame(t *testing.T, system, scenario string) {
	j := newJudge(t, &Options{BaseURL: "http://judge.test"})
	sys, err := j.svc.opts.Systems.Lookup(system)
	if err != nil {
		t.Fatal(err)
	}
	planner := sys.(engine.Planner)
	var sc engine.ScenarioInfo
	for _, s := range sys.Scenarios() {
		if s.Name == scenario {
			sc = s
		}
	}
	players := map[string]string{} // side -> address
	var args []string
	for i, sd := range sc.Sides {
		players[sd.Name] = fmt.Sprintf("player%d@example.org", i+1)
		args = append(args, sd.Name+"="+players[sd.Name])
	}
	j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=%s id=g1 deadline=none %s", scenario, strings.Join(args, " "))))
	inbox := j.take()
	j.handle(clientMail{From: "Carol <carol@example.net>", To: testJudge, Subject: "watch", Body: "SUBSCRIBE g1\n"})
	inbox = append(inbox, j.take()...)

	pages, err := newWebPages(j.svc, j.svc.log)
	if err != nil {
		t.Fatal(err)
	}
	h := pages.Handler()
	shown := map[string][]string{} // side -> the units its latest situation.json shows
	over := false
	for steps := 0; !over; steps++ {
		if steps > 400 {
			t.Fatal("the game does not end")
		}
		g := gameRecord(t, j.store, "g1")
		all := unitNames(t, umpireView(t, j, g))
		if !g.Ended {
			checkPublicPages(t, h, g, all)
		}
		var answers []clientMail
		for _, m := range inbox {
			side := m.Side()
			if m.Kind() == kindGameOver {
				over = true
				continue
			}
			if side == "" {
				// The observer's mails, and the GM's answers.
				if m.To() == "carol@example.net" && !g.Ended {
					checkNames(t, "the observer's mail "+m.Header.Get("Subject"), mailTexts(t, m), all)
				}
				continue
			}
			view := attachment(t, m, "situation.json")
			secret := enemyUnseen(all, unitNames(t, view), shown[side], side)
			if view != nil {
				shown[side] = unitNames(t, view)
			}
			checkNames(t, side+"'s mail "+m.Header.Get("Subject"), mailTexts(t, m), secret)
			if m.Kind() == kindReport {
				// The side's own pages: the round just played and now.
				base := "/p/" + m.Token()
				round := fmt.Sprintf("%s/round/%d", base, g.Turn)
				checkReaderPages(t, h, side, secret, round, round+"/map.svg", base, base+"/map.svg")
				if g.Turn == 2 {
					// What a player may ask for, answered as it stands now.
					for _, cmd := range []string{"STATUS", "MAP", "HISTORY 1", "HISTORY", "RESEND"} {
						j.handle(m.reply(players[side], cmd))
						answers := j.take()
						if len(answers) == 0 || answers[0].Side() != side || answers[0].Kind() == kindError {
							t.Fatalf("%s is not answered to %s:\n%s", cmd, side, describe(answers))
						}
						for _, a := range answers {
							checkNames(t, side+"'s answer to "+cmd, mailTexts(t, a), secret)
						}
					}
				}
			}
			if m.Form() == "" {
				continue
			}
			plan, err := planner.Plan(view, side, "g1", uint64(steps))
			if err != nil {
				t.Fatalf("%s: %v", side, err)
			}
			if plan.Orders != "" {
				answers = append(answers, m.reply(players[side], plan.Orders))
			}
		}
		if over {
			break
		}
		if len(answers) == 0 {
			t.Fatalf("nobody has orders to send, and the game is not over:\n%s", describe(inbox))
		}
		for _, a := range answers {
			j.handle(a)
		}
		inbox = j.take()
	}
	g := gameRecord(t, j.store, "g1")
	if !g.Ended {
		t.Fatal("the game is not over")
	}
	// Over: everything is published.
	code, _, body := get(t, h, "/g/g1/game.json")
	if code != http.StatusOK || !strings.Contains(body, `"rounds"`) {
		t.Fatalf("game.json once over: %d", code)
	}
	code, _, body = get(t, h, "/g/g1/round/1")
	if code != http.StatusOK || !namesAny(body, unitNames(t, umpireView(t, j, g))) {
		t.Errorf("the first round's page once the game is over tells nothing of the units:\n%s", body)
	}
	t.Logf("%s: %d rounds played by mail, the public saw no unit: %s", scenario, g.Turn, g.Result)
}

// checkPublicPages fetches every public page, map and download of a game
// being played: none names a unit.
func checkPublicPages(t *testing.T, h http.Handler, g *Game, units []string) {
	t.Helper()
	paths := []string{"/", "/g/g1", "/g/g1/map.svg"}
	for n := 1; n <= g.Turn; n++ {
		paths = append(paths, fmt.Sprintf("/g/g1/round/%d", n), fmt.Sprintf("/g/g1/round/%d/map.svg", n))
	}
	for _, path := range paths {
		code, _, body := get(t, h, path)
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d", path, code)
		}
		text := body
		if strings.HasSuffix(path, ".svg") {
			text = strings.Join(hexdrawtest.CheckSVG(t, []byte(body)), "\n")
			code, _, png := get(t, h, strings.TrimSuffix(path, ".svg")+".png")
			if code != http.StatusOK || !strings.HasPrefix(png, "\x89PNG") {
				t.Fatalf("GET %s.png: %d", path, code)
			}
		}
		checkNames(t, "GET "+path+" in round "+fmt.Sprint(g.Round()), text, units)
	}
	if code, _, _ := get(t, h, "/g/g1/game.json"); code != http.StatusNotFound {
		t.Errorf("game.json is downloadable while the game is played: %d", code)
	}
}

// checkReaderPages fetches a reader's pages and maps: none names one of names.
func checkReaderPages(t *testing.T, h http.Handler, reader string, names []string, paths ...string) {
	t.Helper()
	for _, path := range paths {
		code, _, body := get(t, h, path)
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d", path, code)
		}
		if strings.HasSuffix(path, ".svg") {
			body = strings.Join(hexdrawtest.CheckSVG(t, []byte(body)), "\n")
		}
		checkNames(t, reader+"'s "+path, body, names)
	}
}

// umpireView is the whole position now, as the system writes it.
func umpireView(t *testing.T, j *judge, g *Game) []byte {
	t.Helper()
	var view []byte
	storeView(t, j.store, func(tx storeTx) error {
		pos, err := loadPosition(j.svc.opts.Systems, tx, g, g.Turn)
		if err != nil {
			return err
		}
		view, err = pos.View(engine.Umpire)
		return err
	})
	return view
}

// unitNames are the names of the units a situation.json shows, as the
// texts write them: Frontline's SIDE:ID and ID, Brigadier's platoon names
// (but "HQ" and "MG", which are words of every report too).
func unitNames(t *testing.T, view []byte) []string {
	t.Helper()
	if view == nil {
		return nil
	}
	var v struct {
		Units []struct{ ID, Side string }
		State struct {
			Platoons []struct {
				Name    string
				Side    string
				Removed bool
			}
		}
	}
	if err := json.Unmarshal(view, &v); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, u := range v.Units {
		out = append(out, u.Side+":"+u.ID, u.ID+"@"+u.Side)
	}
	for _, p := range v.State.Platoons {
		if len(p.Name) > 2 && !p.Removed {
			out = append(out, p.Name+"@"+p.Side)
		}
	}
	return out
}

// enemyUnseen are the names of the enemy units in all that side's
// situation now (now) and before (before) do not show; a bare id shared
// with a unit the side knows is left out.
func enemyUnseen(all, now, before []string, side string) []string {
	known := map[string]bool{}
	for _, n := range append(append([]string{}, now...), before...) {
		known[n] = true
		known[bare(n)] = true
	}
	for _, n := range all {
		if strings.EqualFold(sideOf(n), side) {
			known[bare(n)] = true
		}
	}
	var out []string
	for _, n := range all {
		if !strings.EqualFold(sideOf(n), side) && !known[n] && !known[bare(n)] {
			out = append(out, n)
		}
	}
	return out
}

// A name is "SIDE:ID" or "NAME@SIDE" (a bare name, with its side for the
// test).
func sideOf(n string) string {
	if side, _, ok := strings.Cut(n, ":"); ok {
		return side
	}
	_, side, _ := strings.Cut(n, "@")
	return side
}

func bare(n string) string {
	if _, id, ok := strings.Cut(n, ":"); ok {
		return id
	}
	name, _, _ := strings.Cut(n, "@")
	return name
}

// checkNames fails t when text names one of names as a word.
func checkNames(t *testing.T, where, text string, names []string) {
	t.Helper()
	for _, n := range names {
		w := n
		if strings.Contains(n, "@") {
			w = bare(n)
		}
		if !strings.Contains(text, w) {
			continue
		}
		if loc := wholeWord(w).FindStringIndex(text); loc != nil {
			from, to := max(loc[0]-200, 0), min(loc[1]+200, len(text))
			t.Fatalf("%s names %s: ...%s...", where, w, text[from:to])
		}
	}
}

func namesAny(text string, names []string) bool {
	for _, n := range names {
		if wholeWord(bare(n)).MatchString(text) {
			return true
		}
	}
	return false
}

func wholeWord(w string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^A-Za-z0-9/.-])` + regexp.QuoteMeta(w) + `($|[^A-Za-z0-9/.-])`)
}

// mailTexts are every text part of a mail (plain, HTML, situation.json),
// and the texts of its SVG parts if any.
func mailTexts(t *testing.T, m *sent) string {
	t.Helper()
	entity, err := message.Read(bytes.NewReader(m.Raw))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	err = entity.Walk(func(_ []int, e *message.Entity, err error) error {
		if err != nil {
			return err
		}
		ct, _, _ := e.Header.ContentType()
		if strings.HasPrefix(ct, "multipart/") || ct == "image/png" {
			return nil
		}
		body, err := io.ReadAll(e.Body)
		b.Write(body)
		b.WriteString("\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// attachment is a mail's attached file by name, nil when it has none.
func attachment(t *testing.T, m *sent, filename string) []byte {
	t.Helper()
	entity, err := message.Read(bytes.NewReader(m.Raw))
	if err != nil {
		t.Fatal(err)
	}
	var found []byte
	err = entity.Walk(func(_ []int, e *message.Entity, err error) error {
		if _, params, _ := e.Header.ContentDisposition(); err == nil && params["filename"] == filename {
			found, err = io.ReadAll(e.Body)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
