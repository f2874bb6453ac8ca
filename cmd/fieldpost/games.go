package main

import (
	"fieldpost/engine"
	"fieldpost/engine/systems"
	"fieldpost/templates"
)

// builtinGames are the game systems (engine/systems lists them) with the
// built-in templates, for the tools that run without a judge's
// configuration; the judge makes them with its own, by systems.New.
func builtinGames() (engine.Systems, error) { return systems.New(templates.FS) }

// scenarioInfo finds a bundled scenario in any hosted system.
func scenarioInfo(name string) (engine.System, engine.ScenarioInfo, error) {
	systems, err := builtinGames()
	if err != nil {
		return nil, engine.ScenarioInfo{}, err
	}
	return systems.Scenario(name)
}
