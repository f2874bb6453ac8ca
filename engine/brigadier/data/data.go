// Package data holds Brigadier General Commands' tunable numbers (bgc.json,
// every value tagged with its source) and its bundled scenarios (*.scn).
package data

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

//go:embed bgc.json *.scn
var files embed.FS

// Ruleset is the bundled ruleset file.
func Ruleset() []byte {
	b, err := files.ReadFile("bgc.json")
	if err != nil {
		panic(err) // embedded at build time
	}
	return b
}

// ScenarioNames lists the bundled scenarios.
func ScenarioNames() []string {
	entries, _ := fs.Glob(files, "*.scn")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e, ".scn"))
	}
	slices.Sort(names)
	return names
}

// Scenario is a bundled scenario's text.
func Scenario(name string) (string, error) {
	b, err := files.ReadFile(name + ".scn")
	if err != nil {
		return "", fmt.Errorf("no Brigadier General Commands scenario %q (bundled: %s)", name, strings.Join(ScenarioNames(), ", "))
	}
	return string(b), nil
}
