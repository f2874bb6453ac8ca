package club

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// The FETCH and SEARCH of one message follow imapmemserver's (go-imap,
// MIT licence), over a stored message rather than one in memory.

// writeFetch writes the FETCH response of the message m, whose text is
// body (nil when options need no text).
func writeFetch(w *imapserver.FetchResponseWriter, m stored, body []byte, options *imap.FetchOptions) error {
	w.WriteUID(m.uid)
	if options.Flags {
		w.WriteFlags(m.flags)
	}
	if options.InternalDate {
		w.WriteInternalDate(m.date)
	}
	if options.RFC822Size {
		w.WriteRFC822Size(m.size)
	}
	if options.Envelope {
		w.WriteEnvelope(envelope(body))
	}
	if options.BodyStructure != nil {
		w.WriteBodyStructure(imapserver.ExtractBodyStructure(bytes.NewReader(body)))
	}
	for _, bs := range options.BodySection {
		buf := imapserver.ExtractBodySection(bytes.NewReader(body), bs)
		if err := writeSection(w.WriteBodySection(bs, int64(len(buf))), buf); err != nil {
			return err
		}
	}
	for _, bs := range options.BinarySection {
		buf := imapserver.ExtractBinarySection(bytes.NewReader(body), bs)
		if err := writeSection(w.WriteBinarySection(bs, int64(len(buf))), buf); err != nil {
			return err
		}
	}
	for _, bss := range options.BinarySectionSize {
		w.WriteBinarySectionSize(bss, imapserver.ExtractBinarySectionSize(bytes.NewReader(body), bss))
	}
	return w.Close()
}

func writeSection(wc io.WriteCloser, buf []byte) error {
	_, err := wc.Write(buf)
	if closeErr := wc.Close(); err == nil {
		err = closeErr
	}
	return err
}

func envelope(body []byte) *imap.Envelope {
	header, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(body)))
	if err != nil {
		return nil
	}
	return imapserver.ExtractEnvelope(header)
}

// matchSearch reports whether the message m, known to the session as
// clientSeq, matches criteria. body returns its text, read only when a
// criterion needs it.
func matchSearch(m stored, clientSeq uint32, body func() []byte, criteria *imap.SearchCriteria) bool {
	for _, set := range criteria.SeqNum {
		if clientSeq == 0 || !set.Contains(clientSeq) {
			return false
		}
	}
	for _, set := range criteria.UID {
		if !set.Contains(m.uid) {
			return false
		}
	}
	if !matchDate(m.date, criteria.Since, criteria.Before) {
		return false
	}
	for _, flag := range criteria.Flag {
		if !m.has(flag) {
			return false
		}
	}
	for _, flag := range criteria.NotFlag {
		if m.has(flag) {
			return false
		}
	}
	if criteria.Larger != 0 && m.size <= criteria.Larger {
		return false
	}
	if criteria.Smaller != 0 && m.size >= criteria.Smaller {
		return false
	}

	if len(criteria.Header) > 0 || !criteria.SentSince.IsZero() || !criteria.SentBefore.IsZero() {
		header := mail.Header{Header: entity(body()).Header}
		for _, field := range criteria.Header {
			if !matchHeaderFields(header.FieldsByKey(field.Key), field.Value) {
				return false
			}
		}
		if !criteria.SentSince.IsZero() || !criteria.SentBefore.IsZero() {
			t, err := header.Date()
			if err != nil || !matchDate(t, criteria.SentSince, criteria.SentBefore) {
				return false
			}
		}
	}
	for _, text := range criteria.Text {
		if !matchEntity(entity(body()), text, true) {
			return false
		}
	}
	for _, text := range criteria.Body {
		if !matchEntity(entity(body()), text, false) {
			return false
		}
	}

	for i := range criteria.Not {
		if matchSearch(m, clientSeq, body, &criteria.Not[i]) {
			return false
		}
	}
	for i := range criteria.Or {
		if !matchSearch(m, clientSeq, body, &criteria.Or[i][0]) && !matchSearch(m, clientSeq, body, &criteria.Or[i][1]) {
			return false
		}
	}
	return true
}

// entity parses a message, or gives an empty one if it cannot be parsed.
func entity(body []byte) *gomessage.Entity {
	e, _ := gomessage.Read(bytes.NewReader(body))
	if e == nil {
		e, _ = gomessage.New(gomessage.Header{}, bytes.NewReader(nil))
	}
	return e
}

// matchDate compares dates only: RFC 3501 (6.4.4) searches ignore the time
// and the zone.
func matchDate(t, since, before time.Time) bool {
	t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	if !since.IsZero() && t.Before(since) {
		return false
	}
	if !before.IsZero() && !t.Before(before) {
		return false
	}
	return true
}

func matchHeaderFields(fields gomessage.HeaderFields, pattern string) bool {
	if pattern == "" {
		return fields.Len() > 0
	}
	pattern = strings.ToLower(pattern)
	for fields.Next() {
		v, _ := fields.Text()
		if strings.Contains(strings.ToLower(v), pattern) {
			return true
		}
	}
	return false
}

func matchEntity(e *gomessage.Entity, pattern string, includeHeader bool) bool {
	if pattern == "" {
		return true
	}
	if includeHeader && matchHeaderFields(e.Header.Fields(), pattern) {
		return true
	}
	if mr := e.MultipartReader(); mr != nil {
		for {
			part, err := mr.NextPart()
			if err != nil {
				return false // io.EOF: no part matched
			}
			if matchEntity(part, pattern, includeHeader) {
				return true
			}
		}
	}
	t, _, err := e.Header.ContentType()
	if err != nil || (!strings.HasPrefix(t, "text/") && !strings.HasPrefix(t, "message/")) {
		return false
	}
	buf, err := io.ReadAll(e.Body)
	if err != nil {
		return false
	}
	return bytes.Contains(bytes.ToLower(buf), bytes.ToLower([]byte(pattern)))
}
