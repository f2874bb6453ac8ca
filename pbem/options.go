package pbem

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"

	"fieldpost/engine"
	"fieldpost/mail"
	"fieldpost/pbem/config"
	"fieldpost/templates"
)

// Games makes the game systems a judge hosts, writing their reports with
// the judge's templates (the built-in ones, or a club's over them).
type Games func(templates fs.FS) (engine.Systems, error)

// Hooks are what a program hands a judge beside its configuration, which
// no file can hold: an open listener and functions. With the zero Hooks,
// the judge is the one its configuration file alone describes.
type Hooks struct {
	// PagesListener is a listener already open for the game pages, used
	// instead of the configuration's http_listen: the embedded mode's.
	PagesListener net.Listener
	// CheckCopy checks the copy of the database taken for the page check
	// after the start (Store.Check); nil checks it in the judge's own
	// process.
	CheckCopy CopyChecker
	// BotAccount, ClubAccount and InHand are the Options of the same names.
	BotAccount  func(game, side string) (address string, err error)
	ClubAccount func(name string) (settings string, err error)
	InHand      func(msg *mail.Inbound) error
}

// serviceOptions are the Options of the Service a configuration describes.
// The server key file is created when missing only with createKey: the
// daemon creates it with the database, the administration never does,
// since a new key could not read the secrets of the games already there.
func serviceOptions(cfg *config.Config, hooks Hooks, games Games, logger *slog.Logger, clock Clock, createKey bool) (Options, error) {
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
	tmpl := templatesOf(cfg)
	systems, err := hostedSystems(games, tmpl)
	if err != nil {
		return Options{}, err
	}
	return Options{
		Systems: systems, Address: cfg.Address, Name: cfg.Name, ServerKey: key, GMSecret: cfg.GMSecret, GMAddress: cfg.GMAddress,
		Deadline: cfg.Deadline, Reminders: cfg.Reminders, Grace: cfg.Grace, MaxMessageSize: cfg.MaxMessageSize,
		Limits:     Limits{MaxLines: cfg.MaxLines, MaxErrors: cfg.MaxErrors, MaxAnswerSize: cfg.MaxAnswerSize},
		MailLimits: mail.Limits{MaxHeaderFields: cfg.MaxHeaderFields, MaxParts: cfg.MaxMIMEParts},
		Templates:  tmpl, RetryMin: cfg.SendRetryMin, RetryMax: cfg.SendRetryMax, GiveUp: cfg.SendGiveUp,
		StrangerAnswers: Limit(cfg.StrangerAnswers), RefusalNotices: Limit(cfg.RefusalNotices),
		TalkLimit: Limit(cfg.TalkLimit), AbsenceDays: cfg.AbsenceDays,
		Clock: clock, Logger: logger, BaseURL: cfg.PagesURL(), InHand: hooks.InHand, BotAccount: hooks.BotAccount,
		ClubAccount: hooks.ClubAccount,
	}, nil
}

// templatesOf is the templates of a configuration: the built-in ones, with a
// club's folder over them.
func templatesOf(cfg *config.Config) fs.FS {
	if cfg == nil || cfg.Templates == "" {
		return templates.FS
	}
	return overlayFS{top: os.DirFS(cfg.Templates), base: templates.FS}
}

// hostedSystems makes the game systems with the templates.
func hostedSystems(games Games, tmpl fs.FS) (engine.Systems, error) {
	if games == nil {
		return nil, errors.New("no game systems given")
	}
	systems, err := games(tmpl)
	if err != nil {
		return nil, fmt.Errorf("game systems: %w", err)
	}
	return systems, nil
}
