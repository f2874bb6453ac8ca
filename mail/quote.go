package mail

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// StripQuoted returns the part of a reply's text that its sender wrote.
// Orders are then read only from what the player wrote, not from the
// judge's report quoted back.
//
// It drops quoted lines (starting with ">") and the attribution that
// introduces them, and it cuts the text where a quoted mail without ">"
// begins, which mail clients mark in many ways and languages:
//   - an attribution followed by unmarked text ("On Tue, 11 Mar 2025, Judge
//     wrote:", "Am ... schrieb ...:", "... napisał:", also wrapped over up to
//     three lines or without its colon);
//   - a header block ("From:/Sent:/To:/Subject:", "De :/Envoyé :/À :",
//     "Von:/Gesendet:", "Date:/To:/Subject:", bold "*From:*", ...), with
//     the rule of underscores or dashes above it;
//   - a separator ("-----Original Message-----", "---------- Forwarded
//     message ---------", "-------- Oprindelig besked --------", ...);
//   - a signature: "-- ", or a phone's or app's line ("Sent from my iPhone",
//     "Get Outlook for iOS", "Von meinem iPhone gesendet", ...), which
//     mail programs put at the end of what was typed.
func StripQuoted(text string) string {
	// A lone CR breaks a line too, as normalizeText reads it: else a quote
	// after one would pass as part of the line before.
	lines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(text), "\n")
	end := quotedMailStart(lines)
	var kept []string
	wrote := false // the sender wrote something above line i
	for i := 0; i < end; i++ {
		trimmed := strings.TrimSpace(lines[i])
		if isQuoted(trimmed) || isWrappedQuoteTail(lines, i) {
			continue
		}
		if n := attributionAt(lines, i); n > 0 && (nextNonBlankIsQuoted(lines, i+n-1) || !wrote) {
			// The attribution of an interleaved quote, or one above all the
			// sender wrote: the head of what they answer below it.
			i += n - 1
			wrote = true
			continue
		}
		kept = append(kept, lines[i])
		wrote = wrote || trimmed != ""
	}
	return normalizeText(strings.Join(kept, "\n"))
}

// quotedMailStart returns the index of the line where the quoted mail or
// the signature begins, len(lines) when there is none.
func quotedMailStart(lines []string) int {
	wrote := false // the sender wrote something above line i
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			continue
		case isQuoted(trimmed):
			continue
		case trimmed == "--" || strings.TrimRight(line, " ") == "--", isFooterRule(trimmed),
			separatorPattern.MatchString(trimmed), isDeviceSignature(trimmed):
			return i
		case headerBlockAt(lines, i):
			return ruleAbove(lines, i)
		}
		// An attribution above all the sender wrote is not the start of the
		// quoted mail but the head of what they answer below it; below what
		// they wrote, it starts the quoted mail when no line of theirs comes
		// after it (an interleaved answer goes on below the quote).
		if n := attributionAt(lines, i); n > 0 && wrote && (!nextNonBlankIsQuoted(lines, i+n-1) || quotedToTheEnd(lines, i+n)) {
			return i
		}
		wrote = true
	}
	return len(lines)
}

// quotedToTheEnd reports whether every line from i on is quoted, blank,
// or the tail of a quoted line that a mail program wrapped without
// repeating the ">": an unquoted line right under a quoted line (or under
// another tail of one) that its first word would have taken to the 72nd
// character (the narrowest width mail programs wrap at, some wrapping a
// line that reaches it), or a table row's
// tail (both lines set out in columns of blanks, the one above 60
// characters or more: the blanks before the tail went with the wrap).
// That is the quoted mail at the bottom of a reply, wrapped after it was
// quoted; a line the player wrote there is seldom so placed.
func quotedToTheEnd(lines []string, i int) bool {
	prevTail := false
	for ; i < len(lines); i++ {
		trimmed := strings.TrimSpace(lines[i])
		if trimmed == "" || isQuoted(trimmed) {
			prevTail = false
			continue
		}
		prev := strings.TrimRight(lines[i-1], " \t")
		first, _, _ := strings.Cut(trimmed, " ")
		long := utf8.RuneCountInString(prev)+1+utf8.RuneCountInString(first) >= 72 ||
			utf8.RuneCountInString(prev) >= 60 && strings.Contains(prev, "   ") && strings.Contains(trimmed, "   ")
		if !(isQuoted(strings.TrimSpace(prev)) || prevTail) || !long {
			return false
		}
		prevTail = true
	}
	return true
}

// isWrappedQuoteTail reports whether line i is the tail of a long quoted
// line that a mail program wrapped without repeating the ">": it follows
// such a line, is followed by a quoted line, and goes on in lower case.
func isWrappedQuoteTail(lines []string, i int) bool {
	if i == 0 || i+1 >= len(lines) {
		return false
	}
	prev, next := strings.TrimSpace(lines[i-1]), strings.TrimSpace(lines[i+1])
	first, _ := utf8.DecodeRuneInString(strings.TrimSpace(lines[i]))
	return strings.HasPrefix(prev, ">") && utf8.RuneCountInString(prev) >= 60 && strings.HasPrefix(next, ">") && unicode.IsLower(first)
}

// separatorPattern matches the line some clients put above a quoted or
// forwarded mail, in the languages players are likely to use.
var separatorPattern = regexp.MustCompile(`(?i)^[-_=*\s]{2,}\s*(original message|forwarded message|reply message|ursprüngliche nachricht|weitergeleitete nachricht|message d'origine|message transféré|messaggio originale|messaggio inoltrato|mensaje original|mensaje reenviado|mensagem original|mensagem encaminhada|oorspronkelijk bericht|doorgestuurd bericht|oprindelig besked|videresendt besked|opprinnelig melding|originalmeddelande|vidarebefordrat meddelande|alkuperäinen viesti|välitetty viesti|wiadomość oryginalna|oryginalna wiadomość|przekazana wiadomość|исходное сообщение|пересылаемое сообщение|původní zpráva|přeposlaná zpráva|eredeti üzenet|özgün ileti|orijinal mesaj|αρχικό μήνυμα|元のメッセージ|原始邮件|原始郵件)\s*[-_=*\s]*$`)

// ruleAbove returns the index of the rule line ("____", "-----", "====",
// Outlook's and others' line above a header block) just above line i,
// blank lines aside, or i when there is none.
func ruleAbove(lines []string, i int) int {
	for j := i - 1; j >= 0; j-- {
		trimmed := strings.TrimSpace(lines[j])
		if trimmed == "" {
			continue
		}
		if isRule(trimmed) {
			return j
		}
		break
	}
	return i
}

// isFooterRule reports whether s is a rule that only mail programs write:
// underscores (Outlook's line above a quoted mail, a mailing list's
// footer) or em dashes (a signature's); a rule of hyphens may be the
// sender's own.
func isFooterRule(s string) bool {
	return len(s) >= 2 && strings.Trim(s, "_") == "" || utf8.RuneCountInString(s) >= 3 && strings.Trim(s, "—–") == ""
}

func isRule(s string) bool {
	return len(s) >= 2 && strings.Trim(s, "-_=*─—– ") == ""
}

// headerKeys are the names of the header fields clients write above a
// quoted mail, lower case, in many languages. "from" and "date" are the
// ones a block starts with.
var headerKeys = map[string]string{
	"from": "from", "von": "from", "de": "from", "da": "from", "van": "from", "från": "from", "fra": "from",
	"от": "from", "od": "from", "lähettäjä": "from", "feladó": "from", "message du": "date", "absender": "from",
	"sent": "date", "date": "date", "gesendet": "date", "datum": "date", "envoyé": "date", "envoyé le": "date",
	"inviato": "date", "data": "date", "verzonden": "date", "skickat": "date", "sendt": "date", "dato": "date",
	"отправлено": "date", "дата": "date", "wysłano": "date", "enviado": "date", "enviada": "date", "fecha": "date",
	"lähetetty": "date", "elküldve": "date", "päivämäärä": "date",
	"to": "to", "an": "to", "à": "to", "a": "to", "aan": "to", "till": "to", "til": "to", "кому": "to",
	"do": "to", "para": "to", "vastaanottaja": "to", "címzett": "to", "risposta": "to",
	"cc": "cc", "kopie": "cc", "copie à": "cc", "kopia": "cc", "копия": "cc",
	"subject": "subject", "betreff": "subject", "objet": "subject", "oggetto": "subject", "onderwerp": "subject",
	"ämne": "subject", "emne": "subject", "тема": "subject", "temat": "subject", "assunto": "subject",
	"asunto": "subject", "aihe": "subject", "tárgy": "subject", "reply-to": "to",
	// Czech, Turkish, Greek, Japanese, Chinese, Korean.
	"odesláno": "date", "komu": "to", "předmět": "subject",
	"kimden": "from", "gönderildi": "date", "tarih": "date", "kime": "to", "konu": "subject",
	"από": "from", "στάλθηκε": "date", "προς": "to", "θέμα": "subject",
	"差出人": "from", "送信日時": "date", "宛先": "to", "件名": "subject",
	"发件人": "from", "发送时间": "date", "收件人": "to", "主题": "subject", "寄件者": "from", "收件者": "to", "主旨": "subject",
	"보낸 사람": "from", "보낸 날짜": "date", "받는 사람": "to", "제목": "subject",
}

// headerKey returns the kind of header field line s is ("from", "date",
// "to", "cc", "subject"), or "".
func headerKey(s string) string {
	s = strings.TrimLeft(s, "* ")
	colon := strings.IndexAny(s, ":：")
	if colon <= 0 || colon > 20 {
		return ""
	}
	key := strings.ToLower(strings.Trim(s[:colon], "* \t"))
	return headerKeys[strings.Join(strings.Fields(key), " ")]
}

// headerBlockAt reports whether a header block of a quoted mail starts at
// line i: a From or Date field, then at least one more field of another
// kind within the next few lines (a long value may wrap onto a line of its
// own).
func headerBlockAt(lines []string, i int) bool {
	first := headerKey(lines[i])
	if first != "from" && first != "date" {
		return false
	}
	kinds := map[string]bool{first: true}
	others := 0
	for _, line := range lines[i+1 : min(len(lines), i+8)] {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		kind := headerKey(trimmed)
		if kind == "" {
			if others++; others > 1 {
				break
			}
			continue
		}
		others = 0
		kinds[kind] = true
		if len(kinds) >= 2 && (kinds["to"] || kinds["subject"] || kinds["date"] && kinds["from"]) {
			return true
		}
	}
	return false
}

// attributionVerb ends (or, with a date after it, ends the first part of)
// the line introducing a quote: "... wrote:", "... schrieb:", "... a écrit
// :", ...
var attributionVerb = regexp.MustCompile(`(?i)(^|[\s>")])(` + strings.Join(attributionVerbs, "|") + `)(\s|:|$)`)

// attributionVerbs are the verbs of attributionVerb, as regular
// expressions; attributionVerbEnds the same as plain lower-case text.
var (
	attributionVerbs = []string{"wrote", "writes", "schrieb", "a écrit", "ha scritto", "escribió", "escreveu", "napisał",
		"napisała", `napisał\(a\)`, "kirjoitti", "skrev", "schreef", "írta", "пишет", "написал", "написала", "написав",
		"napsal", "napsala", `napsal\(a\)`, "va escriure", "寫道", "写道", "geschreven", "a scris", "yazdı", "έγραψε",
		"kirjutas", "rašė"}
	attributionVerbEnds = func() []string {
		var out []string
		for _, v := range attributionVerbs {
			out = append(out, strings.ToLower(strings.ReplaceAll(v, `\`, "")))
		}
		return out
	}()
)

// endsWithVerb reports whether s ends with one of the attribution verbs,
// in any case: a cheap test that spares the regular expression every line
// that cannot end with one (an order line names hexes, hence digits).
func endsWithVerb(s string) bool {
	lower := strings.ToLower(s)
	for _, v := range attributionVerbEnds {
		if strings.HasSuffix(lower, v) {
			return true
		}
	}
	return false
}

// attributionAt returns how many lines (1 to 3) the attribution starting
// at line i takes, or 0 when none starts there. An attribution names a
// date or an address and ends with a colon or with its verb ("wrote");
// one that names both a date and an address needs no verb ("30.09.2017,
// 18.30, "John" <john@example.com>:"). A wrapped one must start a
// paragraph.
func attributionAt(lines []string, i int) int {
	joined := ""
	for k := 0; k < 3 && i+k < len(lines); k++ {
		trimmed := strings.TrimSpace(lines[i+k])
		if trimmed == "" || isQuoted(trimmed) && (k == 0 || trimmed != ">:") {
			return 0
		}
		if k > 0 && !wrappedAttributionStart(lines, i, trimmed) {
			return 0
		}
		joined = strings.TrimSpace(joined + " " + trimmed)
		if isAttribution(joined) {
			return k + 1
		}
	}
	return 0
}

// attributionStart matches the first words of the usual attributions,
// which start a wrapped one afresh.
var attributionStart = regexp.MustCompile(`^(On|Le|Am|El|Em|Il|In data|Op|Den|På|W dniu|Dnia|Dne|Po) `)

// wrappedAttributionStart reports whether the attribution that starts at
// line i may go on with line next: line i starts like an attribution (or
// with a date), or it starts a paragraph and names a date or an address;
// and next does not start an attribution of its own.
func wrappedAttributionStart(lines []string, i int, next string) bool {
	first := strings.TrimSpace(lines[i])
	if attributionStart.MatchString(next) {
		return false
	}
	if attributionStart.MatchString(first) || unicode.IsDigit([]rune(first)[0]) {
		return true
	}
	paragraphStart := i == 0 || strings.TrimSpace(lines[i-1]) == "" || isRule(strings.TrimSpace(lines[i-1]))
	return paragraphStart && (strings.ContainsFunc(first, unicode.IsDigit) || strings.ContainsAny(first, "@<"))
}

func isAttribution(s string) bool {
	s = strings.Trim(strings.ReplaceAll(s, "\u00a0", " "), "-* ")
	if len(s) > 300 || !strings.ContainsFunc(s, unicode.IsDigit) && !strings.Contains(s, "@") {
		return false
	}
	hasColon := strings.HasSuffix(s, ":") || strings.HasSuffix(s, "：")
	body := strings.TrimRight(s, ":： ")
	first, _ := utf8.DecodeRuneInString(s)
	if !hasColon && !endsWithVerb(body) && !(unicode.IsDigit(first) && strings.HasSuffix(s, ">")) {
		// Without a colon only a verb at the end, or a date first and an
		// address last, make an attribution.
		return false
	}
	if verb := attributionVerb.FindStringIndex(body); verb != nil {
		// The verb ends the line, or the line goes on with a colon ("schrieb
		// am Fr., 28. Okt. 2016 um 18:23 Uhr:").
		return verb[1] >= len(body) || hasColon
	}
	if !strings.Contains(s, "@") || !strings.ContainsFunc(s, unicode.IsDigit) || strings.ContainsAny(body, "!?") {
		return false
	}
	// A date, a name and an address: with a colon, or starting with the
	// date and ending with the address ("2013/7/20 sam <info@example.org>").
	return hasColon || unicode.IsDigit(first) && strings.HasSuffix(s, ">")
}

// deviceSignature matches the line a phone or a mail app adds at the end of
// what was typed, once links are removed.
var deviceSignature = regexp.MustCompile(`(?i)^[(<\s]*(` +
	`sent (from|with|via|by|using) (my |a |an )?[^,.!?:]{1,50}([.,]\s*(please|excuse|pardon|sorry|apologies).*)?` +
	`|get outlook for \w+` +
	`|envoyé (depuis|de|à partir de|avec) [^,.!?]{1,50}` +
	`|von meinem [^,.!?]{1,40} gesendet` +
	`|gesendet (von|mit|vom) [^,.!?]{1,50}` +
	`|diese nachricht wurde von [^,!?]{1,80} gesendet` +
	`|sendt fra [^,.!?]{1,40}` +
	`|skickat från [^,.!?]{1,40}` +
	`|enviado (desde|do|de|con) [^,.!?]{1,40}` +
	`|inviato da [^,.!?]{1,40}` +
	`|verzonden (met|vanaf|van) [^,.!?]{1,40}` +
	`|отправлено (с|из) [^,.!?]{1,40}` +
	`|wysłane z [^,.!?]{1,40}` +
	`|lähetetty [^,.!?]{1,40}` +
	`|verstuurd (met|vanaf|van) [^,.!?]{1,40}` +
	`|odesláno z [^,.!?]{1,40}` +
	`|надіслано з [^,.!?]{1,40}` +
	`|εστάλη από [^,.!?]{1,40}` +
	`|\S+ gönderildi` +
	`|\S+ küldve` +
	`|從我的 ?.{1,20}傳送` +
	`|发自我的 ?.{1,20}` +
	`|.{1,20}から送信` +
	`)[.)>\s]*$`)

// deviceSignatureWords holds a word of each of deviceSignature's
// alternatives: a line without any is no device signature, which spares
// the regular expressions on every line of orders.
var deviceSignatureWords = []string{"sent ", "outlook", "envoyé", "gesendet", "sendt fra", "skickat", "enviado",
	"inviato", "verzonden", "отправлено", "wysłane", "lähetetty", "verstuurd", "odesláno", "надіслано",
	"εστάλη", "gönderildi", "küldve", "傳送", "发自", "から送信"}

func hasDeviceSignatureWord(s string) bool {
	lower := strings.ToLower(s)
	for _, w := range deviceSignatureWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

var linkPattern = regexp.MustCompile(`<[^<>]*>|\]\([^()]*\)|https?://\S+|[\[\]]`)

func isDeviceSignature(s string) bool {
	if len(s) > 120 || !hasDeviceSignatureWord(s) {
		return false
	}
	return deviceSignature.MatchString(strings.TrimSpace(linkPattern.ReplaceAllString(s, " ")))
}

// nextNonBlankIsQuoted reports whether the first non-blank line after
// lines[i] is quoted.
func nextNonBlankIsQuoted(lines []string, i int) bool {
	for _, line := range lines[i+1:] {
		if trimmed := strings.TrimSpace(line); trimmed != "" {
			return isQuoted(trimmed)
		}
	}
	return false
}

// isQuoted reports whether a (trimmed) line is quoted: it starts with ">"
// or with "|" (an older way of quoting).
func isQuoted(line string) bool {
	return strings.HasPrefix(line, ">") || strings.HasPrefix(line, "|")
}
