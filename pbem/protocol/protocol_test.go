package protocol

import "testing"

// A token address made for a judge gives its token back, whatever the
// case of the judge's part; another address gives none.
func TestTokenAddress(t *testing.T) {
	const judge = "judge@club.example"
	addr := TokenAddress(judge, "t0k3n")
	if addr != "judge+t0k3n@club.example" {
		t.Fatalf("TokenAddress = %q", addr)
	}
	for _, a := range []string{addr, "Judge+t0k3n@Club.Example"} {
		if token, ok := Token(a, judge); !ok || token != "t0k3n" {
			t.Errorf("Token(%q) = %q, %v", a, token, ok)
		}
	}
	for _, a := range []string{judge, "judge+@club.example", "other+t0k3n@club.example", "judge+t0k3n@elsewhere.example", "judge+t0k3n"} {
		if token, ok := Token(a, judge); ok {
			t.Errorf("Token(%q) = %q: not a token address of %s", a, token, judge)
		}
	}
	if got := WithoutToken("Judge+t0k3n@Club.Example"); got != judge {
		t.Errorf("WithoutToken = %q, want %q", got, judge)
	}
}
