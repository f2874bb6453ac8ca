package pbem

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"fieldpost/engine"
)

// refusalCase is a side's order form broken on one line, and fixed.
type refusalCase struct {
	scenario, side string
	// form line to change, the line that breaks it, the line that fixes it.
	line, broken, fixed string
	// err is in the error written under the broken line.
	err string
}

var refusalCases = []refusalCase{
	{"tutorial", "us", "  A     0305", "  A     0305 0909", "  A     0305 0405", "0909 is not adjacent to 0305"},
	{"ofanto", "US", "MOVE", "MOVE\n  LMG-1 1212 1213", "MOVE\n  LMG-1 1212", "LMG-1 moves 2 hexes, its Movement is 1 [§V.4]"},
	{"wood-edge", "german", "  1Zug MOVE", "  1Zug MOVE 0909", "  1Zug MOVE 0405", "path hex 0909 does not touch 0404"},
}

// replaceLine replaces the first line of text whose text, a comment
// aside, is line (spaces at its end aside).
func replaceLine(t *testing.T, text, line, with string) string {
	t.Helper()
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		code, _, _ := strings.Cut(l, "#")
		if strings.TrimRight(code, " ") == line {
			lines[i] = with
			return strings.Join(lines, "\n")
		}
	}
	t.Fatalf("no line %q in:\n%s", line, text)
	return ""
}

// newRefusalGame starts a game of the case's scenario, alice playing the
// case's side, and returns her welcome.
func newRefusalGame(t *testing.T, j *judge, c refusalCase) *sent {
	t.Helper()
	_, sc, err := j.svc.opts.Systems.Scenario(c.scenario)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{c.side + "=" + alice}
	for _, sd := range sc.Sides {
		if sd.Name != c.side {
			args = append(args, sd.Name+"="+bob)
		}
	}
	j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=%s id=g1 deadline=none %s", c.scenario, strings.Join(args, " "))))
	mails := j.take()
	return byKind(t, mails, kindWelcome, alice)
}

// A refused mail is fixed with one reply, in every game system: the
// refusal hands the player's own orders back as its form, the error
// written under the broken line in a comment; the reply that quotes it
// with that line fixed, in the quote (">" kept) or written out of it
// (inline), is accepted. A CHECK with errors answers the same way, and its
// form fixed is orders.
func TestRefusalIsFixedWithOneReply(t *testing.T) {
	for _, c := range refusalCases {
		for _, how := range []string{"quoted", "inline", "check"} {
			t.Run(c.scenario+"/"+how, func(t *testing.T) {
				j := newJudge(t, nil)
				welcome := newRefusalGame(t, j, c)
				broken := replaceLine(t, welcome.Form(), c.line, c.broken)
				body := broken + "\n" + quoted(welcome.Text)
				wantKind := kindRejected
				if how == "check" {
					body, wantKind = "CHECK\n"+body, kindCheck
				}
				j.handle(welcome.reply(alice, body))
				refusal := byKind(t, j.take(), wantKind, alice)
				form := refusal.Form()
				if !strings.Contains(refusal.Text, "NOT accepted: 1 error.") || form == "" {
					t.Fatalf("the refusal has no form or not the one wording:\n%s", refusal.Text)
				}
				// The error is written under the broken line, as a comment.
				formLines := strings.Split(form, "\n")
				at := -1
				for i, l := range formLines {
					if strings.TrimSpace(l) == strings.TrimSpace(lastLine(c.broken)) {
						at = i
					}
				}
				if at < 0 || at+1 >= len(formLines) || !strings.HasPrefix(strings.TrimSpace(formLines[at+1]), engine.AnnotationMark) ||
					!strings.Contains(strings.Join(formLines[at+1:at+3], " "), strings.Fields(c.err)[0]) {
					t.Fatalf("the error is not written under the broken line:\n%s", form)
				}
				if strings.Contains(form, "CHECK") {
					t.Errorf("the CHECK line came back in the form:\n%s", form)
				}

				// The reply: the refusal quoted whole, the broken line fixed.
				var reply string
				switch how {
				case "quoted", "check":
					reply = quoted(replaceLine(t, refusal.Text, strings.TrimRight(lastLine(c.broken), " "), lastLine(c.fixed)))
				case "inline":
					q := strings.Split(quoted(refusal.Text), "\n")
					for i, l := range q {
						if strings.TrimRight(strings.TrimPrefix(l, "> "), " ") == lastLine(c.broken) {
							q[i] = lastLine(c.fixed) // written in place of the quoted line
						}
					}
					reply = "Fixed below.\n\nOn Mon, 2 Mar 2026, the judge wrote:\n" + strings.Join(q, "\n")
				}
				j.handle(refusal.reply(alice, reply))
				accepted := byKind(t, j.take(), kindAccepted, alice)
				if how == "inline" && !strings.Contains(accepted.Text, "with the lines you wrote") {
					t.Errorf("the inline reading is not said:\n%s", accepted.Text)
				}
			})
		}
	}
}

func lastLine(s string) string {
	lines := strings.Split(s, "\n")
	return lines[len(lines)-1]
}

// Orders written under the quoted lines of the welcome's order form, a
// greeting above, are read in the form: a stand's new path in place of its
// quoted line.
func TestInlineOrdersInTheQuotedForm(t *testing.T) {
	j := newJudge(t, nil)
	w := j.newGame("g1", "deadline=none")
	q := strings.Split(quoted(w["us"].Text), "\n")
	var out []string
	for _, l := range q {
		out = append(out, l)
		if strings.HasPrefix(l, ">   A     0303") {
			out = append(out, "  A 0303 0403")
		}
		if strings.HasPrefix(l, "> BN 1/120 M") {
			out = append(out, "BN 1/120 H")
		}
	}
	j.handle(w["us"].reply(alice, "Hello judge, my orders are in the form.\n\n"+strings.Join(out, "\n")))
	accepted := byKind(t, j.take(), kindAccepted, alice)
	for _, want := range []string{"0403", "with the lines you wrote"} {
		if !strings.Contains(accepted.Text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, accepted.Text)
		}
	}
}

// A Frontline turn, played when the side to play sends its orders, is said
// to be due when that side has sent them, not when both have (issue 25).
func TestAlternatingTurnIsDueFromTheSideToPlay(t *testing.T) {
	j := newJudge(t, nil)
	welcome := newRefusalGame(t, j, refusalCase{scenario: "ofanto", side: "GE"})
	j.handle(welcome.reply(alice, "STATUS"))
	status := byKind(t, j.take(), kindStatus, alice)
	if !strings.Contains(status.Text, "due when US has sent them (no deadline): the turn is played as soon as they arrive") {
		t.Errorf("the status does not say whose orders the turn waits for:\n%s", status.Text)
	}
	j2 := newJudge(t, nil)
	w := j2.newGame("g1", "deadline=none")
	j2.handle(w["us"].reply(alice, "STATUS"))
	if s := byKind(t, j2.take(), kindStatus, alice); !strings.Contains(s.Text, "due when both sides have sent them") {
		t.Errorf("a simultaneous round is not due from both sides:\n%s", s.Text)
	}
}

// docs/orders.md shows a refusal as a player receives it: the judge's
// refusal of those orders says, line for line, what the docs print.
func TestRefusalInTheDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/orders.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## Errors, by example")
	section, _, _ = strings.Cut(section, "\n## ")
	var blocks []string
	for _, para := range strings.Split(section, "\n\n") {
		if strings.HasPrefix(para, "    ") {
			blocks = append(blocks, para)
		}
	}
	orders, answer := dedent(blocks[0]), dedent(strings.Join(blocks[1:], "\n\n"))
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	j.handle(w["us"].reply(alice, orders))
	refusal := byKind(t, j.take(), kindRejected, alice)
	text := strings.ReplaceAll(refusal.Text, "\r\n", "\n")
	if !strings.Contains(text, answer) {
		t.Errorf("docs/orders.md prints:\n%s\nthe judge answers:\n%s", answer, text)
	}
}

// dedent takes four spaces off every line of an indented block.
func dedent(block string) string {
	lines := strings.Split(strings.TrimRight(block, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "    ")
	}
	return strings.Join(lines, "\n")
}
