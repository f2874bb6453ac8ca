package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// The load tool at a tiny scale, so that it keeps working: a database of
// four games, the real judge (fieldpost, built from this tree) over
// loopback, a few order mails and the baseline's, a tutorial played to the
// end by two bots. Only that it measures is checked, never how fast.
func TestLoadToolRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the judge and runs it as a process several times")
	}
	judge := filepath.Join(t.TempDir(), "fieldpost")
	if out, err := exec.Command("go", "build", "-o", judge, "fieldpost/cmd/fieldpost").CombinedOutput(); err != nil {
		t.Fatalf("building the judge: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"--games", "4", "--played", "2", "--mails", "6", "--latency-mails", "3",
		"--long-game", "tutorial", "--long-rounds", "5", "--judge", judge, "--dir", t.TempDir()}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("fieldpost-load: exit %d\n%s", code, stderr.String())
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

// A command line the tool cannot run is answered with its usage.
func TestLoadToolUsage(t *testing.T) {
	for _, args := range [][]string{{"extra"}, {"--played", "0"}, {"--games", "1", "--played", "2"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 || !bytes.Contains(stderr.Bytes(), []byte("usage: fieldpost-load")) {
			t.Errorf("fieldpost-load %v: exit %d, want 2 with the usage\n%s", args, code, stderr.String())
		}
	}
}
