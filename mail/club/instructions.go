package club

import (
	"fmt"
	"net"
	"os"
	"strings"
)

// ConnectionInstructions returns, for the account name, what to type into
// a mail program to use it: the address, then the IMAP and SMTP settings.
// The ports are the actual ones once the server is started.
func (s *Server) ConnectionInstructions(name string) (string, error) {
	a := s.lookup(strings.ToLower(name))
	if a == nil {
		return "", fmt.Errorf("club: no account %q", name)
	}
	imapAddr, smtpAddr := s.IMAPAddr(), s.SMTPAddr()
	imapHost, imapPort, err := net.SplitHostPort(imapAddr)
	if err != nil {
		return "", fmt.Errorf("club: IMAP address %q: %w", imapAddr, err)
	}
	smtpHost, smtpPort, err := net.SplitHostPort(smtpAddr)
	if err != nil {
		return "", fmt.Errorf("club: SMTP address %q: %w", smtpAddr, err)
	}
	address := s.Address(a.Name)

	var b strings.Builder
	fmt.Fprintf(&b, "Mail account %q on the Fieldpost club mail server\n", a.Name)
	fmt.Fprintf(&b, "  Email address:        %s\n", address)
	fmt.Fprintf(&b, "  Password:             %s\n", a.Password)
	for _, server := range []struct{ title, host, port, auth string }{
		{"Incoming mail (IMAP)", s.clientHost(imapHost), imapPort, "normal password"},
		{"Outgoing mail (SMTP)", s.clientHost(smtpHost), smtpPort, "normal password (required)"},
	} {
		fmt.Fprintf(&b, "\n%s\n", server.title)
		fmt.Fprintf(&b, "  Server:               %s\n", server.host)
		fmt.Fprintf(&b, "  Port:                 %s\n", server.port)
		fmt.Fprintf(&b, "  Username:             %s\n", a.Name)
		fmt.Fprintf(&b, "  Password:             %s\n", a.Password)
		fmt.Fprintf(&b, "  Connection security:  none (no SSL/TLS, no STARTTLS)\n")
		fmt.Fprintf(&b, "  Authentication:       %s\n", server.auth)
	}
	fmt.Fprintf(&b, "\nSend as %s: the server refuses other sender addresses, and it delivers\n", address)
	fmt.Fprintf(&b, "only to @%s addresses, never to the Internet.\n", s.cfg.Domain)
	b.WriteString("Mail is kept on this computer, and across restarts of Fieldpost.\n")
	if !isLoopbackAddr(imapAddr) || !isLoopbackAddr(smtpAddr) {
		b.WriteString("Passwords and mail cross the network unencrypted: use this only on a trusted LAN.\n")
	}
	return b.String(), nil
}

// clientHost returns the host a mail program connects to for a server
// listening on host.
func (s *Server) clientHost(host string) string {
	if s.cfg.Hostname != "" {
		return s.cfg.Hostname
	}
	if ip := net.ParseIP(host); host != "" && (ip == nil || !ip.IsUnspecified()) {
		return host
	}
	// Listening on every interface: this computer's name is the best guess
	// of how the others reach it.
	if name, err := os.Hostname(); err == nil {
		return name
	}
	return "localhost"
}

// isLoopbackAddr reports whether a listen address accepts connections
// from this computer only.
func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
