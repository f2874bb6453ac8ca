package pbem

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"fieldpost/pbem/store"
)

// Limit is at most N mails of a kind to one address (or player) in a
// window of Per, against forged mail that would make the judge mail a
// stranger, or a player, again and again. The mails held back are counted,
// logged, summed up in the next mail allowed, and in the log once a day.
// The configuration file's config.Limit, of the same fields, converts to it.
type Limit struct {
	N   int
	Per time.Duration
}

func (l Limit) String() string { return fmt.Sprintf("%d per %s", l.N, formatDuration(l.Per)) }

// The limited mails: answers to addresses that are no player's, observer's
// or the GM's (help and errors), and notices that a mail in a player's (or
// the GM's) name was refused.
const (
	limitStranger = "stranger"
	limitRefusal  = "refusal"
)

// limitState is a limited address's window, as the store keeps it.
type limitState struct {
	WindowStart time.Time `json:"window_start"`
	Sent        int       `json:"sent"`
	// Held counts the mails held back since the last one sent, the first
	// of them at HeldSince.
	Held      int       `json:"held,omitempty"`
	HeldSince time.Time `json:"held_since,omitzero"`
}

func limitKey(kind, who string) store.LimitKey {
	return store.LimitKey{Kind: kind, Who: strings.ToLower(who)}
}

// rateLimits are a transaction's rate limits: each limited kind of mail
// counted in its window, at the transaction's time.
type rateLimits struct {
	storeTx
	now time.Time
	log *slog.Logger
}

func (t *txn) limits() rateLimits { return rateLimits{t.storeTx, t.now, t.log} }

// allow counts a mail of a limited kind to who, and says whether it may be
// sent. When it may and mails were held back before, note sums them up for
// the mail; when it may not, the hold is logged.
func (t rateLimits) allow(kind, who string, limit Limit) (ok bool, note string, err error) {
	key := limitKey(kind, who)
	var st limitState
	if _, err := t.tx.Limit(key, &st); err != nil {
		return false, "", err
	}
	if t.now.Sub(st.WindowStart) >= limit.Per {
		st.WindowStart, st.Sent = t.now, 0
	}
	if st.Sent >= limit.N {
		if st.Held == 0 {
			st.HeldSince = t.now
		}
		st.Held++
		t.log.Warn("mail held back by a limit", "limit", kind, "to", who, "held", st.Held, "allowed", limit.String())
		return false, "", t.tx.PutLimit(key, &st)
	}
	st.Sent++
	if st.Held > 0 {
		verb := "were"
		if st.Held == 1 {
			verb = "was"
		}
		note = fmt.Sprintf("(%s like this one since %s %s not answered: the judge sends at most %s of these here, against forged mail.)",
			plural(st.Held, "more mail"), formatTime(st.HeldSince), verb, limit)
		st.Held, st.HeldSince = 0, time.Time{}
	}
	return true, note, t.tx.PutLimit(key, &st)
}

// pruneLimits forgets the windows that ended before now, and returns how
// many mails they held back that no later mail summed up, for the log.
func (t storeTx) pruneLimits(now time.Time, limits map[string]Limit) (held, addresses int, err error) {
	var old []store.LimitKey
	for k, v := range t.tx.Limits() {
		var st limitState
		if err := v.Decode(&st); err != nil {
			return 0, 0, fmt.Errorf("decoding limit %s of %s: %w", k.Kind, k.Who, err)
		}
		if now.Sub(st.WindowStart) >= limits[k.Kind].Per {
			old = append(old, k)
			if st.Held > 0 {
				held += st.Held
				addresses++
			}
		}
	}
	for _, k := range old {
		if err := t.tx.DeleteLimit(k); err != nil {
			return 0, 0, err
		}
	}
	return held, addresses, nil
}

// knownAddress reports whether addr is the GM's (gm) or belongs to a
// player or observer of a game: such an address is always answered. A game record
// is decoded only when its stored text holds the address: with thousands
// of games, decoding them all for each stranger's mail cost a tenth of a
// second.
func (t storeTx) knownAddress(addr, gm string) (bool, error) {
	if strings.EqualFold(addr, gm) {
		return true, nil
	}
	needle := []byte(strings.ToLower(addr))
	// JSON writes an address as it is unless it has characters it escapes
	// (&, <, >, quotes, controls) or letters whose case folding is not
	// ASCII's: those are looked for in every game decoded.
	searchText := !strings.ContainsFunc(addr, func(r rune) bool {
		return r >= utf8.RuneSelf || r < ' ' || strings.ContainsRune(`&<>"\`, r)
	})
	for id, v := range t.tx.Games() {
		if searchText && !bytes.Contains(bytes.ToLower(v), needle) {
			continue
		}
		var g Game
		if err := v.Decode(&g); err != nil {
			return false, fmt.Errorf("decoding game %s: %w", id, err)
		}
		for _, p := range g.Players {
			if strings.EqualFold(p.Address, addr) {
				return true, nil
			}
		}
		for _, o := range g.Observers {
			if strings.EqualFold(o, addr) {
				return true, nil
			}
		}
	}
	return false, nil
}
