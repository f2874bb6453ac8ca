package pbem

import (
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// post posts a form to the handler as a browser on origin would; origin
// "null from site" is a browser's post without a Referer, its
// Sec-Fetch-Site the word after "from".
func post(t *testing.T, h http.Handler, path, origin string, form url.Values) (int, string) {
	t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if o, site, ok := strings.Cut(origin, " from "); ok {
		req.Header.Set("Origin", o)
		req.Header.Set("Sec-Fetch-Site", site)
	} else if origin != "" {
		req.Header.Set("Origin", origin)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, html.UnescapeString(string(body))
}

// pageFormFields reads the hidden fields of a player's page's order form.
func pageFormFields(t *testing.T, page string) url.Values {
	t.Helper()
	form := url.Values{}
	for _, name := range []string{"token", "nonce"} {
		m := regexp.MustCompile(`name="` + name + `" value="([0-9a-f]+)"`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("the page has no %s field:\n%s", name, page)
		}
		form.Set(name, m[1])
	}
	return form
}

// A player checks and sends orders from the private page: a check answers
// on the page as a CHECK mail would and sends nothing; sent orders are
// stored and answered by mail as a mail's are, once however often the
// form is posted; another site's post, a stale form and an oversized one
// do nothing.
func TestOrdersFromThePage(t *testing.T) {
	j := newJudge(t, &Options{BaseURL: "http://judge.test"})
	w := j.newGame("tutorial-1", "")
	secret := w["us"].Token()
	pages, err := newWebPages(j.svc, j.svc.log)
	if err != nil {
		t.Fatal(err)
	}
	h := pages.Handler()
	path := "/p/" + secret + "/orders"
	const origin = "http://example.com" // httptest's host

	code, _, page := get(t, h, "/p/"+secret)
	if code != http.StatusOK || !strings.Contains(page, `<textarea name="orders"`) || !strings.Contains(page, `action="/p/`+secret+`/orders"`) {
		t.Fatalf("the player's page has no order form to send (%d):\n%s", code, page)
	}
	if !strings.Contains(html.UnescapeString(page), w["us"].Form()) {
		t.Errorf("the page's form is not the order form of the mail:\n%s", page)
	}
	fields := pageFormFields(t, page)
	withOrders := func(orders, action string) url.Values {
		f := url.Values{"token": fields["token"], "nonce": fields["nonce"]}
		f.Set("orders", orders)
		f.Set("action", action)
		return f
	}

	// Another site's page cannot post, nor a post that names no origin.
	for _, o := range []string{"", "http://evil.test", "null", "null from cross-site", "http://evil.test from same-origin"} {
		if code, body := post(t, h, path, o, withOrders(docExample(t), "submit")); code != http.StatusForbidden {
			t.Errorf("a post from origin %q: %d\n%s", o, code, body)
		}
	}
	// The token of another player's page, or none, does nothing (a
	// token of another round: at the end).
	_, _, otherPage := get(t, h, "/p/"+w["german"].Token())
	stale := withOrders(docExample(t), "submit")
	stale.Set("token", pageFormFields(t, otherPage).Get("token"))
	if code, body := post(t, h, path, origin, stale); code != http.StatusConflict || !strings.Contains(body, "Nothing was done") {
		t.Errorf("another page's form: %d\n%s", code, body)
	}
	stale.Del("token")
	if code, _ := post(t, h, path, origin, stale); code != http.StatusConflict {
		t.Errorf("a form without its token: %d", code)
	}
	// A post larger than any order form is refused unread.
	if code, _ := post(t, h, path, origin, withOrders(strings.Repeat("x", maxPageOrders+8<<10), "check")); code != http.StatusRequestEntityTooLarge {
		t.Errorf("an oversized post: %d", code)
	}
	// A command is not taken from the page.
	if code, body := post(t, h, path, origin, withOrders("STATUS", "submit")); code != http.StatusOK || !strings.Contains(body, "send commands by mail") {
		t.Errorf("a command from the page: %d\n%s", code, body)
	}
	if got := j.take(); len(got) != 0 {
		t.Fatalf("refused posts sent mail:\n%s", describe(got))
	}

	// A browser's post from the page itself, which sends no Referer, names
	// its origin "null" and says it is same-origin.
	if code, body := post(t, h, path, "null from same-origin", withOrders(docExample(t), "check")); code != http.StatusOK {
		t.Errorf("a post from the page without a Referer: %d\n%s", code, body)
	}

	// Check: errors as a mail would get them, on the page, nothing mailed.
	broken := strings.Replace(docExample(t), "0305 0405", "0305 9999", 1)
	j.handle(w["us"].reply(alice, broken))
	byMail := byKind(t, j.takeN(1), kindRejected, alice)
	code, body := post(t, h, path, origin, withOrders(broken, "check"))
	if code != http.StatusOK || !strings.Contains(body, "(a check: nothing was stored or mailed)") {
		t.Fatalf("a check from the page: %d\n%s", code, body)
	}
	errLine := regexp.MustCompile(`(?m)^.*9999.*$`).FindString(byMail.Text)
	if errLine == "" || !strings.Contains(body, strings.TrimSpace(errLine)) {
		t.Errorf("the page's check lacks the mail's error %q:\n%s", errLine, body)
	}
	code, body = post(t, h, path, origin, withOrders(docExample(t), "check"))
	if code != http.StatusOK || !strings.Contains(body, "Orders for round 1 checked: valid") {
		t.Errorf("a valid check from the page: %d\n%s", code, body)
	}
	if got := j.take(); len(got) != 0 {
		t.Fatalf("a check from the page sent mail:\n%s", describe(got))
	}
	if strings.Contains(body, "the judge holds:") {
		t.Error("a check stored the orders")
	}

	// Send: stored and answered by mail, as a mail's orders are.
	code, body = post(t, h, path, origin, withOrders(docExample(t), "submit"))
	j.flush()
	accepted := byKind(t, j.takeN(1), kindAccepted, alice)
	if code != http.StatusOK || !strings.Contains(body, "Orders accepted for round 1") || !strings.Contains(body, "the judge holds:") {
		t.Fatalf("orders sent from the page: %d\n%s", code, body)
	}
	if accepted.Subject != "[tutorial-1] Orders accepted for round 1" {
		t.Errorf("the answer mailed: %q", accepted.Subject)
	}
	// The same form posted again (a double tap) is done once.
	code, body = post(t, h, path, origin, withOrders(docExample(t), "submit"))
	j.flush()
	if code != http.StatusOK || !strings.Contains(body, "sent from this page already") || len(j.take()) != 0 {
		t.Errorf("the same form posted twice: %d\n%s", code, body)
	}

	// The other side's orders from its page complete the round: the
	// reports go out, and the page shows the next round's form.
	bobSecret := w["german"].Token()
	_, _, bobPage := get(t, h, "/p/"+bobSecret)
	bf := pageFormFields(t, bobPage)
	bf.Set("orders", w["german"].Form())
	bf.Set("action", "submit")
	code, body = post(t, h, "/p/"+bobSecret+"/orders", origin, bf)
	j.flush()
	mails := j.takeN(3)
	byKind(t, mails, kindAccepted, bob)
	byKind(t, mails, kindReport, alice)
	if code != http.StatusOK || !strings.Contains(body, "round 2") || !strings.Contains(body, "ROUND 2") {
		t.Errorf("the page after the round was played: %d\n%s", code, body)
	}
	// Round 1's form, posted once round 2 is open, does nothing.
	if code, body := post(t, h, path, origin, withOrders(docExample(t), "submit")); code != http.StatusConflict || !strings.Contains(body, "Nothing was done") {
		t.Errorf("a stale form: %d\n%s", code, body)
	}
	j.flush()
	if got := j.take(); len(got) != 0 {
		t.Fatalf("a stale form sent mail:\n%s", describe(got))
	}
	if strings.Contains(j.logs.String(), secret) || strings.Contains(j.logs.String(), fields.Get("token")) {
		t.Error("a secret or a page token is in the log")
	}
}

// In Frontline General the side waiting for the other's turn changes its
// standing orders from its page, as by mail; its page offers no Check,
// which a waiting side's CHECK cannot give.
func TestStandingOrdersFromThePage(t *testing.T) {
	j := newJudge(t, nil)
	j.handle(gmMail("NEWGAME scenario=ofanto id=fl-1 us=" + alice + " ge=" + bob))
	welcome := byKind(t, j.takeN(3), kindWelcome, bob)
	pages, err := newWebPages(j.svc, j.svc.log)
	if err != nil {
		t.Fatal(err)
	}
	h := pages.Handler()
	secret := welcome.Token()
	_, _, page := get(t, h, "/p/"+secret)
	if strings.Contains(page, `value="check"`) || !strings.Contains(page, `value="submit"`) {
		t.Fatalf("the waiting side's page:\n%s", page)
	}
	form := pageFormFields(t, page)
	form.Set("orders", "REACT\n  RETALIATE none\n  AP never\nEND\n")
	form.Set("action", "submit")
	code, body := post(t, h, "/p/"+secret+"/orders", "http://example.com", form)
	j.flush()
	m := byKind(t, j.takeN(1), kindAccepted, bob)
	if code != http.StatusOK || !strings.Contains(body, "Standing orders accepted") || !strings.Contains(m.Text, "RETALIATE none") {
		t.Errorf("standing orders from the page: %d\n%s", code, body)
	}
	_, _, page = get(t, h, "/p/"+secret)
	if !strings.Contains(html.UnescapeString(page), "AP never") {
		t.Errorf("the page's form does not hold the new standing orders:\n%s", page)
	}
}
