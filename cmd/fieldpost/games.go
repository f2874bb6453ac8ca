package main

import (
	"io/fs"

	"fieldpost/engine"
	"fieldpost/engine/brigadier"
	"fieldpost/engine/frontline"
	"fieldpost/engine/stargeneral"
	"fieldpost/templates"
)

// hostedGames makes every game system Fieldpost hosts, writing with the
// judge's templates. It is the one place that names the game systems: the
// judge and the tools reach a game through engine.System.
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

// builtinGames are the game systems with the built-in templates, for the
// tools that run without a judge's configuration.
func builtinGames() (engine.Systems, error) { return hostedGames(templates.FS) }

// scenarioInfo finds a bundled scenario in any hosted system.
func scenarioInfo(name string) (engine.System, engine.ScenarioInfo, error) {
	systems, err := builtinGames()
	if err != nil {
		return nil, engine.ScenarioInfo{}, err
	}
	return systems.Scenario(name)
}
