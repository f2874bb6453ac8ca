// Package systems is the one list of the game systems Fieldpost hosts. The
// binary hosts what New makes and the tests play it, so a family added here
// is served, listed and held to the seam's conformance test at once.
package systems

import (
	"fmt"
	"io/fs"

	"fieldpost/engine"
	"fieldpost/engine/brigadier"
	"fieldpost/engine/frontline"
	"fieldpost/engine/stargeneral"
)

// families makes each game system, with the templates its reports may be
// written with (only Star General's are a club's to restyle).
var families = []struct {
	name string
	make func(templates fs.FS) (engine.System, error)
}{
	{stargeneral.Name, func(templates fs.FS) (engine.System, error) { return stargeneral.New(templates) }},
	{brigadier.Name, func(fs.FS) (engine.System, error) { return brigadier.New() }},
	{frontline.Name, func(fs.FS) (engine.System, error) { return frontline.New() }},
}

// New makes every game system, writing reports with the templates in
// templates (the judge's, or package templates' built-in ones). A family
// whose data or templates do not load is an error now, not at the first
// game.
func New(templates fs.FS) (engine.Systems, error) {
	var out engine.Systems
	for _, f := range families {
		sys, err := f.make(templates)
		if err != nil {
			return nil, fmt.Errorf("game system %s: %w", f.name, err)
		}
		out = append(out, sys)
	}
	return out, nil
}
