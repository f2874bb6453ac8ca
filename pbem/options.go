package pbem

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"

	"fieldpost/engine"
	"fieldpost/mail"
	"fieldpost/templates"
)

// Games makes the game systems a judge hosts, writing their reports with
// the judge's templates (the built-in ones, or a club's over them).
type Games func(templates fs.FS) (engine.Systems, error)

// serviceOptions are the Options of the Service a configuration describes.
// The server key file is created when missing only with createKey: the
// daemon creates it with the database, the administration never does,
// since a new key could not read the secrets of the games already there.
func serviceOptions(cfg *Config, games Games, logger *slog.Logger, clock Clock, createKey bool) (Options, error) {
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
		StrangerAnswers: cfg.StrangerAnswers, RefusalNotices: cfg.RefusalNotices,
		TalkLimit: cfg.TalkLimit, AbsenceDays: cfg.AbsenceDays,
		Clock: clock, Logger: logger, BaseURL: cfg.pagesURL(), InHand: cfg.InHand, BotAccount: cfg.BotAccount,
		ClubAccount: cfg.ClubAccount,
	}, nil
}

// templatesOf is the templates of a configuration: the built-in ones, with a
// club's folder over them.
func templatesOf(cfg *Config) fs.FS {
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

// pagesURL is where players reach the game pages: base_url, or the pages'
// own address; "" without pages.
func (c *Config) pagesURL() string {
	switch {
	case c.BaseURL != "":
		return c.BaseURL
	case c.HTTPListen != "":
		return "http://" + c.HTTPListen
	}
	return ""
}
