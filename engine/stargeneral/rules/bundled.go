package rules

// The rulesets and scenarios bundled with Fieldpost, embedded by package
// engine/stargeneral/data (rulesets/NAME.json, scenarios/NAME.txt). Each
// file is parsed the first time it is asked for and kept; the values
// returned are shared, so callers must not change them (a game starts from
// Scenario.NewGame, which copies). Everything here is safe for concurrent
// use.

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"fieldpost/engine/stargeneral/data"
)

const (
	rulesetDir  = "rulesets"
	rulesetExt  = ".json"
	scenarioDir = "scenarios"
	scenarioExt = ".txt"
)

var (
	rulesets  = newCache[*Ruleset]()
	scenarios = newCache[*Scenario]()
)

// BundledRulesetNames lists the bundled rulesets, such as "2sg", in name order.
func BundledRulesetNames() []string { return names(rulesetDir, rulesetExt) }

// BundledScenarioNames lists the bundled scenarios, such as "tutorial", in name order.
func BundledScenarioNames() []string { return names(scenarioDir, scenarioExt) }

// BundledRuleset returns the bundled ruleset with the given name. It is a
// RulesetLookup, so a scenario written by hand can be read with
// ParseScenario(text, BundledRuleset).
func BundledRuleset(name string) (*Ruleset, error) {
	if !known(BundledRulesetNames(), name) {
		return nil, fmt.Errorf("unknown ruleset %q (bundled: %s)", name, strings.Join(BundledRulesetNames(), ", "))
	}
	return rulesets.get(name, func() (*Ruleset, error) {
		text, err := data.Files.ReadFile(path.Join(rulesetDir, name+rulesetExt))
		if err != nil {
			return nil, err
		}
		return ParseRuleset(text)
	})
}

// BundledScenario returns the bundled scenario with the given name, parsed
// with the bundled rulesets.
func BundledScenario(name string) (*Scenario, error) {
	if !known(BundledScenarioNames(), name) {
		return nil, fmt.Errorf("unknown scenario %q (bundled: %s)", name, strings.Join(BundledScenarioNames(), ", "))
	}
	return scenarios.get(name, func() (*Scenario, error) {
		file := path.Join(scenarioDir, name+scenarioExt)
		text, err := data.Files.ReadFile(file)
		if err != nil {
			return nil, err
		}
		sc, err := ParseScenario(text, BundledRuleset)
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
	entries, err := fs.ReadDir(data.Files, dir)
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
