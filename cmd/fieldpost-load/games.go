package main

import (
	"io/fs"

	"fieldpost/engine"
	"fieldpost/engine/brigadier"
	"fieldpost/engine/frontline"
	"fieldpost/engine/stargeneral"
)

// hostedGames makes every game system the judge hosts, as the judge does:
// the tool builds the judge's database through the administration and
// plans the players' orders with the systems' bots.
func hostedGames(tmpl fs.FS) (engine.Systems, error) {
	sg, err := stargeneral.New(tmpl)
	if err != nil {
		return nil, err
	}
	bgc, err := brigadier.New()
	if err != nil {
		return nil, err
	}
	fg, err := frontline.New()
	if err != nil {
		return nil, err
	}
	return engine.Systems{sg, bgc, fg}, nil
}
