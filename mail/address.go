package mail

import (
	"net/mail"
	"regexp"
	"strings"

	gomail "github.com/emersion/go-message/mail"
)

// Address is a mailbox: an optional display name and an e-mail address.
type Address struct {
	Name  string // display name, decoded to UTF-8; may be empty
	Email string // addr-spec, e.g. "judge+t0k3n@club.example"
}

// String formats the address for a header field, encoding a non-ASCII name
// as RFC 2047 requires.
func (a Address) String() string {
	return (&mail.Address{Name: a.Name, Address: a.Email}).String()
}

// addrSpecPattern finds something that looks like an e-mail address in a
// header value that a strict RFC 5322 parser rejected.
var addrSpecPattern = regexp.MustCompile(`[^\s<>()",;:@\[\]]+@[^\s<>()",;:@\[\]]+`)

// parseAddressList parses an address header value. Real mail contains
// malformed address fields (unquoted dots or commas in names, stray angle
// brackets), so when the strict parser fails the bare addresses are salvaged
// and the display names dropped.
func parseAddressList(value string) []Address {
	if strings.TrimSpace(value) == "" {
		return nil
	}
	if list, err := gomail.ParseAddressList(value); err == nil {
		addrs := make([]Address, 0, len(list))
		for _, a := range list {
			addrs = append(addrs, Address{Name: a.Name, Email: a.Address})
		}
		return addrs
	}
	var addrs []Address
	for _, email := range addrSpecPattern.FindAllString(value, -1) {
		addrs = append(addrs, Address{Email: email})
	}
	return addrs
}

// parseBareAddress parses the value of a trace field such as Delivered-To,
// which holds one address with or without angle brackets.
func parseBareAddress(value string) string {
	value = strings.TrimSpace(value)
	if a, err := mail.ParseAddress(value); err == nil {
		return a.Address
	}
	return addrSpecPattern.FindString(value)
}

// canonicalEmail lowercases an address and removes a "+tag" from its local
// part, so that "Judge+T0k3n@Club.Example" and "judge@club.example" compare
// equal.
func canonicalEmail(email string) string {
	email = strings.ToLower(strings.TrimSpace(email))
	local, domain, ok := strings.Cut(email, "@")
	if !ok {
		return email
	}
	local, _, _ = strings.Cut(local, "+")
	return local + "@" + domain
}
