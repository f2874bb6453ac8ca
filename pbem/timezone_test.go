package pbem

import (
	"strings"
	"testing"
	"time"
	_ "time/tzdata"
)

func TestTimeZones(t *testing.T) {
	j := newJudge(t, &Options{Deadline: 48 * time.Hour})
	w := j.newGame("tutorial-1", "")
	deadline := j.clock.Now().Add(48 * time.Hour)
	utc := deadline.UTC().Format("15:04 MST")
	berlin := deadline.In(mustZone(t, "Europe/Berlin")).Format("Mon 2 Jan 2006 15:04 MST")
	newYork := deadline.In(mustZone(t, "America/New_York")).Format("Mon 2 Jan 2006 15:04 MST")

	j.handle(w["us"].reply(alice, "TIMEZONE Europe/Berlin"))
	m := byKind(t, j.takeN(1), kindStatus, alice)
	if !strings.Contains(m.Text, "now show times in Europe/Berlin") || !strings.Contains(m.Text, berlin+" ("+utc+")") {
		t.Errorf("TIMEZONE answer:\n%s", m.Text)
	}
	j.handle(w["us"].reply(alice, "STATUS"))
	if m := byKind(t, j.takeN(1), kindStatus, alice); !strings.Contains(m.Text, berlin+" ("+utc+")") {
		t.Errorf("alice's status does not show the deadline in Berlin time:\n%s", m.Text)
	}
	j.handle(w["german"].reply(bob, "STATUS"))
	if m := byKind(t, j.takeN(1), kindStatus, bob); !strings.Contains(m.Text, deadline.UTC().Format("Mon 2 Jan 2006 15:04 MST")) {
		t.Errorf("bob's status is not in UTC:\n%s", m.Text)
	}

	j.handle(w["us"].reply(alice, "TIMEZONE Mars/Olympus_Mons"))
	if m := byKind(t, j.takeN(1), kindError, alice); !strings.Contains(m.Text, "not a time zone") {
		t.Errorf("a wrong zone:\n%s", m.Text)
	}
	if g := gameRecord(t, j.store, "tutorial-1"); g.Player("us").TimeZone != "Europe/Berlin" {
		t.Errorf("a wrong zone changed alice's: %q", g.Player("us").TimeZone)
	}

	// The game master's zone is for the players who chose none.
	j.handle(gmMail("TIMEZONE tutorial-1 America/New_York"))
	byKind(t, j.takeN(1), kindGM, testGM)
	j.handle(w["german"].reply(bob, "STATUS"))
	if m := byKind(t, j.takeN(1), kindStatus, bob); !strings.Contains(m.Text, newYork+" ("+utc+")") {
		t.Errorf("bob's status does not follow the game's zone:\n%s", m.Text)
	}
	j.handle(w["us"].reply(alice, "STATUS"))
	if m := byKind(t, j.takeN(1), kindStatus, alice); !strings.Contains(m.Text, berlin) {
		t.Errorf("the game's zone overrode alice's own:\n%s", m.Text)
	}
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
