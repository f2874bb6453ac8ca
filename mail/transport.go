package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"math/rand/v2"
	"net"
	"time"
)

// TLSMode says how a connection to a mail server is secured.
//
// The zero value is [TLSImplicit], so a configuration that forgets to choose
// never talks in clear text.
type TLSMode int

const (
	// TLSImplicit starts TLS as soon as the TCP connection is open
	// (IMAPS on port 993, SMTP submission on port 465).
	TLSImplicit TLSMode = iota
	// TLSStartTLS connects in clear text and upgrades with STARTTLS before
	// authenticating (IMAP on port 143, SMTP submission on port 587).
	TLSStartTLS
	// TLSNone never encrypts. Use it only for servers on the same host or in
	// tests.
	TLSNone
)

// String returns the name ParseTLSMode accepts.
func (m TLSMode) String() string {
	switch m {
	case TLSImplicit:
		return "tls"
	case TLSStartTLS:
		return "starttls"
	case TLSNone:
		return "none"
	default:
		return fmt.Sprintf("TLSMode(%d)", int(m))
	}
}

// ParseTLSMode parses "tls", "starttls" or "none", as written in a
// configuration file.
func ParseTLSMode(s string) (TLSMode, error) {
	switch s {
	case "tls":
		return TLSImplicit, nil
	case "starttls":
		return TLSStartTLS, nil
	case "none":
		return TLSNone, nil
	default:
		return 0, fmt.Errorf("mail: unknown TLS mode %q (want tls, starttls or none)", s)
	}
}

// tlsConfigFor returns a copy of base (or a fresh config) whose ServerName is
// the host of addr, so that certificate verification checks the right name.
func tlsConfigFor(addr string, base *tls.Config) (*tls.Config, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("mail: server address %q: %w", addr, err)
	}
	cfg := &tls.Config{}
	if base != nil {
		cfg = base.Clone()
	}
	if cfg.ServerName == "" {
		cfg.ServerName = host
	}
	return cfg, nil
}

// dial opens a TCP connection to addr, wrapped in TLS when mode is
// TLSImplicit. For TLSStartTLS the connection is returned in clear text: the
// protocol client upgrades it.
func dial(ctx context.Context, addr string, mode TLSMode, tlsConfig *tls.Config) (net.Conn, error) {
	// Neither imapclient nor go-smtp bounds the wait for a reply that
	// never starts, and an IDLE connection is silent by design: aggressive
	// TCP keepalives make a vanished server (no RST, e.g. after a NAT
	// timeout) fail the connection within about a minute.
	d := &net.Dialer{
		Timeout: 30 * time.Second,
		KeepAliveConfig: net.KeepAliveConfig{
			Enable:   true,
			Idle:     30 * time.Second,
			Interval: 10 * time.Second,
			Count:    3,
		},
	}
	if mode == TLSImplicit {
		tlsDialer := &tls.Dialer{NetDialer: d, Config: tlsConfig}
		return tlsDialer.DialContext(ctx, "tcp", addr)
	}
	return d.DialContext(ctx, "tcp", addr)
}

// backoff returns how long to wait before attempt number attempt (1 for the
// first retry): first doubled attempt-1 times and capped at last, then
// jittered down by up to half so that many clients do not retry in step.
func backoff(attempt int, first, last time.Duration) time.Duration {
	d := first
	for i := 1; i < attempt && d < last; i++ {
		d *= 2
	}
	d = min(d, last)
	half := d / 2
	return half + rand.N(half+1)
}
