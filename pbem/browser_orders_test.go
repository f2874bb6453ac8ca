//go:build browser

package pbem

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// actScript does, once a page has loaded, what its address's fragment
// asks, as a reader would: #check and #submit press the order form's
// button (the unchanged form, or with #broken a line of it spoiled);
// #zoom taps the map. It runs before measureScript, which then records
// what the page shows; actMeasure adds what the acts are about.
const actScript = `window.addEventListener("load", function () {
  var h = location.hash;
  var ta = document.getElementById("orders-text");
  if (h.indexOf("#broken") === 0 && ta) ta.value = ta.value.replace(/\n(\s*[A-Z0-9]+\s+)(\d{4})/, "\n$19999");
  if (h.indexOf("check") >= 0 && ta) { document.querySelector('button[value="check"]').click(); return; }
  if (h.indexOf("submit") >= 0 && ta) { document.querySelector('button[value="submit"]').click(); return; }
  if (h === "#zoom") {
    var a = document.querySelector("figure.map a.zoom");
    var r = a.getBoundingClientRect();
    a.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));
  }
  var fig = document.querySelector("figure.map"), img = fig && fig.querySelector("img");
  var pres = Array.prototype.slice.call(document.querySelectorAll("pre"));
  document.body.setAttribute("data-act", JSON.stringify({
    full: !!fig && fig.classList.contains("full"),
    pannable: !!fig && fig.scrollWidth > fig.clientWidth + 1,
    shownWidth: img ? img.getBoundingClientRect().width : 0,
    naturalWidth: img ? img.naturalWidth : 0,
    presScrolling: pres.filter(function (p) { return p.scrollWidth > p.clientWidth + 1; }).length,
    presWrapping: pres.filter(function (p) { return getComputedStyle(p).whiteSpace !== "pre"; }).length,
    presPastEdge: pres.filter(function (p) { return p.getBoundingClientRect().right > window.innerWidth + 0.5; }).length
  }));
});`

type act struct {
	Full, Pannable                            bool
	ShownWidth, NaturalWidth                  float64
	PresScrolling, PresWrapping, PresPastEdge int
}

var actAttr = regexp.MustCompile(`data-act="([^"]*)"`)

// actOn reads what actScript recorded in a page's DOM.
func actOn(t *testing.T, dom string) act {
	t.Helper()
	m := actAttr.FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the page records no act:\n%s", dom)
	}
	var a act
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// withActs serves the pages with actScript and measureScript added.
func withActs(pages http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		pages.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			body = bytes.Replace(body, []byte("</body>"), []byte(`<script src="/test/act.js"></script><script src="/test/measure.js"></script></body>`), 1)
		}
		for k, v := range rec.Header() {
			rw.Header()[k] = v
		}
		rw.WriteHeader(rec.Code)
		rw.Write(body)
	})
}

// A player checks orders from the private page and sends them, in
// Chromium at a phone's and a desktop's width: a check with a spoiled line
// shows the error, the unchanged form checks valid, and sent they are the
// judge's, with its answer mailed. The map opens at full size on a tap,
// in a box to pan (a Frontline map's counters at their own size on a
// phone); a round's page keeps its report's columns, scrolling
// sideways in its own box on a phone.
func TestBrowserOrdersFromThePage(t *testing.T) {
	exe := browser(t)
	out := artifacts(t)
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.handle(w["us"].reply(alice, docExample(t)))
	j.handle(w["german"].reply(bob, germanOrders(t, 1)))
	j.take()
	secret := w["german"].Token()
	// A Frontline General game, whose map is wider than a phone twice over.
	j.handle(gmMail("NEWGAME scenario=ofanto id=ofanto-1 us=" + alice + " ge=" + bob))
	j.take()

	pages, err := newWebPages(j.svc, j.svc.log)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", withActs(pages.Handler()))
	for name, script := range map[string]string{"act": actScript, "measure": measureScript} {
		mux.HandleFunc("GET /test/"+name+".js", func(rw http.ResponseWriter, r *http.Request) {
			rw.Header().Set("Content-Type", "text/javascript")
			io.WriteString(rw, script)
		})
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	player := srv.URL + "/p/" + secret

	for _, width := range []int{412, 1280} {
		page := look(t, exe, out, player, "orders-form", width)
		if !strings.Contains(page, `<textarea name="orders"`) {
			t.Fatalf("at %d px: the player's page has no order form to send:\n%s", width, page)
		}
		broken := look(t, exe, out, player+"#broken-check", "orders-check-broken", width)
		if !strings.Contains(broken, "Orders for round 2 checked") || !strings.Contains(broken, "9999") || !strings.Contains(broken, "nothing was stored or mailed") {
			t.Errorf("at %d px: a check of a spoiled form does not show its error:\n%s", width, broken)
		}
		valid := look(t, exe, out, player+"#check", "orders-check", width)
		if !strings.Contains(valid, "Orders for round 2 checked: valid") {
			t.Errorf("at %d px: the unchanged form does not check valid:\n%s", width, valid)
		}
		if got := j.take(); len(got) != 0 {
			t.Errorf("at %d px: a check from the page mailed:\n%s", width, describe(got))
		}
		sent := look(t, exe, out, player+"#submit", "orders-sent", width)
		if !strings.Contains(sent, "Orders accepted for round 2") || !strings.Contains(sent, "the judge holds:") {
			t.Errorf("at %d px: the orders sent from the page are not the judge's:\n%s", width, sent)
		}
		j.flush()
		mails := j.take()
		if len(mails) == 0 {
			t.Fatalf("at %d px: the orders sent from the page were not answered by mail", width)
		}
		for _, m := range mails {
			if m.Kind() != kindAccepted || m.To() != bob {
				t.Errorf("at %d px: the page's orders got %s to %s", width, m.Kind(), m.To())
			}
		}

		zoom := actOn(t, look(t, exe, out, player+"#zoom", "map-zoomed", width))
		if !zoom.Full || zoom.ShownWidth < zoom.NaturalWidth-1 {
			t.Errorf("at %d px: a tap does not show the map at full size: %+v", width, zoom)
		}
		if width == 412 && !zoom.Pannable {
			t.Errorf("at 412 px: the full-size map cannot be panned: %+v", zoom)
		}
		wide := actOn(t, look(t, exe, out, srv.URL+"/g/ofanto-1#zoom", "frontline-map-zoomed", width))
		if !wide.Full || wide.ShownWidth < wide.NaturalWidth-1 || width == 412 && !wide.Pannable {
			t.Errorf("at %d px: a tap does not show the Frontline map at full size, to pan: %+v", width, wide)
		}
		round := actOn(t, look(t, exe, out, srv.URL+"/g/tutorial-1/round/1", "round-phone", width))
		if round.PresWrapping > 0 || round.PresPastEdge > 0 {
			t.Errorf("at %d px: the round's report breaks its columns or runs past the edge: %+v", width, round)
		}
		if width == 412 && round.PresScrolling == 0 {
			t.Errorf("at 412 px: the report's long lines neither fit nor scroll in their box: %+v", round)
		}
	}
	fmt.Println("screenshots in", filepath.Clean(out))
}
