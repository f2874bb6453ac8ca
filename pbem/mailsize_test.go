package pbem

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/emersion/go-message"

	"fieldpost/engine"
	"fieldpost/pbem/store"
)

// maxMailSize is the largest mail the judge may send a player (issue 14,
// issue 25): a phone on a slow line still fetches it in a few seconds.
const maxMailSize = 200 << 10

// Every mail of a whole game of the division scenario, the largest map the
// judge draws, played by the bots by mail, stays under maxMailSize: the
// welcomes with the opening map, every report, and the game over. The
// game's dice seed is fixed, so that a run is the same game every time;
// FIELDPOST_MAIL_SEEDS=N plays N games, seeds 1 to N, for the longer check.
func TestDivisionGameMailsStaySmall(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole division game")
	}
	seeds := 1
	if n, err := strconv.Atoi(os.Getenv("FIELDPOST_MAIL_SEEDS")); err == nil && n > 0 {
		seeds = n
	}
	for seed := 1; seed <= seeds; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) { playDivisionGame(t, uint64(seed)) })
	}
}

func playDivisionGame(t *testing.T, seed uint64) {
	systems := testSystems(t)
	sys, err := systems.Lookup("stargeneral")
	if err != nil {
		t.Fatal(err)
	}
	planner := sys.(engine.Planner)
	const scenario = "krinkelt"
	var sides []engine.Side
	for _, sc := range sys.Scenarios() {
		if sc.Name == scenario {
			sides = sc.Sides
		}
	}
	if len(sides) != 2 {
		t.Fatalf("no two-sided scenario %s", scenario)
	}
	j := newJudge(t, &Options{Systems: systems})
	players := map[string]string{}
	cmd := fmt.Sprintf("NEWGAME scenario=%s id=g1 deadline=none", scenario)
	for i, sd := range sides {
		players[sd.Name] = fmt.Sprintf("player%d@example.org", i+1)
		cmd += " " + sd.Name + "=" + players[sd.Name]
	}
	j.handle(gmMail(cmd))
	setGameSeed(t, j.store, "g1", seed)
	largest := map[string]*sent{} // by kind
	inbox := j.take()
	for steps := 0; len(inbox) > 0; steps++ {
		if steps > 100 {
			t.Fatal("the game does not end")
		}
		var answers []clientMail
		for _, m := range inbox {
			if l := largest[m.Kind()]; l == nil || len(m.Raw) > len(l.Raw) {
				largest[m.Kind()] = m
			}
			if len(m.Raw) > maxMailSize {
				t.Errorf("%s is %d KB, over %d KB: %s", m, len(m.Raw)>>10, maxMailSize>>10, partSizes(t, m))
			}
			if m.Form() == "" || m.Side() == "" {
				continue
			}
			plan, err := planner.Plan(m.part(t, "situation.json"), m.Side(), "g1", uint64(steps))
			if err != nil {
				t.Fatal(err)
			}
			if plan.Orders != "" {
				answers = append(answers, m.reply(players[m.Side()], plan.Orders))
			}
		}
		for _, a := range answers {
			j.handle(a)
		}
		inbox = j.take()
	}
	if g := gameRecord(t, j.store, "g1"); !g.Ended {
		t.Fatalf("the game stopped after %d rounds without ending", g.Turn)
	}
	for kind, m := range largest {
		t.Logf("largest %s mail: %d KB (%s)", kind, len(m.Raw)>>10, partSizes(t, m))
	}
	for _, kind := range []string{kindWelcome, kindReport, kindGameOver} {
		if largest[kind] == nil {
			t.Errorf("the game sent no %s mail", kind)
		}
	}
}

// setGameSeed gives a game, before its first round, the dice seed seed.
func setGameSeed(t *testing.T, s *Store, id string, seed uint64) {
	t.Helper()
	err := s.db.Update(func(tx *store.Tx) error {
		st := storeTx{tx}
		g, err := st.game(id)
		if err != nil || g == nil {
			return fmt.Errorf("game %s: %v", id, err)
		}
		g.Seed = seed
		return st.putGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// partSizes says how many bytes each leaf part of a mail takes, encoded as
// it is sent: "text/plain 12 KB, image/png map.png 130 KB, ...".
func partSizes(t *testing.T, m *sent) string {
	t.Helper()
	entity, err := message.Read(bytes.NewReader(m.Raw))
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	err = entity.Walk(func(_ []int, e *message.Entity, err error) error {
		if err != nil {
			return err
		}
		if mt, _, _ := e.Header.ContentType(); strings.HasPrefix(mt, "multipart/") {
			return nil
		}
		body, err := io.ReadAll(e.Body)
		if err != nil {
			return err
		}
		mt, _, _ := e.Header.ContentType()
		_, params, _ := e.Header.ContentDisposition()
		size := len(body)
		if e.Header.Get("Content-Transfer-Encoding") == "base64" {
			size = (len(body) + 2) / 3 * 4 * 78 / 76 // base64 lines of 76 and CRLF
		}
		parts = append(parts, strings.TrimSpace(fmt.Sprintf("%s %s %d KB", mt, params["filename"], size>>10)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(parts, ", ")
}
