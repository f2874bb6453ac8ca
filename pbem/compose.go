package pbem

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"fmt"
	htmltemplate "html/template"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"
	texttemplate "text/template"

	"fieldpost/engine"
	"fieldpost/mail"
	"fieldpost/pbem/protocol"
)

// The kinds of mail the judge sends, as the X-Fieldpost-Kind field names
// them (pbem/protocol defines them for the players' programs too).
const (
	kindWelcome    = protocol.KindWelcome
	kindReport     = protocol.KindReport
	kindAccepted   = protocol.KindAccepted
	kindRejected   = protocol.KindRejected
	kindCheck      = protocol.KindCheck
	kindReminder   = protocol.KindReminder
	kindDefaulted  = protocol.KindDefaulted
	kindStatus     = protocol.KindStatus
	kindMap        = protocol.KindMap
	kindHistory    = protocol.KindHistory
	kindHelp       = protocol.KindHelp
	kindAuthFailed = protocol.KindAuthFailed
	kindError      = protocol.KindError
	kindGM         = protocol.KindGM
	kindGameOver   = protocol.KindGameOver
	kindTeam       = protocol.KindTeam
	// The people side of a game (seats.go, talk.go, absence.go,
	// address.go); their mails are written by the gm template.
	kindSeat    = protocol.KindSeat
	kindTalk    = protocol.KindTalk
	kindAbsence = protocol.KindAbsence
	kindConfirm = protocol.KindConfirm
)

// formMarker opens the order form at the end of a mail's text; the form's
// END line closes it (docs/mail-format.md).
const formMarker = protocol.FormMarker

// mapContentID is the Content-ID of the map picture in a mail's HTML.
const mapContentID = "map@fieldpost"

// mailTemplates are the text templates of the mails, one file each in the
// templates folder (NAME.txt.tmpl), parsed into one set so that they can
// share "situation.txt.tmpl".
var mailTemplates = []string{
	kindWelcome, "round", kindAccepted, kindRejected, kindCheck, kindReminder, kindDefaulted,
	kindStatus, kindMap, kindHistory, kindHelp, kindAuthFailed, kindError, kindGM, kindTeam,
}

// templateFuncs are the helpers the mail templates may use.
var templateFuncs = texttemplate.FuncMap{
	"join": strings.Join,
	"rule": func(n int) string { return strings.Repeat("-", n) },
	"wrap": wrap,
}

// parseTemplates reads the mail templates from fsys.
func parseTemplates(fsys fs.FS) (*texttemplate.Template, *htmltemplate.Template, error) {
	files := make([]string, len(mailTemplates))
	for i, name := range mailTemplates {
		files[i] = name + ".txt.tmpl"
	}
	text, err := texttemplate.New("mail").Funcs(templateFuncs).ParseFS(fsys, files...)
	if err != nil {
		return nil, nil, fmt.Errorf("mail templates: %w", err)
	}
	html, err := htmltemplate.New("mail").ParseFS(fsys, "mail.html.tmpl")
	if err != nil {
		return nil, nil, fmt.Errorf("mail templates: %w", err)
	}
	return text, html, nil
}

// mailData is what the text templates see. Code writes the facts (Body,
// the situation); the templates put words around them.
type mailData struct {
	Judge     string // the judge's bare address
	Game      string
	Title     string
	Side      string // the player's side, "" for observers and strangers
	SideTitle string
	// Round is the round the next orders are for, RoundName its name.
	Round     int
	RoundName string
	Deadline  string // "" for none
	// Commitment is the SHA-256 of the next round's dice seed.
	Commitment string
	Secret     string // the player's secret, in the welcome only
	// PageURL is the player's private page, GameURL the game's public
	// page; "" when the judge serves no pages.
	PageURL, GameURL string
	ReplyTo          string // the address that carries the secret
	Paused           bool
	Ended            bool
	Result           string
	// Body is the mail's main text: a report, an echo, errors, a message.
	Body string
	// Situation is the position in text (forces, objectives, text map),
	// for the templates that show it.
	Situation string
	// TextMap is the text map alone, for the map mail.
	TextMap string
	// Waiting lists the sides whose orders the round still waits for.
	Waiting []string
	// Briefing is the side's briefing (engine.Briefing), in the welcome.
	Briefing string
	// Due lists the sides whose orders the round is played with: both
	// for simultaneous rounds, the side to play for alternating turns.
	Due []string
}

// letter is a mail to queue.
type letter struct {
	kind string
	game *Game  // nil for a mail about no game
	side string // the player's side: sets X-Fieldpost-Side and the Reply-To token
	// reported is the round a report reports, for X-Fieldpost-Round; 0
	// for every other mail, whose field names the round at hand.
	reported int
	to       string
	subject  string
	text     string
	// form is the order form, written after the text between formMarker
	// and its END line.
	form string
	// inline holds the map; a mail with it gets an HTML part showing the
	// map above the text.
	inline      []mail.Part
	attachments []mail.Part
	// textMap is the text map the text holds, left out of the HTML part,
	// whose picture shows the map: a division's takes 12 KB (issue 25).
	textMap string
	// calendar: the mail carries the side's deadline as a calendar event.
	calendar bool
	// replyTo, when set, is the Reply-To instead of the judge's address or
	// the player's secret one (an address change's confirmation).
	replyTo string
}

// mapInPicture stands in the HTML part for the text map left out.
const mapInPicture = "(The map is the picture above; the plain-text version of this mail has it in letters.)\n"

// sharedTemplates are the kinds written by another kind's template: a
// club's own templates folder need not have them.
var sharedTemplates = map[string]string{kindSeat: kindGM, kindTalk: kindGM, kindAbsence: kindGM, kindConfirm: kindGM}

// render executes a text template.
func (s *Service) render(name string, d *mailData) (string, error) {
	d.Judge = s.opts.Address
	if shared, ok := sharedTemplates[name]; ok {
		name = shared
	}
	var b bytes.Buffer
	if err := s.text.ExecuteTemplate(&b, name+".txt.tmpl", d); err != nil {
		return "", fmt.Errorf("mail template %s: %w", name, err)
	}
	return b.String(), nil
}

// htmlWithMap is the HTML part of a mail that shows the map: the text,
// preformatted, under the picture.
func (s *Service) htmlWithMap(subject, text string) (string, error) {
	var b bytes.Buffer
	err := s.html.ExecuteTemplate(&b, "mail.html.tmpl", struct {
		Subject, Text, MapCID string
	}{subject, text, mapContentID})
	if err != nil {
		return "", fmt.Errorf("mail template mail.html: %w", err)
	}
	return b.String(), nil
}

// mapPart draws a map for a side as an inline PNG.
func mapPart(draw func(io.Writer, string, engine.MapFormat) error, side string) (mail.Part, error) {
	var b bytes.Buffer
	if err := draw(&b, side, engine.PNG); err != nil {
		return mail.Part{}, fmt.Errorf("drawing the map: %w", err)
	}
	return mail.Part{ContentType: "image/png", Filename: "map.png", ContentID: mapContentID, Data: b.Bytes()}, nil
}

// positionMap is a position's map as an inline PNG, as a side sees it (""
// for a map of everything, of a position that hides nothing), from the
// cache when a picture of what the side sees was drawn already: every new
// game of a scenario opens on the same position, and drawing the map was
// most of the cost of NEWGAME.
func (s *Service) positionMap(pos engine.Position, side string) (mail.Part, error) {
	key, err := viewMapKey(pos, side)
	if err != nil {
		return mail.Part{}, err
	}
	if part, ok := s.maps.get(key); ok {
		return part, nil
	}
	part, err := mapPart(pos.Map, side)
	if err != nil {
		return mail.Part{}, err
	}
	s.maps.put(key, part)
	return part, nil
}

// viewMapKey names what a map shows: the game system, the side and a hash of
// what the side sees (every side's view for a map of everything).
func viewMapKey(pos engine.Position, side string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%T\x00%s\x00", pos, side)
	sides := []string{side}
	if side == "" {
		sides = nil
		for _, sd := range pos.Sides() {
			sides = append(sides, sd.Name)
		}
	}
	for _, sd := range sides {
		view, err := pos.View(sd)
		if err != nil {
			return "", fmt.Errorf("the view of %s for its map: %w", sd, err)
		}
		h.Write(view)
		h.Write([]byte{0})
	}
	return string(h.Sum(nil)), nil
}

// mapCache keeps the latest maps drawn of positions, by viewMapKey.
type mapCache struct {
	mu    sync.Mutex
	parts map[string]mail.Part
	order []string // oldest first
}

// mapCacheSize bounds the maps kept: a few scenarios' openings (about
// 400 KB each for the largest).
const mapCacheSize = 8

func (c *mapCache) get(key string) (mail.Part, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	part, ok := c.parts[key]
	return part, ok
}

func (c *mapCache) put(key string, part mail.Part) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.parts == nil {
		c.parts = map[string]mail.Part{}
	}
	if _, ok := c.parts[key]; ok {
		return
	}
	if len(c.order) == mapCacheSize {
		delete(c.parts, c.order[0])
		c.order = c.order[1:]
	}
	c.parts[key] = part
	c.order = append(c.order, key)
}

// textMap is the position's map in text, as a side sees it.
func textMap(pos engine.Position, side string) (string, error) {
	var b strings.Builder
	if err := pos.Map(&b, side, engine.ASCII); err != nil {
		return "", fmt.Errorf("writing the text map: %w", err)
	}
	return b.String(), nil
}

// situationPart is the situation.json attachment: the position as the
// side may see it.
func situationPart(pos engine.Position, side string) (mail.Part, error) {
	raw, err := pos.View(side)
	if err != nil {
		return mail.Part{}, fmt.Errorf("encoding situation.json: %w", err)
	}
	return mail.Part{ContentType: "application/json", Filename: protocol.SituationFile, Data: raw}, nil
}

// maxReferences bounds the References of a mail: the game's root and the
// latest few ids are enough to thread it.
const maxReferences = 10

// queue composes a letter and puts it in the outbox, in the transaction.
func (t letters) queue(l *letter) error {
	if t.heard != nil {
		*t.heard = append(*t.heard, l)
	}
	if t.unsent {
		return nil
	}
	if l.to == "" {
		// An open seat: nobody to mail.
		return nil
	}
	s := t.s
	if l.calendar && l.game != nil {
		part, ok, err := s.deadlinePart(l.game, l.side, t.now)
		if err != nil {
			return err
		}
		if ok {
			l.attachments = append(slices.Clone(l.attachments), part)
		}
	}
	text := l.text
	if l.form != "" {
		// The form is kept whole: it is what the player answers with.
		form := "\n\n" + formMarker + "\n" + l.form
		text = capText(strings.TrimRight(text, "\n"), s.opts.Limits.MaxAnswerSize-int64(len(form))) + form
	} else {
		text = capText(text, s.opts.Limits.MaxAnswerSize)
	}
	out := &mail.Outbound{
		From:        mail.Address{Name: s.opts.Name, Email: s.opts.Address},
		To:          []mail.Address{{Email: l.to}},
		Subject:     l.subject,
		MessageID:   mail.NewMessageID(s.domain),
		Date:        t.now,
		Text:        text,
		Inline:      l.inline,
		Attachments: l.attachments,
	}
	if len(l.inline) > 0 {
		htmlText := text
		if l.textMap != "" {
			htmlText = strings.Replace(text, l.textMap, mapInPicture, 1)
		}
		html, err := s.htmlWithMap(l.subject, htmlText)
		if err != nil {
			return err
		}
		out.HTML = html
	}
	replyTo := s.opts.Address
	switch {
	case l.replyTo != "":
		replyTo = l.replyTo
	case l.side != "" && l.game != nil:
		replyTo = s.tokenAddress(deriveSecret(s.opts.ServerKey, l.game, l.side))
	}
	out.Headers = []mail.HeaderField{{Key: "Reply-To", Value: replyTo}, {Key: protocol.HeaderKind, Value: l.kind}}

	// An answer refers to the mail it answers; everything about a game also
	// refers to the game's root, which puts it in the game's thread.
	var refs []string
	if m := t.msg; m != nil && m.MessageID != "" && (strings.EqualFold(l.to, m.From.Email) || strings.EqualFold(l.to, replyAddress(m))) {
		refs = m.ReplyReferences()
		out.InReplyTo = m.MessageID
	}
	if g := l.game; g != nil {
		out.ListID = fmt.Sprintf("<%s.%s>", g.ID, s.domain)
		out.Headers = append(out.Headers,
			mail.HeaderField{Key: protocol.HeaderGame, Value: g.ID},
			mail.HeaderField{Key: protocol.HeaderSystem, Value: cmp.Or(g.System, LegacySystem)},
			mail.HeaderField{Key: protocol.HeaderRound, Value: strconv.Itoa(cmp.Or(l.reported, g.Round()))})
		if l.side != "" {
			out.Headers = append(out.Headers, mail.HeaderField{Key: protocol.HeaderSide, Value: l.side})
		}
		refs = slices.DeleteFunc(refs, func(id string) bool { return id == g.Thread })
		refs = append([]string{g.Thread}, refs...)
		if out.InReplyTo == "" {
			out.InReplyTo = g.Thread
		}
	}
	if len(refs) > maxReferences {
		refs = append(refs[:1], refs[len(refs)-maxReferences+1:]...)
	}
	out.References = refs

	raw, err := mail.Compose(out)
	if err != nil {
		return fmt.Errorf("composing %s mail: %w", l.kind, err)
	}
	o := &outgoing{Kind: l.kind, MessageID: out.MessageID, To: []string{l.to}, Queued: t.now, NextTry: t.now}
	if l.game != nil {
		o.Game, o.Side = l.game.ID, l.side
	}
	return t.enqueue(o, raw)
}

// tokenAddress is the judge's address with a secret: judge+TOKEN@domain.
func (s *Service) tokenAddress(secret string) string {
	return protocol.TokenAddress(s.opts.Address, secret)
}

// wrap breaks the lines of text longer than width at spaces, for the
// templates' running text.
func wrap(width int, text string) string {
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		n := 0
		for j, word := range strings.Fields(line) {
			if j > 0 && n+1+len(word) > width {
				b.WriteByte('\n')
				n = 0
			} else if j > 0 {
				b.WriteByte(' ')
				n++
			}
			b.WriteString(word)
			n += len(word)
		}
	}
	return b.String()
}
