package pbem

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// readICal reads an iCalendar file with Python's icalendar, a parser
// independent of the one that wrote it. Without python3 or the module the
// test is skipped, except under CI (CI=true), where it fails.
func readICal(t *testing.T, data []byte) icalRead {
	t.Helper()
	missing := func(why string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the calendar test cannot run under CI: %s (apt-get install python3-icalendar)", why)
		}
		t.Skipf("%s: the calendar is not read back (apt-get install python3-icalendar)", why)
	}
	// The python3 first in PATH (a pyenv's, say) may lack Debian's module,
	// which the system's python3 has.
	python := ""
	for _, candidate := range []string{"python3", "/usr/bin/python3"} {
		path, err := exec.LookPath(candidate)
		if err == nil && exec.Command(path, "-c", "import icalendar").Run() == nil {
			python = path
			break
		}
	}
	if python == "" {
		missing("no python3 with the icalendar module")
	}
	cmd := exec.Command(python, "testdata/readical.py")
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("icalendar does not read the calendar: %v\n%s\n%s", err, stderr.String(), data)
	}
	var r icalRead
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

type icalRead struct {
	Method string `json:"method"`
	Events []struct {
		UID         string `json:"uid"`
		Sequence    int    `json:"sequence"`
		Start       string `json:"start"`
		End         string `json:"end"`
		URL         string `json:"url"`
		Summary     string `json:"summary"`
		Description string `json:"description"`
		Alarms      []struct {
			Trigger float64 `json:"trigger"`
			Related string  `json:"related"`
			Action  string  `json:"action"`
		} `json:"alarms"`
	} `json:"events"`
}

// The welcome and a deadline change carry the deadline as a calendar
// event, read back by Python's icalendar: the deadline, the game's URL,
// an alarm per club reminder, in the player's zone in words; a changed
// deadline keeps the event's UID and raises its SEQUENCE. The player's
// page serves a feed of its deadlines.
func TestCalendarEvents(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 48 * time.Hour, Reminders: []time.Duration{24 * time.Hour, 2 * time.Hour},
		BaseURL: "http://127.0.0.1:8080"})
	w := j.newGame("t1", "")
	j.handle(w["german"].reply(bob, "TIMEZONE Europe/Berlin\n"))
	j.take()
	g := gameRecord(t, j.store, "t1")
	r := readICal(t, w["us"].part(t, "deadline.ics"))
	if r.Method != "PUBLISH" || len(r.Events) != 1 {
		t.Fatalf("read back: %+v", r)
	}
	ev := r.Events[0]
	if ev.End != g.Deadline.UTC().Format("2006-01-02T15:04:05+00:00") || ev.URL != "http://127.0.0.1:8080/g/t1" ||
		ev.UID != "deadline-t1-us-round-1@club.example" || !strings.Contains(ev.Summary, "t1, round 1") {
		t.Errorf("the event: %+v (deadline %v)", ev, g.Deadline)
	}
	if len(ev.Alarms) != 2 || ev.Alarms[0].Trigger != -86400 || ev.Alarms[1].Trigger != -7200 ||
		ev.Alarms[0].Related != "END" || ev.Alarms[0].Action != "DISPLAY" {
		t.Errorf("the alarms: %+v", ev.Alarms)
	}
	unfolded := strings.ReplaceAll(w["us"].Raw2(), "\r\n ", " ")
	if !strings.Contains(unfolded, "Content-Type: text/calendar; charset=utf-8; method=PUBLISH; name=deadline.ics") {
		t.Errorf("the calendar part's type:\n%s", w["us"].Raw2())
	}

	j.clock.Advance(time.Hour)
	j.handle(gmMail("EXTEND t1 1d"))
	m := byKind(t, j.take(), kindGM, bob)
	r2 := readICal(t, m.part(t, "deadline.ics"))
	ev2 := r2.Events[0]
	want := g.Deadline.Add(24 * time.Hour)
	if ev2.UID != "deadline-t1-german-round-1@club.example" || ev2.End != want.UTC().Format("2006-01-02T15:04:05+00:00") || ev2.Sequence <= ev.Sequence {
		t.Errorf("the changed event: %+v", ev2)
	}
	if !strings.Contains(ev2.Description, want.In(mustZone(t, "Europe/Berlin")).Format("15:04 MST")) {
		t.Errorf("the event does not give the time in bob's zone: %s", ev2.Description)
	}

	// The feed on bob's page.
	pages, err := newWebPages(j.svc, j.svc.log)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	pages.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/p/"+w["german"].Token()+"/deadlines.ics", nil))
	body, _ := io.ReadAll(rec.Body)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/calendar; charset=utf-8" {
		t.Fatalf("the feed: %d %s", rec.Code, body)
	}
	if feed := readICal(t, body); len(feed.Events) != 1 || feed.Events[0].End != ev2.End {
		t.Errorf("the feed: %+v", feed)
	}
	pageRec := httptest.NewRecorder()
	pages.Handler().ServeHTTP(pageRec, httptest.NewRequest("GET", "/p/"+w["german"].Token(), nil))
	if !strings.Contains(pageRec.Body.String(), "/deadlines.ics") {
		t.Error("the player's page does not offer the feed")
	}
}

// One reminder per deadline and kind: a deadline moved away and back
// does not bring the same reminder again, and the reminder gives the
// deadline in the player's zone.
func TestCalendarRemindersNeverPile(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 48 * time.Hour, Reminders: []time.Duration{24 * time.Hour}})
	w := j.newGame("t1", "")
	j.handle(w["german"].reply(bob, "TIMEZONE Europe/Berlin\n"))
	j.take()
	deadline := gameRecord(t, j.store, "t1").Deadline
	j.clock.Advance(25 * time.Hour)
	j.deadlines()
	mails := j.takeN(2)
	m := byKind(t, mails, kindReminder, bob)
	if !strings.Contains(m.Text, deadline.In(mustZone(t, "Europe/Berlin")).Format("Mon 2 Jan 2006 15:04 MST")) {
		t.Errorf("the reminder is not in bob's zone:\n%s", m.Text)
	}
	readICal(t, m.part(t, "deadline.ics"))
	j.handle(gmMail("EXTEND t1 2d"))
	j.takeN(3)
	j.handle(gmMail("DEADLINE t1 " + deadline.UTC().Format("2006-01-02 15:04")))
	j.takeN(3)
	j.clock.Advance(time.Hour)
	j.deadlines()
	if got := j.take(); len(byKindTo(got, kindReminder, bob)) != 0 {
		t.Errorf("the same reminder again for the same deadline: %s", describe(got))
	}
}
