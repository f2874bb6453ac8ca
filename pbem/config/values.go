package config

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Limit is at most N mails of a kind in a window of Per, as the file's
// stranger_answers, refusal_notices and table_talk write it (N/DURATION);
// pbem.Limit, of the same fields, applies it.
type Limit struct {
	N   int
	Per time.Duration
}

// ParseLimit reads a limit as "N/DURATION": "1/24h", "3/1h".
func ParseLimit(s string) (Limit, error) {
	n, per, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Limit{}, errors.New("want N/DURATION, e.g. 3/1h")
	}
	count, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || count < 1 || count > 1000 {
		return Limit{}, errors.New("the count must be a whole number from 1 to 1000")
	}
	d, err := positiveDuration(strings.TrimSpace(per))
	if err != nil {
		return Limit{}, err
	}
	return Limit{N: count, Per: d}, nil
}

var dayPrefix = regexp.MustCompile(`^(\d+)d`)

// ParseDuration reads a duration as Go writes them ("48h", "90m",
// "1h30m") and also with days ("2d", "1d12h"), at most MaxDuration
// either way: the file's durations, and the judge's commands' (DEADLINE,
// NEWGAME deadline=, EXTEND) in the same words.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	var days time.Duration
	if m := dayPrefix.FindStringSubmatch(s); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil || n > int(MaxDuration/(24*time.Hour)) {
			return 0, fmt.Errorf("%q: too many days", s)
		}
		days, s = time.Duration(n)*24*time.Hour, s[len(m[0]):]
	}
	if s == "" {
		return days, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration such as 48h, 2d or 1d12h", s)
	}
	// Bounding each part keeps their sum from overflowing.
	if d > MaxDuration || d < -MaxDuration || days+d > MaxDuration {
		return 0, fmt.Errorf("%q: at most %d days", s, MaxDuration/(24*time.Hour))
	}
	return days + d, nil
}

// MaxDuration bounds a duration read from a mail or a file: ten years.
const MaxDuration = 3650 * 24 * time.Hour

func positiveDuration(s string) (time.Duration, error) {
	d, err := ParseDuration(s)
	if err == nil && d <= 0 {
		err = fmt.Errorf("%q: want a positive duration", s)
	}
	return d, err
}

func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "yes", "true", "on", "1":
		return true, nil
	case "no", "false", "off", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q: want yes or no", s)
}

// maxSize bounds every size of the file: the judge holds a whole mail in
// memory, and a size near the int64 range would overflow the arithmetic
// on it.
const maxSize = 1 << 30

// maxCount bounds every count of the file, far above any useful value.
const maxCount = 1_000_000

// parseSize reads a byte count from 1 to 1 GiB, with an optional K, KiB,
// M or MiB suffix (powers of 1024).
func parseSize(s string) (int64, error) {
	num := strings.TrimRight(s, "kKmMiIbB ")
	unit := strings.ToLower(strings.TrimSpace(s[len(num):]))
	shift := 0
	switch unit {
	case "", "b":
	case "k", "kb", "kib":
		shift = 10
	case "m", "mb", "mib":
		shift = 20
	default:
		return 0, fmt.Errorf("%q: want a size such as 10MiB", s)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q: want a size such as 10MiB", s)
	}
	if n > maxSize>>shift {
		return 0, fmt.Errorf("%q: at most 1GiB", s)
	}
	return n << shift, nil
}

// parseCount reads a whole number from 1 to maxCount.
func parseCount(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > maxCount {
		return 0, fmt.Errorf("%q: want a whole number from 1 to %d", s, maxCount)
	}
	return n, nil
}
