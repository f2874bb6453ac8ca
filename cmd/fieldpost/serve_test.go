package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Without --config, serve runs the embedded club mail server (see
// embedded_test.go); --database only goes with a configuration.
func TestServeConfigurationMistakes(t *testing.T) {
	for _, args := range [][]string{{"serve", "--database", "x.db"}, {"serve", "extra"}} {
		if code, _, errOut := fieldpost(t, args...); code != 2 || !strings.Contains(errOut, "usage: fieldpost serve") {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
	conf := write(t, filepath.Join(t.TempDir(), "f.conf"), "address = judge@club.example\nimap_password = hunter2\n")
	code, _, errOut := fieldpost(t, "serve", "--config", conf)
	if code != 1 || !strings.Contains(errOut, "imap_addr is required") || strings.Contains(errOut, "hunter2") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
