package ordertext

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Header is what the header lines of orders say: GAME name SIDE name
// [SEAT n] ROUND n [PASSWORD word], several to a line or one per line.
// What is not said is left zero.
type Header struct {
	Game, Side, Password string
	Seat, Round          int
}

// headerWords are the header's keywords, each with the spellings players
// use.
var headerWords = map[string]string{
	"GAME": "GAME", "SIDE": "SIDE", "SEAT": "SEAT", "ROUND": "ROUND", "TURN": "ROUND",
	"PASSWORD": "PASSWORD", "PASS": "PASSWORD", "SECRET": "PASSWORD",
}

// HeaderKeyword is the header keyword a word spells ("TURN" is ROUND);
// "" when it is none.
func HeaderKeyword(word string) string { return headerWords[strings.ToUpper(word)] }

// IsHeader reports whether a line's words are header keywords, each
// followed by its value.
func IsHeader(words []string) bool {
	if len(words) < 2 || len(words)%2 != 0 {
		return false
	}
	for i := 0; i < len(words); i += 2 {
		if HeaderKeyword(words[i]) == "" {
			return false
		}
	}
	return true
}

// HeaderError is a header line that cannot be read; Hint says how to write
// it, where it helps.
type HeaderError struct{ Msg, Hint string }

func (e *HeaderError) Error() string { return e.Msg }

// headerHint is how a header is written.
const headerHint = "write GAME name SIDE name ROUND number on one line, or one per line"

// ReadHeader adds what a header line says to h; the error, nil when there
// is none, says why the line cannot be read.
func (h *Header) ReadHeader(words []string) *HeaderError {
	for i := 0; i < len(words); i += 2 {
		kw := HeaderKeyword(words[i])
		if kw == "" || i+1 >= len(words) {
			return &HeaderError{Msg: fmt.Sprintf("%q is out of place in the header", words[i]), Hint: headerHint}
		}
		val := words[i+1]
		switch kw {
		case "GAME":
			h.Game = val
		case "SIDE":
			h.Side = val
		case "PASSWORD":
			h.Password = val
		case "SEAT", "ROUND":
			n, isNumber, err := Number(val)
			if err != nil {
				return &HeaderError{Msg: fmt.Sprintf("%s %v", strings.ToUpper(words[i]), err)}
			}
			if !isNumber || n < 1 {
				return &HeaderError{Msg: fmt.Sprintf("%s %q: want the %s number from the order form", strings.ToUpper(words[i]), val, strings.ToLower(kw))}
			}
			if kw == "SEAT" {
				h.Seat = n
			} else {
				h.Round = n
			}
		}
	}
	return nil
}

// MaxNumber bounds every number written in orders. No count of the rules
// (rounds, air points, shots, strength points) comes near it, and a bound
// where the number is read keeps every sum of them far from the int range:
// two attacks with AIR 9223372036854775807 added up past it and were
// accepted (issue 15).
const MaxNumber = 9999

// Number reads a number written in orders. isNumber is false for a word
// that is no number at all; err says that a number is out of bounds.
func Number(s string) (n int, isNumber bool, err error) {
	v, err := strconv.Atoi(s)
	switch {
	case err == nil && -MaxNumber <= v && v <= MaxNumber:
		return v, true, nil
	case err == nil || errors.Is(err, strconv.ErrRange):
		return 0, true, fmt.Errorf("%s is too large: numbers in orders are at most %d", s, MaxNumber)
	}
	return 0, false, nil
}
