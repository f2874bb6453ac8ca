package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestServeNeedsAConfiguration(t *testing.T) {
	if code, _, errOut := fieldpost(t, "serve"); code != 2 || !strings.Contains(errOut, "usage: fieldpost serve --config FILE") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	conf := write(t, filepath.Join(t.TempDir(), "f.conf"), "address = judge@club.example\nimap_password = hunter2\n")
	code, _, errOut := fieldpost(t, "serve", "--config", conf)
	if code != 1 || !strings.Contains(errOut, "imap_addr is required") || strings.Contains(errOut, "hunter2") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
