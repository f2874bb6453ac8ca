package pbem

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// The pages show the seats (a local part, never an address), the open
// seat's JOIN link and the list's open seats, the table talk only once
// the game is over, and the ladder.
func TestPeoplePages(t *testing.T) {
	j := newJudge(t, nil)
	j.newGame("t1", "deadline=none")
	j.handle(gmMail("REPLACE t1 german " + carol))
	j.take()
	j.handle(gmMail("OPEN t1 us"))
	j.take()
	j.handle(gmMail("BROADCAST t1 Hello <b>all</b>"))
	j.take()
	pages, err := newWebPages(j.svc, j.svc.log)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) string {
		t.Helper()
		rec := httptest.NewRecorder()
		pages.Handler().ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != 200 {
			t.Fatalf("%s: %d", path, rec.Code)
		}
		return rec.Body.String()
	}
	page := get("/g/t1")
	for _, want := range []string{"<b>us</b>: open: the caretaker plays it", "mailto:judge@club.example?body=JOIN%20t1%20us%0A&amp;subject=JOIN%20t1%20us",
		"<b>german</b>: carol from round 1", "before: bob: no round, replaced"} {
		if !strings.Contains(page, want) {
			t.Errorf("the game's page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, carol) || strings.Contains(page, bob) || strings.Contains(page, "Hello") {
		t.Errorf("the game's page shows an address or the table talk:\n%s", page)
	}
	if list := get("/"); !strings.Contains(list, "open seat: us") {
		t.Errorf("the list lacks the open seat:\n%s", list)
	}
	j.handle(gmMail("END t1"))
	j.take()
	if page := get("/g/t1"); !strings.Contains(page, "GM to everyone") || !strings.Contains(page, "Hello &lt;b&gt;all&lt;/b&gt;") {
		t.Errorf("the ended game's page lacks its table talk:\n%s", page)
	}
	if ladder := get("/ladder"); !strings.Contains(ladder, "<td>carol</td>") || strings.Contains(ladder, carol) {
		t.Errorf("the ladder page:\n%s", ladder)
	}
}
