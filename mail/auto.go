package mail

import (
	"mime"
	"regexp"
	"strings"
)

// autoReplySubject matches the subjects auto-responders put on their
// answers, in the languages players are likely to use, for those that set
// none of the standard header fields.
var autoReplySubject = regexp.MustCompile(`(?i)^\s*(` +
	`out of (the )?office|automatic reply|auto(matic)?[- ]?(reply|response|answer)|autoreply|vacation (reply|response|message)` +
	`|abwesenheitsnotiz|automatische antwort|réponse automatique|absence du bureau|message d'absence` +
	`|risposta automatica|fuori sede|fuori ufficio|respuesta automática|fuera de la oficina|automatisch antwoord` +
	`|autosvar|automaattinen vastaus|odpowiedź automatyczna|poza biurem|автоматический ответ|автоответ|automatická odpověď)`)

// DetectAutomatic reports whether msg was sent by a machine rather than a
// player — an auto-reply, a bounce or a mail loop — and why. Such mail must
// be logged and never answered, or two robots would answer each other
// forever.
//
// ownAddresses are the addresses the judge sends from; a mail from one of
// them, or whose X-Loop field names one of them, is our own mail come back.
// Addresses compare case-insensitively and without a "+tag", so
// "judge@club.example" also covers "judge+t0k3n@club.example".
//
// The checks follow RFC 3834 and the conventions of common mail software:
// Auto-Submitted other than "no"; Precedence bulk, junk, list or
// auto_reply; X-Autoreply, X-Autorespond, X-Autoreply-From,
// X-Mail-Autoreply or X-Vacation; a subject such as "Out of Office",
// "Automatic reply: ..." or "Abwesenheitsnotiz" (many languages); an empty Return-Path ("<>",
// the null sender of bounces); From MAILER-DAEMON or postmaster; From one
// of ownAddresses; X-Loop naming one of ownAddresses; and a
// multipart/report body (delivery and disposition notifications).
func DetectAutomatic(msg *Inbound, ownAddresses []string) (reason string, automatic bool) {
	h := msg.Header

	if v := h.Get("Auto-Submitted"); v != "" {
		// The keyword may carry parameters: "auto-replied; owner-email=...".
		keyword, _, _ := strings.Cut(v, ";")
		if keyword = strings.ToLower(strings.TrimSpace(keyword)); keyword != "no" {
			return "Auto-Submitted: " + keyword, true
		}
	}
	switch p := strings.ToLower(strings.TrimSpace(h.Get("Precedence"))); p {
	case "bulk", "junk", "list", "auto_reply":
		return "Precedence: " + p, true
	}
	for _, key := range []string{"X-Autoreply", "X-Autorespond", "X-Autoreply-From", "X-Mail-Autoreply", "X-Vacation"} {
		if _, ok := h[key]; ok {
			return key + " present", true
		}
	}
	for _, v := range h.Values("Return-Path") {
		if strings.ReplaceAll(strings.TrimSpace(v), " ", "") == "<>" {
			return "empty Return-Path (bounce)", true
		}
	}

	from := canonicalEmail(msg.From.Email)
	local, _, _ := strings.Cut(from, "@")
	switch local {
	case "mailer-daemon", "postmaster":
		return "From " + msg.From.Email, true
	}
	own := make([]string, 0, len(ownAddresses))
	for _, a := range ownAddresses {
		if a = canonicalEmail(a); a != "" {
			own = append(own, a)
		}
	}
	for _, a := range own {
		if from == a {
			return "From our own address " + msg.From.Email, true
		}
	}
	for _, v := range h.Values("X-Loop") {
		for _, a := range own {
			if canonicalEmail(parseBareAddress(v)) == a || strings.Contains(strings.ToLower(v), a) {
				return "X-Loop: " + strings.TrimSpace(v), true
			}
		}
	}

	if autoReplySubject.MatchString(msg.Subject) {
		return "subject of an auto-reply: " + msg.Subject, true
	}

	// ParseMediaType returns the media type even when a parameter is
	// malformed, which is all that is needed here.
	if mediaType, _, _ := mime.ParseMediaType(h.Get("Content-Type")); mediaType == "multipart/report" {
		return "multipart/report (delivery or read notification)", true
	}
	return "", false
}
