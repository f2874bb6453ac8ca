package pbem

import (
	"bytes"
	"encoding/base64"
	"html"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
)

// TestClientReplies hands the judge replies shaped as each mail program
// and each habit of players makes them (testdata/replies/*.eml), built at
// test time from the judge's current welcome mail and order form, and
// checks each is read as the player meant: the answer's kind, what it
// says, and for accepted orders the same orders as the form sent back
// plainly.
//
// A reply file starts with comment lines: "# client:" says what it is
// shaped like, "# expect:" the kind of the answer (accepted, rejected,
// help, status or none), "# says:" text the answer must hold, "# orders:
// changed" that the orders differ from the form's. The rest is
// a text/template of the raw mail (see replyData and replyFuncs).
func TestClientReplies(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "replies", "*.eml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no replies in testdata/replies: %v", err)
	}
	j := newJudge(t, nil)
	w := j.newGame("tutorial-1", "")
	welcome := w["us"]
	data := newReplyData(welcome)

	j.handle(welcome.reply(alice, data.Form))
	plain := j.takeN(1)[0]
	if plain.Kind() != kindAccepted {
		t.Fatalf("the plain form is not accepted: %s\n%s", plain, plain.Text)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".eml"), func(t *testing.T) {
			spec := readReplySpec(t, file)
			var raw bytes.Buffer
			if err := spec.template.Execute(&raw, data); err != nil {
				t.Fatal(err)
			}
			j.t = t
			j.handleRaw(bytes.ReplaceAll(bytes.ReplaceAll(raw.Bytes(), []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n")))
			got := j.take()
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
			if spec.expect == kindAccepted && !spec.changed && echoOf(m.Text) != echoOf(plain.Text) {
				t.Errorf("%s: orders read otherwise than the form sent plainly:\n%s\n--- want\n%s", spec.client, echoOf(m.Text), echoOf(plain.Text))
			}
			if m.ReplyAddress() != welcome.ReplyAddress() || m.Game() != "tutorial-1" {
				t.Errorf("%s: the answer cannot be answered: Reply-To %s, game %q", spec.client, m.ReplyAddress(), m.Game())
			}
			if len(m.References) == 0 || m.References[0] != welcome.References[0] {
				t.Errorf("%s: the answer is not in the game's thread: References %v", spec.client, m.References)
			}
		})
	}
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
	changed        bool // the player changed the orders of the form
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
	// trailing space, lines starting with a space or "From " stuffed.
	"flowed": func(width int, text string) string {
		var out []string
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "From ") {
				line = " " + line
			}
			for len(line) > width {
				cut := strings.LastIndexByte(line[:width], ' ')
				if cut <= 0 {
					break
				}
				out = append(out, line[:cut+1])
				line = line[cut+1:]
			}
			out = append(out, line)
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
