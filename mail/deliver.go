package mail

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ReadMessage reads a mail handed over whole by a mail server (over LMTP,
// or on a pipe): it keeps at most limit bytes and one more, enough for
// [ParseDelivered] to tell the mail is oversized, and reads the rest to
// its end only to count it, so that a huge mail costs no memory.
func ReadMessage(r io.Reader, limit int64) (raw []byte, size int64, err error) {
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(r, limit+1))
	if err != nil {
		return nil, n, fmt.Errorf("reading the mail: %w", err)
	}
	rest, err := io.Copy(io.Discard, r)
	if err != nil {
		return nil, n + rest, fmt.Errorf("reading the mail: %w", err)
	}
	return buf.Bytes(), n + rest, nil
}

// ParseDelivered reads a mail kept by [ReadMessage] (size its whole size)
// as the intake reads a fetched one, within limit and limits. A mail that
// cannot be read at all, or whose reading panicked, is an error wrapping
// ErrSetAside: a mail server that hands it over again would get the same,
// so it must be kept aside rather than refused.
func ParseDelivered(raw []byte, size, limit int64, limits Limits) (*Inbound, error) {
	msg, err := parseSafely(raw, limit, limits)
	if err != nil {
		if !errors.Is(err, ErrSetAside) {
			err = fmt.Errorf("%w: %v", ErrSetAside, err)
		}
		return nil, err
	}
	msg.Size = max(msg.Size, size)
	return msg, nil
}
