package pbem

import (
	"cmp"
	"fmt"
	"io/fs"
	"log/slog"
	"os"

	"fieldpost/templates"
)

// serviceOptions are the Options of the Service a configuration describes.
// The server key file is created when missing only with createKey: the
// daemon creates it with the database, the administration never does,
// since a new key could not read the secrets of the games already there.
func serviceOptions(cfg *Config, logger *slog.Logger, clock Clock, createKey bool) (Options, error) {
	key := []byte(cfg.ServerKey)
	if len(key) == 0 {
		path := cmp.Or(cfg.KeyFile, cfg.Database+".key")
		if !createKey {
			if _, err := os.Stat(path); err != nil {
				return Options{}, fmt.Errorf("server key file: %w", err)
			}
		}
		var err error
		if key, err = LoadServerKey(path); err != nil {
			return Options{}, err
		}
	}
	var tmpl fs.FS = templates.FS
	if cfg.Templates != "" {
		tmpl = overlayFS{top: os.DirFS(cfg.Templates), base: templates.FS}
	}
	return Options{
		Address: cfg.Address, Name: cfg.Name, ServerKey: key, GMSecret: cfg.GMSecret, GMAddress: cfg.GMAddress,
		Deadline: cfg.Deadline, Reminders: cfg.Reminders, Grace: cfg.Grace, MaxMessageSize: cfg.MaxMessageSize,
		Limits:    Limits{MaxLines: cfg.MaxLines, MaxErrors: cfg.MaxErrors, MaxAnswerSize: cfg.MaxAnswerSize},
		Templates: tmpl, RetryMin: cfg.SendRetryMin, RetryMax: cfg.SendRetryMax, GiveUp: cfg.SendGiveUp,
		Clock: clock, Logger: logger,
	}, nil
}
