package pbem

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
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

// limitState is a limited address's window in the limits bucket.
type limitState struct {
	WindowStart time.Time `json:"window_start"`
	Sent        int       `json:"sent"`
	// Held counts the mails held back since the last one sent, the first
	// of them at HeldSince.
	Held      int       `json:"held,omitempty"`
	HeldSince time.Time `json:"held_since,omitzero"`
}

func limitKey(kind, who string) []byte { return []byte(kind + "\x00" + strings.ToLower(who)) }

// allow counts a mail of a limited kind to who, and says whether it may be
// sent. When it may and mails were held back before, note sums them up for
// the mail; when it may not, the hold is logged.
func (t *txn) allow(kind, who string, limit Limit) (ok bool, note string, err error) {
	b := t.tx.Bucket(bucketLimits)
	key := limitKey(kind, who)
	var st limitState
	if _, err := getJSON(b, key, &st); err != nil {
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
		return false, "", putJSON(b, key, &st)
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
	return true, note, putJSON(b, key, &st)
}

// pruneLimits forgets the windows that ended before now, and returns how
// many mails they held back that no later mail summed up, for the log.
func (t storeTx) pruneLimits(now time.Time, limits map[string]Limit) (held, addresses int, err error) {
	b := t.tx.Bucket(bucketLimits)
	var old [][]byte
	err = b.ForEach(func(k, v []byte) error {
		var st limitState
		if _, err := getJSON(b, k, &st); err != nil {
			return err
		}
		kind, _, _ := strings.Cut(string(k), "\x00")
		if now.Sub(st.WindowStart) >= limits[kind].Per {
			old = append(old, k)
			if st.Held > 0 {
				held += st.Held
				addresses++
			}
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return 0, 0, err
		}
	}
	return held, addresses, nil
}

// knownAddress reports whether addr is the GM's or belongs to a player or
// observer of a game: such an address is always answered. A game record
// is decoded only when its stored text holds the address: with thousands
// of games, decoding them all for each stranger's mail cost a tenth of a
// second.
func (t *txn) knownAddress(addr string) (bool, error) {
	if strings.EqualFold(addr, t.s.opts.GMAddress) {
		return true, nil
	}
	needle := []byte(strings.ToLower(addr))
	// JSON writes an address as it is unless it has characters it escapes
	// (&, <, >, quotes, controls) or letters whose case folding is not
	// ASCII's: those are looked for in every game decoded.
	searchText := !strings.ContainsFunc(addr, func(r rune) bool {
		return r >= utf8.RuneSelf || r < ' ' || strings.ContainsRune(`&<>"\`, r)
	})
	found := false
	err := t.tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
		if searchText && !bytes.Contains(bytes.ToLower(v), needle) {
			return nil
		}
		var g Game
		if err := json.Unmarshal(v, &g); err != nil {
			return fmt.Errorf("decoding game %s: %w", k, err)
		}
		for _, p := range g.Players {
			found = found || strings.EqualFold(p.Address, addr)
		}
		for _, o := range g.Observers {
			found = found || strings.EqualFold(o, addr)
		}
		if found {
			return errFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return false, err
	}
	return found, nil
}

// errFound ends a search through a bucket early.
var errFound = errors.New("found")
