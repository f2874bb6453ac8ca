package pbem

import (
	"context"
	"strings"
	"testing"

	"fieldpost/engine/systems"
	"fieldpost/pbem/config"
)

// A judge started without the secrets' environment variables says so at
// start, naming each variable.
func TestServeSaysWhichSecretsAreMissing(t *testing.T) {
	cfg, err := config.Parse(strings.NewReader("address = judge@club.example\ndatabase = "+t.TempDir()+"/judge.db\n"+
		"imap_addr = 127.0.0.1:1\nimap_tls = none\nimap_username = judge\n"+
		"smtp_addr = 127.0.0.1:1\nsmtp_tls = none\nsmtp_username = judge\n"), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Serve(ctx, cfg, Hooks{}, systems.New, testLogger(t, &logs)); err != nil {
		t.Fatal(err)
	}
	for _, env := range []string{config.EnvIMAPPassword, config.EnvSMTPPassword, config.EnvGMSecret} {
		if !strings.Contains(logs.String(), env+" is unset") {
			t.Errorf("not said at start: %s", env)
		}
	}
}
