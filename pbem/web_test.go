package pbem

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"fieldpost/engine"
)

// get fetches a page of the handler: its status, headers and body.
func get(t *testing.T, h http.Handler, path string) (int, http.Header, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, rec.Result().Header, string(body)
}

func TestGamePages(t *testing.T) {
	j := newJudge(t, &Options{BaseURL: "http://judge.test"})
	w := j.newGame("tutorial-1", "")
	secret := w["us"].Token()
	if !strings.Contains(w["us"].Text, "http://judge.test/p/"+secret) {
		t.Errorf("the welcome has no link to the player's page:\n%s", w["us"].Text)
	}
	j.handle(w["us"].reply(alice, docExample(t)))
	j.takeN(1)
	j.handle(w["german"].reply(bob, w["german"].Form()))
	report := byKind(t, j.takeN(3), kindReport, alice)
	if !strings.Contains(report.Text, "Your page (private): http://judge.test/p/"+secret) ||
		!strings.Contains(report.Text, "http://judge.test/g/tutorial-1") {
		t.Errorf("the report has no links to the pages:\n%s", report.Text)
	}

	pages, err := newWebPages(j.svc, j.svc.log)
	if err != nil {
		t.Fatal(err)
	}
	h := pages.Handler()
	page := func(path string, want ...string) (http.Header, string) {
		t.Helper()
		code, hdr, body := get(t, h, path)
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d\n%s", path, code, body)
		}
		if hdr.Get("Referrer-Policy") != "no-referrer" || !strings.Contains(hdr.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("GET %s: headers %v", path, hdr)
		}
		for _, s := range want {
			if !strings.Contains(body, s) {
				t.Errorf("GET %s lacks %q:\n%s", path, s, body)
			}
		}
		return hdr, body
	}
	page("/", "/g/tutorial-1", "Saint-Aubin", "round 2")
	// A game without a deadline says so once (issue 25: "deadline no deadline").
	j.newGame("no-deadline", "deadline=none")
	if _, index := page("/", "/g/no-deadline", "no deadline"); strings.Contains(index, "deadline no deadline") {
		t.Errorf("the index says %q", "deadline no deadline")
	}
	_, game := page("/g/tutorial-1", "Round 1: day 1 of 1, round 1 of 5", `href="/g/tutorial-1/round/1"`,
		`src="/g/tutorial-1/map.svg"`, "waiting", "game.json")
	if strings.Contains(game, secret) {
		t.Error("the public page shows a player's secret")
	}
	page("/g/tutorial-1/round/1", "Dice seed for this round", "ORDERS PLAYED: us", `src="/g/tutorial-1/round/1/map.svg"`)
	page("/p/"+secret, `src="/p/`+secret+`/map.svg"`)
	for _, path := range []string{"/g/tutorial-1/map", "/g/tutorial-1/round/1/map", "/p/" + secret + "/map"} {
		hdr, body := page(path + ".png")
		if hdr.Get("Content-Type") != "image/png" || !strings.HasPrefix(body, "\x89PNG") {
			t.Errorf("GET %s.png: %s, not a PNG", path, hdr.Get("Content-Type"))
		}
		hdr, body = page(path + ".svg")
		if hdr.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(body, "<svg ") || strings.Contains(body, "<script") {
			t.Errorf("GET %s.svg: %s, not an SVG map:\n%.200s", path, hdr.Get("Content-Type"), body)
		}
	}
	hdr, _ := page("/p/"+secret, "Your page as", "ROUND 2", "holds no orders from you")
	if hdr.Get("Cache-Control") != "no-store" {
		t.Errorf("the private page may be cached: %v", hdr)
	}
	// Orders sent show on the player's page, never on the public one.
	j.handle(report.reply(alice, report.Form()))
	j.takeN(1)
	page("/p/"+secret, "the judge holds:")
	page("/g/tutorial-1", "US task force (orders in)")

	// Anything that is not there looks the same, a wrong secret too.
	_, _, missing := get(t, h, "/g/nosuch")
	for _, path := range []string{"/p/aaaaaaaaaaaaaaaa", "/p/short", "/g/tutorial-1/round/9", "/g/tutorial-1/round/x", "/nothing"} {
		code, hdr, body := get(t, h, path)
		if code != http.StatusNotFound || body != missing || hdr.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("GET %s: %d, %q", path, code, body)
		}
	}
	if strings.Contains(j.logs.String(), secret) {
		t.Error("a secret is in the log")
	}
}

// The download replays: each round, played again from its position with
// the orders and seed it publishes, gives the next round's position.
func TestGameDownloadReplays(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.handle(w["us"].reply(alice, docExample(t)))
	j.handle(w["german"].reply(bob, germanOrders(t, 1)))
	j.take()
	j.handle(gmMail("FORCE tutorial-1"))
	j.take()
	pages, err := newWebPages(j.svc, j.svc.log)
	if err != nil {
		t.Fatal(err)
	}
	code, hdr, body := get(t, pages.Handler(), "/g/tutorial-1/game.json")
	if code != http.StatusOK || !strings.Contains(hdr.Get("Content-Disposition"), "tutorial-1.json") {
		t.Fatalf("download: %d %v", code, hdr)
	}
	var d gameDownload
	if err := json.Unmarshal([]byte(body), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Rounds) != 2 || d.System != "stargeneral" {
		t.Fatalf("download: %d rounds, system %q", len(d.Rounds), d.System)
	}
	sys, err := j.svc.opts.Systems.Lookup(d.System)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range d.Rounds {
		var file struct{ State json.RawMessage }
		if err := json.Unmarshal(r.Situation, &file); err != nil {
			t.Fatal(err)
		}
		pos, err := sys.Load(file.State)
		if err != nil {
			t.Fatal(err)
		}
		orders := map[string]engine.Orders{}
		for side, text := range r.Orders {
			reading := pos.Read(side, text, 0)
			if reading.Orders == nil {
				t.Fatalf("round %d: %s's published orders do not read:\n%s\n%s", r.Round, side, text, reading.Answer)
			}
			orders[side] = reading.Orders
		}
		next, _, err := pos.Play(orders, engine.NewSeededDice(r.Seed))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := next.Marshal()
		want := d.Current
		if i+1 < len(d.Rounds) {
			want = d.Rounds[i+1].Situation
		}
		var wantFile struct{ State json.RawMessage }
		json.Unmarshal(want, &wantFile)
		var compact bytes.Buffer
		json.Compact(&compact, wantFile.State)
		if !bytes.Equal(got, compact.Bytes()) {
			t.Errorf("round %d does not replay to the next position:\n%s\n%s", r.Round, got, compact.Bytes())
		}
	}
}
