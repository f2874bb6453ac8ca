//go:build browser

package pbem

// The game pages and the HTML mail in a real browser: Debian's headless
// Chromium (chromium-headless-shell) at a phone's width (412 px) and a
// desktop's, checking what a person would see. Each page is loaded with a
// little measuring script added, whose findings the browser's dump of the
// page carries; screenshots are kept in artifacts/browser/ (or
// $FIELDPOST_ARTIFACTS). Run by .ci/run:
//
//	go test -tags browser -run Browser ./pbem/

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message"

	"fieldpost/engine"
)

// browser finds Debian's headless Chromium.
func browser(t *testing.T) string {
	for _, name := range []string{"chromium-headless-shell", "chromium"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Fatal("no headless Chromium: apt-get install chromium-headless-shell")
	return ""
}

func artifacts(t *testing.T) string {
	dir := os.Getenv("FIELDPOST_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "artifacts", "browser")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// measureScript records, once the page and its pictures have loaded, what
// a reader would notice: a page wider than the window, pictures missing
// or past the edge (but a map shown at full size in its box to pan), the
// map's width, the times shown.
const measureScript = `window.addEventListener("load", function () {
  var imgs = Array.prototype.slice.call(document.images);
  var times = Array.prototype.map.call(document.querySelectorAll("time"), function (t) { return t.textContent; });
  document.body.setAttribute("data-measure", JSON.stringify({
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
    innerWidth: window.innerWidth,
    images: imgs.length,
    loaded: imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length,
    overflowed: imgs.filter(function (i) { return !i.closest("figure.full") && i.getBoundingClientRect().right > window.innerWidth + 0.5; }).length,
    mapWidth: imgs.length ? imgs[0].getBoundingClientRect().width : 0,
    times: times
  }));
});`

type measure struct {
	ScrollWidth, ScrollHeight, InnerWidth float64
	Images, Loaded, Overflowed            int
	MapWidth                              float64
	Times                                 []string
}

// withMeasure serves the pages with the measuring script added to each.
func withMeasure(pages http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		pages.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			body = bytes.Replace(body, []byte("</body>"), []byte(`<script src="/test/measure.js"></script></body>`), 1)
		}
		for k, v := range rec.Header() {
			rw.Header()[k] = v
		}
		rw.WriteHeader(rec.Code)
		rw.Write(body)
	})
}

// chromium runs the browser on a URL at a width and returns the page as it
// stands once loaded.
func chromium(t *testing.T, exe string, width, height int, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, append([]string{"--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--virtual-time-budget=5000", fmt.Sprintf("--window-size=%d,%d", width, height)}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

var measureAttr = regexp.MustCompile(`data-measure="([^"]*)"`)

// look loads a page at a width, checks it fits, keeps a screenshot of the
// whole page, and returns its DOM.
func look(t *testing.T, exe, out, url, name string, width int) string {
	t.Helper()
	dom := chromium(t, exe, width, 900, "--dump-dom", url)
	m := measureAttr.FindSubmatch(dom)
	if m == nil {
		t.Fatalf("%s at %d px: the page did not finish loading:\n%s", name, width, dom)
	}
	var got measure
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &got); err != nil {
		t.Fatal(err)
	}
	if got.ScrollWidth > got.InnerWidth+0.5 {
		t.Errorf("%s at %d px: the page is %v px wide, wider than the window", name, width, got.ScrollWidth)
	}
	if got.Loaded != got.Images || got.Overflowed > 0 {
		t.Errorf("%s at %d px: %d of %d pictures loaded, %d past the edge", name, width, got.Loaded, got.Images, got.Overflowed)
	}
	if got.Images > 0 && got.MapWidth < 0.6*min(got.InnerWidth, 760) {
		t.Errorf("%s at %d px: the map is only %v px wide", name, width, got.MapWidth)
	}
	for _, tm := range got.Times {
		if !strings.HasSuffix(tm, "UTC)") {
			t.Errorf("%s at %d px: a time is not shown in the reader's zone beside UTC: %q", name, width, tm)
		}
	}
	shot := filepath.Join(out, fmt.Sprintf("%s-%d.png", name, width))
	chromium(t, exe, width, int(got.ScrollHeight)+1, "--screenshot="+shot, url)
	return string(dom)
}

// htmlPart is a mail's HTML part with its map served from mapURL.
func htmlPart(t *testing.T, s *sent, mapURL string) []byte {
	t.Helper()
	entity, err := message.Read(bytes.NewReader(s.Raw))
	if err != nil {
		t.Fatal(err)
	}
	var part []byte
	err = entity.Walk(func(_ []int, e *message.Entity, err error) error {
		if err != nil {
			return err
		}
		if ct, _, _ := mime.ParseMediaType(e.Header.Get("Content-Type")); ct == "text/html" {
			part, err = io.ReadAll(e.Body)
		}
		return err
	})
	if err != nil || part == nil {
		t.Fatalf("no HTML part: %v", err)
	}
	return bytes.ReplaceAll(part, []byte("cid:"+mapContentID), []byte(mapURL))
}

var hrefs = regexp.MustCompile(`href="(/g/[^"]+)"`)

func TestBrowserPages(t *testing.T) {
	exe := browser(t)
	out := artifacts(t)

	// A game with two rounds played, us's orders in for the third.
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.handle(w["us"].reply(alice, docExample(t)))
	j.handle(w["german"].reply(bob, germanOrders(t, 1)))
	j.take()
	j.handle(gmMail("FORCE tutorial-1"))
	report := byKind(t, j.take(), kindReport, alice)
	j.handle(report.reply(alice, report.Form()))
	j.take()
	secret := w["us"].Token()

	pages, err := newWebPages(j.svc, j.svc.log)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", withMeasure(pages.Handler()))
	mux.HandleFunc("GET /mail/report.html", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		rw.Write(bytes.Replace(htmlPart(t, report, "/mail/map.png"), []byte("</body>"), []byte(`<script src="/test/measure.js"></script></body>`), 1))
	})
	mux.HandleFunc("GET /mail/map.png", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "image/png")
		rw.Write(report.part(t, "map.png"))
	})
	mux.HandleFunc("GET /test/measure.js", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/javascript")
		io.WriteString(rw, measureScript)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, width := range []int{412, 1280} {
		games := look(t, exe, out, srv.URL+"/", "games", width)
		if !strings.Contains(games, `href="/g/tutorial-1"`) {
			t.Fatalf("the games page does not link the game:\n%s", games)
		}
		game := look(t, exe, out, srv.URL+"/g/tutorial-1", "game", width)
		// Every round the game page lists opens, and steps on to the next.
		var rounds []string
		for _, m := range hrefs.FindAllStringSubmatch(game, -1) {
			if strings.Contains(m[1], "/round/") {
				rounds = append(rounds, m[1])
			}
		}
		if len(rounds) != 2 {
			t.Fatalf("at %d px: the game page lists rounds %v, want 2", width, rounds)
		}
		for i, path := range rounds {
			page := look(t, exe, out, srv.URL+path, fmt.Sprintf("round-%d", i+1), width)
			if !strings.Contains(page, "Dice seed for this round") {
				t.Errorf("%s at %d px: no report", path, width)
			}
			if i+1 < len(rounds) && !strings.Contains(page, `href="`+rounds[i+1]+`" rel="next"`) {
				t.Errorf("%s at %d px: no step to the next round", path, width)
			}
		}
		player := look(t, exe, out, srv.URL+"/p/"+secret, "player", width)
		if !strings.Contains(player, `class="echo"`) || !strings.Contains(player, `<textarea name="orders"`) {
			t.Errorf("at %d px: the player's page lacks its orders or form", width)
		}
		look(t, exe, out, srv.URL+"/mail/report.html", "report-mail", width)
	}
}

// The pages of every other game system, a game of each played a few turns
// by its bots: the public game and round pages and each side's own page
// fit a phone and a desktop, and show their SVG maps scaled; a side's page
// has its order form, or the standing orders of a side waiting for the
// other's turn.
func TestBrowserPagesOfEveryGameSystem(t *testing.T) {
	exe := browser(t)
	out := artifacts(t)
	j := newJudge(t, nil)
	var games []string
	secrets := map[string]string{} // game/side -> the player's secret
	for _, sys := range j.svc.opts.Systems {
		if sys.Name() == LegacySystem {
			continue // TestBrowserPages
		}
		planner := sys.(engine.Planner)
		sc := sys.Scenarios()[0]
		id := sys.Name()
		players := map[string]string{}
		var args []string
		for i, sd := range sc.Sides {
			players[sd.Name] = fmt.Sprintf("%s%d@example.org", id, i+1)
			args = append(args, sd.Name+"="+players[sd.Name])
		}
		j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=%s id=%s deadline=none %s", sc.Name, id, strings.Join(args, " "))))
		inbox := j.take()
		for step := 0; step < 3; step++ {
			var answers []clientMail
			for _, m := range inbox {
				if m.Form() == "" || m.Side() == "" {
					continue
				}
				secrets[id+"/"+m.Side()] = m.Token()
				plan, err := planner.Plan(m.part(t, "situation.json"), m.Side(), id, uint64(step))
				if err != nil {
					t.Fatal(err)
				}
				answers = append(answers, m.reply(players[m.Side()], plan.Orders))
			}
			inbox = nil
			for _, a := range answers {
				j.handle(a)
				inbox = append(inbox, j.take()...)
			}
		}
		games = append(games, id)
	}

	pages, err := newWebPages(j.svc, j.svc.log)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", withMeasure(pages.Handler()))
	mux.HandleFunc("GET /test/measure.js", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/javascript")
		io.WriteString(rw, measureScript)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, id := range games {
		// These games hide information: they show the public no unit (the
		// screenshots show what they show instead).
		hidden := unitNames(t, umpireView(t, j, gameRecord(t, j.store, id)))
		for _, width := range []int{412, 1280} {
			game := look(t, exe, out, srv.URL+"/g/"+id, id+"-game", width)
			if !strings.Contains(game, `/g/`+id+`/map.svg"`) {
				t.Errorf("%s at %d px: the game page shows no SVG map", id, width)
			}
			checkNames(t, id+" game page", game, hidden)
			round := look(t, exe, out, srv.URL+"/g/"+id+"/round/1", id+"-round-1", width)
			checkNames(t, id+" round page", round, hidden)
			for key, secret := range secrets {
				if side, ok := strings.CutPrefix(key, id+"/"); ok {
					player := look(t, exe, out, srv.URL+"/p/"+secret, id+"-player-"+side, width)
					if !strings.Contains(player, `/p/`+secret+`/map.svg"`) {
						t.Errorf("%s %s at %d px: the player's page shows no SVG map", id, side, width)
					}
					// Both sides have orders to give or to stand by.
					if !strings.Contains(player, `<textarea name="orders"`) {
						t.Errorf("%s %s at %d px: the player's page has no form", id, side, width)
					}
					// The first round as the side saw it, linked from its page.
					round := "/p/" + secret + "/round/1"
					if !strings.Contains(player, `href="`+round+`"`) {
						t.Errorf("%s %s at %d px: the player's page does not link its rounds", id, side, width)
					}
					page := look(t, exe, out, srv.URL+round, id+"-player-"+side+"-round-1", width)
					if !strings.Contains(page, round+`/map.svg"`) || !strings.Contains(page, "REPORT for "+side) && !strings.Contains(page, "SITUATION") {
						t.Errorf("%s %s at %d px: the side's round page shows not its report and map", id, side, width)
					}
				}
			}
		}
	}
}
