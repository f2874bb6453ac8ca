package pbem

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"fieldpost/mail"
	"fieldpost/pbem/protocol"
)

// A player's secret is an HMAC of its game and side under the server key:
// the judge can write it into every mail's Reply-To address without storing
// it, and the database holds only its SHA-256, from which nobody can get
// back to it (the secret has 80 random-looking bits: nothing to guess).
var secretEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// secretLength is 16 base32 characters, 80 bits: unguessable, and short
// enough to copy onto a PASSWORD line.
const secretLength = 16

// deriveSecret returns the secret of a side of a game. It is lower case,
// because some mail servers lower-case the addresses that carry it.
func deriveSecret(key []byte, g *Game, side string) string {
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "fieldpost player secret\x00%s\x00%s\x00%s", g.ID, g.Nonce, side)
	if p := g.Player(side); p != nil && p.Generation > 0 {
		// A seat given to another address gets a new secret (seats.go).
		fmt.Fprintf(mac, "\x00%d", p.Generation)
	}
	return strings.ToLower(secretEncoding.EncodeToString(mac.Sum(nil)))[:secretLength]
}

// hashSecret is how a secret is looked up among the store's tokens. Secrets
// compare case-insensitively, as addresses may be lower-cased in transit.
func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(secret))))
	return hex.EncodeToString(sum[:])
}

// sameSecret compares two secrets in constant time, case-insensitively.
func sameSecret(a, b string) bool {
	ha, hb := sha256.Sum256([]byte(strings.ToLower(a))), sha256.Sum256([]byte(strings.ToLower(b)))
	return subtle.ConstantTimeCompare(ha[:], hb[:]) == 1
}

// keyCheck is a value that changes with the server key and tells nothing
// about it; the store keeps it to notice a replaced key.
func keyCheck(key []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("fieldpost key check"))
	return []byte(hex.EncodeToString(mac.Sum(nil)))
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails: crypto/rand aborts the program instead
	return hex.EncodeToString(b)
}

// plusTokens returns the tokens of the recipient addresses that extend the
// judge's address: judge+TOKEN@domain.
func plusTokens(msg *mail.Inbound, judge string) []string {
	var tokens []string
	for _, r := range msg.Recipients() {
		if token, ok := protocol.Token(r, judge); ok {
			tokens = append(tokens, token)
		}
	}
	return tokens
}

// LoadServerKey reads the server key from a file, creating the file with a
// new random key when it does not exist. The key derives every player's
// secret: it must stay with the database (back them up together) and out
// of it (a stolen database alone then gives away no secret).
func LoadServerKey(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		key := randomHex(32)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, fmt.Errorf("creating server key file: %w", err)
		}
		_, werr := f.WriteString(key + "\n")
		if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
			return nil, fmt.Errorf("writing server key file %s: %w", path, err)
		}
		return []byte(key), nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading server key file: %w", err)
	}
	key := strings.TrimSpace(string(raw))
	if len(key) < 32 {
		return nil, fmt.Errorf("server key file %s: the key is shorter than 32 characters", path)
	}
	return []byte(key), nil
}
