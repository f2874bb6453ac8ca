package rules

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"fieldpost/engine/brigadier/data"
)

// The ruleset and scenarios bundled with Fieldpost, embedded by package
// engine/brigadier/data.

// BundledRuleset reads the bundled ruleset, bgc.json.
func BundledRuleset() (*Ruleset, error) {
	text, err := data.Files.ReadFile("bgc.json")
	if err != nil {
		return nil, err
	}
	return LoadRuleset(text)
}

// BundledScenarioNames lists the bundled scenarios, in name order.
func BundledScenarioNames() []string {
	files, err := fs.Glob(data.Files, "*.scn")
	if err != nil {
		panic(err) // the pattern is fixed: a bad one is a broken build
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(f, ".scn"))
	}
	slices.Sort(names)
	return names
}

// BundledScenarioText is a bundled scenario's text, for ParseScenario.
func BundledScenarioText(name string) (string, error) {
	b, err := data.Files.ReadFile(name + ".scn")
	if err != nil {
		return "", fmt.Errorf("no Brigadier General Commands scenario %q (bundled: %s)", name, strings.Join(BundledScenarioNames(), ", "))
	}
	return string(b), nil
}
