package mailtest

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"
)

// strictConn puts OpenSMTPD's rules of command sequence in front of
// go-smtp's server, which is lenient: go-smtp takes a second EHLO as a
// RSET, OpenSMTPD answers it "503 5.5.1 Invalid command: Already
// identified", and a client that relies on the leniency loses mail on a
// real server. The connection reads the client's commands one line at a
// time, so that every command forwarded before has been answered when the
// next is judged; it learns the session's state from the server's
// replies, answers a command out of sequence itself with OpenSMTPD's reply,
// and records it.
//
// STARTTLS is done here rather than by go-smtp, so that the commands
// after it are still read in clear.
type strictConn struct {
	server    *SMTPServer
	tlsConfig *tls.Config // non-nil when STARTTLS is offered

	mu      sync.Mutex // guards conn against Close from another goroutine
	conn    net.Conn   // the client's connection, or its TLS layer after STARTTLS
	r       *bufio.Reader
	secured bool

	// pending is the rest of a line being handed to go-smtp.
	pending []byte
	// replies holds a partial reply line written by go-smtp.
	replies []byte
	// awaiting is the command whose reply is awaited.
	awaiting string
	// The session's state, learnt from the replies.
	identified, authenticated, inTransaction, inData, authContinues bool
	recipients                                                      int
}

func newStrictConn(server *SMTPServer, conn net.Conn, tlsConfig *tls.Config) *strictConn {
	_, secured := conn.(*tls.Conn)
	return &strictConn{server: server, conn: conn, r: bufio.NewReader(conn), tlsConfig: tlsConfig, secured: secured}
}

// strictListener wraps every accepted connection in a strictConn.
type strictListener struct {
	net.Listener
	server    *SMTPServer
	tlsConfig *tls.Config
}

func (l *strictListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return newStrictConn(l.server, conn, l.tlsConfig), nil
}

func (c *strictConn) current() net.Conn {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conn
}

func (c *strictConn) Close() error                       { return c.current().Close() }
func (c *strictConn) LocalAddr() net.Addr                { return c.current().LocalAddr() }
func (c *strictConn) RemoteAddr() net.Addr               { return c.current().RemoteAddr() }
func (c *strictConn) SetDeadline(t time.Time) error      { return c.current().SetDeadline(t) }
func (c *strictConn) SetReadDeadline(t time.Time) error  { return c.current().SetReadDeadline(t) }
func (c *strictConn) SetWriteDeadline(t time.Time) error { return c.current().SetWriteDeadline(t) }

// Read hands go-smtp at most one line of the client's.
func (c *strictConn) Read(p []byte) (int, error) {
	for len(c.pending) == 0 {
		line, err := c.r.ReadBytes('\n')
		if err != nil {
			if len(line) > 0 {
				c.pending = line
				break
			}
			return 0, err
		}
		if c.pass(line) {
			c.pending = line
		}
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

// pass judges one line of the client's: true to hand it to go-smtp.
func (c *strictConn) pass(line []byte) bool {
	text := strings.TrimRight(string(line), "\r\n")
	switch {
	case c.inData:
		if text == "." {
			c.inData, c.awaiting = false, "end of DATA"
		}
		return true
	case c.authContinues:
		c.authContinues = false
		return true
	}
	verb, _, _ := strings.Cut(text, " ")
	verb = strings.ToUpper(verb)
	if refusal := c.refusal(verb); refusal != "" {
		c.server.refused(text, refusal)
		c.write(refusal)
		return false
	}
	if verb == "STARTTLS" {
		c.startTLS()
		return false
	}
	c.awaiting = verb
	return true
}

// refusal is OpenSMTPD 6.8's reply to a command out of sequence, or "" when
// the command may be given now.
func (c *strictConn) refusal(verb string) string {
	const notNow = "503 5.5.1 Invalid command: Command not allowed at this point."
	switch verb {
	case "HELO", "EHLO":
		if c.identified {
			return "503 5.5.1 Invalid command: Already identified"
		}
	case "MAIL":
		if !c.identified || c.inTransaction {
			return notNow
		}
	case "RCPT":
		if !c.inTransaction {
			return notNow
		}
	case "DATA":
		if !c.inTransaction {
			return notNow
		}
		if c.recipients == 0 {
			return "503 5.5.1 Invalid command: No recipient specified"
		}
	case "AUTH":
		if c.authenticated {
			return "503 5.5.1 Invalid command: Already authenticated"
		}
		if !c.identified || c.inTransaction {
			return notNow
		}
	case "STARTTLS":
		if c.tlsConfig == nil {
			return "500 5.5.1 Invalid command: Command unrecognized"
		}
		if c.secured {
			return "503 5.5.1 Invalid command: Channel already secured"
		}
		if !c.identified || c.inTransaction {
			return notNow
		}
	case "BDAT", "LHLO":
		return "500 5.5.1 Invalid command: Command unrecognized"
	}
	return ""
}

// startTLS answers STARTTLS and secures the connection; the client must
// say EHLO again.
func (c *strictConn) startTLS() {
	c.write("220 2.0.0 Ready to start TLS")
	tlsConn := tls.Server(c.current(), c.tlsConfig)
	if err := tlsConn.Handshake(); err != nil {
		// go-smtp's next read fails on the closed connection.
		tlsConn.Close()
	}
	c.mu.Lock()
	c.conn = tlsConn
	c.mu.Unlock()
	c.r = bufio.NewReader(tlsConn)
	c.secured = true
	c.identified, c.authenticated, c.inTransaction, c.recipients = false, false, false, 0
}

func (c *strictConn) write(reply string) {
	fmt.Fprintf(c.current(), "%s\r\n", reply)
}

// Write passes go-smtp's replies on, learning the session's state from
// their codes.
func (c *strictConn) Write(p []byte) (int, error) {
	c.replies = append(c.replies, p...)
	for {
		end := bytes.IndexByte(c.replies, '\n')
		if end < 0 {
			break
		}
		line := c.replies[:end]
		if len(line) >= 4 && line[3] != '-' {
			c.replied(string(line[:3]))
		}
		c.replies = c.replies[end+1:]
	}
	return c.current().Write(p)
}

// replied records the final reply to the command awaited.
func (c *strictConn) replied(code string) {
	ok := code[0] == '2'
	switch c.awaiting {
	case "HELO", "EHLO":
		c.identified = ok
	case "MAIL":
		c.inTransaction = ok
		c.recipients = 0
	case "RCPT":
		if ok {
			c.recipients++
		}
	case "DATA":
		c.inData = code == "354"
	case "end of DATA", "RSET":
		c.inTransaction, c.recipients = false, 0
	case "AUTH":
		c.authenticated = ok
		c.authContinues = code == "334"
		if c.authContinues {
			return // the reply to the client's answer ends the command
		}
	}
	c.awaiting = ""
}
