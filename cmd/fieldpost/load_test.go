package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The load tool at a tiny scale, so that it keeps working: a database of
// four games, the real judge (this test binary, as fieldpost) over
// loopback, a few order mails and the baseline's, a tutorial played to the
// end by two bots. Only that it measures is checked, never how fast.
func TestLoadToolRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the judge as a process several times")
	}
	t.Setenv(asFieldpost, "1")
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}
	code := run(e, []string{"load", "--games", "4", "--played", "2", "--mails", "6", "--latency-mails", "3",
		"--long-game", "tutorial", "--long-rounds", "5", "--judge", os.Args[0], "--dir", t.TempDir()})
	if code != 0 {
		t.Fatalf("fieldpost load: exit %d\n%s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`raw fetch \+ reply baseline, 6 mails together \| \d+ /s`),
		regexp.MustCompile(`order mails answered, 6 together \| \d+ /s = [\d.]+ x baseline`),
		regexp.MustCompile(`judge p50 [\d.]+ ms, p99 [\d.]+ ms; baseline p50 [\d.]+ ms`),
		regexp.MustCompile(`order mails accepted / refused \| 9 / 0 `),
		regexp.MustCompile(`control socket [\d.]+ ms, first mail answered [\d.]+ ms`),
		regexp.MustCompile(`after start \d+ MB`),
		regexp.MustCompile(`1 tutorial games played to the end by two bots, 5 rounds \| [\d.]+ KB`),
	} {
		if !want.MatchString(out) {
			t.Errorf("the output lacks %s:\n%s", want, out)
		}
	}
}
