// Package data serves the rulesets and scenarios bundled with Fieldpost:
// data/rulesets/NAME.json and data/scenarios/NAME.txt, embedded in the
// program. Each file is parsed the first time it is asked for and kept; the
// values returned are shared, so callers must not change them (a game starts
// from Scenario.NewGame, which copies). Everything here is safe for
// concurrent use.
package data

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"fieldpost/engine/stargeneral/rules"
)

//go:embed rulesets/*.json scenarios/*.txt
var files embed.FS

const (
	rulesetDir  = "rulesets"
	rulesetExt  = ".json"
	scenarioDir = "scenarios"
	scenarioExt = ".txt"
)

var (
	rulesets  = newCache[*rules.Ruleset]()
	scenarios = newCache[*rules.Scenario]()
)

// RulesetNames lists the bundled rulesets, such as "2sg", in name order.
func RulesetNames() []string { return names(rulesetDir, rulesetExt) }

// ScenarioNames lists the bundled scenarios, such as "tutorial", in name order.
func ScenarioNames() []string { return names(scenarioDir, scenarioExt) }

// Ruleset returns the bundled ruleset with the given name. It is an
// rules.RulesetLookup, so a scenario written by hand can be read with
// rules.ParseScenario(text, data.Ruleset).
func Ruleset(name string) (*rules.Ruleset, error) {
	if !known(RulesetNames(), name) {
		return nil, fmt.Errorf("unknown ruleset %q (bundled: %s)", name, strings.Join(RulesetNames(), ", "))
	}
	return rulesets.get(name, func() (*rules.Ruleset, error) {
		text, err := files.ReadFile(path.Join(rulesetDir, name+rulesetExt))
		if err != nil {
			return nil, err
		}
		return rules.ParseRuleset(text)
	})
}

// Scenario returns the bundled scenario with the given name, parsed with the
// bundled rulesets.
func Scenario(name string) (*rules.Scenario, error) {
	if !known(ScenarioNames(), name) {
		return nil, fmt.Errorf("unknown scenario %q (bundled: %s)", name, strings.Join(ScenarioNames(), ", "))
	}
	return scenarios.get(name, func() (*rules.Scenario, error) {
		file := path.Join(scenarioDir, name+scenarioExt)
		text, err := files.ReadFile(file)
		if err != nil {
			return nil, err
		}
		sc, err := rules.ParseScenario(text, Ruleset)
		if err != nil {
			return nil, fmt.Errorf("%s:\n%w", file, err)
		}
		if sc.Name != name {
			return nil, fmt.Errorf("%s: SCENARIO line names %q, want %q (the file's name)", file, sc.Name, name)
		}
		return sc, nil
	})
}

// names lists the files of an embedded folder with the given extension,
// without it.
func names(dir, ext string) []string {
	entries, err := fs.ReadDir(files, dir)
	if err != nil {
		// The folders are embedded at build time: a missing one is a broken build.
		panic(err)
	}
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ext); ok && !e.IsDir() {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func known(list []string, name string) bool {
	i := sort.SearchStrings(list, name)
	return i < len(list) && list[i] == name
}

// cache parses each file once, however many goroutines ask for it at once.
type cache[T any] struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry[T]
}

type cacheEntry[T any] struct {
	once sync.Once
	val  T
	err  error
}

func newCache[T any]() *cache[T] { return &cache[T]{entries: map[string]*cacheEntry[T]{}} }

func (c *cache[T]) get(name string, load func() (T, error)) (T, error) {
	c.mu.Lock()
	e, ok := c.entries[name]
	if !ok {
		e = &cacheEntry[T]{}
		c.entries[name] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.val, e.err = load() })
	return e.val, e.err
}
