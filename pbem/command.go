package pbem

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"fieldpost/engine/ordertext"
	"fieldpost/pbem/config"
)

// The command words (docs/commands.md), with the spellings understood.
// The empty command is orders.
const (
	cmdOrders      = ""
	cmdCheck       = "CHECK"
	cmdStatus      = "STATUS"
	cmdMap         = "MAP"
	cmdHistory     = "HISTORY"
	cmdResend      = "RESEND"
	cmdHelp        = "HELP"
	cmdSubscribe   = "SUBSCRIBE"
	cmdUnsubscribe = "UNSUBSCRIBE"
	cmdNewGame     = "NEWGAME"
	cmdDeadline    = "DEADLINE"
	cmdExtend      = "EXTEND"
	cmdPause       = "PAUSE"
	cmdResume      = "RESUME"
	cmdForce       = "FORCE"
	cmdRollback    = "ROLLBACK"
	cmdEnd         = "END"
	cmdRemail      = "REMAIL"
	cmdTimezone    = "TIMEZONE"
	// The people side of a game (seats.go, talk.go, absence.go, address.go).
	cmdReplace   = "REPLACE"
	cmdOpen      = "OPEN"
	cmdApprove   = "APPROVE"
	cmdPolicy    = "POLICY"
	cmdBroadcast = "BROADCAST"
	cmdJoin      = "JOIN"
	cmdAddress   = "ADDRESS"
	cmdAbsence   = "ABSENCE"
	cmdMessage   = "MESSAGE"
	cmdTeam      = "TEAM"
)

var commandWords = map[string]string{
	"CHECK": cmdCheck, "VALIDATE": cmdCheck,
	"STATUS": cmdStatus, "SITUATION": cmdStatus,
	"MAP":     cmdMap,
	"HISTORY": cmdHistory,
	"RESEND":  cmdResend,
	"HELP":    cmdHelp, "?": cmdHelp,
	"SUBSCRIBE": cmdSubscribe, "OBSERVE": cmdSubscribe, "WATCH": cmdSubscribe,
	"UNSUBSCRIBE": cmdUnsubscribe, "UNWATCH": cmdUnsubscribe,
	"NEWGAME": cmdNewGame, "NEW-GAME": cmdNewGame, "CREATE": cmdNewGame,
	"DEADLINE": cmdDeadline,
	"EXTEND":   cmdExtend,
	"PAUSE":    cmdPause,
	"RESUME":   cmdResume, "UNPAUSE": cmdResume,
	"FORCE":    cmdForce,
	"ROLLBACK": cmdRollback, "UNDO": cmdRollback,
	"END": cmdEnd, "ENDGAME": cmdEnd,
	"REMAIL":   cmdRemail,
	"TIMEZONE": cmdTimezone, "TZ": cmdTimezone, "ZONE": cmdTimezone,
	"REPLACE": cmdReplace, "OPEN": cmdOpen, "APPROVE": cmdApprove, "POLICY": cmdPolicy,
	"BROADCAST": cmdBroadcast, "JOIN": cmdJoin, "ADDRESS": cmdAddress, "ABSENCE": cmdAbsence, "AWAY": cmdAbsence,
	"MESSAGE": cmdMessage, "MSG": cmdMessage, "TEAM": cmdTeam,
}

// gmCommands may only be given with the GM's secret.
var gmCommands = map[string]bool{
	cmdNewGame: true, cmdDeadline: true, cmdExtend: true, cmdPause: true,
	cmdResume: true, cmdForce: true, cmdRollback: true, cmdEnd: true, cmdRemail: true,
	cmdReplace: true, cmdOpen: true, cmdApprove: true, cmdPolicy: true, cmdBroadcast: true,
}

// request is what a mail asks for, read from the sender's own text (quotes
// and signature removed).
type request struct {
	// Command is the command word, or cmdOrders.
	Command string
	// Args are the words after the command word on its line.
	Args []string
	// Line is the index of the command's line in Text, -1 for orders.
	Line int
	// Params are the words of the lines after a NEWGAME line, up to END.
	Params []string
	Header header
	// Text is the sender's own text, from which orders are read.
	Text string
	// Empty: the mail has no text of the sender's at all.
	Empty bool
	// SubjectCommand is a command the subject asks for over a body of
	// orders: the orders are read, and the answer says the command was not
	// done.
	SubjectCommand string
	// Attachment names the attached file the text was read from, when the
	// mail itself held none.
	Attachment string
	// FromQuotedForm: the orders were read from the order form in the
	// judge's mail quoted back, which the player edited there.
	FromQuotedForm bool
	// Inline: the orders were read from the order form quoted back, with
	// the lines the player wrote between its quoted lines (see inlineForm).
	Inline bool
}

// header is what the GAME, SIDE, SEAT, ROUND and PASSWORD lines say, the
// header of every family's orders (engine/ordertext), which also carries
// the game, side and password of a command. It is read leniently: a value
// that is no number is left out for the family's reader to refuse.
type header struct {
	Game, Side string
	Seat       int // a team seat's number (SEAT 2); 0 when absent
	Round      int // 0 when absent or not a number
	Passwords  []string
}

// readRequest reads a mail's own text (see mail.StripQuoted). The first
// line that is not a header line decides: a command word makes the mail
// that command, anything else makes it orders. A text without such a line
// falls back to a command word opening the subject ("Re:" and "[tag]"
// prefixes aside).
func readRequest(text, subject string) *request {
	r := &request{Text: text, Line: -1}
	decided := false
	inParams := false
	for i, raw := range strings.Split(text, "\n") {
		words := lineWords(raw)
		if len(words) == 0 {
			continue
		}
		if ordertext.IsHeader(words) {
			r.Header.read(words)
			continue
		}
		if inParams {
			if strings.EqualFold(words[0], "END") && len(words) == 1 {
				inParams = false
				continue
			}
			r.Params = append(r.Params, words...)
			continue
		}
		if decided {
			continue
		}
		decided = true
		if cmd, ok := commandAt(words); ok {
			r.Command, r.Args, r.Line = cmd, words[1:], i
			inParams = cmd == cmdNewGame
		}
	}
	if !decided {
		if words := lineWords(subjectText(subject)); len(words) > 0 {
			if cmd, ok := commandAt(words); ok {
				r.Command, r.Args = cmd, words[1:]
				return r
			}
		}
		r.Empty = r.Header.empty()
		return r
	}
	if cmd := subjectCommand(subject); r.Command == cmdOrders && cmd != "" {
		if cmd == cmdCheck {
			r.Command = cmdCheck // "CHECK" over orders: check them only
		} else {
			r.SubjectCommand = cmd
		}
	}
	return r
}

// readGMCommands reads a mail whose first command is the game master's as
// every GM command it gives, in their order: each line that opens one
// starts a new request (NEWGAME's settings run up to END or up to the next
// such line, a "deadline" setting aside), with the header lines above the
// first command (PASSWORD, GAME) and those of its own block. The requests
// keep the lines' numbers of text, so that an answer names its line.
func readGMCommands(text, subject string) []*request {
	lines := strings.Split(text, "\n")
	var starts []int
	inParams := false
	for i, raw := range lines {
		words := lineWords(raw)
		if len(words) == 0 || ordertext.IsHeader(words) {
			continue
		}
		if inParams && strings.EqualFold(words[0], "END") && len(words) == 1 {
			inParams = false
			continue
		}
		cmd, ok := commandAt(words)
		if !ok || !gmCommands[cmd] && cmd != cmdTimezone || inParams && cmd == cmdDeadline {
			continue
		}
		starts = append(starts, i)
		inParams = cmd == cmdNewGame
	}
	if len(starts) < 2 {
		return []*request{readRequest(text, subject)}
	}
	var reqs []*request
	for k, start := range starts {
		end := len(lines)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		block := make([]string, len(lines))
		for i, raw := range lines {
			if i >= start && i < end || i < starts[0] && ordertext.IsHeader(lineWords(raw)) {
				block[i] = raw
			}
		}
		reqs = append(reqs, readRequest(strings.Join(block, "\n"), ""))
	}
	return reqs
}

// subjectCommand returns the command a subject gives over a body, "" when
// none: the subject of a new mail (not a reply) that is a command word
// alone or with a few arguments ("status?", "CHECK", "map tut-1"). The
// subjects of the judge's own mails, replied to, say no command.
func subjectCommand(subject string) string {
	if subjectPrefix.MatchString(subject) {
		return ""
	}
	words := lineWords(subject)
	if len(words) == 0 || len(words) > 3 {
		return ""
	}
	cmd, ok := commandAt(words)
	if !ok || gmCommands[cmd] {
		return ""
	}
	return cmd
}

// commandAt reports whether a line's words are a command. END alone is the
// order language's end of orders, so the END command needs its game id.
func commandAt(words []string) (string, bool) {
	word := strings.ToUpper(words[0])
	if trimmed := strings.TrimRight(word, "?!."); trimmed != "" {
		word = trimmed // "status?"
	}
	cmd, ok := commandWords[word]
	if !ok || cmd == cmdEnd && len(words) < 2 {
		return "", false
	}
	return cmd, true
}

func (h *header) read(words []string) {
	for i := 0; i+1 < len(words); i += 2 {
		val := words[i+1]
		switch ordertext.HeaderKeyword(words[i]) {
		case "":
			return
		case "GAME":
			if h.Game == "" {
				h.Game = strings.ToLower(val)
			}
		case "SIDE":
			if h.Side == "" {
				h.Side = val
			}
		case "SEAT":
			if n, err := strconv.Atoi(val); err == nil && n > 0 && h.Seat == 0 {
				h.Seat = n
			}
		case "ROUND":
			if n, err := strconv.Atoi(val); err == nil && n > 0 && h.Round == 0 {
				h.Round = n
			}
		case "PASSWORD":
			h.Passwords = append(h.Passwords, val)
		}
	}
}

func (h *header) empty() bool {
	return h.Game == "" && h.Side == "" && h.Round == 0 && len(h.Passwords) == 0
}

// commandSeparators are read as spaces between a command's words.
var commandSeparators = strings.NewReplacer(",", " ", ";", " ", "\t", " ")

// lineWords splits a line as the order language does: comments (#) are
// dropped; spaces, commas and semicolons separate words; a colon ending a
// word is dropped.
func lineWords(line string) []string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	line = commandSeparators.Replace(line)
	var out []string
	for _, f := range strings.Fields(line) {
		if f = strings.TrimSuffix(f, ":"); f != "" {
			out = append(out, f)
		}
	}
	return out
}

var subjectPrefix = regexp.MustCompile(`(?i)^\s*((re|aw|sv|fwd?|wg|tr)\s*:|\[[^\]]*\])\s*`)

// subjectText is a subject without reply prefixes and [tags].
func subjectText(subject string) string {
	for {
		loc := subjectPrefix.FindStringIndex(subject)
		if loc == nil {
			return strings.TrimSpace(subject)
		}
		subject = subject[loc[1]:]
	}
}

// keyValues reads "key=value" words, also written "key = value", "key:
// value" or "key value", into pairs in the order given; keys are lower
// case.
func keyValues(words []string) ([][2]string, error) {
	var pairs [][2]string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "=" {
			continue
		}
		key, val, hasEq := strings.Cut(w, "=")
		if !hasEq || val == "" {
			j := i + 1
			if j < len(words) && words[j] == "=" {
				j++
			}
			if j >= len(words) {
				return nil, fmt.Errorf("%q has no value", key)
			}
			val, i = words[j], j
		}
		pairs = append(pairs, [2]string{strings.ToLower(key), val})
	}
	return pairs, nil
}

// The formats a deadline may be given in; without a zone they are UTC.
var timeFormats = []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02T15:04", "2006-01-02 15:04"}

// parseDeadline reads the arguments of DEADLINE: a duration from now, a
// date and time, or NONE for no deadline (zero time).
func parseDeadline(args []string, now time.Time) (time.Time, error) {
	if len(args) == 0 {
		return time.Time{}, errors.New("DEADLINE needs a duration (48h, 2d) or a time (2026-03-01 18:00 UTC)")
	}
	if len(args) == 1 && strings.EqualFold(args[0], "none") {
		return time.Time{}, nil
	}
	if len(args) == 1 {
		if d, err := config.ParseDuration(args[0]); err == nil {
			if d <= 0 {
				return time.Time{}, errors.New("the duration must be positive")
			}
			return now.Add(d), nil
		}
	}
	text := strings.TrimSuffix(strings.Join(args, " "), " UTC")
	for _, layout := range timeFormats {
		if t, err := time.Parse(layout, text); err == nil {
			if !t.After(now) {
				return time.Time{}, fmt.Errorf("%s is already past", formatTime(t))
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is neither a duration (48h, 2d) nor a time (2026-03-01 18:00, UTC)", strings.Join(args, " "))
}

// formatTime writes a time for players, in UTC so that everyone reads the
// same.
func formatTime(t time.Time) string {
	return t.UTC().Format("Mon 2 Jan 2006 15:04 MST")
}

// formatDuration writes a duration in days, hours and minutes.
func formatDuration(d time.Duration) string {
	d = d.Round(time.Minute)
	days, rest := d/(24*time.Hour), d%(24*time.Hour)
	hours, minutes := rest/time.Hour, (rest%time.Hour)/time.Minute
	var parts []string
	if days > 0 {
		parts = append(parts, plural(int(days), "day"))
	}
	if hours > 0 {
		parts = append(parts, plural(int(hours), "hour"))
	}
	if minutes > 0 || len(parts) == 0 {
		parts = append(parts, plural(int(minutes), "minute"))
	}
	return strings.Join(parts, " ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

var gameIDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// validGameID: a game id goes into subjects, List-Id fields and order
// forms, so it is kept to lower-case letters, digits and hyphens.
func validGameID(id string) bool {
	return gameIDPattern.MatchString(id)
}
