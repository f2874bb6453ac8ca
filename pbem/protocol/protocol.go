// Package protocol is what the judge's mails tell a player's program
// (docs/mail-format.md): the header fields, the kinds of mail, the order
// form's marker, the situation's attachment and the reply address that
// carries a player's token. The judge (pbem) writes them and a player's
// mail client (pbem/player) reads them, both from this one definition. It
// imports nothing, so that both can.
package protocol

import "strings"

// The header fields of the judge's mails.
const (
	// HeaderKind names the kind of mail (the Kind constants).
	HeaderKind = "X-Fieldpost-Kind"
	// HeaderGame names the game a mail is about.
	HeaderGame = "X-Fieldpost-Game"
	// HeaderSystem names the game's system; a mail without it is
	// LegacySystem's.
	HeaderSystem = "X-Fieldpost-System"
	// HeaderRound names the game's round: the round a report reports, the
	// round to be played in the other mails.
	HeaderRound = "X-Fieldpost-Round"
	// HeaderSide names the side (or team seat) a mail is for.
	HeaderSide = "X-Fieldpost-Side"
)

// The kinds of mail the judge sends, as HeaderKind names them.
const (
	KindWelcome    = "welcome"
	KindReport     = "report"
	KindAccepted   = "accepted"
	KindRejected   = "rejected"
	KindCheck      = "check"
	KindReminder   = "reminder"
	KindDefaulted  = "defaulted"
	KindStatus     = "status"
	KindMap        = "map"
	KindHistory    = "history"
	KindHelp       = "help"
	KindAuthFailed = "auth-failed"
	KindError      = "error"
	KindGM         = "gm"
	KindGameOver   = "game-over"
	// KindTeam is a TEAM message from another seat of the side (docs/team-play.md).
	KindTeam = "team"
	// The people side of a game: a seat changing hands, table talk, an
	// absence, a confirmation asked of an address (docs/commands.md).
	KindSeat    = "seat"
	KindTalk    = "talk"
	KindAbsence = "absence"
	KindConfirm = "confirm"
)

// FormMarker opens the order form at the end of a mail's text; the form's
// END line closes it.
const FormMarker = "--- ORDER FORM ---"

// SituationFile is the name of the attachment that holds the position a
// side sees, for a player's program to plan from.
const SituationFile = "situation.json"

// LegacySystem is the game system of games, state files and mails from
// before the judge hosted several: every one of them was Star General. It
// is the name stored games carry, not a dependency on the system.
const LegacySystem = "stargeneral"

// TokenAddress is the judge's address with a player's token, where the
// player's mails go: judge+TOKEN@domain.
func TokenAddress(judge, token string) string {
	local, domain, _ := strings.Cut(judge, "@")
	return local + "+" + token + "@" + domain
}

// Token returns the token of an address that extends the judge's address
// (judge+TOKEN@domain, the judge's part in any case), and whether it does.
func Token(addr, judge string) (string, bool) {
	local, domain, _ := strings.Cut(judge, "@")
	at := strings.LastIndexByte(addr, '@')
	if at < 0 || !strings.EqualFold(addr[at+1:], domain) {
		return "", false
	}
	base, token, plus := strings.Cut(addr[:at], "+")
	if !plus || !strings.EqualFold(base, local) || token == "" {
		return "", false
	}
	return token, true
}

// WithoutToken is an address without its +TOKEN, lowercased: the judge's
// own address for a token address, fit for comparing and for logs.
func WithoutToken(addr string) string {
	local, domain, _ := strings.Cut(strings.ToLower(addr), "@")
	local, _, _ = strings.Cut(local, "+")
	return local + "@" + domain
}
