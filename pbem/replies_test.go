package pbem

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/template"

	"fieldpost/engine"
)

// TestClientReplies hands the judge replies shaped as each mail program
// and each habit of players makes them (testdata/replies/*.eml), built at
// test time from the judge's current welcome mail and order form, and
// checks each is read as the player meant: the answer's kind, what it
// says, and for accepted orders the same orders as the form sent back
// plainly.
//
// Every reply goes to a game of each system, since each reads its own
// order language out of the same mails.
//
// A reply file starts with comment lines: "# client:" says what it is
// shaped like, "# expect:" the kind of the answer (accepted, rejected,
// help, status or none), "# says:" text the answer must hold, "# orders:
// changed" that the orders differ from the form's, "# games:" the one
// system it is written for when it edits orders of that system's. The
// rest is a text/template of the raw mail (see replyData and replyFuncs).
func TestClientReplies(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "replies", "*.eml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no replies in testdata/replies: %v", err)
	}
	// replyGames are the games the replies answer, one of each system: the
	// scenario, and the side the player's reply is from.
	replyGames := map[string]struct{ scenario, side string }{
		"stargeneral": {"tutorial", "us"}, "brigadier": {"wood-edge", "us"}, "frontline": {"foggia", "US"},
	}
	for _, sys := range testSystems(t) {
		g, ok := replyGames[sys.Name()]
		if !ok {
			t.Errorf("no game of %s for the replies: add one to replyGames", sys.Name())
			continue
		}
		t.Run(sys.Name(), func(t *testing.T) { clientReplies(t, files, sys, g.scenario, g.side) })
	}
}

func clientReplies(t *testing.T, files []string, sys engine.System, scenario, side string) {
	g := newReplyGame(t, sys, scenario, side)
	data := newReplyData(g.welcome)
	plain := g.answer(t, g.welcome.reply(alice, data.Form).raw())
	if len(plain) != 1 || plain[0].Kind() != kindAccepted {
		t.Fatalf("the plain form is not accepted: %s", describeWithText(plain))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".eml"), func(t *testing.T) {
			spec := readReplySpec(t, file)
			if spec.game != "" && spec.game != sys.Name() {
				t.Skipf("edits orders of %s", spec.game)
			}
			var raw bytes.Buffer
			if err := spec.template.Execute(&raw, data); err != nil {
				t.Fatal(err)
			}
			got := g.answer(t, raw.Bytes())
			if spec.expect == "none" {
				if len(got) != 0 {
					t.Fatalf("%s: want no answer, got %s", spec.client, describe(got))
				}
				return
			}
			if len(got) != 1 || got[0].Kind() != spec.expect {
				t.Fatalf("%s: want one %s answer, got:\n%s", spec.client, spec.expect, describeWithText(got))
			}
			m := got[0]
			for _, s := range spec.says {
				if !strings.Contains(m.Text, s) {
					t.Errorf("%s: the answer does not say %q:\n%s", spec.client, s, m.Text)
				}
			}
			if spec.expect == kindAccepted && !spec.changed && echoOf(m.Text) != echoOf(plain[0].Text) {
				t.Errorf("%s: orders read otherwise than the form sent plainly:\n%s\n--- want\n%s", spec.client, echoOf(m.Text), echoOf(plain[0].Text))
			}
			if m.ReplyAddress() != g.welcome.ReplyAddress() || m.Game() != "tutorial-1" {
				t.Errorf("%s: the answer cannot be answered: Reply-To %s, game %q", spec.client, m.ReplyAddress(), m.Game())
			}
			if len(m.References) == 0 || m.References[0] != g.welcome.References[0] {
				t.Errorf("%s: the answer is not in the game's thread: References %v", spec.client, m.References)
			}
		})
	}
}

// replyGame is a new game the replies answer (id tutorial-1, no deadline),
// where alice plays one side: its database as it was made, and alice's
// welcome. Each reply goes to a copy of the database, so no reply sees
// another's effect (where one side plays at a time, accepted orders play
// the round).
type replyGame struct {
	db      []byte
	welcome *sent
}

func newReplyGame(t *testing.T, sys engine.System, scenario, side string) *replyGame {
	t.Helper()
	var info engine.ScenarioInfo
	for _, sc := range sys.Scenarios() {
		if sc.Name == scenario {
			info = sc
		}
	}
	players := []string{side + "=" + alice}
	for _, sd := range info.Sides {
		if sd.Name != side {
			players = append(players, sd.Name+"="+bob)
		}
	}
	j := newJudge(t, nil)
	j.handle(gmMail(fmt.Sprintf("NEWGAME scenario=%s id=tutorial-1 deadline=none %s", scenario, strings.Join(players, " "))))
	g := &replyGame{welcome: byKind(t, j.take(), kindWelcome, alice)}
	var db bytes.Buffer
	storeView(t, j.store, func(st storeTx) error {
		_, err := st.tx.WriteTo(&db)
		return err
	})
	g.db = db.Bytes()
	return g
}

// answer hands a raw reply to a judge on a copy of the game's database and
// returns what it answers alice, the round's reports aside.
func (g *replyGame) answer(t *testing.T, raw []byte) []*sent {
	t.Helper()
	path := filepath.Join(t.TempDir(), "judge.db")
	if err := os.WriteFile(path, g.db, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	j := newJudgeOn(t, st, nil)
	j.handleRaw(bytes.ReplaceAll(bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n")))
	var answers []*sent
	for _, m := range j.take() {
		if m.Kind() != kindReport && slices.Contains(m.Envelope, alice) {
			answers = append(answers, m)
		}
	}
	return answers
}

func describeWithText(mails []*sent) string {
	var b strings.Builder
	for _, m := range mails {
		b.WriteString(m.String() + "\n" + m.Text + "\n")
	}
	return b.String()
}

// echoOf is the echo of accepted orders in an answer, without the notes
// on how the mail was read.
func echoOf(text string) string {
	_, echo, _ := strings.Cut(text, "Orders accepted for ")
	for _, note := range []string{"\nThe orders were read from", "\nThe subject of your mail", "\nThese lines were not read"} {
		echo, _, _ = strings.Cut(echo, note)
	}
	echo, _, _ = strings.Cut(echo, "You may send new orders")
	return strings.TrimSpace(echo)
}

type replySpec struct {
	client, expect string
	changed        bool   // the player changed the orders of the form
	game           string // the only system it is for; "" for all
	says           []string
	template       *template.Template
}

func readReplySpec(t *testing.T, file string) replySpec {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var spec replySpec
	text := string(raw)
	for strings.HasPrefix(text, "# ") {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		key, value, _ := strings.Cut(strings.TrimPrefix(line, "# "), ": ")
		switch key {
		case "client":
			spec.client = value
		case "expect":
			spec.expect = value
		case "says":
			spec.says = append(spec.says, value)
		case "orders":
			spec.changed = value == "changed"
		case "games":
			spec.game = value
		default:
			t.Fatalf("%s: unknown spec line %q", file, line)
		}
	}
	if spec.client == "" || spec.expect == "" {
		t.Fatalf("%s: needs # client: and # expect: lines", file)
	}
	spec.template, err = template.New(filepath.Base(file)).Funcs(replyFuncs).Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// replyData is what a reply template sees: the judge's welcome mail to
// the US player, as the player's mail program shows it.
type replyData struct {
	From, To, Subject, MessageID string
	// Original is the text of the welcome; Form its order form; Orders the
	// form without its END line; LongComment the orders with a comment
	// too long for one line added to the first stand's line.
	Original, Form, Orders, LongComment string
}

func newReplyData(welcome *sent) replyData {
	form := welcome.Form()
	orders := strings.TrimSuffix(strings.TrimRight(form, "\n"), "END")
	var long []string
	added := false
	for _, line := range strings.Split(orders, "\n") {
		if !added && strings.HasPrefix(line, "  ") && !strings.Contains(line, "#") {
			line += "  # move up behind the hedge and wait there for the tanks before going on"
			added = true
		} else if !added && strings.HasPrefix(line, "  ") {
			before, _, _ := strings.Cut(line, "#")
			line = strings.TrimRight(before, " ") + "  # move up behind the hedge and wait there for the tanks before going on"
			added = true
		}
		long = append(long, line)
	}
	return replyData{
		From: "Alice <" + alice + ">", To: welcome.ReplyAddress(), Subject: "Re: " + welcome.Subject,
		MessageID: welcome.MessageID, Original: welcome.Text, Form: form,
		Orders: strings.TrimRight(orders, "\n") + "\n", LongComment: strings.Join(long, "\n"),
	}
}

var replyFuncs = template.FuncMap{
	// replace replaces the first old in text with new.
	"replace": func(old, new, text string) string { return strings.Replace(text, old, new, 1) },
	// quote prefixes every line with "> ".
	"quote": func(text string) string { return quoted(text) },
	// wrap breaks lines longer than width at their last space before it,
	// as a mail program without format=flowed does.
	"wrap": func(width int, text string) string {
		var out []string
		for _, line := range strings.Split(text, "\n") {
			for len(line) > width {
				cut := strings.LastIndexByte(line[:width], ' ')
				if cut <= 0 {
					break
				}
				out = append(out, strings.TrimRight(line[:cut], " "))
				line = line[cut+1:]
			}
			out = append(out, line)
		}
		return strings.Join(out, "\n")
	},
	// flowed writes text as format=flowed: long lines broken with a
	// trailing space, each piece of a quoted line quoted as deep (RFC 3676
	// 4.5), lines starting with a space or "From " stuffed.
	"flowed": func(width int, text string) string {
		var out []string
		for _, line := range strings.Split(text, "\n") {
			quote := line[:len(line)-len(strings.TrimLeft(line, ">"))]
			if quote != "" {
				quote += " "
				line = strings.TrimPrefix(line[len(quote)-1:], " ")
			}
			if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "From ") {
				line = " " + line
			}
			for len(quote)+len(line) > width {
				cut := strings.LastIndexByte(line[:width-len(quote)], ' ')
				if cut <= 0 {
					break
				}
				out = append(out, quote+line[:cut+1])
				line = line[cut+1:]
			}
			out = append(out, quote+line)
		}
		return strings.Join(out, "\n")
	},
	"qp": func(text string) string {
		var b bytes.Buffer
		w := quotedprintable.NewWriter(&b)
		w.Write([]byte(strings.ReplaceAll(text, "\n", "\r\n")))
		w.Close()
		return b.String()
	},
	"base64": func(text string) string {
		enc := base64.StdEncoding.EncodeToString([]byte(strings.ReplaceAll(text, "\n", "\r\n")))
		var lines []string
		for len(enc) > 76 {
			lines, enc = append(lines, enc[:76]), enc[76:]
		}
		return strings.Join(append(lines, enc), "\n")
	},
	// html writes text as HTML paragraphs of lines, as webmail composes.
	"html": func(text string) string {
		var b strings.Builder
		for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			if line == "" {
				b.WriteString("<div><br></div>\n")
				continue
			}
			b.WriteString("<div>" + strings.ReplaceAll(html.EscapeString(line), "  ", "&nbsp; ") + "</div>\n")
		}
		return b.String()
	},
	// mso writes text as Word's HTML does: a paragraph a line, spaces kept
	// as non-breaking.
	"mso": func(text string) string {
		var b strings.Builder
		for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			if line == "" {
				line = "<o:p>&nbsp;</o:p>"
			} else {
				line = strings.ReplaceAll(html.EscapeString(line), " ", "&nbsp;")
			}
			b.WriteString(`<p class="MsoNormal">` + line + "</p>\n")
		}
		return b.String()
	},
	// pre writes text as preformatted HTML.
	"pre": func(text string) string { return "<pre>" + html.EscapeString(text) + "</pre>" },
	// dashEscape escapes lines starting with "-" as PGP's clear signature
	// does.
	"dashEscape": func(text string) string {
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "-") {
				lines[i] = "- " + l
			}
		}
		return strings.Join(lines, "\n")
	},
}
